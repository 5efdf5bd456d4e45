"""probe83 (a week on APScheduler through the installed hook): "quickly" right after the verb
of "must" or "should" is the manner a rule prescribes, not haste for this turn.

The user answered the agent's plan to call ``time.sleep`` inside a job with "No, don't put
time.sleep in jobs: jobs must return quickly and retry through the scheduler instead." It
was not kept: ``guards.ONE_OFF`` read "quickly" as "do it quickly" and vetoed the sentence.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_hook_events import base, captured_count, hook, wait_for

SLEEP = (
    "No, don't put time.sleep in jobs: jobs must return quickly and retry through the "
    "scheduler instead."
)


@pytest.mark.parametrize(
    ("prompt", "kind"),
    [
        (SLEEP, "correction"),
        ("Handlers should always respond quickly, never block on IO.", "rule"),
        ("Our API handlers must return quickly, never wait for the database.", "rule"),
    ],
)
def test_a_manner_a_modal_prescribes_is_kept(prompt: str, kind: str) -> None:
    [statement] = extract_statements(prompt)
    assert statement.kind == kind


@pytest.mark.parametrize(
    "prompt",
    [
        "You must fix it quickly.",
        "Please quickly check the pii tags on the new columns.",
        "We should ship this quickly.",
        "I always forget the difference between srun and sbatch, can you explain quickly",
        "Quickly run the tests, we must merge soon.",
    ],
)
def test_haste_for_this_turn_is_still_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    subject=st.sampled_from(["jobs", "handlers", "our workers", "the hooks", "health checks"]),
    modal=st.sampled_from(["must", "should", "must always", "should always"]),
    verb=st.sampled_from(["return", "respond", "fail", "finish", "exit"]),
    rest=st.sampled_from(["never block on IO", "never sleep", "never wait for the network"]),
)
def test_a_prescribed_manner_keeps_a_rule_that_keeps_without_it(
    subject: str, modal: str, verb: str, rest: str
) -> None:
    """Adding "quickly" as the manner of the modal's verb loses no rule that holds without it."""
    plain = f"{subject.capitalize()} {modal} {verb}, {rest}."
    quick = f"{subject.capitalize()} {modal} {verb} quickly, {rest}."
    assert bool(extract_statements(quick)) == bool(extract_statements(plain))


def test_through_the_installed_hook_the_correction_is_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember("Jobs are added at startup in app/scheduler.py.", id="startup")
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=SLEEP), project)
    wait_for(lambda: captured_count(project) > 0)
    ask = base(project, "UserPromptSubmit", prompt="Can a job sleep while it waits?", session="s2")
    block = hook(tmp_path, "prompt", ask, project).stdout.decode()
    assert "jobs must return quickly" in block
