"""A page's front-matter ``title`` is its title when it writes no H1 (md88, issue #14).

MkDocs, Docusaurus, Jekyll and Hugo show ``title:`` as the page's title; a page that writes
no level-1 heading of its own has no other. cibuildwheel's "Working examples" and
"Configuring a CI service" pages, and mkdocstrings' "Credits" and "Code of Conduct", were
read with no title in any trail (`bench/md_audit.py`: front-matter lines, all lost)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.model import source_lines
from credo.knowledge.doctor import range_holds


def brief(text: str) -> list[tuple[str, int, str, tuple[str, ...]]]:
    return [(c.text, c.start_line, c.role, c.section) for c in split_markdown(text)]


def test_a_title_opens_a_page_without_an_h1() -> None:
    text = "---\ntitle: Working examples\nref: x\n---\n\n## GitHub\n\nSome text here.\n"
    assert brief(text) == [
        ("Working examples", 2, "heading", ("Working examples",)),
        ("GitHub", 6, "heading", ("Working examples", "GitHub")),
        ("Some text here.", 8, "paragraph", ("Working examples", "GitHub")),
    ]


@pytest.mark.parametrize(
    ("front", "title"),
    [
        ("---\ntitle: 'Getting started'\n---", "Getting started"),
        ('---\ntitle: "Modern C++ standards"\n...', "Modern C++ standards"),
        ("+++\ntitle = 'Hugo page'\n+++", "Hugo page"),
    ],
)
def test_quotes_are_dropped_and_toml_reads_too(front: str, title: str) -> None:
    assert brief(f"{front}\nBody text\n")[0][:3] == (title, 2, "heading")


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: Options\n---\n\n# Options\n\nBody text\n",  # its own H1 is its title
        "---\ntitle: Other\n---\n\nSetext title\n===\n\nBody text\n",
        "---\ntitle: |\n  folded\n---\nBody text\n",  # a block scalar: not read
        "---\nsubtitle: no\n  title: nested\n---\nBody text\n",
        "---\ntitle: unclosed\nBody text\n",  # no front matter at all
    ],
)
def test_no_title_is_added(text: str) -> None:
    assert all(role != "heading" or line > 4 for _, line, role, _ in brief(text)), brief(text)


def test_an_h1_in_a_quote_is_no_page_title() -> None:
    assert brief("---\ntitle: T page\n---\n> # quoted\n")[0] == (
        "T page",
        2,
        "heading",
        ("T page",),
    )


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_title_keeps_a_true_range(title: str) -> None:
    text = f"---\ntitle: {title}\n---\nsome body text\n"
    lines = source_lines(text)
    for chunk in split_markdown(text):
        if chunk.start_line <= len(lines):
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
