"""A standing rule told with "disable" or "enable" (probe89, a week on markdownlint, whose
rules are turned off and on): "Always disable MD033 in our generated HTML docs." was lost (the
imperative's verb was not one a rule opens with: only "durable" fired), and "Never enable
MD013 for tables." ruled out `enable`, not MD013. A task on this turn stays out."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements


@pytest.mark.parametrize(
    ("prompt", "negated"),
    [
        ("Always disable MD033 in our generated HTML docs.", ()),
        ("Never enable MD013 for tables.", ("md013",)),
        ("Enable strict mode, we always want it.", ()),
        ("Disable telemetry in every new project.", ()),
    ],
)
def test_a_rule_that_turns_something_off_or_on_is_captured(
    prompt: str, negated: tuple[str, ...]
) -> None:
    [got] = extract_statements(prompt)
    assert got.kind == "rule" and got.negated == negated


@pytest.mark.parametrize(
    "prompt",
    [
        "Disable the cache for this run.",
        "disable MD041 here",
        "disable it",
        "should we enable MD013?",
    ],
)
def test_a_task_on_this_turn_or_a_question_is_not(prompt: str) -> None:
    assert extract_statements(prompt) == []
