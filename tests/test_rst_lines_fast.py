"""The rst path's faster searches (knowledge/chunk/rst_lines.py, rst_guard.py) and docutils'
node links (rst_nodes.py) give the answers of the plain versions they replace."""

from __future__ import annotations

import contextlib
import re
from bisect import bisect_left, bisect_right
from typing import Any

import pytest
from docutils import nodes
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import rst_guard, rst_lines, rst_nodes, rst_parse
from credo.knowledge.chunk.rst_lines import SourceIndex


def scan_every_line(index: SourceIndex, raw: list[str], lo: int, after: int) -> int | None:
    """`SourceIndex._by_raw` without a hint, as it was written before it passed over lines
    in C: every start line matched in turn."""
    count = len(index.lines)
    for first, last in ((after, count), (lo, after - 1)):
        weak: int | None = None
        for start in range(max(first, 1), min(last, first + rst_lines._MAX_SCAN) + 1):
            grade = index._match(raw, start)
            if grade == rst_lines._STRONG:
                return start
            if grade and weak is None:
                weak = start
            if weak is not None and start - weak > rst_lines._WEAK_REACH:
                break
        if weak is not None:
            return weak
    return None


# Few distinct line texts, so that raw text matches strongly, weakly and not at all.
LINE = st.sampled_from(["", "a b", "x a b", "a b c", "  a b", "b", "| a b |", "c", "a"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(LINE, max_size=160) | st.lists(LINE, max_size=8),
    raw=st.lists(st.sampled_from(["a b", "b", "a", "c", "", "a b c"]), min_size=1, max_size=3),
    lo=st.integers(0, 170),
    after=st.integers(0, 170),
    reach=st.sampled_from([0, 1, 3, 64]),
    scan=st.sampled_from([5, 40, 4000]),
)
# A weak match, a line that cannot match, then a strong match past the weak one's reach.
@example(lines=["a b", "b", "a"], raw=["a"], lo=1, after=1, reach=0, scan=4000)
def test_the_raw_text_scan_finds_what_a_scan_of_every_line_finds(
    lines: list[str], raw: list[str], lo: int, after: int, reach: int, scan: int
) -> None:
    index = SourceIndex(lines)
    lo, after = min(lo, after), max(lo, after)
    after = min(after, len(lines) + 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rst_lines, "_WEAK_REACH", reach)  # short reaches, as long ones meet
        patch.setattr(rst_lines, "_MAX_SCAN", scan)
        assert index._by_raw(raw, None, lo, after) == scan_every_line(index, raw, lo, after)


# ASCII and other letters, digits, marks, separators docutils keeps inside a line
# (U+2028 is a line break to `str.splitlines`, not to the fold), punctuation and "_".
WORDY = st.text(alphabet=st.sampled_from("aZ9 _-.\téßİ́ 　²中 "))


@settings(max_examples=300)
@given(st.lists(WORDY, min_size=1, max_size=40))  # (no lines: one empty line, as before)
def test_every_line_words_are_each_line_words(lines: list[str]) -> None:
    """All lines folded at once, ASCII ones together and the others alone, are `words` of
    each line (mixed files were folded a line at a time before)."""
    assert SourceIndex(lines)._every_line_words() == [
        rst_lines.words(line) for line in SourceIndex(lines).lines
    ]


@given(st.lists(st.text(alphabet=st.sampled_from("ab c\té"), max_size=8), max_size=30))
def test_the_word_index_is_every_word_with_its_line(lines: list[str]) -> None:
    index = SourceIndex(lines)
    token_lines = index._index()
    tokens = [(w, n) for n in range(1, len(lines) + 1) for w in index.line_words(n)]
    assert token_lines == [n for _, n in tokens]
    positions: dict[str, list[int]] = {}
    for position, (word, _) in enumerate(tokens):
        positions.setdefault(word, []).append(position)
    assert index._positions == positions
    before = [bisect_left([n for _, n in tokens], n) for n in range(1, len(lines) + 2)]
    assert index._first_token == before


def test_a_node_outside_the_tree_has_no_document_and_one_inside_finds_it() -> None:
    document = rst_parse.parse("Title\n=====\n\ntext\n", 60.0)
    loose = nodes.paragraph("", "", nodes.emphasis("", "", nodes.Text("x")))
    with rst_nodes.quick_links():
        assert loose.children[0].document is None
        assert loose.children[0].children[0].document is None
        document.children[0] += loose
        assert loose.document is document
        inner = nodes.strong()
        loose.children[0] += inner
        assert inner.document is document
        assert inner.line == document.current_line


def test_docutils_node_links_are_put_back() -> None:
    saved = nodes.Node.__dict__["document"], nodes.Node.setup_child
    rst_parse.parse("- *a*\n- b\n", 60.0)
    assert (nodes.Node.__dict__["document"], nodes.Node.setup_child) == saved
    with pytest.raises(ValueError), rst_nodes.quick_links():
        raise ValueError
    assert (nodes.Node.__dict__["document"], nodes.Node.setup_child) == saved


def dump(node: Any, depth: int = 0) -> list[str]:
    """Every node's tag, attributes, line, source, raw text and document, in order."""
    if node.tagname == "#text":
        return [f"{depth} {str(node)!r} {node.document is not None}"]
    head = f"{depth} {node.tagname} {sorted(node.attributes.items())!r} {node.line} "
    rows = [head + f"{node.source} {node.rawsource!r} {node.document is not None}"]
    for child in node.children:
        rows.extend(dump(child, depth + 1))
    return rows


BLOCKS = [
    "Title\n=====\n",
    "Sub\n---\n",
    "plain *emphasis* and ``code`` with :func:`x.y` and `a link <https://x.org>`_",
    "- a bullet\n\n  a second paragraph [1]_\n- :field: body",
    ".. note:: a note\n\n   text |sub|",
    ".. versionchanged:: 2.1\n   words",
    "term\n   its definition, see https://x.org",
    "=====  =====\na      b\n=====  =====",
    ".. _target:\n\n`target`_ and target_ and `anon`__\n\n__ https://a.org",
    "| a line\n| another",
    "::\n\n   code",
    ".. [1] a footnote",
    ".. |sub| replace:: words",
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=8))
def test_quick_node_links_give_docutils_own_doctree(blocks: list[str]) -> None:
    text = "\n\n".join(blocks) + "\n"
    quick = rst_parse.parse(text, 60.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rst_nodes, "quick_links", contextlib.nullcontext)
        own = rst_parse.parse(text, 60.0)
    assert dump(quick) == dump(own)
    assert (quick.current_source, quick.current_line) == (own.current_source, own.current_line)


def table_cells_every_line(lines: list[str]) -> int:
    """`rst_guard._table_cells` as it was written before it read only the lines holding
    a border's characters."""
    total = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if "+" in line and rst_guard._GRID_BORDER.match(line):
            total += line.count("+") - 1
        elif (
            "=" in line
            and rst_guard._SIMPLE_BORDER.match(line)
            and (index < 2 or not lines[index - 2].strip())
        ):
            layout = [match.span() for match in rst_guard._RUN.finditer(line)]
            start = index
            while index < len(lines) and not rst_guard._closes(lines, index, layout):
                index += 1
            total += len(layout) * (index - start + 1)
            index += 1
    return total


TABLE_LINES = st.sampled_from(
    [
        "",
        "text",
        "+---+---+",
        "+===+",
        "| a | b |",
        "===  ===",
        "==  ====",
        "=====",
        "a = b",
        "  ===  ===  ",
        "x + y",
        "+-+",
        "===  ===  ===",
    ]
)


@settings(max_examples=400)
@given(st.lists(TABLE_LINES, max_size=40))
def test_table_cells_are_counted_as_a_read_of_every_line_counts_them(lines: list[str]) -> None:
    assert rst_guard._table_cells(lines) == table_cells_every_line(lines)


@given(st.lists(st.sampled_from(["a", "\t" * 1300, "x" * 1251, "b\tc" * 700, ""]), max_size=5))
def test_a_line_too_long_is_told_as_before(lines: list[str]) -> None:
    limit = rst_guard.MAX_LINE_CHARS
    expected = any(len(line) > limit // 8 and len(line.expandtabs(8)) > limit for line in lines)
    assert rst_guard._too_long(lines) is expected


# `rst_guard`'s candidate lines as a line-anchored pattern found them before `str.find` did.
OLD_MAYBE_BORDER = re.compile(r"^.*[+=]", re.MULTILINE)


@settings(max_examples=400)
@given(st.lists(st.text(alphabet="ab +=\t\u00e9|", max_size=12), max_size=30))
def test_border_candidates_are_the_lines_the_anchored_pattern_found(lines: list[str]) -> None:
    text = "\n".join(lines)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    expected = [
        bisect_right(offsets, found.start()) - 1 for found in OLD_MAYBE_BORDER.finditer(text)
    ]
    assert rst_guard.border_candidates(lines) == expected
