"""A changelog's fast paths (credo.knowledge.chunk.rst_plain.quick_bullets, the plain
paragraphs of `one_line_cells`, credo.knowledge.chunk.rst_inline_simple) give docutils'
own doctree, hence the same chunks, and are taken where a changelog needs them."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import rst_inline_simple, rst_parse, rst_plain, split_rst
from tests.test_rst_parse_fast import INLINE, dump

SLOW = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# A changelog bullet's words: roles, literals, references, links, emphasis, and the
# characters at their edges that decide whether docutils reads them as markup.
PIECES = [
    "Fixed",
    "the",
    " ",
    " ",
    "\n",
    "(:gh:`1234`)",
    ":class:`~scrapy.http.Request`",
    ":ref:`Label <target-name>`",
    ":setting:`DOWNLOAD_DELAY`",
    ":py:func:`a.b`",
    "``name``",
    "``a b``",
    "``x``.",
    "``x``:",
    "``x``s",
    ":r:`x`_",
    ":r:`x`:s:",
    ":r:`x`,",
    ":r:` x`",
    "x:r:`y`",
    "(``)``",
    "(``x``)",
    "'``x``'",
    "``x``\u2019",
    "`x`",
    "aiohttp_",
    "snake_case",
    "__init__",
    "_private",
    "`link <https://example.org>`_",
    "*em*",
    "**strong**",
    "|sub|",
    "[1]_",
    "\\`",
    "https://example.org/x",
    "a@b.org",
    "``",
    "`",
    ":",
    "_",
    "é",
    "\u3000",
    *INLINE,
]
BULLETS = ["-   ", "- ", "* ", "+ ", "-  ", "\u2022 "]


@st.composite
def inline_text(draw: st.DrawFn) -> str:
    text = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8)))
    return " ".join(line.strip() for line in text.split("\n")).strip() or "x"


@st.composite
def bullet_item(draw: st.DrawFn, bullet: str) -> list[str]:
    """One item: paragraphs at the text's indent, sometimes a line indented otherwise, a
    nested list, a literal marker, or no blank line before the next."""
    indent = " " * len(bullet)
    lines = [bullet + draw(inline_text())]
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["line", "line", "para", "para", "odd", "nested", "::"]))
        if kind == "line":
            lines.append(indent + draw(inline_text()))
        elif kind == "para":
            lines += ["", indent + draw(inline_text())]
        elif kind == "odd":
            lines.append(" " * draw(st.integers(1, len(bullet) + 2)) + draw(inline_text()))
        elif kind == "nested":
            lines += ["", indent + "- " + draw(inline_text())]
        else:
            lines[-1] += " ::"
            lines += ["", indent + "   code"]
    if draw(st.booleans()):
        lines.append("")
    return lines


@st.composite
def changelogs(draw: st.DrawFn) -> str:
    """Sections of bullet lists, as release notes are written, with the constructs around
    and inside them that must not be read as plain items."""
    lines: list[str] = []
    for number in range(draw(st.integers(1, 3))):
        title = f"Release {number}.0"
        lines += [title, draw(st.sampled_from("=-~")) * len(title), ""]
        for _ in range(draw(st.integers(1, 3))):
            bullet = draw(st.sampled_from(BULLETS))
            for _ in range(draw(st.integers(1, 4))):
                other = draw(st.sampled_from([bullet, bullet, bullet, "* ", "1. "]))
                lines += draw(bullet_item(other))
            lines += draw(
                st.sampled_from(
                    [
                        [""],
                        ["", "After the list."],
                        ["No blank line before me."],
                        ["", ".. note::", "", "   A note."],
                        ["  indented after"],
                        [""],
                    ]
                )
            )
            lines.append("")
    text = "\n".join(lines)
    return text if draw(st.booleans()) else text.rstrip("\n")


def docutils_own(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[list[str], Any, Any]:
    """`text`'s doctree with none of the fast paths: docutils' own machines and inliner."""
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "_one_line_cells", contextlib.nullcontext)
        patch.setattr(rst_parse, "_quick_bullets", contextlib.nullcontext)
        patch.setattr(rst_parse.rst_inline, "inliner", lambda deadline: rst_parse.states.Inliner())
        for name in ("_TOP", "_INLINERS", "_NESTED", "_POOL"):
            patch.setattr(rst_parse, name, [] if name != "_POOL" else {})
        document = rst_parse.parse(text, 60.0)
        return dump(document), document.current_source, document.current_line


def fast(text: str) -> tuple[list[str], Any, Any]:
    document = rst_parse.parse(text, 60.0)
    return dump(document), document.current_source, document.current_line


@SLOW
@given(changelogs())
def test_changelog_fast_paths_give_docutils_own_doctree(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    assert fast(text) == docutils_own(monkeypatch, text)


@SLOW
@given(changelogs())
def test_changelog_fast_paths_give_docutils_own_chunks(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Chunk for chunk: text, lines, role, section trail, parent, links and context."""
    chunks = split_rst(text)
    with monkeypatch.context() as patch:
        patch.setattr(rst_parse, "_one_line_cells", contextlib.nullcontext)
        patch.setattr(rst_parse, "_quick_bullets", contextlib.nullcontext)
        patch.setattr(rst_inline_simple, "parse", lambda *args: None)
        assert chunks == split_rst(text)


@SLOW
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10))
def test_simple_inline_gives_docutils_own_nodes(
    monkeypatch: pytest.MonkeyPatch, pieces: list[str]
) -> None:
    """In a title, a paragraph, a bullet and a paragraph of several lines."""
    line = "".join(pieces).strip() or "x"
    text = f"{line}\n{'=' * max(len(line), 4)}\n\n{line}\n\n- {line}\n\n  {line}\n  {line}\n"
    assert fast(text) == docutils_own(monkeypatch, text)


NEWS = """\
Release notes
=============

Scrapy 2.19.0 (2026-09-10)
--------------------------

-   Added :class:`~a.B`, a ``name`` and
    :setting:`X`.
    (:gh:`7511`)

-   New dependencies, see aiohttp_.

    Second paragraph of the item.

* Another list: another bullet character.

.. _aiohttp: https://example.org
"""


def test_a_changelog_takes_the_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its lists are built without docutils' list machine and its bullets' roles and
    literals without docutils' inline loop (they must be, to matter)."""
    lists: list[Any] = []
    inline: list[Any] = []
    items, simple = rst_plain._items, rst_inline_simple.parse
    monkeypatch.setattr(rst_plain, "_items", lambda *a: lists.append(items(*a)) or lists[-1])
    monkeypatch.setattr(
        rst_inline_simple, "parse", lambda *a: inline.append(simple(*a)) or inline[-1]
    )
    for name in (
        "_TOP",
        "_INLINERS",
        "_NESTED",
        "_POOL",
    ):  # machines built here, as every parse's are
        monkeypatch.setattr(rst_parse, name, [] if name != "_POOL" else {})
    rst_parse.parse(NEWS, 60.0)
    # Each item's first line (the list ends at another bullet character).
    assert [[lines[0] for _, _, lines, _ in found[0]] for found in lists] == [
        ["Added :class:`~a.B`, a ``name`` and", "New dependencies, see aiohttp_."],
        ["Another list: another bullet character."],
    ]
    assert [found is not None for found in inline] == [True, False]  # (a reference: not)
    chunks = split_rst(NEWS)
    assert [(c.text, c.start_line, c.end_line, c.role) for c in chunks[2:6]] == [
        ("Added a.B, a `name` and X. (7511)", 7, 9, "bullet"),
        ("New dependencies, see aiohttp.", 11, 11, "bullet"),
        ("Second paragraph of the item.", 13, 13, "paragraph"),
        ("Another list: another bullet character.", 15, 15, "bullet"),
    ]
    assert chunks[3].links == ("https://example.org",)


def test_the_characters_after_a_construct_end_docutils_end_string() -> None:
    """Every character taken after a role or a literal is one docutils' end-string suffix
    (``Inliner.end_string_suffix``) accepts."""
    inliner = rst_parse.states.Inliner()
    inliner.init_customizations(rst_parse._settings())
    suffix = re.compile(inliner.end_string_suffix)
    for char in rst_inline_simple._AFTER_LITERAL:
        assert suffix.match(char)


@pytest.mark.parametrize(
    "text",
    [
        "- word :r:`x`\n  ``y``\n\n" * 3000,  # long
        "- a\n  b\n - c\n- d\n\t- e\n",  # broken indentation, a tab
        "- ``a\n- :r:`b\n- c``\n",  # unclosed markup across items
        "-\n  a\n- b\n",  # an item whose text starts on its next line
        "- a\n\n  \u3000\n  b\n",  # a line blank to str.strip, not to docutils
        "- a\udcff b\n- \x00 c\n",  # undecodable bytes kept as surrogates, NUL
    ],
)
def test_hostile_lists_read_as_docutils_reads_them(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    assert fast(text) == docutils_own(monkeypatch, text)
    split_rst(text)  # and a split does not raise


def test_a_list_with_other_items_is_read_item_by_item(monkeypatch: pytest.MonkeyPatch) -> None:
    """An item with a nested list or a literal block is docutils' own `list_item`; the
    list around it is still read without docutils' list machine."""
    text = "- a\n\n  - nested\n\n- b ::\n\n     code\n\n- c\n\nAfter.\n"
    found = rst_plain._items(text.split("\n"), 0)
    assert found is not None
    items, end = found
    assert [(start, spans) for start, _, _, spans in items] == [(0, None), (4, None), (8, [(0, 0)])]
    assert end == 10
    assert fast(text) == docutils_own(monkeypatch, text)
