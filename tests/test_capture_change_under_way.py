"""probe83 (a week on APScheduler through the installed hook): the team's change under way,
told with what it rules out, is a decision, not narration.

"Change of plan: we are moving the job store to Redis, not SQLAlchemy, because the database
is overloaded." was not kept: the present progressive ("we are moving") vetoed it as what is
going on now, so Friday's SessionStart still served Wednesday's SQLAlchemy decision alone.
``changeover.CHANGING_OVER`` lifts that veto when the sentence names the old one ("not Y",
"instead of Y", "rather than Y").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from tests import test_capture_changed_twice as twice
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for

REDIS = (
    "Change of plan: we are moving the job store to Redis, not SQLAlchemy, because the "
    "database is overloaded."
)
# probe87 (a week on clap through the installed hook): "Change of plan: we are raising the MSRV
# to Rust 1.64 instead of 1.60 ..." was not kept (the progressive veto: "raising" was no verb
# of a change over), so Friday's "Which MSRV do we target?" served Wednesday's 1.60 decision.
MSRV = (
    "Change of plan: we are raising the MSRV to Rust 1.64 instead of 1.60, because workspace "
    "inheritance needs it."
)


@pytest.mark.parametrize(
    ("prompt", "negated"),
    [
        (REDIS, ("sqlalchemy",)),
        ("We are switching to pnpm, not yarn.", ("yarn",)),
        ("We're switching to pnpm instead of yarn.", ("yarn",)),
        ("We are migrating the queue to RabbitMQ rather than SQS.", ("sqs",)),
        # a value set anew (probe87, below)
        (MSRV, ("1.60",)),
        ("We're bumping the request timeout to 60s, not 30s.", ("30s",)),
        ("We're lowering the log level to info rather than debug.", ("debug",)),
        ("We are upgrading the base image to bookworm instead of bullseye.", ("bullseye",)),
        # from a name of code, with an article after "to" (twice87)
        (twice.SCHEDULER, ("--with-scheduler",)),
        ("we're switching to rqscheduler, not --with-scheduler", ("--with-scheduler",)),
        ("We are moving to a dedicated worker pool, not --burst.", ("--burst",)),
        ("we're switching to a custom serializer instead of pickle.dumps", ("pickle.dumps",)),
        ("we're moving to an async client rather than requests.get()", ("requests.get",)),
        ("we're switching to the stdlib logger, not print_debug", ("print_debug",)),
    ],
)
def test_a_change_under_way_that_names_the_old_one_is_kept(
    prompt: str, negated: tuple[str, ...]
) -> None:
    [statement] = extract_statements(prompt)
    assert statement.negated == negated


@pytest.mark.parametrize(
    "prompt",
    [
        "We are moving the tests to a new folder.",
        "We're migrating the merchant dashboard to next 14.",
        "Right now we are migrating the API to v2, not v3.",
        "We are now migrating the queue to RabbitMQ rather than SQS.",
        "If we are moving to Redis, not SQLAlchemy, tell me what breaks.",
        "Are we moving to Redis, not SQLAlchemy?",
        "The old team is switching to etcd rather than Consul.",
        # a value set anew without the old one, for now, or in a condition (probe87)
        "We are raising the MSRV to Rust 1.64.",
        "We're bumping the version to 2.0 today.",
        "Right now we are raising the limit to 10, not 5.",
        "If we are bumping the timeout to 60s, not 30s, tell me what breaks.",
        # an article with an old value in words or a file (twice87)
        "we're moving to a new office, not the old one",
        "we're moving to a bigger place, not downtown",
        "we're switching to a new plan, not the pro plan",
        "we're moving to a new apartment rather than a house",
        "we're switching to a different approach, not that",
        "we're moving to the next step, not step 2",
        "we're switching to a new branch, not main",
        "we're switching to a new branch, not feature/login",
        "we're moving to a new file, not utils.py",
        "we're moving to a new file, not config.yaml",
        "if we're switching to a separate process, not --with-scheduler, tell me",
        "are we switching to a separate process, not --with-scheduler?",
        "right now we're switching to a separate process, not --with-scheduler",
        "we're moving the standup to a later slot, not --early",
        "we're switching to a separate process",
        "we're switching to a separate process, --with-scheduler is flaky",
    ],
)
def test_a_change_under_way_without_the_old_one_or_for_now_is_not(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    team=st.sampled_from(["we are", "we're"]),
    verb=st.sampled_from(["moving", "switching", "migrating"]),
    thing=st.sampled_from(["", "the job store ", "the queue ", "our builds "]),
    new=st.sampled_from(["redis", "pnpm", "rabbitmq", "ruff"]),
    old=st.sampled_from(["sqlalchemy", "yarn", "sqs", "black"]),
    ruling_out=st.sampled_from([", not", " instead of", " rather than"]),
)
def test_naming_the_old_one_keeps_the_change_and_rules_it_out(
    team: str, verb: str, thing: str, new: str, old: str, ruling_out: str
) -> None:
    said = f"{team} {verb} {thing}to {new}{ruling_out} {old}."
    found = extract_statements(said[0].upper() + said[1:])
    assert [s.negated for s in found] == [(old,)]
    assert extract_statements(f"{team} {verb} {thing}to {new}.".capitalize()) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "We're moving the call to Zoom, not Teams.",
        "We're moving the standup to Zoom, not Teams.",
        "We are moving our weekly sync to Thursday, not Friday.",
        "We're moving tomorrow's demo to Meet instead of Zoom.",
    ],
)
def test_one_event_moved_is_no_change_of_the_projects_tools(prompt: str) -> None:
    """review84/days86: one meeting moved to another tool or day is not what the project
    holds from now on."""
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "negated"),
    [
        ("We're moving the call to json.dumps to orjson, not ujson.", ("ujson",)),
        ("We're moving the build to GitLab CI, not Jenkins.", ("jenkins",)),
    ],
)
def test_a_call_in_code_or_a_build_moved_is_still_a_change(
    prompt: str, negated: tuple[str, ...]
) -> None:
    assert [s.negated for s in extract_statements(prompt)] == [negated]


@given(
    team=st.sampled_from(["we are", "we're"]),
    verb=st.sampled_from(["moving", "switching"]),
    event=st.sampled_from(
        ["the call", "the standup", "our sync", "tomorrow's demo", "the meeting"]
    ),
    new=st.sampled_from(["zoom", "meet", "thursday", "room 4"]),
    old=st.sampled_from(["teams", "slack", "friday"]),
    ruling_out=st.sampled_from([", not", " instead of", " rather than"]),
)
def test_an_event_moved_is_never_kept(
    team: str, verb: str, event: str, new: str, old: str, ruling_out: str
) -> None:
    said = f"{team} {verb} {event} to {new}{ruling_out} {old}."
    assert extract_statements(said[0].upper() + said[1:]) == []


def test_through_the_installed_hook_the_change_replaces_the_decision(tmp_path: Path) -> None:
    project = _project(
        tmp_path, {"decision": "Decision: we keep jobs in SQLAlchemy on our Postgres database."}
    )
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=REDIS), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "decision")}


@given(
    team=st.sampled_from(["we are", "we're"]),
    verb=st.sampled_from(["raising", "bumping", "lowering", "upgrading", "downgrading"]),
    thing=st.sampled_from(["the msrv ", "the timeout ", "our minimum python ", "the limit "]),
    new=st.sampled_from(["1.64", "60s", "3.12", "v2"]),
    old=st.sampled_from(["1.60", "30s", "3.10", "v1"]),
    ruling_out=st.sampled_from([", not", " instead of", " rather than"]),
)
def test_a_value_set_anew_rules_out_the_old_one(
    team: str, verb: str, thing: str, new: str, old: str, ruling_out: str
) -> None:
    said = f"{team} {verb} {thing}to {new}{ruling_out} {old}."
    assert [s.negated for s in extract_statements(said[0].upper() + said[1:])] == [(old,)]
    assert extract_statements(f"{team} {verb} {thing}to {new}.".capitalize()) == []


def test_through_the_installed_hook_the_new_msrv_replaces_the_decision(tmp_path: Path) -> None:
    decision = (
        "Decision: we keep the MSRV at Rust 1.60 for the 4.0 series, so no let-else or other "
        "newer syntax in the code."
    )
    project = _project(tmp_path, {"decision": decision})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=MSRV), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "decision")}


# review87: with the verbs of a value set anew, "to" may be a purpose and the contrast one of
# acts, not values: none of these sets a value the project holds (fa34e61 kept none of them;
# the five verbs made them rules, each ruling out its "old one": "build", "cutting", ...).
@pytest.mark.parametrize(
    "prompt",
    [
        "We're raising money to hire rather than to build.",
        "We're raising prices to cover costs rather than cutting staff.",
        "We're raising chickens to eat rather than to sell.",
        "We're raising our kids to be bilingual rather than English-only.",
        "We're raising ValueError to signal bad input instead of returning None.",
        "We're raising errors to callers instead of logging them.",
    ],
)
def test_a_purpose_or_a_contrast_of_acts_sets_no_value(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    verb=st.sampled_from(["raising", "bumping", "lowering", "upgrading", "downgrading"]),
    thing=st.sampled_from(["money ", "prices ", "the budget ", "errors "]),
    purpose=st.sampled_from(["hire", "cover costs", "signal bad input", "be safe"]),
    ruling_out=st.sampled_from([" rather than", " instead of", ", not"]),
    act=st.sampled_from(["to build", "to sell", "cutting staff", "returning none", "logging them"]),
)
def test_a_purpose_against_another_act_is_no_change_over(
    verb: str, thing: str, purpose: str, ruling_out: str, act: str
) -> None:
    said = f"We're {verb} {thing}to {purpose}{ruling_out} {act}."
    assert extract_statements(said) == []
    # (a value against a value, said the same way, is one)
    assert [
        s.negated for s in extract_statements(f"We're {verb} the limit to 10{ruling_out} 5.")
    ] == [("5",)]
