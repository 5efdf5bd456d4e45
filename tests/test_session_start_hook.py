"""What the person told the memory is in the next session's SessionStart block, through
the installed hook entry point: on a fresh store and on one whose beliefs were used."""

from __future__ import annotations

import json
from pathlib import Path

from credo.memory import Memory
from tests.test_hook import DEPLOY, LOCKED
from tests.test_hook_events import CORRECTION, base, captured_count, hook, wait_for

RULE = "We always run go test with -race here"


def _start(tmp_path: Path, project: Path) -> str:
    done = hook(
        tmp_path, "session-start", base(project, "SessionStart", "s2", source="startup"), project
    )
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def test_a_rule_told_in_one_session_starts_the_next_on_a_fresh_store(tmp_path: Path) -> None:
    project = tmp_path / "fresh"
    (project / ".git").mkdir(parents=True)
    Memory(project / ".credo" / "memory.db", root=project).close()  # `credo init`'s store
    prompt = f"Why are suggestions missing? {RULE}, remember that."
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    assert RULE in _start(tmp_path, project)


def test_the_rule_and_the_correction_come_before_the_used_beliefs(tmp_path: Path) -> None:
    project = tmp_path / "used"
    (project / ".git").mkdir(parents=True)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember(LOCKED, lock=True, id="rule-main")
        memory.remember(DEPLOY, doc="docs/deploy.md#L1-L9", id="deploy")
        memory.remember("We use npm for installing packages in this repository", id="old-npm")
    ask = base(project, "UserPromptSubmit", prompt="how do deploys reach production?")
    hook(tmp_path, "prompt", ask, project)
    reply = "Deploys go through staging first, then production after the smoke tests pass."
    hook(tmp_path, "stop", base(project, "Stop", last_assistant_message=reply), project)
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=CORRECTION), project)
    wait_for(lambda: captured_count(project) > 0)
    told = base(project, "UserPromptSubmit", prompt=f"{RULE}, remember that.")
    hook(tmp_path, "prompt", told, project)
    wait_for(lambda: captured_count(project) > 2)
    block = _start(tmp_path, project)
    at = [block.index(text) for text in (LOCKED, RULE, "Always use pnpm", DEPLOY)]
    assert at == sorted(at)  # the lock, the newest statement, the correction, the used one
    assert "We use npm for installing packages" not in block  # superseded by the correction
