"""The rst parse's shortcuts (credo.knowledge.chunk.rst_parse) give docutils' own doctree;
a split leaves no doctree for the collector."""

from __future__ import annotations

import contextlib
import gc
import re
import weakref
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import (
    rst,
    rst_inline,
    rst_inline_simple,
    rst_parse,
    rst_plain,
    rst_roles,
    split_rst,
)
from credo.knowledge.ingest import split as ingest_split


def dump(node: Any, depth: int = 0) -> list[str]:
    """Every node's tag, attributes, line, source and raw text, in document order."""
    if node.tagname == "#text":
        return [f"{depth} {str(node)!r}"]
    head = f"{depth} {node.tagname} {sorted(node.attributes.items())!r} {node.line} "
    rows = [head + f"{node.source} {node.rawsource!r}"]
    for child in node.children:
        rows.extend(dump(child, depth + 1))
    return rows


def docutils_own(monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "_one_line_cells", contextlib.nullcontext)
        patch.setattr(rst_parse, "_ascii_fast_paths", contextlib.nullcontext)
        return dump(rst_parse.parse(text, 60.0))


# One-line cell contents: plain text, inline markup, and lines docutils reads as other
# blocks (lists, fields, options, doctests, directives, adornments, literal markers).
CELLS = [
    "plain words",
    ":pypi:`pytest-abq`",
    "*emphasis* and ``code``",
    "see `link <https://example.org>`_",
    "- a bullet",
    "1. enumerated",
    "#. auto",
    ":field: body",
    "-o FILE",
    ">>> 1 + 1",
    "| line",
    ".. note:: x",
    "__ https://example.org",
    "-----",
    "ends with::",
    "ends with ::",
    "wide 中文 text",
    "accent ȃ̆ x",
    "emoji 🪵",
    "a\\ b",
    "`unclosed",
    "[1]_ note",
    "|sub|",
    "x",
]


@st.composite
def simple_tables(draw: st.DrawFn) -> str:
    columns = draw(st.integers(1, 3))
    rows = draw(
        st.lists(st.lists(st.sampled_from(CELLS), min_size=columns, max_size=columns), max_size=5)
    )
    width = max([len(cell) for row in rows for cell in row] + [8]) + 2
    border = "  ".join(["=" * width] * columns)
    header = "  ".join(f"h{i}".ljust(width) for i in range(columns))
    body = ["  ".join(cell.ljust(width) for cell in row).rstrip() for row in rows]
    return "\n".join(["Title", "=====", "", border, header, border, *body, border, ""])


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(simple_tables())
def test_table_shortcuts_give_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    assert dump(rst_parse.parse(text, 60.0)) == docutils_own(monkeypatch, text)


# Lines of a nested block: plain text, inline markup, and lines that end a paragraph or
# make another block (titles' underlines, indentation, literal markers, list markers...).
BLOCK_LINES = [*CELLS, "", "", "  indented", "=====", "~~~", "a", "ends: ::", "\u3000", "\\::"]
CONTAINERS = [
    ("- ", "  "),  # a bullet item
    ("#. ", "   "),  # an enumerated item
    ("term\n   ", "   "),  # a definition
    (":field: ", "   "),  # a field body
    (".. note:: ", "   "),  # a directive body
    (".. note::\n\n   ", "   "),  # a directive body after a blank line
    ("-o FILE  ", "         "),  # an option's description
]


@st.composite
def nested_blocks(draw: st.DrawFn) -> str:
    opener, indent = draw(st.sampled_from(CONTAINERS))
    lines = draw(st.lists(st.sampled_from(BLOCK_LINES), min_size=1, max_size=7))
    body = "\n".join(indent + line if line else "" for line in lines[1:])
    item = opener + lines[0] + ("\n" + body if body else "")
    after = draw(st.sampled_from(["", "\n\nAfter the block.\n", "\n- next item\n"]))
    return "Title\n=====\n\n" + item + "\n" + after


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(nested_blocks())
def test_nested_paragraph_shortcut_gives_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    document = rst_parse.parse(text, 60.0)
    fast = (dump(document), document.current_source, document.current_line)
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "_one_line_cells", contextlib.nullcontext)
        own = rst_parse.parse(text, 60.0)
    assert fast == (dump(own), own.current_source, own.current_line)


def test_nested_paragraphs_take_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut is taken for field bodies of several paragraphs (it must be, to matter)."""
    taken: list[Any] = []
    plain = rst_plain.plain_paragraphs

    def spy(block: Any) -> Any:
        found = plain(block)
        taken.append(found)
        return found

    monkeypatch.setattr(rst_plain, "plain_paragraphs", spy)
    # (fields: a bullet list of plain items is built whole, `rst_plain.quick_bullets`)
    text = ":a: one\n   line two\n\n   second *para*\n:b: x ::\n\n      code\n"
    rst_parse.parse(text, 60.0)
    assert taken == [[(0, 1), (3, 3)], None]


def test_grid_tables_and_multi_line_cells_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "+------------+---------------+\n"
        "| a 中文     | - item        |\n"
        "|            | - item two    |\n"
        "+------------+---------------+\n"
        "| plain      | ends::        |\n"
        "|            |               |\n"
        "|            |    code       |\n"
        "+------------+---------------+\n"
        "\n"
        "=====  =====\n"
        "a      b\n"
        "       continued\n"
        "=====  =====\n"
    )
    assert dump(rst_parse.parse(text, 60.0)) == docutils_own(monkeypatch, text)


def test_a_split_leaves_no_doctree_to_collect(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    parse = rst_parse.parse

    def keep(text: str, budget: float) -> Any:
        document = parse(text, budget)
        seen.append(weakref.ref(document.children[0].children[1]))  # the first paragraph
        return document

    monkeypatch.setattr(rst_parse, "parse", keep)
    collecting = gc.isenabled()
    gc.disable()
    try:
        text = "Title\n=====\n\nSome *text* and a `link <https://x.org>`_.\n\nMore.\n\n- Last.\n"
        chunks = split_rst(text)
        # Freed by reference counting, with no collection (the parser's states, a cycle
        # left to the collector, may hold the last nodes they worked on, not the tree).
        assert seen and seen[0]() is None
    finally:
        if collecting:
            gc.enable()
    assert [chunk.text for chunk in chunks] == ["Title", "Some text and a link.", "More.", "Last."]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_for_a_split_and_left_as_found(enabled: bool) -> None:
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with ingest_split.collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(ValueError), ingest_split.collector_paused():
            raise ValueError
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


# Inline pieces: plain words, each character the inliner's shortcuts test for, standalone
# URIs and e-mail addresses (with and without markup around them), escapes.
INLINE = [
    "plain",
    " ",
    "Note:",
    "a:b",
    "http://example.org/x",
    "<https://example.org>",
    "mailto:me@example.org",
    "me@example.org",
    "@",
    ":",
    "*em*",
    "``code``",
    "`ref`_",
    "name_",
    "|sub|",
    "[1]_",
    "\\:",
    "\\ ",
    "(see https://x.org.)",
    "ftp:",
    ":role:`x`",
    "é@ü.de",
    "snake_case",
    "name.with-dots+plus:colon_",
    "ünï_",
    ":a.b:`c`",
    "`x`__",
    "_`target`",
    "**strong**",
    "[#a]_",
    "[*]_",
    "x*y",
    "(`a`)",
    "é:`b`",
    "a|b",
    "-",
    ".",
    "+",
]


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(INLINE), min_size=1, max_size=10))
def test_inline_shortcuts_give_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, pieces: list[str]
) -> None:
    """Paragraphs, a title and a list item: the inliner's shortcuts (no initial pattern
    search without its characters, or before the name that leads to the first of them; no
    URI search without ``:`` or ``@``) change nothing."""
    line = "".join(pieces).strip() or "x"
    text = f"{line}\n{'=' * max(len(line), 4)}\n\n{line}\n\n- {line}\n\n  {line}\n"
    fast = dump(rst_parse.parse(text, 60.0))
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse.rst_inline, "inliner", lambda deadline: rst_parse.states.Inliner())
        patch.setattr(rst_parse, "_INLINERS", [])  # (not the kept one)
        assert fast == dump(rst_parse.parse(text, 60.0))


def fresh(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[list[str], Any, Any]:
    """`text`'s doctree from a new page machine, new nested machines and a new inliner."""
    with monkeypatch.context() as patch:
        for name in ("_TOP", "_INLINERS", "_NESTED", "_POOL"):
            patch.setattr(rst_parse, name, [] if name != "_POOL" else {})
        document = rst_parse.parse(text, 60.0)
        return dump(document), document.current_source, document.current_line


PAGES = st.one_of(
    simple_tables(),
    nested_blocks(),
    st.lists(st.sampled_from(INLINE), min_size=1, max_size=6).map(
        lambda pieces: "".join(pieces).strip() or "x"
    ),
    st.sampled_from(
        [
            "Title\n=====\n\nSub\n---\n\ntext\n\nOther\n=====\n",
            "---\nTop\n---\n\nA\n~~\n\n.. note:: x\n\n   - a\n   - b\n",
            ".. _target:\n\nSee target_ and [1]_.\n\n.. [1] note\n",
            "Title\n=====\n\n.. |sub| replace:: x\n\n|sub| :role:`y`\n",
            ":field: one\n:other: two\n\nterm\n   definition\n",
            "",
        ]
    ),
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(PAGES, min_size=1, max_size=5), st.integers(-1, 4))
def test_kept_machines_and_inliner_give_each_page_a_fresh_parse(
    monkeypatch: pytest.MonkeyPatch, pages: list[str], timeout_at: int
) -> None:
    """Pages parsed one after another (machines and inliner kept from page to page, one
    parse running out of time in between) have the doctrees of pages parsed alone."""
    kept: list[tuple[list[str], Any, Any]] = []
    for index, text in enumerate(pages):
        if index == timeout_at:
            with pytest.raises(rst_parse.ParseTimeout):
                rst_parse.parse("Title\n=====\n\n- *a*\n\n  b\n", -1.0)
        document = rst_parse.parse(text, 60.0)
        kept.append((dump(document), document.current_source, document.current_line))
    assert kept == [fresh(monkeypatch, text) for text in pages]


def test_docutils_loads_without_pygments_and_still_highlights_for_others() -> None:
    """A split never imports Pygments; another docutils user in the process still gets
    its lexers (credo.knowledge.chunk.rst_import)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from credo.knowledge.chunk import split_rst\n"
        "assert [c.text for c in split_rst('Title\\n=====\\n\\nSome *text*.\\n')] == "
        "['Title', 'Some text.']\n"
        "assert 'pygments' not in sys.modules\n"
        "from docutils.utils.code_analyzer import Lexer\n"
        "print(list(Lexer('x = 1', 'python', 'short'))[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(['n'], 'x')"


def test_a_quoted_literal_block_reads_the_same_after_another() -> None:
    """A quoted literal block's machine is not reused: one with ``>`` read after one with
    ``|`` is still a literal block, and a block's error is not repeated by the next parse."""
    rst_parse.parse("Title\n=====\n\nx::\n\n| one\n| two\n", 60.0)
    after = dump(rst_parse.parse("Title\n=====\n\ny::\n\n> one\n> two\n", 60.0))
    assert any(" literal_block " in row for row in after)
    assert not any(" system_message " in row for row in after)
    broken = "Title\n=====\n\n- ends with::\n\n  | line\n  plain words\n"
    assert dump(rst_parse.parse(broken, 60.0)) == dump(rst_parse.parse(broken, 60.0))


# Paragraph endings around docutils' literal-block marker ("::", escaped or not), and
# titles of ASCII, wide and combining characters against adornments of every length.
ENDINGS = ["", "::", " ::", "\\::", "\\\\::", ":", "a::", "::\\", " :: x", "\n::", ":::"]
TITLE_WORDS = ["Title", "中文", "ȃ̆", "x", "long title words", "é"]


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(st.sampled_from(TITLE_WORDS), min_size=1, max_size=3),
    st.integers(1, 20),
    st.booleans(),
    st.lists(st.tuples(st.sampled_from(INLINE), st.sampled_from(ENDINGS)), max_size=4),
)
def test_title_widths_and_literal_markers_read_as_docutils_reads_them(
    monkeypatch: pytest.MonkeyPatch,
    words: list[str],
    width: int,
    overline: bool,
    paragraphs: list[tuple[str, str]],
) -> None:
    """`column_width` of an ASCII title by its length, and the paragraph's search for a
    trailing "::" told by `str.endswith` first: the doctree docutils' own functions give."""
    title = " ".join(words)
    rule = "=" * width
    head = f"{rule}\n{title}\n{rule}\n" if overline else f"{title}\n{rule}\n"
    body = "\n\n".join((text + ending).strip() or "x" for text, ending in paragraphs)
    text = f"{head}\n{body}\n\n    indented literal\n"
    fast = dump(rst_parse.parse(text, 60.0))
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "_ascii_fast_paths", contextlib.nullcontext)
        patch.setattr(rst_parse, "_quick_literal_next", contextlib.nullcontext)
        assert fast == dump(rst_parse.parse(text, 60.0))


def test_the_literal_marker_search_is_re_search_for_any_text() -> None:
    """`_QuickSearch.search` answers as `re.search` for docutils' pattern and others."""
    quick = rst_parse._QuickSearch()
    for text in ["a::", "a::\n", "a\\::", "a\\\\::", "a: :", "::x", "", "x\n::\n", "a::\n\n"]:
        for pattern in [rst_parse._LITERAL_NEXT, "a", "::$"]:
            expected = re.search(pattern, text)
            found = quick.search(pattern, text)
            assert (found and found.span()) == (expected and expected.span())
    assert quick.match is re.match


@settings(max_examples=500)
@given(
    st.text(alphabet="ab \t\v\f\n\r\x1c\u2028\u3000", max_size=40),
    st.integers(1, 9),
    st.booleans(),
)
def test_a_page_splits_into_the_lines_docutils_splits_it_into(
    text: str, tab_width: int, convert: bool
) -> None:
    own = rst_parse.statemachine.string2lines
    assert rst_parse.quick_string2lines(text, tab_width, convert) == own(text, tab_width, convert)


@settings(max_examples=500)
@given(st.text(alphabet="a <>\n\x00~.", max_size=16))
def test_a_role_title_is_told_as_the_explicit_title_pattern_tells_it(text: str) -> None:
    """`rst_roles._explicit_title` (the end checked first) matches where the pattern does."""
    found = rst_roles._explicit_title(text)
    expected = rst_roles._EXPLICIT_TITLE.match(text)
    assert (found and found.groups()) == (expected and expected.groups())


# The patterns `rst_inline_simple` and `rst_inline` read with before `str.find` and `in`.
OLD_BETWEEN = re.compile(r"[^`_]*(?:(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])[^`_]*)*\Z")
OLD_UNSURE = re.compile("[*|\\[\\\\\x00]")
OLD_INITIAL = re.compile(r"[*`_|\[\\]")


@settings(max_examples=800)
@given(st.text(alphabet="a9_` é*|[\\\x00", max_size=14), st.integers(0, 14), st.integers(0, 14))
@example("a_b", 0, 2)  # the "_" before the segment's end: its next character is outside
@example("a_b", 1, 3)  # the character before the segment counts
def test_text_between_constructs_is_told_as_the_pattern_told_it(
    text: str, first: int, last: int
) -> None:
    start = min(first, len(text))
    end = max(start, min(last, len(text)))
    expected = OLD_BETWEEN.match(text, start, end) is not None
    assert rst_inline_simple._between(text, start, end) is expected
    unsure = any(map(text.__contains__, rst_inline_simple._UNSURE))
    assert unsure is (OLD_UNSURE.search(text) is not None)
    initial = any(map(text.__contains__, rst_inline._INITIAL))
    assert initial is (OLD_INITIAL.search(text) is not None)


def test_foreign_characters_are_told_as_the_character_class_told_them() -> None:
    """`split_rst` tells text holding a foreign character by `in`, as its class did."""
    old = re.compile("[\x00\x01\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
    for code in range(0x3000):
        text = "ab" + chr(code)
        assert any(map(text.__contains__, rst._FOREIGN_CHARS)) is (old.search(text) is not None)
