"""mkdocstrings' autodoc lines (``::: a.b.C`` and its indented options) read as the page shows
them (credo.knowledge.chunk.mkdocstrings; day-probe82, dirty-equals' docs/types/*.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.chunk.mkdocstrings import rewrite_autodoc_lines
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

CUSTOM = """\
# Custom Types

::: dirty_equals._base.DirtyEquals
    options:
      merge_init_into_class: false

## Custom Type Example

To demonstrate the use of custom types, we'll create a custom type that matches any even number.
"""


def brief(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            CUSTOM,
            [
                ("Custom Types", 1, 1),
                ("dirty_equals._base.DirtyEquals", 3, 3),
                ("Custom Type Example", 7, 7),
                (
                    "To demonstrate the use of custom types, we'll create a custom type that "
                    "matches any even number.",
                    9,
                    9,
                ),
            ],
            id="options-block-is-no-text",
        ),
        pytest.param(
            "Example\n\n::: dirty_equals.IsNow\n\n::: dirty_equals.IsDate\n",
            [("Example", 1, 1), ("dirty_equals.IsNow", 3, 3), ("dirty_equals.IsDate", 5, 5)],
            id="several-objects",
        ),
        # day-probe88: a package named alone, its members listed in the option block
        # (inline-snapshot's docs/external/register_format.md read "::: inline_snapshot
        # options: heading_level: 3 members: [register_format, ...] show_root_heading: false")
        pytest.param(
            "## Reference\n\n::: inline_snapshot\n    options:\n      heading_level: 3\n"
            "      members: [register_format, register_format_alias, Format]\n"
            "      show_source: false\n\nMore text.\n",
            [("Reference", 1, 1), ("inline_snapshot", 3, 3), ("More text.", 9, 9)],
            id="package-with-options",
        ),
        pytest.param(
            "::: griffe.loader:GriffeLoader\n",
            [("griffe.loader:GriffeLoader", 1, 1)],
            id="colon-path",
        ),
    ],
)
def test_an_autodoc_line_reads_as_its_object(
    text: str, expected: list[tuple[str, int, int]]
) -> None:
    assert brief(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "::: warning\nPandoc's fenced div keeps its words.\n:::\n",  # no dotted path
        "```md\n::: dirty_equals.IsNow\n    options:\n```\n",  # code shows it as written
        "Text ::: dirty_equals.IsNow\n",  # not at a line's start
        "::: inline_snapshot\nNo options block follows.\n",  # a bare name alone: a div
        "::: warning\n\n    options:\n",  # its option block must follow at once
        "    ::: pkg\n    options:\n",  # options no deeper than the line
        # review89: a container whose body opens with the word "options:" (VitePress, Pandoc)
        # holds no option names under it, as an option block does
        "::: warning\n    options:\n:::\n",
        "::: details\n  options:\n  - fast\n  - safe\n:::\n",
        "::: details\n  options:\n    - fast\n:::\n",
    ],
)
def test_other_colon_lines_are_left_alone(text: str) -> None:
    assert rewrite_autodoc_lines(text.split("\n")) == text.split("\n")


def test_a_myst_colon_fence_is_still_a_fence() -> None:
    assert brief("Intro:\n:::{note}\nA note to read.\n:::\n") == [
        ("Intro:", 1, 1),
        ("A note to read.", 3, 3),
    ]


_LINES = st.sampled_from(
    [
        "::: pkg.mod.Obj",
        "::: a.b:C",
        "::: warning",
        "::: pkg",
        ":::{note}",
        ":::",
        "    options:",
        "      show_source: false",
        "  - item",
        "```py",
        "~~~",
        "```",
        "",
        "Some prose about pkg.mod.Obj.",
        "# Title",
        "text ::: pkg.x",
    ]
)


@given(st.lists(_LINES, max_size=16))
@example(["```py", "::: pkg.mod.Obj", "    options:", "```"])
@example([":::{note}", "::: pkg.mod.Obj", "    options:", ":::"])
def test_each_line_keeps_its_place_and_only_loses_markup(lines: list[str]) -> None:
    out = rewrite_autodoc_lines(lines)
    assert len(out) == len(lines)
    for before, after in zip(lines, out, strict=True):
        assert after in (before, "") or (before.startswith(":::") and before.endswith(after))
    text = "\n".join(lines)
    source = text.split("\n")
    for chunk in split_markdown(text):  # every chunk's words are its lines', in order
        assert range_holds(source, chunk.start_line, chunk.end_line, chunk.text)


def test_an_mkdocs_page_is_ingested_without_its_autodoc_markup(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs" / "types"
    docs.mkdir(parents=True)
    (docs / "custom.md").write_text(CUSTOM, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "custom types DirtyEquals", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert any("dirty_equals._base.DirtyEquals" in t for t in texts), texts
    assert not any(":::" in t or "merge_init_into_class" in t for t in texts), texts
    assert run("doctor").returncode == 0


def test_lines_indented_no_deeper_than_the_autodoc_line_are_text_not_options() -> None:
    # review82: an autodoc line in a list item blanked the item's next lines, indented as
    # the item's body, as if they were its option block.
    text = (
        "# API\n\n* See the class:\n  ::: pkg.mod.Thing\n"
        "  The rest of this item explains the caching rules.\n* Second item.\n"
    )
    said = " ".join(chunk.text for chunk in split_markdown(text))
    assert "pkg.mod.Thing" in said and ":::" not in said
    assert "The rest of this item explains the caching rules." in said
    lines = ["  ::: pkg.mod.Thing", "      options:", "        show_root: false", "  Text."]
    assert rewrite_autodoc_lines(lines) == ["pkg.mod.Thing", "", "", "  Text."]
