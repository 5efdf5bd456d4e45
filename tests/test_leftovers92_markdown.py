"""Markdown readings stop 63 left alone (leftovers92, issue #14).

- A front-matter ``description:`` above the page's own level-1 heading (an agent skill's
  ``SKILL.md``: what the skill does and when to use it) was read nowhere: it is the first
  paragraph under that heading, at its own line.
- An MDX list indented four or more columns (under a component) was one item: each item
  is a bullet of its own. And a list or fence four or more columns under a paragraph line
  ("Returns:" over "    - If labels ...") opens there, as micromark reads MDX: markdown-it
  took the line as the paragraph's lazy continuation.
- A plain ``.md`` paragraph ``import x from 'y'`` was dropped by the MDX import rule: in a
  ``.md`` page it is dropped only when the names it binds are the page's component tags
  (a Docusaurus page written in ``.md``).
"""

from __future__ import annotations

import pytest

from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.ingest.split import split_passages

SKILL = """---
name: pdf-processing
description: Extract text from PDFs, fill forms, and merge documents
---

# PDF Processing

Use the tools below.

## Forms

Fill them.
"""


def rows(text: str, mdx: bool = False) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.role, c.text) for c in split_markdown(text, mdx=mdx)]


def test_a_skill_s_description_is_the_first_paragraph_under_its_title() -> None:
    chunks = split_markdown(SKILL)
    found = [c for c in chunks if c.text.startswith("Extract text")]
    assert len(found) == 1
    assert (found[0].start_line, found[0].end_line) == (3, 3)
    assert found[0].section == ("PDF Processing",)
    assert [c.text for c in chunks][:3] == [
        "PDF Processing",
        "Extract text from PDFs, fill forms, and merge documents",
        "Use the tools below.",
    ]


def test_a_skill_s_passage_holds_its_title_and_description() -> None:
    passages = split_passages("skills/pdf/SKILL.md", SKILL).chunks
    first = passages[0]
    assert first.text.split("\n")[:2] == [
        "PDF Processing",
        "Extract text from PDFs, fill forms, and merge documents",
    ]
    assert (first.start_line, first.end_line) == (3, 8)


def test_a_description_with_neither_title_nor_heading_opens_the_page() -> None:
    text = "---\ndescription: What this page is about\n---\n\nBody text.\n"
    assert rows(text) == [
        (2, 2, "paragraph", "What this page is about"),
        (5, 5, "paragraph", "Body text."),
    ]


def test_a_title_s_description_still_follows_the_front_matter_title() -> None:
    text = "---\ntitle: Tools\ndescription: Give the model tools\n---\n\nBody.\n"
    assert rows(text) == [
        (2, 2, "heading", "Tools"),
        (3, 3, "paragraph", "Give the model tools"),
        (6, 6, "paragraph", "Body."),
    ]


def test_a_description_goes_under_the_level_one_heading_not_a_level_two() -> None:
    text = "---\ndescription: Summary words\n---\n\n## Aside\n\nA.\n\n# Title\n\nB.\n"
    chunks = split_markdown(text)
    summary = next(c for c in chunks if c.text == "Summary words")
    assert summary.section == ("Title",)


MDX_LIST = """# Steps

<Steps>
  <Step title="Install">
    Run these:

    - first item here
    - second item here
      - nested item here
    - third item here
  </Step>
</Steps>
"""


def test_an_mdx_list_indented_four_columns_is_one_bullet_per_item() -> None:
    bullets = [(s, e, t) for s, e, role, t in rows(MDX_LIST, mdx=True) if role == "bullet"]
    assert bullets == [
        (7, 7, "first item here"),
        (8, 8, "second item here"),
        (9, 9, "nested item here"),
        (10, 10, "third item here"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "        - deep one\n        - deep two\n",
        "<Card>\n        1. deep one\n        2. deep two\n</Card>\n",
    ],
)
def test_a_deeply_indented_mdx_list_keeps_its_items_apart(text: str) -> None:
    bullets = [t for _, _, role, t in rows(text, mdx=True) if role == "bullet"]
    assert bullets == ["deep one", "deep two"]


def test_a_markdown_list_still_reads_as_commonmark() -> None:
    # In .md, a line four columns in under a list item's text is its lazy continuation.
    text = "- a item\n    - b item\n\n    code here\n"
    assert rows(text) == [
        (1, 1, "bullet", "a item"),
        (2, 2, "bullet", "b item"),
        (4, 4, "paragraph", "code here"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "import x from 'y'\n\nBody.\n", ["import x from 'y'", "Body."], id="plain-md-kept"
        ),
        pytest.param(
            'import "./styles.css";\n\nBody.\n',
            ['import "./styles.css";', "Body."],
            id="side-effect-kept",
        ),
        pytest.param(
            "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
            '<Tabs>\n<TabItem value="a">\n\nBody.\n\n</TabItem>\n</Tabs>\n',
            ["Body."],
            id="docusaurus-md-components-dropped",
        ),
        pytest.param(
            "import Tabs from '@theme/Tabs';\nimport Other from './o';\n\n<Tabs>\n\nBody.\n",
            ["import Tabs from '@theme/Tabs'; import Other from './o';", "Body."],
            id="a-name-never-used-kept",
        ),
    ],
)
def test_an_import_paragraph_in_plain_markdown(text: str, expected: list[str]) -> None:
    assert [t for _, _, _, t in rows(text)] == expected


def test_renamed_and_namespace_imports_bind_their_new_names() -> None:
    text = (
        'import { A as B, C } from "z"\nimport * as Icons from "i"\n\n'
        "Use <B/>, <C>x</C>, <Icons.Star />.\n"
    )
    assert not [t for _, _, _, t in rows(text) if "import" in t]
    assert [t for _, _, _, t in rows(text.replace("<B/>", "<A/>")) if "import" in t]


def test_an_mdx_page_drops_its_imports_whatever_they_bind() -> None:
    assert [t for _, _, _, t in rows("import x from 'y'\n\nBody.\n", mdx=True)] == ["Body."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "In your dashboard:\n    1. Open the servers section\n    2. Enter the details\n",
            [
                (1, "paragraph", "In your dashboard:"),
                (2, "bullet", "Open the servers section"),
                (3, "bullet", "Enter the details"),
            ],
            id="steps-under-a-line",
        ),
        pytest.param(
            "Returns:\n    - If labels is a sequence\n        - a nested case\n",
            [
                (1, "paragraph", "Returns:"),
                (2, "bullet", "If labels is a sequence"),
                (3, "bullet", "a nested case"),
            ],
            id="docstring-returns",
        ),
        pytest.param(
            "Examples:\n    ```python\n    cast(1, str)\n    ```\n\n### `cast_async`\n\nText.\n",
            [
                (1, "paragraph", "Examples:"),
                (2, "code", "cast(1, str)"),
                (6, "heading", "`cast_async`"),
                (8, "paragraph", "Text."),
            ],
            id="a-fence-under-a-line-closes",
        ),
        pytest.param(
            "A line of text\n    that wraps deeper\n    and on.\n",
            [(1, "paragraph", "A line of text that wraps deeper and on.")],
            id="a-deeper-continuation-stays",
        ),
    ],
)
def test_an_mdx_block_four_columns_under_a_paragraph_line_opens(
    text: str, expected: list[tuple[int, str, str]]
) -> None:
    assert [(s, role, t) for s, _, role, t in rows(text, mdx=True)] == expected


def test_markdown_still_reads_a_deeper_line_as_lazy_continuation() -> None:
    text = "In your dashboard:\n    1. Open the servers section\n"
    assert [t for _, _, _, t in rows(text)] == ["In your dashboard: 1. Open the servers section"]
