"""MDX has no indented code: a ``.mdx`` page's indented Markdown is Markdown (md89, #14).

Mintlify and Docusaurus pages indent a component's content under it (a ``<ParamField>``
inside an ``<Expandable>``, a ``<Note>`` inside a ``<Step>``). MDX reads indented lines as
the Markdown they are; CommonMark reads four columns of indent as a code block, so 392 lines
of fastmcp's fields, notes and steps were code (their words names in a context, never text).
A ``.md`` file keeps CommonMark's indented code.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.language import split_file
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

NESTED = """\
# Configuration

<Expandable title="FileSystemSource">
  When `type` is `"filesystem"`, the source points to a local Python file:

    <ParamField body="entrypoint" type="string">
      Name of the server instance or factory function within the module.
    </ParamField>

    ```json
    {"entrypoint": "mcp"}
    ```
</Expandable>
"""


def brief(path: str, text: str) -> list[tuple[str, str, int, int]]:
    return [(c.role, c.text, c.start_line, c.end_line) for c in split_file(path, text)]


def test_an_indented_field_in_mdx_is_text() -> None:
    assert brief("docs/config.mdx", NESTED) == [
        ("heading", "Configuration", 1, 1),
        ("paragraph", "FileSystemSource", 3, 3),
        (
            "paragraph",
            'When `type` is `"filesystem"`, the source points to a local Python file:',
            4,
            4,
        ),
        ("paragraph", "entrypoint", 6, 6),
        ("paragraph", "Name of the server instance or factory function within the module.", 7, 7),
        ("code", '{"entrypoint": "mcp"}', 10, 12),
    ]


def test_a_md_file_keeps_indented_code() -> None:
    found = brief("docs/config.md", "Intro text.\n\n    indented code line\n")
    assert found == [
        ("paragraph", "Intro text.", 1, 1),
        ("code", "indented code line", 3, 3),
    ]


def test_an_indented_field_is_found_by_search(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "config.mdx").write_text(NESTED, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "factory function entrypoint", "--json").stdout)
    contents = [b["content"] for b in found["beliefs"]]
    assert any("entrypoint\nName of the server instance" in t for t in contents), contents
    assert run("doctor").returncode == 0


CODE_GROUP = """\
---
title: Dependent Tasks
---
Text before the code.

<CodeGroup>
```python Code
@cf.flow
def analyze_text(text: str):

    # Create a parent task
    return text
```
</CodeGroup>
"""


def test_a_component_line_is_a_block_of_its_own() -> None:
    """controlflow's pages: "<CodeGroup>" read as an HTML block swallowed the fence's first
    lines, and past the blank line in the code "# Create a parent task" was an H1 that
    replaced the page's front-matter title."""
    assert brief("docs/dependent-tasks.mdx", CODE_GROUP) == [
        ("heading", "Dependent Tasks", 2, 2),
        ("paragraph", "Text before the code.", 4, 4),
        (
            "code",
            "@cf.flow\ndef analyze_text(text: str):\n\n    # Create a parent task\n    return text",
            7,
            13,
        ),
    ]


def test_a_fence_under_an_indented_line_is_code() -> None:
    text = (
        '<Expandable title="Source">\n    **Example:**\n    ```json\n'
        '    {"entrypoint": "mcp"}\n    ```\n</Expandable>\n'
    )
    assert brief("docs/a.mdx", text) == [
        ("paragraph", "Source", 1, 1),
        ("paragraph", "Example:", 2, 2),
        ("code", '{"entrypoint": "mcp"}', 3, 5),
    ]


def test_a_tag_over_several_lines_shows_its_title_at_its_line() -> None:
    text = (
        '<Card\n  title="FastMCP v4.2.3"\n  href="https://example.com"\n>\n'
        "Release notes here.\n</Card>\n"
    )
    assert brief("docs/updates.mdx", text) == [
        ("paragraph", "FastMCP v4.2.3", 2, 2),
        ("paragraph", "Release notes here.", 5, 5),
    ]


def test_an_inline_component_stays_in_its_paragraph() -> None:
    assert brief("docs/a.mdx", "<Note>Only on Python 3.11.</Note>\n") == [
        ("paragraph", "Only on Python 3.11.", 1, 1)
    ]


PIECES = [
    '<ParamField body="name_x" type="str">',
    "</ParamField>",
    '<Card\ntitle="T one"\n>',
    '<Step title="Do it">',
    "</Step>",
    "<CodeGroup>",
    "</CodeGroup>",
    "import { A } from '/a.mdx'",
    "    indented line",
    "      ```json",
    '      {"entry": 1}',
    "```",
    "text words here",
    "- item one",
    "# Head",
    "<Note>Inline note.</Note>",
    "",
]


@given(st.lists(st.sampled_from(PIECES), max_size=20))
def test_every_word_read_is_a_word_of_its_lines(pieces: list[str]) -> None:
    """The MDX rules write only words of a component's lines: the doctor's range check holds."""
    text = "\n".join(pieces)
    lines = source_lines(text)
    for chunk in split_file("docs/page.mdx", text):
        if chunk.role != "code":
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
