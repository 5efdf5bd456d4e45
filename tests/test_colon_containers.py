"""Colon containers (markdown-it-container: VitePress' ``::: info Note``, Docusaurus'
``:::tip[Title]`` / ``:::tip Title``) are read as the box the page draws: its title and its
content as Markdown, never the colon lines (the type a style, as MyST's ``{note}`` reads).
bump-my-version's and hishel's VitePress docs wrote "::: info Note This is only used with
TOML configuration. :::" into passages (md89), the title glued to the box's text and the
text around it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

FILE = """\
# File-specific configuration

The name of the file to modify.

::: info Note
This is only used with TOML configuration and is only required if `glob` is not specified.
:::

Both `file:` and `glob:` are configured the same.
"""


def test_a_vitepress_note_is_read_without_its_colons(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "file.md").write_text(FILE, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "TOML configuration glob specified", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert any("only used with TOML configuration" in t for t in texts), texts
    assert not any(":::" in t or "info Note" in t for t in texts), texts
    assert run("doctor").returncode == 0


def brief(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Intro:\n::: info Note\nOnly with TOML.\n:::\nAfter.",
            [("Intro:", 1, 1), ("Note", 2, 2), ("Only with TOML.", 3, 3), ("After.", 5, 5)],
            id="vitepress-titled-glued",
        ),
        pytest.param(
            "::: warning\nDo not bump twice.\n:::",
            [("Do not bump twice.", 2, 2)],
            id="untitled-its-type-a-style-as-myst-reads-it",
        ),
        pytest.param(
            "Intro:\n::: my-box Custom title\nIts text.\n:::\nAfter.",
            [("Intro: Custom title Its text.", 1, 3), ("After.", 5, 5)],
            id="unknown-type-reads-its-title-in-place",
        ),
        pytest.param(
            "::: my-box # Not a heading\nIts text.\n:::",
            [("# Not a heading Its text.", 1, 2)],
            id="unknown-type-title-stays-a-paragraph",
        ),
        pytest.param(
            ":::tip[Use the cache]\n\nCaching is fast.\n\n:::",
            [("Use the cache", 1, 1), ("Caching is fast.", 3, 3)],
            id="docusaurus-bracket-title",
        ),
        pytest.param(
            ":::caution Mind the lock\n\n- one item here\n- two items here\n\n:::",
            [("Mind the lock", 1, 1), ("one item here", 3, 3), ("two items here", 4, 4)],
            id="docusaurus-v2-title-and-a-list",
        ),
        pytest.param(
            "::: details Note: `project.version` in `pyproject.toml` {open}\nBody text.\n:::",
            [("Note: `project.version` in `pyproject.toml`", 1, 1), ("Body text.", 2, 2)],
            id="details-code-in-title-attributes-dropped",
        ),
        pytest.param(
            "::: code-group\n\n```toml [pyproject.toml]\nkey = 1\n```\n\n:::\nAfter the group.",
            [("key = 1", 3, 5), ("After the group.", 8, 8)],
            id="code-group-draws-no-box",
        ),
        pytest.param(
            ":::: tip Outer box\n::: warning\nInner text.\n:::\nOuter text.\n::::",
            [("Outer box", 1, 1), ("Inner text.", 3, 3), ("Outer text.", 5, 5)],
            id="nested",
        ),
        pytest.param(
            "::: warning\nNever closed, read as written.",
            [("::: warning Never closed, read as written.", 1, 2)],
            id="unclosed-stays-text",
        ),
        pytest.param(
            "```md\n::: info Note\nIn code.\n:::\n```",
            [("::: info Note\nIn code.\n:::", 1, 5)],
            id="in-code-stays-code",
        ),
    ],
)
def test_container_reading(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert brief(text) == expected


PIECES = [
    "::: info Note",
    ":::",
    "::::",
    ":::tip[Title `x`]",
    "::: code-group",
    "::: my-box Custom",
    ":::{note} Text here",
    "```",
    "<div>",
    "</div>",
    "    indented line",
    "text words here",
    "- item one",
    "> quote",
    "# Head",
    "",
]


@given(st.lists(st.sampled_from(PIECES), max_size=20))
def test_every_word_read_is_a_word_of_its_lines(pieces: list[str]) -> None:
    """A container rewritten as a fence that markdown-it reads as text (in an HTML block, a
    paragraph's lazy line) names no word its lines do not: the doctor's range check holds."""
    text = "\n".join(pieces)
    lines = source_lines(text)
    for chunk in split_markdown(text):
        if chunk.role != "code":
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
