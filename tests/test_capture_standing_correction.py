"""probe87 (a week on clap through the installed hook): a correction of the agent that also
says what holds for good is kept, even when it names this turn's file or thing.

Tuesday's agent said "I'll add a new Command::suggestion_threshold(f64) setting ... and call
.unwrap() on the parsed value in suggestions.rs."; the user answered "No, that's wrong: don't
add a new Command setting for this; keep the threshold a constant in suggestions.rs and never
unwrap in library code." Not kept: "for this" and "suggestions.rs" with an imperative read as
a task on this turn's referent ("fix auth.py"). A correction with a word for good ("never",
"always", "from now on") is more than that task; "never mind" is no such word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from tests.test_capture_agent_day import _project
from tests.test_hook_events import base, captured_count, hook, wait_for

THRESHOLD = (
    "No, that's wrong: don't add a new Command setting for this; keep the threshold a "
    "constant in suggestions.rs and never unwrap in library code."
)


@pytest.mark.parametrize(
    "prompt",
    [
        THRESHOLD,
        "No, don't touch auth.py for this; we never edit generated files by hand.",
        "That's wrong: don't add the helper to parser.rs, always put helpers in utils.rs.",
    ],
)
def test_a_correction_that_says_what_holds_for_good_is_kept(prompt: str) -> None:
    [statement] = extract_statements(prompt)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    "prompt",
    [
        "No, never mind the tests, just fix auth.py for now.",
        "No, fix this in auth.py, never mind the rest.",
        "No, that's wrong: rename this function in parser.rs.",
        "Fix auth.py, the login is broken.",
    ],
)
def test_a_task_on_this_turns_referent_is_still_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    lead=st.sampled_from(["No, that's wrong:", "No,", "That's wrong:"]),
    task=st.sampled_from(
        [
            "don't add a setting for this",
            "don't touch parser.rs for this",
            "don't add a new Command setting for this",
        ]
    ),
    rule=st.sampled_from(
        [
            "never unwrap in library code",
            "we never edit generated files",
            "always return a clap::Error to the caller",
        ]
    ),
)
def test_the_word_for_good_keeps_the_correction(lead: str, task: str, rule: str) -> None:
    assert [s.kind for s in extract_statements(f"{lead} {task}; {rule}.")] == ["correction"]
    assert extract_statements(f"{lead} {task}.") == []


def test_through_the_installed_hook_the_correction_is_kept(tmp_path: Path) -> None:
    project = _project(tmp_path, {"rule": "We run cargo fmt before committing."})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=THRESHOLD), project)
    wait_for(lambda: captured_count(project) > 0)
    assert captured_count(project) == 1


# review87: the word for good may tell what was done, not what holds: a reproach under a task
# on this turn's file is that task (fa34e61 kept none of these; the exemption kept each as a
# correction, negating "have" or "said").
@pytest.mark.parametrize(
    "prompt",
    [
        "No, revert auth.py, you should never have touched it.",
        "No, undo the change to config.py, you should never have made it.",
        "No, revert auth.py: you shouldn't have touched it, never.",
        "No, revert auth.py, I never said to touch it.",
        "No, put this back in utils.py, we have always kept it there.",
    ],
)
def test_a_word_for_good_said_of_what_was_done_keeps_the_task_a_task(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    lead=st.sampled_from(["No,", "No, that's wrong:", "Nope,"]),
    task=st.sampled_from(
        ["revert auth.py", "undo the change to parser.rs", "remove the flag in cli.py"]
    ),
    past=st.sampled_from(
        [
            "you should never have touched it",
            "you should never have changed it",
            "I never asked for that",
            "I never said to change it",
            "we have always had it that way",
        ]
    ),
)
def test_a_reproach_is_no_rule_for_good(lead: str, task: str, past: str) -> None:
    assert extract_statements(f"{lead} {task}, {past}.") == []
    # (the same task with a rule for good is a correction)
    said = f"{lead} {task}, and never touch generated files."
    assert [s.kind for s in extract_statements(said)] == ["correction"]
