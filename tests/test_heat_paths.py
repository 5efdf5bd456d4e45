"""bench/heat_paths.py: the heat lane's heat split by the link it came along."""

from __future__ import annotations

import math

from bench.heat_paths import RELATIONS, Pairs, heat_shares, recorded_heat, relation_of
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval import pipeline
from credo.retrieval.lanes.heat import heat_over_links
from credo.store.graph import Link

NAMES = [f"n{i}" for i in range(8)]


def test_a_node_stands_to_a_seed_by_its_direct_link() -> None:
    direct = {("child", "section"): "DERIVED_FROM", ("page", "other"): "CITES"}
    assert relation_of("section", "section", direct) == "own"
    assert relation_of("child", "section", direct) == "from parent"
    assert relation_of("section", "child", direct) == "from child"
    assert relation_of("other", "page", direct) == "cites"
    assert relation_of("page", "other", direct) == "cites"
    assert relation_of("child", "other", direct) == "further"


def test_containment_wins_over_a_citation_between_the_same_two() -> None:
    direct = {("a", "b"): "CITES", ("b", "a"): "DERIVED_FROM"}
    assert relation_of("a", "b", direct) == "from child"


def test_a_hub_s_heat_from_its_matching_children_is_from_child() -> None:
    links = [Link(f"c{i}", "hub", "DERIVED_FROM", 0.5) for i in range(4)]
    seeds = {f"c{i}": 1.0 for i in range(4)}
    shares = heat_shares(seeds, links, ["hub", "c0"], t=1.0)
    assert shares["hub"]["own"] == 0.0
    assert shares["hub"]["from child"] > 0.0
    assert shares["c0"]["own"] > 0.0
    assert shares["c0"]["further"] > 0.0  # (from its siblings, through the hub)


_links = st.lists(
    st.builds(
        Link,
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.sampled_from(["DERIVED_FROM", "CITES", "SUPPORTS"]),
        st.sampled_from([0.3, 0.5, 1.0]),
    ),
    max_size=20,
)
_seeds = st.dictionaries(st.sampled_from(NAMES), st.floats(0.01, 1.0), min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(links=_links, seeds=_seeds)
def test_the_shares_add_up_to_the_lane_s_heat(links: list[Link], seeds: dict[str, float]) -> None:
    heat = heat_over_links(seeds, links, t=1.0)
    shares = heat_shares(seeds, links, NAMES, t=1.0)
    for name in NAMES:
        assert set(shares[name]) == set(RELATIONS)
        assert math.isclose(sum(shares[name].values()), heat.get(name, 0.0), abs_tol=1e-6)


def test_pairs_count_answers_above_and_below() -> None:
    pairs = Pairs()
    pairs.add([0.5, 0.1], [0.2, 0.2, 0.5])
    assert (pairs.above, pairs.below, pairs.pairs) == (2, 3, 6)
    assert pairs.answer_means == [0.3] and math.isclose(pairs.other_means[0], 0.3)


def test_recording_gives_the_lane_back_untouched() -> None:
    original = pipeline.heat_scores
    with recorded_heat() as seen:
        assert pipeline.heat_scores is not original
        assert seen == {}
    assert pipeline.heat_scores is original
