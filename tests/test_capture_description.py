"""Descriptions that read like rules (round 9): indirect questions, a fix of the code at hand,
comment lines of pasted code, and facts with no force that describe the speaker's situation or
carry an aside (the speaker's experience, predictions, hedged opinions and plans are among the
moods of tests/test_capture_force.py). Each is checked with a twin that must still be
captured, so a check that grows too wide fails too."""

from __future__ import annotations

import pytest

from credo.knowledge import guards
from credo.knowledge.capture import extract_statements
from credo.knowledge.shape import shape_veto


@pytest.mark.parametrize(
    "prompt",
    [
        # an indirect question
        "I forget what the naming convention for migrations is",
        "I don't remember which registry the base images come from",
        # a fix of the code at hand
        "that's wrong, the outer loop has to stop at len(items)-1",
        # a comment line of a pasted snippet without fences
        "Event OnInit()\n; always check the property is filled\nEndEvent",
        "// never call this twice, go through shutdown\nServer.close()",
        # a fact with no force: the speaker's situation, an aside on it
        "For the export I need the raw ids, the table is keyed by uuid.",
        "The test broker runs without TLS, which is fine, it's on a private network.",
        "Contractors are never going to read the style guide, let's be real.",
        # a verdict on what the agent made this turn
        "The migration you wrote looks good.",
    ],
)
def test_descriptions_are_not_captured(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        # round 18: a bare fact needs a second piece of evidence (knowledge/evidence.py)
        "Money is integer cents everywhere.",
        "The test broker always runs without TLS.",
        "Kindly note the test DB is not to be used for load testing, I have informed earlier also.",
        "I think in pipelines, so write transforms as chained calls rather than temp variables.",
    ],
)
def test_twins_are_captured(prompt: str) -> None:
    assert extract_statements(prompt)


@pytest.mark.parametrize(
    "sentence",
    [
        "i forget what the naming convention for migrations is",
        "i don't remember which registry the base images come from",
        "i can't recall where the staging keys live",
    ],
)
def test_indirect_question_is_a_question(sentence: str) -> None:
    assert guards.QUESTION_LEAD.match(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "the outer loop has to stop earlier",  # a piece of the code at hand, with a modifier
        "stop at len(rows)-1 there",  # an off-by-one expression
    ],
)
def test_code_at_hand_is_vetoed(sentence: str) -> None:
    assert shape_veto(sentence, sentence) == "code_local"
