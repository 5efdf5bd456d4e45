"""twice87 (days87's month of a terse user on rq): a decision changed, then changed back.

"nah, we're switching to a separate rqscheduler process, not --with-scheduler" was not kept:
the change under way (``changeover.CHANGING_OVER``) read no article after "to" (the guard
against "we're moving to a new office") and no old value opening with "-" (a flag). A change
whose old value is a name of code ("--with-scheduler", "retry()", "json.dumps") is one of the
project's code, whatever article the new one has; with an old value in words ("not the old
one", "not downtown") the article still guards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.agent.capture import capture_prompt
from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for

SCHEDULER = "nah, we're switching to a separate rqscheduler process, not --with-scheduler"


@given(
    lead=st.sampled_from(["", "nah, ", "ok so "]),
    article=st.sampled_from(["a", "an", "the"]),
    new=st.sampled_from(["separate process", "standalone worker", "scheduler service"]),
    old=st.sampled_from(["--with-scheduler", "--burst", "json.dumps", "retry()", "run_sync"]),
    ruling_out=st.sampled_from([", not", " instead of", " rather than"]),
)
def test_an_article_is_read_only_with_a_name_of_code_ruled_out(
    lead: str, article: str, new: str, old: str, ruling_out: str
) -> None:
    said = f"{lead}we're switching to {article} {new}{ruling_out} {old}"
    # the statement names a call without its parentheses
    assert [s.negated for s in extract_statements(said)] == [(old.removesuffix("()"),)]
    for words in ("the old one", "downtown", "a house"):
        assert (
            extract_statements(f"{lead}we're switching to {article} {new}{ruling_out} {words}")
            == []
        )


# "scratch that, keep --with-scheduler. the separate process kept missing jobs" (days87's d10)
# was vetoed as a repair of this message ("scratch that"). When it takes back a decision the
# memory holds (a change that left --with-scheduler), it is a change back: it is kept, and it
# replaces that decision (rule 6, as "Actually, go back to black" does). Without one it stays
# a repair of this turn: nothing is kept.
KEEP_BACK = "scratch that, keep --with-scheduler. the separate process kept missing jobs"


@pytest.mark.parametrize(
    "prompt",
    [
        KEEP_BACK,
        "scratch that, keep --with-scheduler",
        "nah scratch that, keep --with-scheduler.",
        "scratch that. keep --with-scheduler",
        "never mind that, keep --with-scheduler",
        "scratch that, let's keep --with-scheduler",
        "scratch that, stick with --with-scheduler",
    ],
)
def test_keeping_a_value_a_stored_change_left_replaces_that_change(
    tmp_path: Path, prompt: str
) -> None:
    project = _project(tmp_path, {"decision": SCHEDULER})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "decision")}


@pytest.mark.parametrize(
    "prompt",
    [
        "scratch that, keep --with-scheduler",  # no decision left it
        "scratch that, keep the first paragraph",
        "scratch that, keep it",
        "scratch that, keep going",
        "scratch that, keep the old one",
        "scratch that, make it blue",
        "scratch that, keep both",
        "scratch that, keep --with-scheduler and rerun the tests",
    ],
)
def test_without_a_decision_it_left_keeping_is_a_repair(tmp_path: Path, prompt: str) -> None:
    project = _project(tmp_path, {"other": "We use pytest for the tests."})
    assert _captured(project, prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "scratch that, keep the first paragraph",
        "scratch that, keep it",
        "scratch that, keep both",
        "scratch that, keep --with-scheduler and rerun the tests",
        "keep --with-scheduler",
        "scratch that",
    ],
)
def test_no_decision_is_taken_back_without_the_whole_form(tmp_path: Path, prompt: str) -> None:
    """A stored change that left the value does not make any "keep" a change back."""
    assert _captured(_project(tmp_path, {"decision": SCHEDULER}), prompt) == []


def test_the_terse_form_alone_is_no_statement() -> None:
    """The classifier (stateless) keeps none of it: only the store can say it takes back."""
    assert extract_statements(KEEP_BACK) == []


def _captured(project: Path, prompt: str) -> list[str]:
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        found = capture_prompt(memory, prompt, session="s", transcript=None, turn=None)
    return [c.text for c in found]
