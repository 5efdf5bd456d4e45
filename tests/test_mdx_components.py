"""An MDX component's name and title attributes are text: the page shows them (md89, #14).

Mintlify documents a parameter as ``<ParamField body="upstream_client_id" type="str">``
over its description, and a step, card, tab or accordion by its ``title``; Docusaurus names a
tab by its ``<TabItem label="...">``. credo removed every tag with its attributes, so
fastmcp's 180 parameter descriptions lost the parameter they describe and its 66 steps their
titles (`bench/md_audit.py`: html-line lines 14.6% lost). A component is a capitalised tag;
a lowercase HTML tag's ``title`` is a hover tooltip and stays unread.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo.knowledge.chunk.markdown import split_markdown
from tests.conftest import CliRun

PROXY = """\
# OAuth proxy

<ParamField body="upstream_client_id" type="str" required>
  Client ID from your registered OAuth application
</ParamField>

<ParamField body="upstream_token_endpoint" type="str" required>
  URL of your provider's token endpoint
</ParamField>
"""


def texts(text: str) -> list[str]:
    return [c.text for c in split_markdown(text)]


def test_a_parameter_field_is_found_by_its_name(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "proxy.mdx").write_text(PROXY, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "upstream_client_id", "--json").stdout)
    contents = [b["content"] for b in found["beliefs"]]
    assert any("upstream_client_id\nClient ID" in t for t in contents), contents
    assert run("doctor").returncode == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            '<ParamField body="timeout" type="float">\n  Seconds to wait.\n</ParamField>',
            ["timeout Seconds to wait."],
            id="param-field",
        ),
        pytest.param(
            '<ResponseField name="is_error" type="bool">\n  Whether it failed.\n</ResponseField>',
            ["is_error Whether it failed."],
            id="response-field",
        ),
        pytest.param(
            '<Steps>\n<Step title="Create a user pool">\n  Open the console.\n</Step>\n</Steps>',
            ["Create a user pool Open the console."],
            id="step-title",
        ),
        pytest.param(
            '<Card title="Quickstart" icon="rocket" href="/start">\n  Build a server.\n</Card>',
            ["Quickstart Build a server."],
            id="card-title-not-icon",
        ),
        pytest.param(
            'Install with <TabItem value="pip" label="pip install">the tool</TabItem> now.',
            ["Install with pip install the tool now."],
            id="inline-tab-label",
        ),
        pytest.param(
            'An <abbr title="HyperText Markup Language">HTML</abbr> page and <a title="x">a</a>.',
            ["An HTML page and a."],
            id="html-title-is-a-tooltip",
        ),
        pytest.param(
            '<Note icon="info">\n  Only on Python 3.11 and later.\n</Note>',
            ["Only on Python 3.11 and later."],
            id="no-shown-attribute",
        ),
        pytest.param(
            'Write `<Step title="X">` to add one.',
            ['Write `<Step title="X">` to add one.'],
            id="in-code-span",
        ),
    ],
)
def test_component_reading(text: str, expected: list[str]) -> None:
    assert texts(text) == expected
