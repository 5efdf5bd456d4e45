"""Who owns a part of the project ("Priya owns the scheduler code.", days87) is kept, as who
holds a role is ("Maria is the release manager", days86); an owner of anything else, or no
name, is not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements


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
