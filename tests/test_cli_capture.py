"""``credo captured`` and ``credo lock --captured`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.agent import capture
from credo.knowledge.capture import Statement
from tests.conftest import CliRun

NPM_PROMPT = "No, we never use npm in this repository. Always use pnpm for installing packages."
PNPM_RULE = "Never use yarn in CI. Always use pnpm for the build."


def seed(run: CliRun, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    """Two sessions' captures over an older belief, the statements given directly (what
    the classifier makes of a prompt is its own tests' business)."""
    table = {
        NPM_PROMPT: Statement(NPM_PROMPT, "correction", "user_corrected", ("npm",), ("pnpm",), ()),
        PNPM_RULE: Statement(PNPM_RULE, "rule", "user_stated", ("yarn",), ("pnpm",), ()),
    }
    monkeypatch.setattr(capture, "extract_statements", lambda prompt: [table[prompt]])
    with Memory(run.db, root=run.cwd) as memory:
        old = memory.remember("We use npm to install packages")
        [a] = capture.capture_prompt(
            memory, NPM_PROMPT, session="s1", transcript="/var/t/s1.jsonl", turn=3
        )
        [b] = capture.capture_prompt(memory, PNPM_RULE, session="s2", transcript=None, turn=None)
    return old, a.belief_id, b.belief_id


def test_captured_lists_with_session_kind_lock_and_anchor(
    run: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, a, b = seed(run, monkeypatch)
    text = run("captured", check=True).stdout
    assert f"{a}  correction  session s1" in text
    assert "said at file:///var/t/s1.jsonl turn 3" in text
    assert f"replaces {old}" in text
    assert "lock them all: credo lock --captured" in text
    data = json.loads(run("captured", "--json", check=True).stdout)["captures"]
    assert [(c["belief_id"], c["session"], c["kind"], c["locked"]) for c in data] == [
        (a, "s1", "correction", False),
        (b, "s2", "rule", False),
    ]
    assert data[0]["anchor"] == "file:///var/t/s1.jsonl turn 3" and data[1]["anchor"] is None
    assert data[0]["text"] == NPM_PROMPT and data[0]["supersedes"] == [old]
    only = json.loads(run("captured", "--session", "s2", "--json", check=True).stdout)
    assert [c["belief_id"] for c in only["captures"]] == [b]
    assert run("captured", "--session", "s9", check=True).stdout.strip() == (
        "no captured beliefs in session s9"
    )


def test_lock_captured_locks_them_all_once(run: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    _, a, b = seed(run, monkeypatch)
    done = run("lock", "--captured", "--session", "s2", check=True).stdout
    assert done.strip() == f"locked {b}  {PNPM_RULE}"
    data = json.loads(run("lock", "--captured", "--json", check=True).stdout)
    assert data == {"locked": [{"id": a, "content": NPM_PROMPT}]}
    again = run("lock", "--captured")
    assert again.returncode == 0
    assert again.stdout.strip() == "nothing to lock: no captured belief is unlocked"
    assert json.loads(run("lock", "--captured", "--json", check=True).stdout) == {"locked": []}
    listed = json.loads(run("captured", "--json", check=True).stdout)["captures"]
    assert all(c["locked"] for c in listed)
    assert "lock them all" not in run("captured", check=True).stdout


def test_lock_by_id_still_works_and_usage_is_checked(run: CliRun, tmp_path: Path) -> None:
    belief = run("remember", "Staging first", check=True).stdout.strip()
    assert run("lock", belief, check=True).stdout.strip() == f"locked {belief}"
    assert json.loads(run("lock", belief, "--json", check=True).stdout)["locked"] is True
    for args in (("lock",), ("lock", belief, "--captured"), ("lock", belief, "--session", "s")):
        done = run(*args)
        assert done.returncode == 2, args
        assert "give either a belief ID or --captured" in done.stderr
    done = run("lock", "no-such-id")
    assert done.returncode == 1 and done.stderr == "Error: no belief with id 'no-such-id'\n"


def test_an_empty_store_has_nothing_captured(run: CliRun) -> None:
    run("init", check=True)
    assert run("captured", check=True).stdout.strip() == "no captured beliefs"
    assert json.loads(run("captured", "--json", check=True).stdout) == {"captures": []}
    assert run("lock", "--captured", check=True).stdout.startswith("nothing to lock")
