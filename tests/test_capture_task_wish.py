"""probe87 (a week on clap through the installed hook): the change the speaker is about to
make to the thing at hand is this turn's task, not a preference.

Monday's "Where is the help output wrapped to the terminal width? I want to change how the
width is computed." kept its second sentence as a preference ("I want" + the speaker), and
every SessionStart after it served "I want to change how the width is computed." as the
user's standing taste. ``taste.wish_for_referent`` now also reads "I want to / I'd like to"
+ a verb of change + the thing at hand ("how", "the", "this"...) as a wish about this turn,
unless a word for later sessions or the speaker's own part says more ("every time",
"myself").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_capture_agent_day import _project
from tests.test_hook_events import base, captured_count, hook, wait_for

WIDTH = (
    "Where is the help output wrapped to the terminal width? I want to change how the width "
    "is computed."
)


@pytest.mark.parametrize(
    "prompt",
    [
        WIDTH,
        "I want to change how the width is computed.",
        "I'd like to fix the sync retry, it gives up after one failure.",
        "I want to refactor this parser before the release.",
        "We want to rename the config loader.",
        "I would like to speed up the test suite.",
    ],
)
def test_a_wish_to_change_the_thing_at_hand_is_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "I want to update the changelog myself.",
        "I want to see the plan before you touch more than two files.",
        "I want to fix bugs before features, every time.",
        "We want to change the way errors are formatted, always with the ContextKind.",
        "ok so my thing is: I want to run the migrations myself.",
        "I want to remove the default exports everywhere.",
        "We want to replace the ORM calls in this repo with raw SQL.",
        "I'd like to update the docs across the codebase.",
    ],
)
def test_a_wish_for_later_sessions_or_the_speakers_own_part_is_still_kept(prompt: str) -> None:
    [statement] = extract_statements(prompt)
    assert statement.kind == "preference"


@given(
    wish=st.sampled_from(["I want to", "I really want to", "I'd like to", "We want to"]),
    verb=st.sampled_from(["change", "fix", "refactor", "rewrite", "update", "simplify"]),
    thing=st.sampled_from(["how the width is computed", "the sync retry", "where usage is built"]),
    later=st.sampled_from([" every time", " from now on", " myself"]),
)
def test_the_wish_is_a_task_and_a_word_for_later_makes_it_a_preference(
    wish: str, verb: str, thing: str, later: str
) -> None:
    assert extract_statements(f"{wish} {verb} {thing}.") == []
    assert [s.kind for s in extract_statements(f"{wish} {verb} {thing}{later}.")] == ["preference"]


def test_through_the_installed_hook_the_wish_is_not_captured(tmp_path: Path) -> None:
    project = _project(tmp_path, {"rule": "We never call unwrap() in library code."})
    # a rule in the same prompt: once it is captured, the wish has had its turn
    prompt = f"{WIDTH} From now on always run cargo fmt before committing."
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        rows = memory.store.conn.execute(
            "SELECT b.content FROM captures c JOIN beliefs b ON b.id = c.belief_id"
        ).fetchall()
    assert [r[0] for r in rows] == ["From now on always run cargo fmt before committing."]


# review87: the narrowing dropped wishes that fa34e61 kept as preferences and that say where
# or when they hold beyond this turn, in words the list above did not name: "in all new
# repos", "wherever possible", "in the next major version", "for all services" (a word the
# durable cue reads).
@pytest.mark.parametrize(
    "prompt",
    [
        "I want to change the default branch to main in all new repos.",
        "I'd like to simplify the code wherever possible.",
        "I'd like to move the settings to environment variables in all services.",
        "We want to remove the deprecated APIs in the next major version.",
        "We want to update the changelog as a rule.",
        "I'd like to add type hints by default.",
    ],
)
def test_a_wish_that_says_where_or_when_it_holds_is_still_kept(prompt: str) -> None:
    [statement] = extract_statements(prompt)
    assert statement.kind == "preference"


@given(
    wish=st.sampled_from(["I want to", "I'd like to", "We want to"]),
    verb=st.sampled_from(["change", "update", "simplify", "remove"]),
    thing=st.sampled_from(["the error messages", "how the logs are named", "the config loader"]),
    scope=st.sampled_from(
        [
            " in all services",
            " wherever possible",
            " in the next release",
            " by default",
            " as a rule",
            " in all new repos",
        ]
    ),
)
def test_a_scope_beyond_this_turn_keeps_the_wish_a_preference(
    wish: str, verb: str, thing: str, scope: str
) -> None:
    assert extract_statements(f"{wish} {verb} {thing}.") == []
    assert [s.kind for s in extract_statements(f"{wish} {verb} {thing}{scope}.")] == ["preference"]
