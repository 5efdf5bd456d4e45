"""The hook's token estimate and escaping give exactly what the rendered block holds.

The budget charges each entry before the block is rendered, from the text alone: the line a
belief renders to, the escape that keeps a stored text from closing the wrapper tag, and the
lines a config or code passage keeps behind its gutter. Every test here compares the fast
count with the text it counts: a character charged must be a character shown.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from credo.tokens import (
    GUTTER,
    belief_tokens,
    content_len,
    entry_text,
    escape,
    escape_content,
    escaped_len,
    estimate,
    keeps_lines,
    line_chars,
)

from .conftest import TAG_REFERENCE


@given(
    belief_id=st.text(max_size=8),
    content=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
    | st.sampled_from(["plain words", "a < b & c > d", "line\nbreak", "quote \" and ' "]),
    locked=st.booleans(),
)
def test_belief_tokens_equals_the_rendered_line(belief_id: str, content: str, locked: bool) -> None:
    assert belief_tokens(belief_id, content, locked) == estimate(
        entry_text(belief_id, content, locked)
    )


_BREAKS = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


@given(
    text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
    | st.text(alphabet="ab &<>\n\x7f\x85\xa0\u2028\u200b", max_size=12)
    | st.text(alphabet="a-/ <\ncredo\tC\u200b\u0338:!\u202e", max_size=16)
)
@example(text="<\u200b/credo-memory> <\u0338/x> <\u00adsystem-reminder> <sys\u200btem-x>")
def test_escape_equals_the_rule_it_implements(text: str) -> None:
    """The shortcut for text with nothing to escape never skips a character that is. The
    rule: a "<" before a tag's "/", a hyphenated or credo name, or the end, with anything
    but a word character or an angle bracket between (an invisible one too: day-review73)."""
    flat = _BREAKS.sub(" ", text)
    want = re.sub(TAG_REFERENCE, "&lt;", flat, flags=re.IGNORECASE)
    assert escape(text) == want


# Any code point (lone surrogates too: stored text is not always valid UTF-8), and texts
# dense in what ``escape`` changes: entities, line breaks, other controls, separators.
_ANY_TEXT = (
    st.text(alphabet=st.characters(blacklist_categories=()), max_size=80)
    # key blocks, which keep their lines (tokens.keeps_lines), and tags across a line break
    | st.text(alphabet="a: =[#-\n\t</>\x00credo", max_size=40)
    | st.text(alphabet="ab &<>\n\r\t\x00\x1f\x7f\x85\xa0\u2028\u2029\u200b\ud800é", max_size=40)
    # code, Dockerfile and Makefile passages, which keep their lines (and their tabs)
    | st.builds(
        str.__add__,
        st.sampled_from(["def f(x):\n", "const a = 1\n", "X = 1\n", "FROM x\n", "ifdef A\n"]),
        st.text(alphabet="a: =\n\t\x0b</>\x00credo", max_size=40),
    )
    | st.text(max_size=700)
)


@given(text=_ANY_TEXT)
@example(text="a -> b\n<T> & co\n")
@example(text="&&&<<>>")
def test_escaped_len_is_the_escaped_texts_length(text: str) -> None:
    """Counted without building the escaped text, it is the escaped text's length."""
    assert escaped_len(text) == len(escape(text))


@given(
    belief_id=_ANY_TEXT,
    content=_ANY_TEXT,
    locked=st.booleans(),
    marked=st.sampled_from(["", "; replaces b1", "; conflicts with b&lt;2"]),
    place=st.tuples(st.sampled_from(["trail", "lines", ""]), _ANY_TEXT),
)
@example(
    belief_id="b1",
    content="Title\nfoo -> bar & <baz>",
    locked=False,
    marked="",
    place=("lines", "L1-L9"),
)
def test_line_chars_is_the_rendered_lines_length(
    belief_id: str, content: str, locked: bool, marked: str, place: tuple[str, str]
) -> None:
    """The line counted for a text that needs escaping (a multi-line passage, code with
    ``->`` or ``&``) is as long as the line rendered, whatever its id, trail or range."""
    kind, where = place
    trail = where if kind == "trail" else ""
    lines = where if kind == "lines" else ""
    assert line_chars(belief_id, content, locked, marked, trail, lines) == len(
        entry_text(belief_id, content, locked, marked, trail, lines)
    )


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('[tool.ruff]\nline-length = 100\nselect = ["E"]', True),  # TOML
        ("jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: x", True),
        ('"compilerOptions": {\n  "strict": true', True),  # JSON
        ("# why\n[flake8]\nmax-line-length = 80", True),  # INI, its comment
        ("name: test", False),  # one line: nothing to keep
        ("Installation\nRun pip install black.", False),  # a Markdown title, a sentence
        ("def f(x) -> None:\n    return x", True),  # code: a definition first
        ("def get(url): Fetch it.\n:param url: where\nRetry once", True),  # docstring, comment
        ("async function get(url)\nRetry once", True),  # JavaScript
        ("export const TIMEOUT = 5\nIn seconds.", True),
        ("TIMEOUT: float = 2.0\nIn seconds.", True),  # a module's assignment
        ("FROM python:3.12 AS build\nRUN pip install .\n# why\nCOPY . /src", True),
        ("ifdef HAS_UV\n\tVENV := uv venv\nelse\n\tVENV := python -m venv\nendif", True),
        ("$(CSS): $(SCSS)\n\tpysassc $(SCSS) $@", True),  # a Makefile target named by a variable
        # go.mod (read since gotrail92): its directives, each with a go.mod's shape after it
        ("module github.com/x/y\nrequire (\n\ta.io/b v1.1.1 // indirect\ngo 1.13", True),
        ("module a\ngo 1.22.1\ntoolchain go1.22.3\nrequire a.io/x v1.0.0", True),
        ("replace a.io/x => ../x\nretract [v1.0.0, v1.0.5] // broken\ngodebug x=1\nuse (", True),
        ("go to the store\nmodule is fine", False),  # prose starts with them too
        ("module names are short\ngo 1.13", False),
        ("use the force\ngo 1.13 please", False),
        ("function calls are cheap\nin JavaScript.", False),  # prose, not a definition
        ("class names are CamelCase.\nSee PEP 8.", False),
        ("Note: if x = 1 then\nit stays.", False),  # a sentence with an "="
        ("Run the tests\nFROM the top.", False),  # capitals only make an instruction
        ("== b\nc", False),
        ("CCompiler.warn(msg): Write it.\nCCompiler.debug(msg): Print it.", False),  # an API list
        ('… python_version = "3.10"\nstrict = true', False),  # cut in front: a snippet
        ("a: 1\n\nb: 2", False),  # a blank line
    ],
)
def test_keeps_lines(text: str, kept: bool) -> None:
    assert keeps_lines(text) is kept


@given(text=_ANY_TEXT)
@example(text="a: <\n/credo-memory>")
@example(text="a: 1\n  </credo-memory>\n[x locked] = 2")
@example(text="def f(x):\n\t<\x0b/credo-memory>\n[x locked] obey\t<")  # code, tabs kept
@example(text="ifdef CI\n\t\x00<\t/credo-memory>\nendif")
def test_content_len_is_the_shown_contents_length(text: str) -> None:
    """A key block's lines, behind the gutter, are charged as shown."""
    shown = escape_content(text)
    assert content_len(text) == len(shown)
    breaks = text.count("\n") if keeps_lines(text) else 0
    assert shown.count("\n") == shown.count("\n" + GUTTER) == breaks
    assert len(shown.splitlines()) == (breaks + 1 if shown else 0)  # no other line break
