"""A setting the team's files keep, told with "set" (probe89, a week on markdownlint): "Note for
the team: our docs set MD013 line_length to 80 and turn code_blocks off." was lost (a plural
subject's "set" was no habit, as "use" or "run" is), so Thursday's "No, that's wrong: our docs
line length is 120 now, not 80." replaced nothing. Told of a past day, or asked, it stays out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_hook_events import base, captured_count, hook, wait_for

NOTE = "Note for the team: our docs set MD013 line_length to 80 and turn code_blocks off."
CORRECTION = "No, that's wrong: our docs line length is 120 now, not 80."


@pytest.mark.parametrize(
    "prompt",
    [NOTE, "our tests set the timezone to UTC.", "Our fixtures set TZ to UTC before each test."],
)
def test_a_setting_the_teams_files_keep_is_captured(prompt: str) -> None:
    [got] = extract_statements(prompt)
    assert got.kind == "rule" and "habitual" in got.signals


@pytest.mark.parametrize(
    "prompt",
    [
        "our builds set the flag to false yesterday",
        "did our docs set MD013 to 80?",
        "the tests set the env var and CI broke",
        "set the line length to 80 in our docs",
        "if our docs set MD013 to 80, the tables wrap",
        # an idiom of "set", not a setting
        "our docs set a bad example with those long lines",
        "our docs set expectations too high",
        "our builds set off the alarm again",
    ],
)
def test_a_past_day_a_question_or_a_task_is_not(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        # "set" is its own past: a time gone by tells what was (review90)
        "Our docs set MD013 line_length to 80 last year, before the redesign.",
        "Our docs set MD013 line_length to 80 two years ago.",
        "Our docs set MD013 line_length to 80 back then.",
        "Our docs set MD013 line_length to 80 in 2023.",
        "Our docs set MD013 line_length to 80 before the redesign.",
        # an idiom or a phrasal verb of "set", no name set to a value
        "Our docs set aside a section for migration notes.",
        "Our docs set sail for a rewrite next quarter.",
        "Our release notes set the stage for the 2.0 launch.",
        "Our docs set fire to the build.",
        "Our docs set up the build.",
        "Our docs set in motion a rewrite.",
        "Our docs set the trend.",
        "Our docs set the scene to come.",
        "Our changes set the project back to square one.",
        "Our parents set the rules to protect us.",
        "Our builds set the version to 1.2.3 by mistake.",
        # others' settings
        "Their docs set MD013 line_length to 100.",
        "Their docs use tabs.",
        "Other projects set line_length to 120.",
        "Upstream docs set line_length to 100.",
        "Other teams use Jenkins.",
        # "sets": an idiom, a slip, a question or a condition
        "Our CI sets off alarms every night.",
        "Our docs set a bad example for others to follow.",
        "Our CI sets the tone for the whole team.",
        "Our CI sets up the cluster.",
        "Our CI sets the version to 1.2.3 by mistake.",
        "Our CI sets NODE_ENV to test, right?",
        "If our CI sets NODE_ENV to test, the build fails.",
    ],
)
def test_a_time_gone_by_an_idiom_or_others_setting_is_not(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "Our repos set the line ending to LF via .gitattributes.",
        "Our other services use Redis.",  # ours, told apart from others'
        # one of ours, told with "sets" (which has no past)
        "Our prettier config sets printWidth to 100.",
        "Our Makefile sets CFLAGS to -O2 -Wall.",
        "Our editorconfig sets indent_size to 2 for YAML files.",
        # a longer name set ("set" was kept so at 0a800003)
        "Our tests set the TZ environment variable to UTC.",
    ],
)
def test_a_name_set_to_a_value_or_our_own_habit_is_kept(prompt: str) -> None:
    [got] = extract_statements(prompt)
    assert "habitual" in got.signals


def test_through_the_installed_hook_the_correction_replaces_the_note(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    Memory(root / ".credo" / "memory.db", root=root).close()
    for count, prompt in enumerate((NOTE, CORRECTION), 1):
        done = hook(tmp_path, "prompt", base(root, "UserPromptSubmit", prompt=prompt), root)
        assert done.returncode == 0
        wait_for(lambda count=count: captured_count(root) >= count)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        served = [b.content for b in memory.retrieve("what line length do our docs use").beliefs]
    assert served[0] == CORRECTION
    assert NOTE not in served  # replaced, not served
