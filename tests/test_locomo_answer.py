"""bench/locomo.py's "answer terms in pack": what the agent reads of the evidence, not only
whether its id was packed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from locomo import Question, answer_in_pack

TURN = "Melanie: We always look forward to camping. We roast marshmallows and tell stories."
EVIDENCE = {"t1": TURN, "t2": "Caroline: I love it too."}


def question(answer: str, evidence: frozenset[str] = frozenset({"t1"})) -> Question:
    return Question("q1", "What does Melanie do while camping?", 1, evidence, answer)


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ({"t1": TURN}, 1.0),  # whole: both answer terms
        ({"t1": "Melanie: We always look forward to camping. …"}, 0.0),  # cut away
        ({"t1": "… We roast …"}, 0.5),  # "roasting" is stemmed as the index does: "roast"
        ({}, 0.0),  # the evidence left out of the pack
        ({"t2": TURN}, 0.0),  # another turn's text does not count
    ],
)
def test_answer_terms_are_read_from_the_evidence_as_shown(
    shown: dict[str, str], expected: float
) -> None:
    assert answer_in_pack(question("roasting marshmallows"), shown, EVIDENCE) == expected


def test_an_answer_sharing_no_term_with_its_evidence_is_not_scored() -> None:
    assert answer_in_pack(question("7 May 2023"), {"t1": TURN}, EVIDENCE) is None
    assert answer_in_pack(question(""), {"t1": TURN}, EVIDENCE) is None
