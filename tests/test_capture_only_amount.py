"""The word "only" between a copula and an amount says how small a thing is, not what is ruled out
("tokens that are only a few minutes old"): no contrast, so a bug report is not a rule.
"only" after a verb is a limit and still contrasts ("keep only 5 backups", "use X only for Y").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.agent.capture import capture_prompt
from credo.knowledge.capture import cues, extract_statements
from credo.memory import Memory
from tests.test_hook_events import base, captured_count, hook, wait_for

REPORT = (
    "loads() keeps raising SignatureExpired for tokens that are only a few minutes old in "
    "production. Is max_age in seconds?"
)


@pytest.mark.parametrize(
    "prompt",
    [
        REPORT,
        "parse() keeps returning None for dates that are only a few hours old.",
        "The worker is only one process.",
        "It's only a warning.",
        "The retries were only 2 seconds apart.",
        "The cache is only about 40 MB.",
    ],
)
def test_only_before_an_amount_after_a_copula_is_no_contrast(prompt: str) -> None:
    assert "contrast_shape" not in (cues(prompt.split("?")[0] + ".") or set())
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "Use X only for Y.",
        "Keep only 5 backups.",
        "Keep only one migration per PR.",
        "We support only two Python versions.",
        "Deploy only one service at a time.",
        "Builds are only triggered from main.",
        "Tokens are only valid for an hour.",
        "Releases are only cut from main.",
        "We deploy on Fridays only.",
    ],
)
def test_only_as_a_limit_still_contrasts(prompt: str) -> None:
    assert "contrast_shape" in (cues(prompt) or set())
    assert [s.kind for s in extract_statements(prompt)] == ["rule"]


def test_the_bug_report_is_not_captured_through_capture_prompt(tmp_path: Path) -> None:
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        assert capture_prompt(memory, REPORT, session="s1", transcript=None, turn=None) == []
        assert memory.stats().beliefs == 0


def test_the_bug_report_is_not_captured_through_the_hook(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    Memory(root / ".credo" / "memory.db", root=root).close()
    rule = "We always use URLSafeTimedSerializer for email links in this repository."
    prompt = f"{REPORT} {rule}"  # the rule's capture tells when the detached write is done
    done = hook(tmp_path, "prompt", base(root, "UserPromptSubmit", prompt=prompt), root)
    assert done.returncode == 0
    wait_for(lambda: captured_count(root) > 0)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        rows = memory.store.conn.execute("SELECT content FROM beliefs").fetchall()
    contents = [str(r[0]) for r in rows]
    assert not any("keeps raising" in c for c in contents)
    assert any("URLSafeTimedSerializer" in c for c in contents)


@pytest.mark.parametrize(
    "prompt",
    [
        "loads() keeps raising SignatureExpired instead of BadSignature.",
        "Celery keeps retrying tasks over and over.",
        "The build keeps failing on Windows, not Linux.",
    ],
)
def test_what_a_named_thing_keeps_doing_is_a_report(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "kind"),
    [
        ("You keep using npm instead of pnpm.", "correction"),
        ("Keep using pnpm, not npm.", "rule"),
        ("Please keep using ruff over black.", "rule"),
        ("We keep using the staging db instead of prod for tests.", "rule"),
        ("The CLI must keep working on Python 3.9, not 3.8.", "rule"),
        ("Tests should keep passing without network, not just on CI.", "rule"),
    ],
)
def test_keep_as_a_reproach_a_habit_or_a_rule_is_still_captured(prompt: str, kind: str) -> None:
    assert [s.kind for s in extract_statements(prompt)] == [kind]
