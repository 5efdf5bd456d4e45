"""Round 16 of capture: a bare statement that reports what happened or holds now
(``credo.knowledge.report``). Each negative here is captured by round 15's classifier; its
twin, a standing fact or a sentence that prescribes, must still be captured. The wording is
new, not a development file's."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements
from credo.knowledge.report import one_incident, reports
from credo.knowledge.talk import no_standing


def _captured(prompt: str) -> bool:
    return bool(extract_statements(prompt))


# --- a bare statement that reports -------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "the nightly export is half empty again",  # iterative aspect
        "the importer works without the flag",  # an outcome
        "the others are still on the old host",  # a subject with no head noun
        "the rest lives in the legacy repo",
    ],
)
def test_a_bare_report_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Nope, wrong again: queue names use dots, not dashes.",  # "again" with a correction
        "Update the parser and never assume integer ids again.",  # ... with a directive
        "Deleted accounts are purged after 30 days.",  # a participle before a noun
        # round 18: a bare fact needs a second piece of evidence (knowledge/evidence.py)
        "the importer always works in batches of 500",  # "works" with a circumstance of manner
        "Generated code always lives in the `gen/` folder.",  # a subject with its noun
        "The mirror is always read-only.",
    ],
)
def test_its_twin_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)


@pytest.mark.parametrize(
    ("core", "form"),
    [
        ("the feed is stale again", "again"),
        ("deleted it and it runs", "own_act"),
        ("tried the second config, same error", "own_act"),
        ("the new build compiles now", "outcome"),
        ("the suite passes locally", "outcome"),
        ("the other one is still on the old host", "headless"),
    ],
)
def test_the_report_forms(core: str, form: str) -> None:
    assert reports(core) == form


@pytest.mark.parametrize(
    "core",
    [
        "you ran the full suite again",  # a reproach, read as a correction
        "deleted users' data is never restored",  # an adjective, not the speaker's act
        "a column is dropped after the code stops using it, so a rollback still works",
        "that's how my brain works",  # a clause that names a thing
        "the works council agreement covers it",  # a noun
        "the other services read through its api",
    ],
)
def test_not_a_report_form(core: str) -> None:
    assert reports(core) is None


# --- a choice left open drops the sentence before it --------------------------------------


@pytest.mark.parametrize(
    ("prompt", "twin"),
    [
        (
            "From the architecture sync: we want all services on gRPC. Nothing changes yet, "
            "there's an RFC first.",
            "We want all services on gRPC.",
        ),
        (
            "All new tables get a tenant_id column. No decisions yet, just collecting opinions.",
            "All new tables get a tenant_id column.",
        ),
        (
            "Honestly, feature flags should live in the config service. Not saying we'll do "
            "it, curious what you think.",
            "Feature flags live in the config service.",
        ),
    ],
)
def test_a_choice_left_open_is_not_adopted(prompt: str, twin: str) -> None:
    assert not _captured(prompt)
    assert _captured(twin)


def test_a_rule_about_decisions_is_not_undecided() -> None:
    assert _captured("No decisions get made in Slack; they go in an ADR.")


# --- a compiler's diagnostic after a tool's prefix is pasted -------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "msbuild: src/Billing/Invoice.cs(88,13): warning CS0618: 'Money.Round()' is obsolete: "
        "'Please use Money.RoundHalfEven instead. Do not call Round in new code.'\n"
        "msbuild: Build succeeded with 1 warning(s).",
        "ninja: src/io/reader.c:14:5: warning: never call gets(), it is unsafe",
    ],
)
def test_a_prefixed_compiler_diagnostic_is_pasted(prompt: str) -> None:
    assert not _captured(prompt)
    # The same advice in the speaker's own words is a rule.
    assert _captured("Do not call Money.Round in new code, use RoundHalfEven.")


# --- a list's lead that names a piece of work on one day scopes its items -----------------


def test_a_lead_for_one_days_work_scopes_its_items() -> None:
    items = "- never run two shards at once\n- always compare row counts after each shard\n\n"
    task = "turn this into a checklist"
    assert not _captured("for the shard backfill this weekend:\n" + items + task)
    assert _captured("backfill rules:\n" + items + task)


# --- the speaker's own promise, and a promise withheld ----------------------------------


def test_a_promise_withheld_is_not_a_rule() -> None:
    assert not _captured(
        "Sales would love SSO for the free tier. I said I'd raise it, no promises."
    )
    # "I said" before the speaker's own "I'd" reports a promise; before a rule it repeats one.
    assert [s.kind for s in extract_statements("I said we use pnpm.")] == ["correction"]
    assert _captured("Every migration gets a rollback script, not a note in the PR.")


# --- a sentence that labels itself an opinion ---------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "twin"),
    [
        (
            "unpopular opinion: every service should own its own database.",
            "Every service owns its own database.",
        ),
        (
            "Hot take: feature flags should never outlive a sprint.",
            "Feature flags never outlive a sprint.",
        ),
    ],
)
def test_an_opinion_labelled_as_such_is_not_a_rule(prompt: str, twin: str) -> None:
    assert not _captured(prompt)
    assert _captured(twin)


def test_a_lead_thinking_out_loud_frames_its_items() -> None:
    items = "- every new string goes through the TMS\n- nobody edits the json by hand\n"
    assert not _captured("thinking out loud about the i18n work:\n" + items)
    assert _captured("i18n rules:\n" + items)


# --- "over" needs an alternative after it -----------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        'security sent over "tokens must never be logged". do we log request headers anywhere?',
        'the DPO sent over "backups must stay in the EU". are ours in Frankfurt?',
    ],
)
def test_over_before_a_quote_names_no_alternative(prompt: str) -> None:
    assert not _captured(prompt)


def test_over_before_an_alternative_is_still_a_contrast() -> None:
    assert _captured("async/await over .then chains in anything new, please.")
    assert _captured("We pick composition over inheritance in the domain layer.")


# --- "I find" with a counted object is a finding, not a taste ------------------------------


def test_i_find_with_a_counted_object_is_a_finding() -> None:
    assert not _captured(
        "every release audit I find at least one hardcoded token, it's a ritual by now."
    )
    assert _captured("I find small PRs much easier to review.")


# --- one-off instructions with a rule's shape ---------------------------------------------


def test_a_prohibition_narrowed_to_a_part_of_the_work_is_one_off() -> None:
    assert not _captured("don't run the integration suite, just the unit tests for the scheduler")
    # recurring, it is a way of working
    assert _captured("Don't run the integration suite on every push, just the unit tests.")
    assert no_standing("don't ask before running git commands, just run them") is None


def test_that_command_is_this_turns_referent() -> None:
    assert not _captured(
        "paste me the zsh version of that command, it's for the Makefile not my shell"
    )
    assert _captured("Give me diffs, not whole files, when a change is small.")


# --- one incident of the work at hand -----------------------------------------------------


def test_a_definite_event_noun_places_one_incident() -> None:
    assert not _captured("the leak is in the image cache, not the http client")
    # another head noun: a standing fact
    assert _captured("The error format is problem+json, not plain text.")
    assert one_incident("the bug is in the parser, so always validate dates in the schema") is False


def test_till_then_bounds_the_sentence_by_an_event_ahead() -> None:
    assert not _captured(
        "our accessibility auditor only visits on thursdays, so I'll park the login changes "
        "till then"
    )
    assert _captured("Login changes always get a review from the accessibility auditor.")
