"""Round 10's checks (credo.knowledge.capture): tool output a paste detector must see, a third
party's comments, a forbidden pronoun, a person's habit, a verdict on an event, this turn's new
artefact, and a demonstrative under a paste. Each case has a twin that must still be captured,
so a check that swallows rules fails here too."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import cues, extract_statements

# (a prompt that states no rule, its twin that does)
PAIRS = [
    # a package manager's warning, lower case since npm 9, with its advice in it
    (
        "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported. "
        "Never use it in new code.\nadded 311 packages in 12s",
        "Never use npm here.",
    ),
    (
        "pip error: never install into the system interpreter, use a venv instead",
        "Never install into the system interpreter, use a venv instead.",
    ),
    # a status glyph opens a line of tool output
    (
        "✖ Never import from `lodash`, always use `lodash-es` instead.",
        "Never import from `lodash`, always use `lodash-es` instead.",
    ),
    (
        "[✗] Never run the emulator as root, always use the sdk user",
        "Never run the emulator as root, always use the sdk user.",
    ),
    # a type declaration ending in its supertype is code; its comment is code too
    (
        "Scriptname GM_QuestScript extends Quest\n; always check the property is filled\n"
        "Event OnInit()",
        "Always check the property is filled before you read it.",
    ),
    # a header naming a third party's comments: the list under it is theirs
    (
        "review comments from Sam on PR #12:\n1. We never use requests in this repo, always "
        "httpx.\n2. fix the typo\ncan you address both",
        "comments so far:\n1. We never use requests in this repo, always httpx.\n2. fix the typo\n",
    ),
    (
        "Sam's review notes:\n1. We never use requests in this repo, always httpx.\n",
        "my notes:\n1. We never use requests in this repo, always httpx.\n",
    ),
    # a person named by their role, and a habit: a claim about them, not a rule
    (
        "the structural engineer always sends the grid in feet and it drives me nuts",
        "the reviewer must always approve migrations by hand.",
    ),
    (
        "my lead always rewrites my commit messages in the imperative",
        "Commit messages are always in the imperative.",
    ),
    # this turn's new artefact scopes a directive to this turn
    (
        "make sure every test in the new file uses the `frozen_time` fixture",
        "make sure every test uses the `frozen_time` fixture",
    ),
    # an assignment from a call is a line of code, and the comment beside it is code too
    (
        "df = pl.read_parquet(path)\n# never use pandas here, polars only\nprint(df)",
        "# never use pandas here, polars only",
    ),
    (
        "cfg = load_config(path)\nalways validate the schema before you touch the db",
        "Always validate the schema before you touch the db.",
    ),
    # a remark after a statement makes it an anecdote ("Classic.", "Different world.")
    (
        "Every deploy there needed two approvals. Different world.",
        "Every deploy needs two approvals.",
    ),
    ("Every deploy needs two approvals. Classic.", "Every deploy needs two approvals."),
    # a prompt opened as a status update or today's plan reports; "from now on" still counts
    (
        "Here's the plan for today. Keep every change small enough to review on a call.",
        "Here's the plan for today. From now on, keep every change small enough to review.",
    ),
    (
        "Status: backfill at 60%. Migrations always run from the release branch.",
        "Migrations always run from the release branch.",
    ),
    # assent to the agent's proposal approves a referent of this turn
    ("that works for me", "That works for me: tabs in the Makefile, spaces elsewhere, always."),
    ("yes go for the plan you described", "Always go for the plan with the fewest migrations."),
    (
        "Note to self: deploys never go out on board meeting days.",
        "Deploys never go out on board meeting days.",
    ),
    (
        "Notes for myself:\n- deploys never go out on board meeting days\n- ask Anja",
        "- deploys never go out on board meeting days\n- ask Anja",
    ),
    # a sentence opened by assent answers this turn's question
    (
        "> Should I also update the API docs?\nyes, but only the OpenAPI description, leave "
        "the changelog to me",
        "> Should I also update the API docs?\nyes, and from now on only the OpenAPI "
        "description, leave the changelog to me",
    ),
    # a demonstrative right under a paste is the paste
    (
        "```php\n$x = Foo::getInstance();\n```\nthis is in a legacy block, refactor to "
        "constructor injection",
        "```php\n$x = Foo::getInstance();\n```\nWe never call getInstance directly; use "
        "constructor injection.",
    ),
]


@pytest.mark.parametrize(("negative", "positive"), PAIRS)
def test_round10_checks_drop_the_negative_and_keep_the_twin(negative: str, positive: str) -> None:
    assert extract_statements(negative) == [], negative
    assert extract_statements(positive), positive


@pytest.mark.parametrize(
    "sentence",
    [
        "Do not use it.",
        "Never touch them again.",
        "please don't merge that",
        "election night is always chaos, the results api flaked four times last cycle",
        "release week is such a circus, every team ships at once",
        "the staging cluster is a minefield",
    ],
)
def test_no_content_or_a_verdict_on_an_event_is_vetoed(sentence: str) -> None:
    assert cues(sentence) is None, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Never use npm here.",
        "Don't use inflight, it leaks memory.",
        "Release tags are always signed.",
    ],
)
def test_their_twins_are_not(sentence: str) -> None:
    assert cues(sentence) is not None, sentence
