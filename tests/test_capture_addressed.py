"""A captured statement keeps the rule, not the words addressed to the memory around it
(credo.knowledge.addressed, applied by credo.knowledge.capture)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.addressed import MIN_WORDS, trim_addressed
from credo.knowledge.capture import extract_statements


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "We always run go test with -race here, remember that.",
            "We always run go test with -race here.",
        ),
        ("We use pnpm — please keep that in mind!", "We use pnpm!"),
        ("Tabs in Makefiles, don't forget it", "Tabs in Makefiles"),
        (
            "Also, from now on please run `make lint` after every change.",
            "From now on please run `make lint` after every change.",
        ),
        (
            "also i'd like f-strings over .format() from now on",
            "i'd like f-strings over .format() from now on",
        ),
        (
            "Remember that the billing service is owned by another team.",
            "The billing service is owned by another team.",
        ),
        (
            "Remember: the mobile app still ships the v1 API client.",
            "The mobile app still ships the v1 API client.",
        ),
        (
            "note for future sessions: the `legacy/` folder is frozen.",
            "the `legacy/` folder is frozen.",
        ),
        ("btw, I prefer `const` arrow functions.", "I prefer `const` arrow functions."),
    ],
)
def test_the_addressed_words_go(said: str, kept: str) -> None:
    assert trim_addressed(said) == kept


@pytest.mark.parametrize(
    "said",
    [
        "Never forget the lockfile.",  # the verb is the rule's own
        "Always remember to pin the base image.",
        "Also run lint",  # too little would be left
        "And `uv` over pip",
        "We keep the changelog by hand, so note it in CHANGELOG.md",
        "Keep it short.",
    ],
)
def test_the_rule_s_own_words_stay(said: str) -> None:
    assert trim_addressed(said) == said


def test_capture_stores_the_rule_without_the_request() -> None:
    prompt = "Why are suggestions missing? We always run go test with -race here, remember that."
    assert [s.text for s in extract_statements(prompt)] == [
        "We always run go test with -race here."
    ]


@given(st.text(max_size=80))
def test_the_trim_only_takes_from_the_edges(text: str) -> None:
    kept = trim_addressed(text)
    assert len(kept) <= len(text)
    if kept != text:
        lower = text.lower()
        # What is left is the text's own, bar the capital a lead-in passed on and the final
        # mark a closing request left.
        assert kept[1:].rstrip(".!").lower() in lower
        if not text.lower().startswith(kept[:1].lower() + kept[1:2].lower()):
            assert len(kept.split()) >= MIN_WORDS or kept.rstrip(".!") in text
