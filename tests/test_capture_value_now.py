"""A setting's value told anew, tersely ("port's 6380 now", days87): kept, its "now" saying
since when the value holds, not what this turn is about; a state told with "now" ("the build
is green now", "coverage is 85% now") stays out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements


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
