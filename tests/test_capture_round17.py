"""Round 17 of capture: a passing state, a lead that ends in a colon, a third party's
proposal, background labelled "for context" (``credo.knowledge.state``), and a diagnostic
line with no column. Each negative here is captured by round 16's classifier; its twin, a
standing fact or a sentence that prescribes, must still be captured. The wording is new, not
a development file's."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements
from credo.knowledge.paste import LOG_LINE
from credo.knowledge.state import aside, unstanding


def _captured(prompt: str) -> bool:
    return bool(extract_statements(prompt))


# --- a passing state ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "the gpu box is free",
        "the staging db is back under load",
        "our beta is live in three regions",
        "the new pricing page is already live",
        "the token budget is tight",
    ],
)
def test_a_passing_state_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Timestamps are UTC everywhere.",  # an individual-level predicate
        "The audit log is append-only, always.",  # round 18: a second piece of evidence
        "The wiki copies are stale and nobody maintains them.",  # over occasions
        "The wiki is stale by design: the repo docs are always the source of truth.",
        "Build agents are ready-made images from the platform team.",  # not the adjective
    ],
)
def test_a_standing_fact_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)


@pytest.mark.parametrize(
    ("core", "form"),
    [
        ("the gpu box is free", "passing_state"),
        ("replica lag is back under two seconds", "passing_state"),
        ("the ci runners are all green", "passing_state"),
        ("here's the incident timeline, for reference:", "lead"),
        ("timestamps are utc everywhere", None),
        ("staging is down every sunday", None),
    ],
)
def test_the_unstanding_forms(core: str, form: str | None) -> None:
    assert unstanding(core) == form


# --- a lead that ends in a colon ---------------------------------------------------------


def test_a_lead_ending_in_a_colon_states_nothing() -> None:
    prompt = "this is our release checklist, for reference:\n\n- bump\n- tag\n- publish"
    assert not _captured(prompt)


def test_a_rule_after_its_label_is_still_captured() -> None:
    assert _captured("Team rule for migrations: every migration ships with a down step.")


# --- a third party's proposal, background ------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "twin"),
    [
        (
            "Marta suggested we should always squash-merge feature branches.",
            "We should always squash-merge feature branches.",
        ),
        (
            "the auditor proposed that we never store raw card numbers.",
            "We never store raw card numbers.",
        ),
    ],
)
def test_a_third_partys_proposal_is_not_adopted(prompt: str, twin: str) -> None:
    assert not _captured(prompt)
    assert _captured(twin)


def test_background_labelled_for_context_is_not_a_rule() -> None:
    assert not _captured("for context, I'm a mobile dev, not really a backend person")
    assert aside("for context, i'm a mobile dev") == "context"
    assert aside("marta suggested we squash") == "proposal"
    assert aside("we agreed to squash") is None
    assert aside("i suggested we squash") is None


def test_what_a_document_covers_is_not_a_rule() -> None:
    assert not _captured("the contract only covers the web app")
    assert aside("the contract only covers the web app") == "document"
    assert aside("the contract says we own the ip") is None  # left to the hearsay veto


def test_a_plea_for_patience_is_not_a_preference() -> None:
    assert not _captured("rough week on support, bear with me")
    assert aside("late shift, bear with me") == "plea"


def test_an_indirect_question_and_a_change_withheld_are_not_rules() -> None:
    assert not _captured("curious what you make of it, not changing anything")
    assert aside("curious what you think") == "question"
    assert aside("curious readers are our audience") is None


def test_a_dispute_left_for_later_is_not_adopted() -> None:
    prompt = (
        "my manager prefers squash merges, I prefer rebasing always, we'll argue about it later"
    )
    assert not _captured(prompt)
    assert _captured("we always pin deps, we'll see if renovate can keep up")  # not a dispute


@pytest.mark.parametrize(
    ("prompt", "captured"),
    [
        ("no seriously, which node version does this repo pin", False),  # a question behind it
        ("Seriously, never force-push to main.", True),  # a rule behind it: now captured
        ("anyway I hate fridays, let's get going", False),  # a taste for a time
    ],
)
def test_discourse_markers_in_the_lead_in(prompt: str, captured: bool) -> None:
    assert _captured(prompt) is captured


# --- a diagnostic with a line and no column ----------------------------------------------


def test_a_diagnostic_with_no_column_is_pasted() -> None:
    line = "Shaders/Terrain.hlsl(88): error: noise.hlsl not found, not in any include path"
    assert LOG_LINE.match(line)
    assert not _captured(line)
