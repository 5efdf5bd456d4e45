"""A front-matter ``description`` is the first paragraph under the title the front matter
gives a page (md89, issue #14).

Mintlify shows it below the page's title; MkDocs, Docusaurus, VitePress and Jekyll give it to
search engines, link previews and their own site search. fastmcp's docs (Mintlify, 144 pages)
open every page with ``title:`` and ``description:`` and no H1: the title headed the page and
the author's one-line summary of it was never read (`bench/md_audit.py`: front-matter lines
lost). A page that writes its own H1 reads it under that H1, a page with no title at all as
its opening paragraph (leftovers92: tests/test_leftovers92_markdown.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

TOOLS = """\
---
title: Tools
sidebarTitle: Tools
description: Expose functions as executable capabilities for your MCP client.
icon: wrench
---

Tools are the core building blocks that let your client act.

## Decorators

Decorate a function to register it.
"""


def brief(text: str) -> list[tuple[str, int, str, tuple[str, ...]]]:
    return [(c.text, c.start_line, c.role, c.section) for c in split_markdown(text)]


def test_the_description_is_the_first_paragraph_under_the_title() -> None:
    assert brief(TOOLS)[:3] == [
        ("Tools", 2, "heading", ("Tools",)),
        (
            "Expose functions as executable capabilities for your MCP client.",
            4,
            "paragraph",
            ("Tools",),
        ),
        (
            "Tools are the core building blocks that let your client act.",
            8,
            "paragraph",
            ("Tools",),
        ),
    ]


@pytest.mark.parametrize(
    ("front", "summary"),
    [
        ("---\ntitle: T\ndescription: 'How the cache decides'\n---", "How the cache decides"),
        ('+++\ntitle = "T"\ndescription = "Hugo summary line"\n+++', "Hugo summary line"),
        ("---\ndescription: Before its title\ntitle: T\n---", "Before its title"),
    ],
)
def test_quotes_are_dropped_and_toml_reads_too(front: str, summary: str) -> None:
    found = brief(f"{front}\nBody text\n")
    assert found[1][0] == summary and found[1][2:] == ("paragraph", ("T",)), found


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: T\ndescription: >\n  folded summary\n---\nBody text\n",  # a block scalar
        "---\ntitle: T\nmeta:\n  description: nested\n---\nBody text\n",
    ],
)
def test_no_description_is_read(text: str) -> None:
    assert not any(
        "description" in c.text.lower() or "summary" in c.text for c in split_markdown(text)
    )
    assert not any(c.text in ("Not read", "nested") for c in split_markdown(text))


def test_a_description_is_found_by_search(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tools.mdx").write_text(TOOLS, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "executable capabilities", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert any("executable capabilities" in t for t in texts), texts
    assert run("doctor").returncode == 0


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
@example("00\x020_")  # (inline.py's image marks dropped joined "00" and "0_": stop 64)
def test_any_description_keeps_a_true_range(summary: str) -> None:
    text = f"---\ntitle: T\ndescription: {summary}\n---\nsome body text\n"
    lines = source_lines(text)
    for chunk in split_markdown(text):
        if chunk.start_line <= len(lines):
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
