"""MDX's module imports are no text (md89, issue #14).

An MDX page (Mintlify, Docusaurus) opens with ES module imports of the components it uses:
``import { VersionBadge } from "/snippets/version-badge.mdx"``. The page shows none of
them; credo read each as a paragraph, so 296 of fastmcp's passages began with an import
line. A paragraph made of import lines alone, outside lists, quotes and directives, is
dropped; prose that starts with the word is kept.
"""

from __future__ import annotations

import pytest

from credo.knowledge.chunk.markdown import split_markdown


def texts(text: str) -> list[str]:
    return [c.text for c in split_markdown(text, mdx=True)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            '---\ntitle: Tools\n---\n\nimport { VersionBadge } from "/snippets/version-badge.mdx"'
            "\n\nTools are functions.\n",
            ["Tools", "Tools are functions."],
            id="mintlify",
        ),
        pytest.param(
            "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\nBody.",
            ["Body."],
            id="docusaurus-two-lines",
        ),
        pytest.param('import "./styles.css";\n\nBody.', ["Body."], id="side-effect-import"),
        pytest.param(
            "import os from the standard library is easy.",
            ["import os from the standard library is easy."],
            id="prose-stays",
        ),
        pytest.param(
            'import Tabs from "@theme/Tabs";\nUse the tabs below.',
            ['import Tabs from "@theme/Tabs"; Use the tabs below.'],
            id="mixed-paragraph-stays",
        ),
        pytest.param(
            '- import "x" from a list item\n\n> import "y"',
            ['import "x" from a list item', 'import "y"'],
            id="in-list-or-quote-stays",
        ),
        pytest.param(
            '```js\nimport Tabs from "@theme/Tabs";\n```',
            ['import Tabs from "@theme/Tabs";'],
            id="code-stays",
        ),
    ],
)
def test_import_reading(text: str, expected: list[str]) -> None:
    assert texts(text) == expected
