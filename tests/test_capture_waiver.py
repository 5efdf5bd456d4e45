"""Round 11's check (credo.knowledge.waiver): a sentence that takes back its own force is not
captured: a waiver ("it's fine", "no strong opinion"), the speaker's own mistake ("my fault",
"I sent you the wrong log"), or a judgement of today's state with nothing prescribed ("the
exporter returns garbage"). Each case has a twin that must still be captured, so a check that
swallows rules fails here too."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements
from credo.knowledge.waiver import waived

# (a prompt that states no rule, its twin that does)
PAIRS = [
    # a waiver: the speaker says the point does not bind
    (
        "we merge on Fridays all the time here, it's fine",
        "We never merge on Fridays here.",
    ),
    (
        "ok that's fine as is",
        "Config files are YAML, not TOML.",
    ),
    (
        "just curious, no strong opinion on tabs vs spaces here",
        "Tabs, not spaces, in the Makefile.",
    ),
    (
        "a preference, not a decision",
        "I prefer small PRs over big ones.",
    ),
    (
        "the demo is next week so none of this needs to be perfect",
        "Every public function needs a docstring.",
    ),
    # not the speaker's to set
    (
        "The vendor's guide says table names must be plural. Anyway it's their schema not mine.",
        "Table names are always singular in our schema.",
    ),
    (
        "the other team never squashes, not my call though",
        "We never squash merges in this repo.",
    ),
    (
        "The marketing site is on WordPress, not our problem.",
        "The marketing site is on WordPress, not Hugo.",
    ),
    # conceded, then prescribed: the "but" clause still binds
    (
        "I always wondered why zig builds are so quick, not now though",
        "Chatting in French with me is fine, but commit messages always stay in English.",
    ),
    # the speaker's own mistake, not the agent's
    (
        "wrong port! I'm on 8080 not 3000, sorry, my fault, carry on",
        "No, the dev server is on port 3000, not 8080.",
    ),
    (
        "that's wrong — the sprite sheet is 32x32 not 16x16, I exported the wrong file.",
        "that's wrong — sprite sheets in this repo are always 32x32, not 16x16.",
    ),
    # a judgement of today's state, with nothing prescribed
    (
        "the nightly exporter returns garbage for leap years.",
        "The nightly exporter writes UTC timestamps, not local time.",
    ),
    (
        "the forecast numbers are off by 3 minutes at the northern stations.",
        "Forecast times are always in UTC in this codebase.",
    ),
]


@pytest.mark.parametrize(("negative", "twin"), PAIRS, ids=[p[0][:40] for p in PAIRS])
def test_a_sentence_that_waives_its_force_is_not_captured(negative: str, twin: str) -> None:
    assert extract_statements(negative) == []
    assert extract_statements(twin), twin


@pytest.mark.parametrize(
    ("sentence", "prescribes", "form"),
    [
        ("it's fine, leave it", True, "waiver"),
        ("it's fine to query staging directly", True, None),  # a permission, not a waiver
        ("my bad, the file is in src/", True, "own_mistake"),
        ("the parser is flaky on windows", False, "evaluation"),
        ("the parser is flaky on windows, so never run it there", True, None),
        # on the subject, the word names a kind of thing a rule is about
        ("flaky tests go in the quarantine suite", False, None),
        ("junk files in the bucket are deleted after 30 days", False, None),
    ],
)
def test_waived_names_the_form(sentence: str, prescribes: bool, form: str | None) -> None:
    assert waived(sentence, prescribes=prescribes) == form
