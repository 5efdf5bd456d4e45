"""``Memory.retrieve`` keeps its last ``Options`` (retrieval/options.py ``LastOptions``): a
retrieve asked with the very same values takes them again, unchecked; anything else is
made and checked anew, so a value that only equals an allowed one is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.config import RetrievalSettings, Settings
from credo.errors import InvalidInputError
from credo.memory import Memory
from credo.retrieval import pipeline
from credo.retrieval.options import LastOptions

TEXTS = ["Deploys go through the staging cluster first", "The staging cluster runs on arm64"]


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    m = Memory(tmp_path / "m.db", root=tmp_path)
    for text in TEXTS:
        m.remember(text)
    m.remember("Never deploy on Fridays", lock=True)
    return m


def test_the_same_values_take_the_same_options_checked() -> None:
    last = LastOptions()
    asked = (RetrievalSettings(), False, (), None, None, True)
    first, checked = last.made(asked, (None, None), (False, False, "auto"))
    again, checked_again = last.made(asked, (None, None), (False, False, "auto"))
    assert checked and checked_again and again is first
    other, _ = last.made(asked, (None, None), (False, True, "auto"))
    assert other is not first and other.include_superseded


def test_a_value_equal_to_the_last_but_of_another_type_is_checked(memory: Memory) -> None:
    memory.retrieve("staging", token_budget=2400, cluster_diversity_target=1)
    with pytest.raises(InvalidInputError, match="token_budget"):
        memory.retrieve("staging", token_budget=2400.0)  # type: ignore[arg-type]
    memory.retrieve("staging", cluster_diversity_target=1)
    with pytest.raises(InvalidInputError, match="cluster_diversity_target"):
        memory.retrieve("staging", cluster_diversity_target=True)
    # (a refused call keeps nothing: the next one is made and checked as ever)
    assert memory.retrieve("staging", cluster_diversity_target=1).token_budget == 2400


def test_a_callers_lane_mapping_changed_in_place_is_checked_again(memory: Memory) -> None:
    lanes = {"heat": False}
    memory.retrieve("staging", lanes=lanes)
    lanes["heat"] = "off"  # type: ignore[assignment]
    with pytest.raises(InvalidInputError, match="heat"):
        memory.retrieve("staging", lanes=lanes)


def test_new_settings_are_read_at_the_next_retrieve(memory: Memory) -> None:
    assert memory.retrieve("staging").token_budget == 2400
    memory.settings = Settings(retrieval=RetrievalSettings(token_budget=30))
    assert memory.retrieve("staging").token_budget == 30


CALLS = st.fixed_dictionaries(
    {},
    optional={
        "token_budget": st.sampled_from([20, 60, 2400]),
        "use_intentional_clustering": st.booleans(),
        "cluster_diversity_target": st.sampled_from([0, 1, 3]),
        "include_superseded": st.booleans(),
        "compress": st.sampled_from(["auto", "off", "always"]),
        "lanes": st.sampled_from([{"heat": False}, {"bfs": False, "dialog": False}]),
    },
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(calls=st.lists(CALLS, min_size=1, max_size=6))
def test_a_sequence_of_retrieves_answers_as_fresh_options_do(
    memory: Memory, calls: list[dict[str, object]]
) -> None:
    for kwargs in calls:
        got = memory.retrieve("staging cluster", **kwargs)  # type: ignore[arg-type]
        fresh = Memory.__new__(Memory)  # (what a Memory without a last retrieve makes)
        fresh.__dict__.update(memory.__dict__, _last_options=pipeline.LastOptions())
        assert got == fresh.retrieve("staging cluster", **kwargs)  # type: ignore[arg-type]


def test_the_hrr_switch_is_read_at_the_next_retrieve(tmp_path: Path) -> None:
    # (the default lanes follow the store: a kept Options made before the switch would not)
    m = Memory(tmp_path / "m.db", root=tmp_path)
    a, b = m.remember("note a", id="a"), m.remember("note b", id="b")
    m.relate(b, a, "CITES")

    def hrr_scored() -> bool:
        return any("hrr" in x.lanes for x in m.retrieve("what cites a").beliefs)

    assert not hrr_scored()
    m.enable_hrr(dim=256)
    assert hrr_scored()
    m.disable_hrr()
    assert not hrr_scored()


@pytest.mark.parametrize(
    "name", ["use_intentional_clustering", "with_doc_anchors", "include_superseded"]
)
@pytest.mark.parametrize("value", ["no", 0])
def test_a_switch_that_is_not_a_bool_is_refused(memory: Memory, name: str, value: object) -> None:
    # "no" is truthy: taken as given it would turn the switch on
    memory.retrieve("staging")  # (the last options kept: the bad value must not reuse them)
    with pytest.raises(InvalidInputError, match=name):
        memory.retrieve("staging", **{name: value})  # type: ignore[arg-type]
    assert memory.retrieve("staging").beliefs  # nothing kept from the refused call
