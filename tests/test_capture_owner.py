"""Who owns a part of the project ("Priya owns the scheduler code.", days87) is kept, as who
holds a role is ("Maria is the release manager", days86); an owner of anything else, or no
name, is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.knowledge.replace import Candidate, Verdict, judge
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for


@pytest.mark.parametrize(
    "prompt",
    [
        "Priya owns the scheduler code.",
        "Tom owns the docs site.",
        "Sam owns the rq/cli module.",
        "Priya owns the release pipeline and the changelog.",
        # the pronoun is the owner named, not a third party's say
        "Tom owns the docs site; loop him in on docs changes.",
    ],
)
def test_an_owner_of_a_part_of_the_project_is_kept(prompt: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [prompt]


def test_an_owner_then_what_to_do_keeps_the_owner() -> None:
    prompt = "Priya owns the scheduler code. ping her before touching rq/scheduler.py"
    assert [s.text for s in extract_statements(prompt)] == ["Priya owns the scheduler code."]


@pytest.mark.parametrize(
    "prompt",
    [
        "Tom owns a boat.",
        "Dana owns the bakery.",
        "She owns the code.",
        "Who owns the scheduler code?",
        "Priya owns the code review queue today.",
        "Priya owns the scheduler code's tests.",
        "My cousin owns the site.",
    ],
)
def test_an_owner_of_anything_else_is_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@given(
    name=st.sampled_from(["Priya", "Tom", "Ken", "Sam"]),
    part=st.sampled_from(["scheduler code", "docs site", "worker module", "CI pipeline"]),
    thing=st.sampled_from(["a boat", "the bakery", "the house", "two cats"]),
)
def test_only_the_projects_part_makes_an_owner(name: str, part: str, thing: str) -> None:
    assert len(extract_statements(f"{name} owns the {part}.")) == 1
    assert extract_statements(f"{name} owns {thing}.") == []


@pytest.mark.parametrize(
    "prompt",
    [
        "ken owns the scheduler now",
        "Ken owns the scheduler code now.",
        "sam owns our ci pipeline now",
    ],
)
def test_a_new_owner_told_with_now_is_kept_whatever_the_case(prompt: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [prompt]


@pytest.mark.parametrize(
    "prompt",
    [
        "nobody owns the docs now",
        "everyone owns the code now",
        "she owns the docs site now",
        "ken owns a boat now",
        "ken owns the scheduler",  # a lowercase word without "now": no name told
        "who owns the scheduler now?",
    ],
)
def test_no_owner_told_with_now_is_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


PRIYA = Candidate("p", "Priya owns the scheduler code.", False, 1.0)
TOM = Candidate("t", "Tom owns the docs site.", False, 1.0)


def test_a_new_owner_replaces_the_old_owner_of_that_part_only() -> None:
    (found,) = extract_statements("priya's out till march. ken owns the scheduler now")
    assert judge(found, [PRIYA, TOM]) == Verdict(supersedes="p", rule="anew")
    (docs,) = extract_statements("Ken owns the docs site now.")
    assert judge(docs, [PRIYA, TOM]).supersedes == "t"
    (same,) = extract_statements("priya owns the scheduler now")
    assert judge(same, [PRIYA, TOM]) == Verdict()


def test_through_the_installed_hook_a_new_owner_replaces_the_old(tmp_path: Path) -> None:
    """days87: Priya was served as the scheduler's owner after "ken owns the scheduler now"."""
    project = _project(tmp_path, {"p": "Priya owns the scheduler code."})
    prompt = "priya's out till march. ken owns the scheduler now"
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    assert ("SUPERSEDES", "p") in _edges(project)
