"""A line of plain paragraph text goes straight to docutils' "text" transition
(credo.knowledge.chunk.rst_transitions), and the doctree stays docutils' own."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from docutils import statemachine
from docutils.parsers.rst import states
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import rst_parse, rst_transitions
from credo.knowledge.chunk.rst_transitions import only_text, text_lines_first
from tests.test_rst_parse_fast import dump, nested_blocks, simple_tables

# Every pattern docutils' Body state tries before "text", the whitespace ones included.
BODY_PATTERNS = {
    **{
        name: re.compile(states.Body.patterns[name])
        for name in states.Body.initial_transitions
        if name != "text"
    },
    "blank": re.compile(" *$"),
    "indent": re.compile(" +"),
}

# How a line may start: letters, digits, enumerators, bullets, markup, tables, adornments,
# whitespace and non-ASCII letters and marks.
HEADS = [
    "a",
    "Z",
    "x",
    "7",
    "12",
    "iv",
    "IV",
    "mcm",
    "#",
    "(",
    "a.",
    "b)",
    "(c)",
    "3.",
    "10)",
    "iii.",
    "#.",
    "-",
    "+",
    "*",
    "/",
    "--",
    "•",
    "‣",
    "⁃",
    "..",
    "__",
    ":",
    ">>>",
    "|",
    "+--+",
    "===",
    "~~~",
    " ",
    "  ",
    "\t",
    "é",
    "Ж",
    "中",
    "\u3000",
    "\u0301",
    "🪵",
    "\x00",
    "",
]
TAILS = ["", " ", "  ", " word", ". More", ") x", "-opt", ":", ": body", "::", "=", "\\"]
lines = st.builds(
    lambda h, t, rest: h + t + rest,
    st.sampled_from(HEADS),
    st.sampled_from(TAILS),
    st.text(max_size=6),
)


@settings(max_examples=2000, deadline=None)
@given(st.one_of(lines, st.text(max_size=12)))
def test_only_text_lines_match_no_other_body_pattern(line: str) -> None:
    if only_text(line):
        assert [name for name, p in BODY_PATTERNS.items() if p.match(line)] == []


def test_the_body_states_are_body_and_its_specialised_lists() -> None:
    names = {cls.__name__ for cls in rst_transitions._BODY_STATES}
    assert {"Body", "BulletList", "DefinitionList", "Explicit", "FieldList"} <= names
    assert not names & {"Text", "Line", "Definition", "SubstitutionDef", "RFC2822Body"}


def test_a_body_state_tries_blank_and_indent_then_body_order() -> None:
    """What `only_text` assumes of each state it shortcuts: docutils' own order of tries."""
    machine = states.RSTStateMachine(state_classes=states.state_classes, initial_state="Body")
    for cls in rst_transitions._BODY_STATES:
        order = machine.get_state(cls.__name__).transition_order
        assert order == ["blank", "indent", *states.Body.initial_transitions]
        assert order[-1] == "text"
    machine.unlink()


def own(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[list[str], Any, Any]:
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "text_lines_first", contextlib.nullcontext)
        document = rst_parse.parse(text, 60.0)
    return dump(document), document.current_source, document.current_line


def shortcut(text: str) -> tuple[list[str], Any, Any]:
    document = rst_parse.parse(text, 60.0)
    return dump(document), document.current_source, document.current_line


@st.composite
def pages(draw: st.DrawFn) -> str:
    """Sections, lists, definitions, fields and directives whose lines start every way."""
    body = draw(
        st.lists(st.one_of(lines, st.sampled_from(["", "", "Title", "====="])), max_size=12)
    )
    indent = draw(st.sampled_from(["", "", "   "]))
    opener = draw(st.sampled_from(["", "- item\n\n", "term\n", ".. note::\n\n", ":field: x\n\n"]))
    return "Page\n====\n\n" + opener + "\n".join(indent + line for line in body) + "\n"


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(pages(), nested_blocks(), simple_tables()))
def test_text_lines_first_gives_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    assert shortcut(text) == own(monkeypatch, text)


def test_plain_paragraphs_take_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paragraph text in a section, a list and a directive skips the twelve tries (it must,
    to matter); a bullet, a blank line and a field take docutils' loop."""
    tried: list[str] = []
    check_line = statemachine.StateMachine.check_line

    def counted(self: Any, context: Any, state: Any, transitions: Any = None) -> Any:
        tried.append(self.line)
        return check_line(self, context, state, transitions)

    monkeypatch.setattr(statemachine.StateMachine, "check_line", counted)
    text = "Page\n====\n\nPlain words here.\n\n- item\n\n.. note:: x\n\n   Noted text.\n\n:f: v\n"
    rst_parse.parse(text, 60.0)
    assert "Plain words here." not in tried and "Noted text." not in tried
    assert {"- item", "", ":f: v"} <= set(tried)
    with text_lines_first():  # and it puts docutils' method back
        assert statemachine.StateMachine.check_line is not counted
    assert statemachine.StateMachine.check_line is counted
