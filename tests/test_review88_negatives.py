"""review88: near misses of days87's capture rules (a value or an owner told anew, "forget the
thing about X"), written before running them; and hostile input for the new patterns."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import Statement, extract_statements
from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.doctor import MAX_OUTER_TITLES, own_texts, range_holds
from credo.knowledge.replace import Candidate, Verdict, judge
from credo.knowledge.retraction import taken_back


@pytest.mark.parametrize(
    "prompt",
    [
        "the port's busy now",
        "it's 5 now",
        "he owns a dog now",
        "its 5 now",
        "thats 3 now",
        "the node is down now",
        "the branch is broken now",
        "the version is out now",
        "the server is at 100% now",
        "the limit is 3 days now",
        "the db is 2GB now",
        "the image is 1.5gb now",
        "the box is 16GiB now",
        "the cluster is 3 nodes now",
        "my box is 10 years old now",
        "the queue is 500 now",
        "what port is it now",
        "which port's 6380 now",
        "port 6380's open now",
        "the host is down now",
        "redis is on port 6380 now?",
        "not sure the port is 6380 now",
        "if the port is 6380 now",
        "maybe the timeout is 900 now",
        "is the timeout 900 now",
        "the score is 2-1 now",
        "the time is 10:30 now",
        "the tag is 5pm now",
        "she owns the docs now",
        "my dad owns the server now",
        "nobody owns the api now",
        "who owns the ci now",
        "ken owns a cat now",
        "ken owns the place now",
        "ken owns the scheduler now?",
        "the guy owns the code now",
    ],
)
def test_a_near_miss_of_a_value_or_owner_told_anew_is_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "forget the thing i said, its fine",
        "forget the thing, its fine",
        "ignore the bit where it crashed",
        "drop the stuff in the tmp dir",
        "the thing about redis is it forgets",
        "i forget the thing about redis",
        "don't forget the thing about redis",
        "drop the note on the PR",
        "ignore the part on line 5",
        "ignore the bit on the left",
        "drop the stuff on the floor",
        "drop the part about caching from the docs",
        "ignore the stuff about deprecation in the log",
        "ignore the thing about the warning, its harmless",
    ],
)
def test_a_near_miss_of_forget_the_thing_takes_nothing_back(prompt: str) -> None:
    assert taken_back(prompt) is None


@pytest.mark.parametrize(
    ("prompt", "taken"),
    [
        ("forget the thing about result_ttl", "result_ttl"),
        ("scratch the bit about retries", "retries"),
        ("drop the stuff about redis", "redis"),
        ("ignore the thing i said about the port", "port"),
        ("drop the note i said earlier on caching", "caching"),
        ("forget what i said on the docs tooling", "docs tooling"),
        ("forget the thing about redis. pull from main first", "redis"),
    ],
)
def test_a_terse_retraction_still_takes_its_object_back(prompt: str, taken: str) -> None:
    assert taken_back(prompt) == taken


# Rule 7 (knowledge/replace.py): what the value told anew is about narrows what it replaces.
def _statement(prompt: str) -> Statement:
    (found,) = extract_statements(prompt)
    return found


TEST_PORT = Candidate("q", "the test server port is 8080", False, 1.0)
REDIS_PORT = Candidate("p", "dev redis is on port 6379", False, 1.0)
API_VERSION = Candidate("v", "the api version v2 is deprecated", False, 1.0)


def test_a_value_told_of_one_thing_leaves_another_things_setting_alone() -> None:
    """The statement "redis port's 6380 now" names redis: the one stored port, the test
    server's, is no redis port (days87 replaced it on the setting's word alone)."""
    assert judge(_statement("redis port's 6380 now"), [TEST_PORT]) == Verdict()
    verdict = judge(_statement("redis port's 6380 now"), [TEST_PORT, REDIS_PORT])
    assert (verdict.supersedes, verdict.rule) == ("p", "anew")


def test_a_bare_setting_told_anew_still_replaces_its_one_holder() -> None:
    verdict = judge(_statement("port's 6380 now"), [TEST_PORT])
    assert (verdict.supersedes, verdict.rule) == ("q", "anew")


def test_a_value_of_another_shape_is_no_old_value() -> None:
    """The statement "the version is 3 now" is no new name of "v2" (a number for a name)."""
    assert judge(_statement("the version is 3 now"), [API_VERSION]) == Verdict()
    verdict = judge(_statement("the version is v3 now"), [API_VERSION])
    assert (verdict.supersedes, verdict.rule) == ("v", "anew")


@given(
    qualifier=st.sampled_from(["redis", "staging", "email", "worker"]),
    holder=st.sampled_from(["redis", "staging", "email", "worker", "test"]),
    old=st.integers(min_value=1, max_value=99999),
    new=st.integers(min_value=1, max_value=99999),
)
def test_a_qualified_setting_replaces_only_a_holder_naming_it(
    qualifier: str, holder: str, old: int, new: int
) -> None:
    candidate = Candidate("c", f"the {holder} port is {old}", False, 1.0)
    verdict = judge(_statement(f"{qualifier} port's {new} now"), [candidate])
    assert (verdict.supersedes == "c") is (holder == qualifier and old != new)


def test_a_text_full_of_separators_is_read_again_from_its_outer_titles_only() -> None:
    """doctor.own_texts: 5,000 " › " made 5,001 texts, each located in the file (7 s)."""
    text = " › ".join(["menu"] * 5000) + " then tick the box"
    assert len(own_texts(text)) == MAX_OUTER_TITLES + 1
    lines = ["Options", "", "## Examples", "", "run it"]
    assert range_holds(lines, 3, 5, "Options › Advanced › Examples run it")
    assert not range_holds(lines, 3, 5, "Options › Advanced › Examples run it twice")


@pytest.mark.parametrize("run", ["{a=", "{: a={", "{ #a {: b="])
def test_a_long_heading_of_near_miss_attribute_lists_reads_in_linear_time(run: str) -> None:
    """markdown_blocks._HEADING_ATTRS from each "{" of "{a={a=...": an unquoted value ran to
    the line's end and back (40 KB: 16 s); a 200 KB heading now reads in well under a second."""
    heading = "# t " + run * (200_000 // len(run)) + "x"
    started = time.process_time()
    (chunk,) = split_markdown(heading + "\n\ntext\n")[:1]
    assert chunk.section[0].startswith("t {")
    assert time.process_time() - started < 5.0


@pytest.mark.parametrize(
    "prompt", ["Priya owns the API.", "Priya owns the CLI.", "Tom owns the CI."]
)
def test_an_owner_of_a_part_named_in_capitals_is_kept(prompt: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [prompt]
