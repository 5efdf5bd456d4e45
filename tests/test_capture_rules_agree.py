"""Two rules that rule out the same action for different things both hold (probe62): the
second is no correction of the first. Through the real ``credo hook prompt`` (capture inline)
and ``credo captured``, then the rule itself (credo.knowledge.replace)."""

from __future__ import annotations

import json

import pytest

from credo.knowledge.capture import Statement
from credo.knowledge.replace import Candidate, Verdict, judge
from tests.conftest import CliRun


def _prompt(run: CliRun, text: str) -> None:
    payload = {"prompt": text, "cwd": str(run.cwd), "session_id": "s1"}
    run("hook", "prompt", stdin=json.dumps(payload), env={"CREDO_HOOK_INLINE": "1"}, check=True)


def test_a_second_never_rule_keeps_the_first(run: CliRun) -> None:
    run("init", check=True)
    _prompt(run, "Never push directly to main.")
    _prompt(run, "Never push directly to the release branches.")
    captures = json.loads(run("captured", "--json", check=True).stdout)["captures"]
    assert [c["text"] for c in captures] == [
        "Never push directly to main.",
        "Never push directly to the release branches.",
    ]
    assert [c["supersedes"] for c in captures] == [[], []]  # it retired the first
    found = run("search", "push directly to main", check=True).stdout
    assert "Never push directly to main." in found


def _rule(text: str, negated: tuple[str, ...]) -> Statement:
    return Statement(text, "rule", "user_stated", negated, (), ("rule",))


@pytest.mark.parametrize(
    ("old", "verdict"),
    [
        ("Never push directly to main.", Verdict()),
        ("Do not push directly to main.", Verdict()),
        ("Don't push directly to main.", Verdict()),
        ("Avoid pushing directly to main.", Verdict()),
        # One that does what the statement rules out is still replaced.
        ("We push directly to main.", Verdict(supersedes="old", rule="clear")),
        ("Push directly to main, then tag.", Verdict(supersedes="old", rule="clear")),
    ],
)
def test_a_candidate_that_rules_out_the_same_term_agrees(old: str, verdict: Verdict) -> None:
    new = _rule("Never push directly to the release branches.", ("push",))
    assert judge(new, [Candidate("old", old)]) == verdict
