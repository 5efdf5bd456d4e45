"""MyST colon fences (``:::{note}`` ... ``:::``), the form MyST recommends for directives whose
content is Markdown, are read as their backtick twins are: the fence lines are markup, not
text. structlog's docs wrote ``:::{note} `capture_logs()` relies on ... :::`` into a passage
and into every block that showed it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo.knowledge.chunk.markdown import split_markdown
from tests.conftest import CliRun

TESTING = """\
# Testing

You can use the capture_logs context manager:

:::{note}
`capture_logs()` relies on changing the configuration.
It is recommended you do not enable caching during tests.
:::

Use the pytest fixture below.
"""


def test_a_colon_fenced_note_is_read_without_its_fence(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "testing.md").write_text(TESTING, encoding="utf-8")
    run("ingest", "docs", check=True)
    found = json.loads(run("search", "capture_logs configuration caching", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert texts, found
    assert not any(":::" in t or "{note}" in t for t in texts), texts
    assert any("relies on changing the configuration" in t for t in texts), texts
    assert run("doctor").returncode == 0


def brief(text: str) -> list[tuple[str, int, int, str]]:
    return [(c.text, c.start_line, c.end_line, c.role) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Intro:\n:::{note}\nA note to read.\n:::\nAfter.",
            [
                ("Intro:", 1, 1, "paragraph"),
                ("A note to read.", 3, 3, "paragraph"),
                ("After.", 5, 5, "paragraph"),
            ],
            id="note-glued-to-paragraphs",
        ),
        pytest.param(
            ":::{admonition} Titled note\n:class: tip\nBody of the note.\n:::",
            [("Titled note", 1, 1, "paragraph"), ("Body of the note.", 3, 3, "paragraph")],
            id="titled-with-option",
        ),
        pytest.param(
            "# T\n\n:::{warning}\n## Not a section\n:::",
            [("T", 1, 1, "heading"), ("Not a section", 4, 4, "paragraph")],
            id="heading-inside-is-a-paragraph",
        ),
        pytest.param(
            "::::{tab-set}\n:::{tab-item} Linux\nRun the script.\n\n```sh\n./run\n```\n:::\n::::",
            [
                ("Linux", 2, 2, "paragraph"),
                ("Run the script.", 3, 3, "paragraph"),
                ("./run", 5, 7, "code"),
            ],
            id="nested-with-code",
        ),
        pytest.param(
            "```markdown\n:::{note}\nshown as written\n:::\n```",
            [(":::{note}\nshown as written\n:::", 1, 5, "code")],
            id="inside-code-is-code",
        ),
        pytest.param(
            ":::{note}\nNever closed, read as written.",
            [(":::{note} Never closed, read as written.", 1, 2, "paragraph")],
            id="unclosed-left-alone",
        ),
        pytest.param(
            ":::{glossary}\n:sorted:\nslotted classes\n  A class with no `__dict__`.\n:::",
            [("slotted classes A class with no `__dict__`.", 3, 4, "paragraph")],
            id="other-directive-keeps-its-prose",
        ),
        pytest.param(
            # probe75 (structlog's docs/processors.md): an argument holding a backtick made
            # a backtick fence CommonMark does not open; its closing line opened a code
            # block that swallowed the next note, and the first was kept as "```{...".
            ":::{versionchanged} 14.0.0 Return a {any}`dict`.\n:::\n\n"
            ":::{versionchanged} 20.2.0 Return {any}`bytes`.\n:::\n\nAfter.",
            [
                ("versionchanged 14.0.0 Return a dict.", 1, 1, "paragraph"),
                ("versionchanged 20.2.0 Return bytes.", 4, 4, "paragraph"),
                ("After.", 7, 7, "paragraph"),
            ],
            id="version-notes-with-backticks",
        ),
        pytest.param(
            "::::{note}\n:::{versionadded} 2.0 `x`\n~~~~\ncode\n~~~~\n:::\nAfter.\n::::",
            [
                ("versionadded 2.0 `x`", 2, 2, "paragraph"),
                ("code", 3, 5, "code"),
                ("After.", 7, 7, "paragraph"),
            ],
            id="tilde-fence-longer-than-the-tildes-inside",
        ),
        pytest.param(
            "```{versionadded} 1.2\nNew in this release.\n```",
            [("versionadded 1.2", 1, 1, "paragraph"), ("New in this release.", 2, 2, "paragraph")],
            id="version-label-as-the-rst-reader-gives-it",
        ),
        pytest.param(
            "- Item one\n\n  :::{tip}\n  Inside the item.\n  :::",
            [("Item one", 1, 1, "bullet"), ("Inside the item.", 4, 4, "paragraph")],
            id="in-a-list-item",
        ),
    ],
)
def test_colon_fences(text: str, expected: list[tuple[str, int, int, str]]) -> None:
    assert brief(text) == expected
