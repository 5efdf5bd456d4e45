"""probe90 (a week on logrus through the installed hook): the team's change of tool told with
the part of the system it changes, between the verb and "from", is a change of tool too.

"We switched CI from Travis to GitHub Actions", "We moved our docs from Sphinx to MkDocs" and
"We migrated the audit service from logrus to log/slog last sprint" were not kept: the
changeover cue wanted "from" right after the verb, so that "we moved the standup from 9:30
to 10" (an event moved once) stays out. A part of the project's system (CI, docs, a service,
the build, the database...) named there, and a tool after "from", is the team's change.
Its old and new tools are read as terms too (stop 64), so the change rules the old one out:
a belief "We run CI on Travis" is superseded, as by "we moved from Travis to ...".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_hook import log_text
from tests.test_hook_events import base, captured_count, hook, wait_for


@pytest.mark.parametrize(
    "prompt",
    [
        "We switched CI from Travis to GitHub Actions.",
        "We moved our docs from Sphinx to MkDocs.",
        "We migrated the audit service from logrus to log/slog last sprint.",
        "we've moved the build from webpack to esbuild",
        "The platform team migrated the cache from Memcached to Redis.",
        "We're switching the frontend from webpack to Vite.",
    ],
)
def test_a_change_of_a_part_of_the_system_is_captured(prompt: str) -> None:
    statements = extract_statements(prompt)
    assert statements and statements[0].kind == "rule"


@pytest.mark.parametrize(
    "prompt",
    [
        "we moved the standup from 9:30 to 10 tomorrow",
        "No, we moved the meeting from Tuesday to Thursday.",
        "I moved the tests from tests/unit to tests/ this morning.",
        "I switched the CI from Travis to GitHub Actions on my fork to try it.",
        "we moved the deployment from staging to prod",
        "should we switch CI from Travis to GitHub Actions?",
        "we might move the docs from Sphinx to MkDocs at some point",
        "The marketing team moved the newsletter service from Mailchimp to Sendgrid.",
        "we moved the docs from page 3 to page 4",
        "if we switched the build from webpack to esbuild, would it be faster?",
    ],
)
def test_its_look_alikes_are_not_captured(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "old", "new"),
    [
        ("We switched CI from Travis to GitHub Actions.", "travis", "github"),
        ("We moved our docs from Sphinx to MkDocs.", "sphinx", "mkdocs"),
        ("We migrated the audit service from logrus to slog last sprint.", "logrus", "slog"),
        ("we've moved the build from webpack to esbuild", "webpack", "esbuild"),
        ("We're switching the frontend from webpack to Vite.", "webpack", "vite"),
    ],
)
def test_the_old_tool_is_ruled_out_and_the_new_one_prescribed(
    prompt: str, old: str, new: str
) -> None:
    """Before: both term lists were empty, so the change superseded nothing."""
    [got] = extract_statements(prompt)
    assert old in got.negated and old not in got.asserted
    assert new in got.asserted and new not in got.negated


def test_through_the_installed_hook_the_change_of_a_part_supersedes(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        memory.remember("Our CI runs on Travis", id="old")
    prompt = "We switched CI from Travis to GitHub Actions."
    done = hook(tmp_path, "prompt", base(root, "UserPromptSubmit", prompt=prompt), root)
    assert done.returncode == 0
    wait_for(lambda: captured_count(root) > 0)
    assert "error" not in log_text(tmp_path)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        served = memory.retrieve("where does our CI run").beliefs
        assert served[0].content == prompt
        assert "Our CI runs on Travis" not in [b.content for b in served]
        edges = memory.edges(served[0].id)
    assert [(e.dst, e.type.value) for e in edges] == [("old", "SUPERSEDES")]
