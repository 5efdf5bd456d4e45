"""twice87: a terse user's standing rule without "always" (days87's month on rq): "dont mock
redis in tests, use fakeredis" and "use npm for the docs tooling" scored 0.78 and under,
against the threshold of 1.18. What they lacked: a named thing put in the place of a
practice ("dont X, use NAME": X ruled out, as "use NAME, not X" does), or a tool given its
role ("use NAME for a purpose": the others ruled out for it, as "we decided to use black for
formatting" does). A command of this turn names no tool (``use the logger``), or ties itself
to the turn ("here", "this time", "yet", "for now", "this one"), or undoes a thing at hand
("dont delete it, use git mv"). The rows below were written before any run
(/tmp/s61/twice87/terse_rules_labelled.txt); the few positives still left out are named in
the report, not here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements


@pytest.mark.parametrize(
    "prompt",
    [
        "dont mock redis in tests, use fakeredis",
        "use npm for the docs tooling",
        "use pnpm for the frontend",
        "use ruff for linting",
        "dont commit .env files, use .env.example",
        "use uv for installing deps",
        # kept before too
        "dont use print in rq/, use the logger",
        "use fakeredis in tests, not a real redis",
        "dont call time.sleep in tests, use freezegun",
        "use httpx for http calls, not requests",
        "use pytest fixtures for redis, not globals",
        "dont use os.system, use subprocess.run",
    ],
)
def test_a_terse_standing_rule_is_kept(prompt: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [prompt]


@pytest.mark.parametrize(
    "prompt",
    [
        "use the logger here",
        "dont run that yet",
        "use this one",
        "use the other branch",
        "dont touch that file",
        "use npm for this one",
        "use the fix from before",
        "dont mock it, use the real one this time",
        "use fakeredis for now",
        "dont push yet, use a draft pr",
        "use the second option",
        "use that instead",
        "dont do that, use the helper",
        "use ctrl-c to stop it",
        "use -v to see more",
        "dont worry, use whatever",
        "use the staging url for the demo",
        "dont merge it, use rebase this time",
        "use my branch",
        "use npm for the install step here",
        "dont rerun the tests, use the cached output",
        "use the new file i sent",
        "dont open a pr, use the draft",
        "use a smaller batch for this run",
        "use it",
        "use 900 for the timeout in this test",
        "dont mock redis in this test, use fakeredis here",
        "use the docs tooling",
        "use npm to install it now",
        "dont delete it, use git mv",
        "use the snippet above",
        "dont rerun it, use cached",
        "use fakeredis for this",
        "use 3 for the retries today",
        "dont wait, use ctrl-c",
    ],
)
def test_a_command_of_this_turn_is_not(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    tool=st.sampled_from(["npm", "pnpm", "ruff", "fakeredis", "uv", "black"]),
    purpose=st.sampled_from(["the docs tooling", "linting", "the frontend", "installing deps"]),
    turn=st.sampled_from([" here", " this time", " for now", " today", " in this test"]),
)
def test_a_tool_given_its_role_is_kept_unless_tied_to_the_turn(
    tool: str, purpose: str, turn: str
) -> None:
    said = f"use {tool} for {purpose}"
    assert [s.text for s in extract_statements(said)] == [said]
    assert extract_statements(said + turn) == []
    assert extract_statements(f"use the {tool} for {purpose}") == []


@given(
    practice=st.sampled_from(["mock redis in tests", "commit .env files", "pin deps"]),
    name=st.sampled_from(["fakeredis", ".env.example", "uv", "REDIS_URL"]),
    turn=st.sampled_from([" here", " this time", " yet", " now"]),
)
def test_a_named_thing_in_a_practices_place_is_kept_unless_tied_to_the_turn(
    practice: str, name: str, turn: str
) -> None:
    said = f"dont {practice}, use {name}"
    assert [s.text for s in extract_statements(said)] == [said]
    assert extract_statements(said + turn) == []
    assert extract_statements(f"dont {practice}, use the {name}") == []
    assert extract_statements(f"dont {practice}{turn}, use {name}") == []
