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

from credo.knowledge.chunk.language import split_file
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
        (
            "paragraph",
            'FileSystemSource When `type` is `"filesystem"`, the source points to a local Python'
            " file:",
            3,
            4,
        ),
        (
            "paragraph",
            "entrypoint Name of the server instance or factory function within the module.",
            6,
            8,
        ),
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
    assert any("entrypoint Name of the server instance" in t for t in contents), contents
    assert run("doctor").returncode == 0
