"""MkDocs' content tabs (``=== "macOS"``) and admonitions (``!!! note "Title"``), each with
the block indented under it, read as their title and their Markdown
(credo.knowledge.chunk.mkdocs_blocks; day-probe86, hatch's docs/install.md, where a passage
read '=== "macOS" === "GUI installer" 1. In your browser, ...': the tab's list and code
flattened into one paragraph of markup, and 53 of the docs' passages began "!!! note")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import mkdocs_blocks
from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.mkdocs_blocks import rewrite_mkdocs_blocks
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

INSTALL = """\
# Installation

## Installers

=== "macOS"
    === "GUI installer"
        1. In your browser, download the `.pkg` file.
        2. Run your downloaded file and follow the on-screen instructions.

            ```
            $ hatch --version
            ```
=== ":octicons-file-code-16: Linux"
    Download the archive and extract the binary to a directory on your PATH.
"""


def brief(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_markdown(text)]


def test_a_tab_reads_as_its_title_and_its_markdown() -> None:
    assert brief(INSTALL) == [
        ("Installation", 1, 1),
        ("Installers", 3, 3),
        ("macOS GUI installer", 5, 6),
        ("In your browser, download the `.pkg` file.", 7, 7),
        ("Run your downloaded file and follow the on-screen instructions.", 8, 8),
        ("$ hatch --version", 10, 12),
        ("Linux Download the archive and extract the binary to a directory on your PATH.", 13, 14),
    ]


NOTES = """\
# Dependencies

!!! tip
    Hatch uses pip to install dependencies.

!!! warning "caveat"
    UV is under active development.

    - it may not work for all dependencies

??? note "Details"
    Hidden until clicked.
"""


def test_an_admonition_reads_as_its_title_and_its_markdown() -> None:
    assert brief(NOTES) == [
        ("Dependencies", 1, 1),
        ("tip Hatch uses pip to install dependencies.", 3, 4),
        ("caveat UV is under active development.", 6, 7),
        ("it may not work for all dependencies", 9, 9),
        ("Details Hidden until clicked.", 11, 12),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Wow!!! that was fast\n",
        "!!! 42 not a type\n    text\n",
        "```\n!!! note\n    in a code block\n```\n",
        '```md\n=== "Tab"\n    text in a code block\n```\n',  # code shows the markup
        "Title\n===\n\nBody text here.\n",  # a setext heading
        'a === "b" in prose\n',
        "=== Tab without quotes\n    indented code\n",
    ],
)
def test_other_lines_are_left_alone(text: str) -> None:
    lines = text.split("\n")
    assert rewrite_mkdocs_blocks(lines) is lines


_LINES = st.sampled_from(
    [
        '=== "Tab one"',
        '    === "Nested"',
        '===+ ":material-apple: macOS"',
        "    indented text under a tab",
        "        deeper text",
        "    1. a numbered step",
        "    ```",
        "```",
        "",
        "Plain prose line.",
        "    | a | b |",
        "    | --- | --- |",
        "\tTabbed text",
        "!!! note",
        '    !!! warning "Careful now"',
        '???+ danger ""',
    ]
)


@given(st.lists(_LINES, max_size=16))
def test_each_line_keeps_its_place_and_only_loses_markup(lines: list[str]) -> None:
    out = rewrite_mkdocs_blocks(lines)
    assert len(out) == len(lines)
    for before, after in zip(lines, out, strict=True):
        words = before.replace('"', " ").split()
        # unchanged but for leading blanks, or a label read as its title's words
        assert after.split() == before.split() or set(after.split()) <= set(words)
    text = "\n".join(lines)
    source = text.split("\n")
    for chunk in split_markdown(text):  # every chunk's words are its lines', in order
        assert range_holds(source, chunk.start_line, chunk.end_line, chunk.text)


def test_a_tabbed_page_is_ingested_without_the_markup(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text(INSTALL + "\n" + NOTES, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "download the pkg file in your browser", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert any("download the `.pkg` file" in t for t in texts), texts
    assert not any("===" in t or "octicons" in t or "!!!" in t for t in texts), texts
    assert run("doctor").returncode == 0


# review86: each block was moved as its label was found, so a line under n nested labels
# was moved n times (1 MB of nested tabs took seconds). Now each line is moved once.


def _rewrite_block_by_block(lines: list[str]) -> list[str]:
    """The rewrite as first written (day-probe86): each label's block moved as it is met."""
    out = list(lines)
    fence = ""
    for index in range(len(out)):
        current = out[index]
        code = mkdocs_blocks._CODE.match(current)
        if code and (not fence or code.group(1).startswith(fence)):
            fence = "" if fence else code.group(1)
        title = None if fence else mkdocs_blocks._title(current)
        if title is None:
            continue
        depth = mkdocs_blocks._indent(current)
        out[index] = title
        end = index + 1
        while end < len(out) and (
            not out[end].strip() or mkdocs_blocks._indent(out[end]) >= depth + 4
        ):
            out[end] = mkdocs_blocks._dedent(out[end], 4)
            end += 1
    return out


_LINE = st.builds(
    lambda indent, body: indent + body,
    st.sampled_from(["", " ", "  ", "    ", "\t", "      ", "        ", "\t    ", "            "]),
    st.sampled_from(
        ['=== "macOS"', '!!! note "Title"', "??? tip", "```", "~~~", "text", "- item", "", "x\ty"]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, max_size=25))
def test_each_line_moved_once_reads_as_block_by_block(lines: list[str]) -> None:
    assert rewrite_mkdocs_blocks(lines) == _rewrite_block_by_block(lines)


def test_nested_labels_move_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["    " * depth + '=== "t"' for depth in range(200)]
    calls = []
    real = mkdocs_blocks._dedent
    monkeypatch.setattr(
        mkdocs_blocks, "_dedent", lambda line, *a: calls.append(line) or real(line, *a)
    )
    out = rewrite_mkdocs_blocks(lines)
    assert out == ["t"] * 200
    assert len(calls) <= len(lines)  # was 19,900: every line once per label above it
