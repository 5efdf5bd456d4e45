"""Mood checks of capture (credo.knowledge.mood): descriptions that borrow a rule's words are
not captured, prescriptions with the same words are, and each check's gate never hides a
match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.knowledge.mood import GATES, MOODS, descriptive

# (mood, lower-cased sentence): the check that fires on a description.
DESCRIPTIONS = [
    ("perfect", "the deploy bot has never been reliable on fridays"),
    ("perfect", "the nightly job hasn't passed since the upgrade"),
    ("perfect", "it's been flaky since march"),
    ("progressive", "the integration tests were timing out all morning"),
    ("state", "the staging runners are always slow after lunch"),
    ("state", "the docs build is painfully slow, every time"),
    ("state", "our vpn is a nightmare"),
    ("measure", "memory usage is only 12% on the new nodes"),
    ("measure", "p99 latency sits at 450 ms"),
    ("wish", "somebody should write a proper runbook for this"),
    ("vow", "never again am i merging on a friday"),
    ("vow", "i'll never touch that jenkinsfile again"),
    ("repair", "i mean my previous message was off, the id is 42"),
    ("repair", "typo in my last prompt: it's the billing service"),
    ("while", "never restart the broker while we reindex, point reads at the replica"),
]

# Prescriptions that share the words: the mood checks leave them alone.
PRESCRIPTIONS = [
    "we've moved to pnpm, never use npm here",  # the team's perfect: a convention's change
    "i've told you twice: migrations go through alembic",  # the speaker's perfect: reproach
    "i want every plot to have labelled axes",  # "to have labelled" is not a perfect
    "our api is snake_case, always has been",  # the perfect is in a second clause
    "when a test is flaky, quarantine it and open an issue",  # the state is the condition
    "--force-with-lease on your own branches is fine",  # "fine" grants a permission
    "colours are fine while i'm poking around, but anything shared uses viridis",  # after "but"
    "the gateway timeout is 30s, not 60s",  # a measure with no state verb before it
]


@pytest.mark.parametrize(("mood", "sentence"), DESCRIPTIONS)
def test_description_is_recognised(mood: str, sentence: str) -> None:
    assert descriptive(sentence) == mood


@pytest.mark.parametrize("sentence", PRESCRIPTIONS)
def test_prescription_is_not_a_description(sentence: str) -> None:
    assert descriptive(sentence) in (None, "measure")  # "measure" is overruled by the contrast


@pytest.mark.parametrize(
    "prompt",
    [
        "The deploy bot has never been reliable on Fridays, that's just life.",
        "The staging runners are always slow after lunch.",
        "Somebody should write a proper runbook for this.",
        "Never again am I merging on a Friday.",
        "Hmm, memory usage is only 12% on the new nodes.",
        "Never restart the broker while we reindex, point reads at the replica.",
        "That's wrong, I mean my previous message was off, the id is 42, not 24.",
    ],
)
def test_descriptions_are_not_captured(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "Correction: the gateway timeout is 30s, not 60s.",  # a measure, with a contrast
        "From now on: when a test is flaky, quarantine it and open an issue.",  # a condition
        "From now on, never restart the broker while we reindex.",  # explicit later-sessions
        "No, Postgres here is 13, not 16 — RDS hasn't been upgraded.",  # perfect as a reason
    ],
)
def test_prescriptions_with_the_same_words_are_captured(prompt: str) -> None:
    assert extract_statements(prompt)


_WORDS = st.sampled_from(
    "has have had hasn't been always never slow is are were was passing someone should "
    "i am will while we until done my message typo mean 40 % ms it's 've the tests ci "
    "jenkins only so really flaky ready but let me think check".split()
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=12))
def test_gates_never_hide_a_match(words: list[str]) -> None:
    text = " ".join(words)
    for name, pattern in MOODS:
        gate = GATES.get(name, ())
        if pattern.search(text):
            assert not gate or any(token in text for token in gate), name


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_descriptive_is_total_and_deterministic(text: str) -> None:
    first = descriptive(text.lower())
    assert first is None or first in {name for name, _ in MOODS}
    assert descriptive(text.lower()) == first
