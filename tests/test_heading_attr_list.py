"""A heading's attribute list (Python-Markdown's attr_list, which MkDocs sites turn on; Pandoc's
header attributes) is markup, not title (day-probe86, hatch's docs: "## [1.9.0](...) -
2023-12-19 ## {: #hatch-v1.9.0 }" was every changelog passage's trail, and "## Name
(*required*) ## {: #name }" metadata.md's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

RELEASE = "https://github.com/pypa/hatch/releases/tag/hatch-v1.9.0"
HISTORY = f"""\
# Hatch history

## [1.9.0]({RELEASE}) - 2023-12-19 ## {{: #hatch-v1.9.0 }}

***Fixed:***

- Ignore compatibility checks when environments have already been created
"""


def sections(text: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.text, c.section) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("## Name (*required*) ## {: #name }", "Name (required)"),
        ("## Plain {: #plain }", "Plain"),
        ("## Options { #options .wide }", "Options"),
        ('### Data {: #data data-level="2" lang=en }', "Data"),
        ("## Closing ## { .note }", "Closing"),
        ("## C# {: #csharp }", "C#"),
        # after "{:" a bare word is an attribute (cibuildwheel's options page)
        ("### `test-skip` {: #test-skip env-var toml}", "`test-skip`"),
        ("### Flags {: toml }", "Flags"),
        # an id escaped as attr_list reads it (pymdown's release notes: "{: #\\6.0}")
        ("# 6.0 Migration Notes {: #\\6.0}", "6.0 Migration Notes"),
        # left alone: braces that are no attribute list
        ("## The {x} placeholder", "The {x} placeholder"),
        ("## Sets { a b }", "Sets { a b }"),
        ("## Ends with {: #id } then text", "Ends with {: #id } then text"),
    ],
)
def test_a_heading_reads_without_its_attribute_list(heading: str, title: str) -> None:
    [(text, section), (_, under)] = sections(f"{heading}\n\nBody.\n")
    assert (text, section, under) == (title, (title,), (title,))


def test_a_setext_heading_and_an_attribute_list_alone() -> None:
    assert sections("Setext {: #st }\n---\n\nBody.\n") == [
        ("Setext", ("Setext",)),
        ("Body.", ("Setext",)),
    ]
    # A heading that is only its attribute list is empty: it opens no section.
    assert sections("# Top\n\n## {: #only }\n\nBody.\n") == [("Top", ("Top",)), ("Body.", ("Top",))]


def test_the_changelog_heading_is_its_version_and_date() -> None:
    section = ("Hatch history", "1.9.0 - 2023-12-19")
    assert sections(HISTORY)[1:] == [
        ("1.9.0 - 2023-12-19", section),
        ("Fixed:", section),
        ("Ignore compatibility checks when environments have already been created", section),
    ]


_TITLE = st.sampled_from(["Name", "Version (*required*)", "C#", "Features (extras)", "1.2 - x"])
_ATTR = st.sampled_from(["#id", "#v1.2.3", ".wide", "key=val", 'k="a b"', "data-x='y'"])


@given(
    title=_TITLE,
    attrs=st.lists(_ATTR, min_size=1, max_size=3),
    colon=st.booleans(),
    closing=st.booleans(),
)
def test_an_attribute_list_changes_nothing_else(
    title: str, attrs: list[str], colon: bool, closing: bool
) -> None:
    """A page whose heading carries an attribute list reads as the same page without it, and
    every chunk's words are its lines' (the anchors hold)."""
    marks = " ##" if closing else ""
    braces = "{" + (": " if colon else " ") + " ".join(attrs) + " }"
    page = "# Top\n\n## {title}{marks} {braces}\n\nBody of the section.\n"
    plain = split_markdown(page.format(title=title, marks="", braces="").replace(" \n", "\n"))
    read = split_markdown(page.format(title=title, marks=marks, braces=braces))
    assert [(c.text, c.section, c.start_line, c.end_line) for c in read] == [
        (c.text, c.section, c.start_line, c.end_line) for c in plain
    ]
    source = page.format(title=title, marks=marks, braces=braces).split("\n")
    for chunk in read:
        assert range_holds(source, chunk.start_line, chunk.end_line, chunk.text)


def test_an_mkdocs_changelog_is_ingested_without_its_attribute_lists(
    run: CliRun, tmp_path: Path
) -> None:
    docs = tmp_path / "docs" / "history"
    docs.mkdir(parents=True)
    (docs / "hatch.md").write_text(HISTORY, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "compatibility checks environments", "--json").stdout)
    trails = [b["trail"] for b in found["beliefs"]]
    assert any("1.9.0 - 2023-12-19" in t for t in trails), trails
    assert not any("{:" in t for t in trails), trails
    assert run("doctor").returncode == 0


# review86: a value read two ways (quoted, or unquoted starting with its quote) made
# '{ a="b" a="b" ... x' backtrack through 2^n readings (22 values: 1.5 s; 40 would take
# days), and the blanks before "{" were read again from each of their places (a heading
# with 50,000 blanks: 3.8 s). A hostile heading must not stall an ingest.
_HOSTILE = [
    "# Title { " + 'a="b" ' * 40 + "x\n\nBody.\n",
    "# Title " + " " * 200_000 + "{ #a x\n\nBody.\n",
    "# Title {: #a } " + "{ a='b' " * 5_000 + "\n\nBody.\n",
]


def test_a_hostile_attribute_list_is_read_in_linear_time() -> None:
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from credo.knowledge.chunk.markdown import split_markdown\n"
        "for text in json.load(sys.stdin):\n"
        "    assert split_markdown(text)[-1].text == 'Body.'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(_HOSTILE),
        text=True,
        timeout=60,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr


def _without_attrs_by_regex(text: str) -> str:
    """The heading's text as first read (day-probe86): the attribute list and the blanks
    before it cut by one regex, then the closing hashes by another."""
    import re

    from credo.knowledge.chunk.markdown_blocks import _ATTR

    attrs = re.compile(rf"[ \t]*\{{:?[ \t]*{_ATTR}(?:[ \t]+{_ATTR})*[ \t]*\}}[ \t]*$")
    bare = attrs.sub("", text)
    return re.sub(r"(?:^|[ \t]+)#+[ \t]*$", "", bare) if bare != text else text


@given(
    st.lists(
        st.sampled_from(
            ["Name", "C#", " ", "\t", "#", "##", "{", "}", "{:", "#id", ".wide", 'k="v w"', "k=v"]
        ),
        max_size=12,
    )
)
def test_attrs_cut_as_the_regex_cut_them(parts: list[str]) -> None:
    from credo.knowledge.chunk.markdown_blocks import _without_attrs

    text = "".join(parts)
    assert _without_attrs([(1, text)]) == [(1, _without_attrs_by_regex(text))]
