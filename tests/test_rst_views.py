"""docutils' work credo's rst parse cuts (credo.knowledge.chunk.rst_views, rst_nodes'
`no_section_ids`, rst_parse's pooled machines' `runtime_init`) changes no doctree credo
reads and no chunk, and is put back after every parse."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from docutils import nodes, statemachine
from docutils.parsers.rst import states
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import rst_links, rst_nodes, rst_parse, rst_views, split_rst
from tests.test_rst_parse_fast import PAGES, dump

# Sections, lists, definitions, fields, directives, literal blocks, tables, line blocks,
# explicit targets and references, in any order: what moves the machines' line offsets.
BLOCKS = [
    "Title\n=====",
    "Title\n=====",  # (a repeated title: docutils reports it, credo's parse does not)
    "Sub\n---",
    "Bug fixes\n~~~~~~~~~",
    "plain words and ``code``",
    "- a bullet\n- another\n\n  continued",
    "#. one\n#. two",
    "term\n   definition\n\n   more",
    ":field: body\n:other: x",
    "-o FILE  an option",
    ".. note:: a note\n\n   - inside",
    ".. versionchanged:: 2.1\n   text",
    ".. code-block:: python\n\n   x = 1",
    "literal::\n\n   kept",
    "| line one\n| line two",
    "=====  =====\na      b\n=====  =====",
    ".. _title:\n\nsee title_ and `Sub`_",
    ".. _title: https://example.org",
    "`link <https://example.org/x>`_ and bug_\n\n.. _bug: https://example.org/bug",
    "   an indented quote",
    "text\n\n\n\nafter blanks",
]
DOCUMENTS = st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=10).map("\n\n".join)
SLOW = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


def parsed(text: str) -> tuple[list[str], Any, Any]:
    document = rst_parse.parse(text, 60.0)
    return dump(document), document.current_source, document.current_line


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW)
@given(st.one_of(DOCUMENTS, PAGES))
def test_quick_views_and_one_loop_set_up_give_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    fast = parsed(text)
    with monkeypatch.context() as patch:
        patch.setattr(rst_views, "quick_views", contextlib.nullcontext)
        patch.setattr(rst_parse._Pooled, "runtime_init", states.NestedStateMachine.runtime_init)
        patch.setattr(rst_parse, "_POOL", {})  # (machines built here use docutils' set-up)
        assert parsed(text) == fast


def chunks_and_targets(text: str) -> tuple[list[Any], Any]:
    document = rst_parse.parse(text, 60.0)
    return split_rst(text), rst_links.targets(document)


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW)
@given(st.one_of(DOCUMENTS, PAGES))
def test_sections_without_ids_give_the_same_chunks_and_targets(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Repeated titles, explicit targets named as a title (before and after it), twice
    over, and references to them: the chunks and hyperlink targets credo reads are those
    of a parse that gives every section its id."""
    fast = chunks_and_targets(text)
    with monkeypatch.context() as patch:
        patch.setattr(rst_nodes, "no_section_ids", contextlib.nullcontext)
        assert chunks_and_targets(text) == fast


@pytest.mark.skipif(
    not rst_nodes.SECTIONS_ONLY_IMPLICIT, reason="docutils 0.22+: sections keep their ids"
)
def test_sections_get_no_ids_or_duplicate_messages() -> None:
    """(Fails before: docutils gave each section an id and a message per repeated title.)"""
    rows = dump(rst_parse.parse("Fixes\n=====\n\na\n\nFixes\n=====\n\nb\n", 60.0))
    sections = [row for row in rows if " section " in row]
    assert len(sections) == 2
    assert all("('ids', [])" in row for row in sections)
    assert not any(" system_message " in row for row in rows)


def test_a_slice_is_copied_once_and_lines_are_read_without_view_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Fails before: each slice ran `ViewList.__init__`, each line `notify_observers`.)"""
    text = "Title\n=====\n\n- a\n- b\n\nSub\n---\n\nterm\n   def\n"

    def counts() -> dict[str, int]:
        calls = {"init": 0, "notify": 0}
        init = statemachine.ViewList.__init__
        notify = statemachine.StateMachine.notify_observers

        def counted_init(self: Any, *args: Any, **kwargs: Any) -> None:
            calls["init"] += 1
            init(self, *args, **kwargs)

        def counted_notify(self: Any) -> None:
            calls["notify"] += 1
            notify(self)

        with monkeypatch.context() as patch:
            patch.setattr(statemachine.ViewList, "__init__", counted_init)
            patch.setattr(statemachine.StateMachine, "notify_observers", counted_notify)
            rst_parse.parse(text, 60.0)
        return calls

    fast = counts()
    with monkeypatch.context() as patch:
        patch.setattr(rst_views, "quick_views", contextlib.nullcontext)
        own = counts()
    assert fast["init"] == 1 < own["init"]  # (the page's own list, built by docutils)
    assert fast["notify"] < own["notify"] // 2  # (what is left: going back a line)


@pytest.mark.skipif(not rst_parse._ONE_LOOP_SET_UP, reason="docutils 0.23+: its own set-up")
def test_a_pooled_machine_sets_its_states_up_without_their_runtime_init(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Fails before: every state of every machine ran `RSTState.runtime_init`, which
    runs `State.runtime_init`.)"""
    text = "Title\n=====\n\n- a\n\nSub\n---\n\n- b\n"
    rst_parse.parse(text, 60.0)  # (fills the pool)
    called: list[Any] = []
    monkeypatch.setattr(statemachine.State, "runtime_init", lambda self: called.append(self))
    rst_parse.parse(text, 60.0)
    assert len(called) == len(states.state_classes)  # the page machine's own states only


def originals() -> tuple[Any, ...]:
    view, machine = statemachine.ViewList, statemachine.StateMachine
    return (
        view.__dict__["__getitem__"],
        view.__dict__.get("__iter__"),
        machine.__dict__["next_line"],
        machine.__dict__["goto_line"],
        nodes.document.__dict__["note_implicit_target"],
    )


def test_docutils_is_put_back_after_a_parse_and_after_one_that_fails() -> None:
    before = originals()
    assert before[1] is None  # (docutils' ViewList iterates through __getitem__)
    rst_parse.parse("Title\n=====\n\n- a\n", 60.0)
    assert originals() == before
    with pytest.raises(rst_parse.ParseTimeout):
        rst_parse.parse("Title\n=====\n\n- *a*\n\n  b\n", -1.0)
    assert originals() == before


def test_views_read_as_docutils_reads_them() -> None:
    """Slices, iteration, a line past the end and observers, inside the context."""
    lines = statemachine.StringList(["a", "b", "c", "d"], source="s")
    with rst_views.quick_views():
        view = lines[1:3]
        assert (view.data, view.items, view.parent, view.parent_offset) == (
            ["b", "c"],
            [("s", 1), ("s", 2)],
            lines,
            1,
        )
        assert list(view) == ["b", "c"] and "\n".join(lines) == "a\nb\nc\nd"
        assert lines[-1] == "d" and lines[2:][0] == "c" and len(lines[5:]) == 0
        heard: list[tuple[Any, Any]] = []
        machine = statemachine.StateMachine([], "x")
        machine.input_lines, machine.input_offset, machine.line_offset = view, 0, -1
        machine.observers = [lambda source, offset: heard.append((source, offset))]
        assert machine.next_line() == "b" and machine.next_line() == "c"
        with pytest.raises(EOFError):
            machine.next_line()
        assert machine.line is None and machine.line_offset == 2
        with pytest.raises(EOFError):
            machine.next_line(2)
        assert machine.goto_line(1) == "c"
    assert heard == [("s", 1), ("s", 2), ("s", None), (None, None), ("s", 2)]
