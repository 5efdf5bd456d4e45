"""A setting's value told anew, tersely ("port's 6380 now", days87): kept, its "now" saying
since when the value holds, not what this turn is about; a state told with "now" ("the build
is green now", "coverage is 85% now") stays out."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import Statement, extract_statements
from credo.knowledge.replace import Candidate, Verdict, judge, named_groups
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for


@pytest.mark.parametrize(
    "prompt",
    [
        "port's 6380 now",
        "redis port's 6380 now.",
        "the port is 6380 now",
        "the timeout's 900 now",
        "msrv is 1.64 now",
        "the db host is db-3.internal now",
        "email timeout is now 900",
    ],
)
def test_a_value_told_anew_is_kept(prompt: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [prompt]


@pytest.mark.parametrize(
    "prompt",
    [
        "the build is green now",
        "coverage is 85% now",
        "it's 5pm now",
        "the count is 3 now",
        "the error count is 12 now",
        "the meeting is at 3:30 now",
        "the standup is at 10am now",
        "the port is 6380 now?",
        "is the port 6380 now",
    ],
)
def test_a_state_told_with_now_is_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    determiner=st.sampled_from(["", "the ", "our ", "redis "]),
    setting=st.sampled_from(
        [
            ("port", "6380"),
            ("timeout", "30s"),
            ("timeout", "900"),
            ("node version", "20"),
            ("msrv", "1.64"),
            ("host", "cache-2"),
            ("image tag", "v2.3"),
            ("ttl", "3600"),
        ]
    ),
    copula=st.sampled_from(["'s", " is"]),
)
def test_any_setting_told_anew_is_kept(
    determiner: str, setting: tuple[str, str], copula: str
) -> None:
    name, value = setting
    prompt = f"{determiner}{name}{copula} {value} now"
    assert [s.text for s in extract_statements(prompt)] == [prompt]


# Rule 7 of knowledge/replace.py: the value told anew replaces the one setting's old value.
def _statement(prompt: str) -> Statement:
    (found,) = extract_statements(prompt)
    return found


PORT = Candidate("p", "dev redis is on port 6379", False, 1.0)
RULE = Candidate("r", "always run pytest -x before pushing", False, 1.0)
TIMEOUT = Candidate("t", "email jobs need job_timeout=600, not the default", False, 1.0)


@pytest.mark.parametrize(
    ("prompt", "replaced"),
    [
        ("port's 6380 now", "p"),  # shares one word with it: the setting's
        ("redis is on port 6380 now", "p"),
        ("the timeout is 900 now", "t"),  # "job_timeout=600"
    ],
)
def test_a_value_told_anew_replaces_the_settings_old_value(prompt: str, replaced: str) -> None:
    verdict = judge(_statement(prompt), [PORT, RULE, TIMEOUT])
    assert (verdict.supersedes, verdict.rule) == (replaced, "anew")


def test_a_value_told_anew_looks_its_setting_up() -> None:
    assert named_groups(_statement("port's 6380 now")) == [["port"]]


def test_a_value_told_anew_leaves_agreement_and_a_lock_alone() -> None:
    same = Candidate("s", "redis listens on port 6380", False, 1.0)
    assert judge(_statement("port's 6380 now"), [same, RULE]) == Verdict()
    locked = Candidate("l", "dev redis is on port 6379", True, 1.0)
    assert judge(_statement("port's 6380 now"), [locked]).contradicts == ("l",)


def test_a_value_told_anew_only_disputes_several_holders() -> None:
    other = Candidate("q", "the test server port is 8080", False, 1.0)
    verdict = judge(_statement("port's 6380 now"), [PORT, other])
    assert verdict.supersedes is None
    assert set(verdict.contradicts) == {"p", "q"}


@given(
    setting=st.sampled_from(["port", "timeout", "version", "host"]),
    other=st.sampled_from(["port", "timeout", "version", "host"]),
    old=st.integers(min_value=1, max_value=99999),
    new=st.integers(min_value=1, max_value=99999),
)
def test_another_settings_value_is_left_alone(setting: str, other: str, old: int, new: int) -> None:
    candidate = Candidate("c", f"the staging {other} is {old}", False, 1.0)
    verdict = judge(_statement(f"the {setting} is {new} now"), [candidate])
    replaced = setting == other and old != new
    assert (verdict.supersedes == "c") is replaced


def test_through_the_installed_hook_port_told_anew_replaces_the_old_port(tmp_path: Path) -> None:
    """days87: "port's 6380 now" after "dev redis is on port 6379" was not kept, and every
    later block served 6379 as current."""
    project = _project(tmp_path, {"p": "dev redis is on port 6379"})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt="port's 6380 now"), project)
    wait_for(lambda: captured_count(project) > 0)
    assert ("SUPERSEDES", "p") in _edges(project)
