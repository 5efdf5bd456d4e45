"""Intentional clustering: BFS oracle, order independence, floor, and the two-stage pack."""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.retrieval.cluster import (
    ClusterPackResult,
    RetrievalCluster,
    cluster_candidates,
    flattened_score_order,
    pack_ranked,
    pack_with_clusters,
)
from credo.retrieval.pack import pack_by_score
from credo.types import EDGE_VALENCE, Edge, EdgeType

FLOOR = 0.4


def edge(src: str, dst: str, weight: float = 1.0) -> Edge:
    return Edge(src=src, dst=dst, type=EdgeType.SUPPORTS, weight=weight)


def bfs_clusters(candidates: list[str], edges: list[Edge], floor: float) -> set[frozenset[str]]:
    """Reference: components of the candidate-induced, undirected, floor-filtered graph."""
    nodes = set(candidates)
    neighbours: dict[str, set[str]] = {node: set() for node in nodes}
    for e in edges:
        if e.weight >= floor and e.src in nodes and e.dst in nodes:
            neighbours[e.src].add(e.dst)
            neighbours[e.dst].add(e.src)
    seen: set[str] = set()
    components: set[frozenset[str]] = set()
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        members = {start}
        while queue:
            for other in neighbours[queue.popleft()]:
                if other not in seen:
                    seen.add(other)
                    members.add(other)
                    queue.append(other)
        components.add(frozenset(members))
    return components


@dataclass(frozen=True)
class Scenario:
    """A random retrieval: candidates with scores and costs, edges, and pack knobs."""

    candidates: list[str]
    scores: dict[str, float]
    costs: dict[str, int]
    edges: list[Edge]
    budget: int
    target: int
    fallback: bool


IDS = [f"b{i:02d}" for i in range(14)]
OUTSIDERS = ["x1", "x2"]  # edge endpoints that are never candidates


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    candidates = draw(st.lists(st.sampled_from(IDS), max_size=14, unique=True))
    # Few distinct score values, so ties (broken by id) are common.
    scores = {c: draw(st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0, -1.0])) for c in candidates}
    costs = {c: draw(st.integers(0, 40)) for c in candidates}
    endpoints = st.sampled_from([*candidates, *OUTSIDERS])
    weights = st.one_of(
        st.sampled_from(sorted(set(EDGE_VALENCE.values()))),
        st.floats(-1.0, 1.0, allow_nan=False),
    )
    edges = draw(
        st.lists(
            st.builds(edge, endpoints, endpoints, weights),
            max_size=3 * len(candidates),
        )
    )
    return Scenario(
        candidates=candidates,
        scores=scores,
        costs=costs,
        edges=edges,
        budget=draw(st.integers(0, 200)),
        target=draw(st.integers(0, 5)),
        fallback=draw(st.booleans()),
    )


def run(s: Scenario, floor: float = FLOOR) -> ClusterPackResult:
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges, edge_weight_floor=floor)
    return pack_with_clusters(
        clusters,
        candidate_scores=s.scores,
        token_costs=s.costs,
        token_budget=s.budget,
        cluster_diversity_target=s.target,
        fallback_to_score=s.fallback,
    )


def by_score(ids: list[str] | tuple[str, ...], scores: dict[str, float]) -> list[str]:
    return sorted(ids, key=lambda i: (-scores[i], i))


# --- cluster_candidates -----------------------------------------------------------------


@given(scenarios(), st.sampled_from([-1.0, 0.0, 0.3, 0.4, 0.5, 1.0, 2.0]))
def test_clusters_are_the_bfs_components(s: Scenario, floor: float) -> None:
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges, edge_weight_floor=floor)
    assert {frozenset(c.member_ids) for c in clusters} == bfs_clusters(s.candidates, s.edges, floor)


@given(scenarios())
def test_cluster_shape(s: Scenario) -> None:
    """Members ranked, representative first, ids dense in representative order."""
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges)
    assert [c.cluster_id for c in clusters] == list(range(len(clusters)))
    assert sorted(m for c in clusters for m in c.member_ids) == sorted(s.candidates)
    for c in clusters:
        assert list(c.member_ids) == by_score(c.member_ids, s.scores)
        assert c.representative_id == c.member_ids[0]
        assert c.seed_score == s.scores[c.representative_id]
    keys = [(-c.seed_score, c.representative_id) for c in clusters]
    assert keys == sorted(keys)


@given(scenarios(), st.randoms(use_true_random=False))
def test_result_independent_of_input_order(s: Scenario, rng: random.Random) -> None:
    """Shuffling candidates and edges, and flipping edge direction, changes nothing."""
    candidates = list(s.candidates)
    edges = [edge(e.dst, e.src, e.weight) if rng.random() < 0.5 else e for e in s.edges]
    rng.shuffle(candidates)
    rng.shuffle(edges)
    shuffled = Scenario(candidates, s.scores, s.costs, edges, s.budget, s.target, s.fallback)
    assert cluster_candidates(candidates, s.scores, edges=edges) == cluster_candidates(
        s.candidates, s.scores, edges=s.edges
    )
    assert run(shuffled) == run(s)


@pytest.mark.parametrize("floor", [0.4, 0.5, 0.0, -0.5, 1.0, 0.3])
@pytest.mark.parametrize(
    ("weight_of", "joined"),
    [
        (lambda f: math.nextafter(f, -math.inf), False),  # floor - epsilon
        (lambda f: f, True),  # exactly the floor
        (lambda f: math.nextafter(f, math.inf), True),
    ],
    ids=["below", "at", "above"],
)
def test_floor_is_inclusive(
    floor: float, weight_of: Callable[[float], float], joined: bool
) -> None:
    weight = weight_of(floor)
    clusters = cluster_candidates(
        ["a", "b"], {"a": 1.0, "b": 0.5}, edges=[edge("a", "b", weight)], edge_weight_floor=floor
    )
    assert len(clusters) == (1 if joined else 2)


@pytest.mark.parametrize(
    ("edge_type", "joined"),
    [(t, EDGE_VALENCE[t] >= FLOOR) for t in EdgeType],
    ids=[t.value for t in EdgeType],
)
def test_default_floor_by_edge_type(edge_type: EdgeType, joined: bool) -> None:
    """0.4 keeps SUPPORTS..DERIVED_FROM (>= 0.5) and drops RELATES_TO (0.3) and below."""
    e = Edge("a", "b", edge_type, EDGE_VALENCE[edge_type])
    clusters = cluster_candidates(["a", "b"], {"a": 1.0, "b": 0.5}, edges=[e])
    assert len(clusters) == (1 if joined else 2)


def test_edges_outside_the_candidates_and_self_edges_are_ignored() -> None:
    """a - x - b with x not a candidate does not join a and b."""
    scores = {"a": 0.9, "b": 0.8}
    edges = [edge("a", "x"), edge("x", "b"), edge("a", "a"), edge("y", "z")]
    clusters = cluster_candidates(["a", "b"], scores, edges=edges)
    assert [c.member_ids for c in clusters] == [("a",), ("b",)]


def test_cluster_example() -> None:
    scores = {"a": 0.5, "b": 0.9, "c": 0.7, "d": 0.9, "e": 0.1}
    edges = [edge("a", "b"), edge("c", "e"), edge("d", "c", 0.2)]
    clusters = cluster_candidates(["e", "d", "c", "b", "a"], scores, edges=edges)
    assert clusters == [
        RetrievalCluster(0, ("b", "a"), "b", 0.9),
        RetrievalCluster(1, ("d",), "d", 0.9),  # tie with b on score: id breaks it
        RetrievalCluster(2, ("c", "e"), "c", 0.7),
    ]
    assert flattened_score_order(clusters, scores) == ("b", "d", "c", "a", "e")


def test_repeated_candidates_count_once() -> None:
    clusters = cluster_candidates(["a", "a", "b"], {"a": 1.0, "b": 0.5}, edges=[])
    assert [c.member_ids for c in clusters] == [("a",), ("b",)]


def test_no_candidates_no_clusters() -> None:
    assert cluster_candidates([], {}, edges=[edge("a", "b")]) == []


def test_infinite_scores_are_ordered() -> None:
    scores = {"a": -math.inf, "b": math.inf, "c": 0.0}
    clusters = cluster_candidates(["a", "b", "c"], scores, edges=[])
    assert [c.representative_id for c in clusters] == ["b", "c", "a"]


@pytest.mark.parametrize(
    ("scores", "floor", "message"),
    [
        ({"a": 1.0}, FLOOR, "no score for candidate 'b'"),
        ({"a": 1.0, "b": math.nan}, FLOOR, "score of candidate 'b' is NaN"),
        ({"a": 1.0, "b": 0.5}, math.nan, "edge_weight_floor is NaN"),
    ],
)
def test_cluster_candidates_rejects(scores: dict[str, float], floor: float, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        cluster_candidates(["a", "b"], scores, edges=[], edge_weight_floor=floor)


# --- pack_with_clusters: hand graphs ------------------------------------------------------

# Cluster 0: A-B-C (A best), cluster 1: D, cluster 2: E, cluster 3: F (all singletons).
HAND_SCORES = {"A": 0.9, "B": 0.8, "C": 0.7, "D": 0.6, "E": 0.5, "F": 0.4}
HAND_EDGES = [edge("A", "B"), edge("C", "B", 0.5), edge("A", "D", 0.3)]  # A-D is too weak


def hand_pack(
    costs: dict[str, int], budget: int, target: int = 3, fallback: bool = True
) -> ClusterPackResult:
    clusters = cluster_candidates(list(HAND_SCORES), HAND_SCORES, edges=HAND_EDGES)
    assert [c.member_ids for c in clusters] == [("A", "B", "C"), ("D",), ("E",), ("F",)]
    return pack_with_clusters(
        clusters,
        candidate_scores=HAND_SCORES,
        token_costs=costs,
        token_budget=budget,
        cluster_diversity_target=target,
        fallback_to_score=fallback,
    )


EVEN = dict.fromkeys(HAND_SCORES, 10)
BIG_D = {**EVEN, "D": 50}


@pytest.mark.parametrize(
    ("costs", "budget", "target", "fallback", "selected", "representatives", "dropped"),
    [
        # Stage 1 covers A, D, E; Stage 2 adds B, then C does not fit: stop.
        (EVEN, 40, 3, True, ("A", "D", "E", "B"), ("A", "D", "E"), ("C", "F")),
        # Enough budget for all: representatives first, then score order.
        (EVEN, 100, 3, True, ("A", "D", "E", "B", "C", "F"), ("A", "D", "E"), ()),
        # Target 2: only A and D jump the queue.
        (EVEN, 40, 2, True, ("A", "D", "B", "C"), ("A", "D"), ("E", "F")),
        # Target 0 is the plain score-order pack.
        (EVEN, 40, 0, True, ("A", "B", "C", "D"), (), ("E", "F")),
        # A target above the number of clusters covers them all.
        (EVEN, 60, 9, True, ("A", "D", "E", "F", "B", "C"), ("A", "D", "E", "F"), ()),
        # Tight budget, fallback on: D does not fit, Stage 1 ends; Stage 2 takes B, C,
        # then D does not fit and the pack stops.
        (BIG_D, 40, 3, True, ("A", "B", "C"), ("A",), ("D", "E", "F")),
        # Same budget, fallback off: D is skipped, E and F cover two more clusters.
        (BIG_D, 40, 3, False, ("A", "E", "F", "B"), ("A", "E", "F"), ("C", "D")),
        # Nothing fits.
        (EVEN, 5, 3, True, (), (), ("A", "B", "C", "D", "E", "F")),
        # Zero budget: only zero-cost beliefs, and Stage 2 stops at the first misfit (B).
        ({**EVEN, "A": 0, "C": 0}, 0, 3, True, ("A",), ("A",), ("B", "C", "D", "E", "F")),
        # Same, fallback off: Stage 1 skips D, E, F (none is free); Stage 2 stops at B.
        ({**EVEN, "A": 0, "C": 0}, 0, 3, False, ("A",), ("A",), ("B", "C", "D", "E", "F")),
    ],
    ids=[
        "two-stage",
        "all-fit",
        "target-2",
        "target-0",
        "target-above-clusters",
        "tight-fallback-true",
        "tight-fallback-false",
        "nothing-fits",
        "zero-budget",
        "zero-budget-no-fallback",
    ],
)
def test_hand_graph_pack(
    costs: dict[str, int],
    budget: int,
    target: int,
    fallback: bool,
    selected: tuple[str, ...],
    representatives: tuple[str, ...],
    dropped: tuple[str, ...],
) -> None:
    result = hand_pack(costs, budget, target, fallback)
    assert result.selected == selected
    assert result.dropped == dropped
    assert result.representative_ids == representatives
    assert result.used_tokens == sum(costs[i] for i in selected) <= budget
    assert result.budget == budget


def test_result_carries_cluster_ids() -> None:
    result = hand_pack(EVEN, 40)
    assert result.cluster_ids == (0, 1, 2, 0)
    assert result.clusters_covered == 3


def test_diversity_beats_score_order_on_the_hand_graph() -> None:
    """The point of the feature: same budget, three topics instead of one."""
    clustered = hand_pack(EVEN, 30)
    plain = pack_by_score(
        by_score(list(HAND_SCORES), HAND_SCORES), token_costs=EVEN, token_budget=30
    )
    assert plain.selected == ("A", "B", "C")  # one cluster
    assert clustered.selected == ("A", "D", "E")  # three clusters
    assert clustered.clusters_covered == 3


def test_empty_pack() -> None:
    result = pack_with_clusters([], candidate_scores={}, token_costs={}, token_budget=10)
    assert result == ClusterPackResult((), (), 0, 10, (), ())


def test_clusters_in_any_order_give_the_same_pack() -> None:
    clusters = cluster_candidates(list(HAND_SCORES), HAND_SCORES, edges=HAND_EDGES)
    forward = pack_with_clusters(
        clusters, candidate_scores=HAND_SCORES, token_costs=EVEN, token_budget=40
    )
    backward = pack_with_clusters(
        clusters[::-1], candidate_scores=HAND_SCORES, token_costs=EVEN, token_budget=40
    )
    assert forward == backward


@pytest.mark.parametrize(
    ("costs", "budget", "target", "message"),
    [
        (EVEN, -1, 3, "token_budget is -1; it must be >= 0"),
        (EVEN, 10, -1, "cluster_diversity_target is -1; it must be >= 0"),
        ({**EVEN, "C": -2}, 10, 3, "token cost of belief 'C' is -2"),
        ({k: v for k, v in EVEN.items() if k != "F"}, 10, 3, "no token cost for belief 'F'"),
    ],
)
def test_pack_with_clusters_rejects(
    costs: dict[str, int], budget: int, target: int, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        hand_pack(costs, budget, target)


@pytest.mark.parametrize(
    ("clusters", "message"),
    [
        (
            [RetrievalCluster(0, ("a", "b"), "a", 1.0), RetrievalCluster(1, ("b",), "b", 0.5)],
            "belief 'b' is in cluster 0 and in cluster 1",
        ),
        ([RetrievalCluster(0, ("a",), "z", 1.0)], "representative 'z'"),
    ],
)
def test_malformed_clusters_are_rejected(clusters: list[RetrievalCluster], message: str) -> None:
    scores = {"a": 1.0, "b": 0.5, "z": 0.1}
    with pytest.raises(InvalidInputError, match=message):
        pack_with_clusters(
            clusters, candidate_scores=scores, token_costs=dict.fromkeys(scores, 1), token_budget=5
        )
    with pytest.raises(InvalidInputError, match=message):
        flattened_score_order(clusters, scores)


# --- pack_with_clusters: invariants -------------------------------------------------------


@given(scenarios())
def test_pack_never_exceeds_budget_and_has_no_duplicates(s: Scenario) -> None:
    result = run(s)
    assert result.used_tokens == sum(s.costs[i] for i in result.selected)
    assert result.used_tokens <= s.budget
    assert len(set(result.selected)) == len(result.selected)
    assert not set(result.selected) & set(result.dropped)
    assert sorted(result.selected + result.dropped) == sorted(s.candidates)
    assert len(result.cluster_ids) == len(result.selected)


@given(scenarios())
def test_stage_one_coverage(s: Scenario) -> None:
    """Stage-1 invariant, with r_0, r_1, ... the representatives in cluster order:

    - fallback_to_score=True: Stage 1 picks r_0..r_{k-1} with k = min(target, p), p the
      length of the longest prefix of representatives whose total cost fits the budget.
    - fallback_to_score=False: Stage 1 picks the first min(target, g) representatives
      accepted by the walk "take r_i if it fits in what is left, else skip it", g the
      number that walk accepts over all clusters.
    In both cases the picks are distinct clusters, in cluster order, and are a prefix of
    `selected`; so the pack covers at least that many distinct clusters.
    """
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges)
    result = run(s)
    accepted: list[str] = []
    used = 0
    for c in clusters:
        cost = s.costs[c.representative_id]
        if used + cost <= s.budget:
            accepted.append(c.representative_id)
            used += cost
        elif s.fallback:
            break  # p = len(accepted): the longest fitting prefix
    expected = accepted[: s.target]
    assert list(result.representative_ids) == expected
    assert result.selected[: len(expected)] == tuple(expected)
    rep_clusters = result.cluster_ids[: len(expected)]
    assert list(rep_clusters) == sorted(set(rep_clusters))  # distinct, in cluster order
    assert result.clusters_covered >= len(expected)


@given(scenarios())
def test_stage_two_is_a_score_order_pack_of_the_rest(s: Scenario) -> None:
    """After the representatives, the pack is `pack_by_score` over the remaining candidates
    in flattened score order, with the budget Stage 1 left."""
    clusters = cluster_candidates(s.candidates, s.scores, edges=s.edges)
    result = run(s)
    reps = set(result.representative_ids)
    rest = [i for i in flattened_score_order(clusters, s.scores) if i not in reps]
    stage_one_cost = sum(s.costs[i] for i in reps)
    tail = pack_by_score(rest, token_costs=s.costs, token_budget=s.budget - stage_one_cost)
    assert result.selected[len(reps) :] == tail.selected
    assert result.dropped == tail.dropped


@given(scenarios())
def test_floor_too_high_degenerates_to_score_order(s: Scenario) -> None:
    """All singletons + fallback_to_score=True: the cluster pack is the score-order pack."""
    singletons = Scenario(s.candidates, s.scores, s.costs, s.edges, s.budget, s.target, True)
    result = run(singletons, floor=math.inf)
    plain = pack_by_score(
        by_score(s.candidates, s.scores), token_costs=s.costs, token_budget=s.budget
    )
    assert (result.selected, result.dropped, result.used_tokens) == (
        plain.selected,
        plain.dropped,
        plain.used_tokens,
    )


@given(scenarios())
def test_floor_too_low_is_one_cluster_and_score_order(s: Scenario) -> None:
    """A floor below every weight chains all linked candidates; with everything in one
    cluster Stage 1 takes only the top belief, so the result is again score order."""
    linked = [edge(a, b, -1.0) for a, b in zip(s.candidates, s.candidates[1:], strict=False)]
    giant = Scenario(s.candidates, s.scores, s.costs, linked, s.budget, s.target, s.fallback)
    clusters = cluster_candidates(
        giant.candidates, giant.scores, edges=linked, edge_weight_floor=-1
    )
    assert len(clusters) == min(1, len(s.candidates))
    result = run(giant, floor=-1.0)
    plain = pack_by_score(
        by_score(s.candidates, s.scores), token_costs=s.costs, token_budget=s.budget
    )
    assert result.selected == plain.selected


# -- the pack against its straightforward form ----------------------------------------------


def _straightforward_pack(
    ranked: list[str],
    pairs: list[tuple[str, str]],
    costs: dict[str, int],
    budget: int,
    target: int,
    fallback: bool,
) -> tuple[tuple[str, ...], tuple[str, ...], int, tuple[int, ...]]:
    """The two stages as the seed states them: clusters by BFS over the pairs, numbered by
    their best member; Stage 1 one representative per cluster; Stage 2 the rest by rank
    (every candidate not picked, in order) while it fits, stopping at the first that does not."""
    among = set(ranked)
    near: dict[str, set[str]] = {i: set() for i in ranked}
    for a, b in pairs:
        if a in among and b in among:
            near[a].add(b)
            near[b].add(a)
    label: dict[str, int] = {}
    firsts: list[str] = []
    for i in ranked:
        if i in label:
            continue
        label[i] = len(firsts)
        firsts.append(i)
        queue = deque([i])
        while queue:
            for n in near[queue.popleft()]:
                if n not in label:
                    label[n] = label[i]
                    queue.append(n)
    picks: list[str] = []
    used = 0
    for first in firsts if target else []:
        if used + costs[first] <= budget:
            picks.append(first)
            used += costs[first]
            if len(picks) >= target:
                break
        elif fallback:
            break
    rest = [i for i in ranked if i not in picks]
    count = 0
    for i in rest:
        if used + costs[i] > budget:
            break
        used += costs[i]
        count += 1
    selected = (*picks, *rest[:count])
    return selected, tuple(rest[count:]), used, tuple(label[i] for i in selected)


@given(
    size=st.integers(0, 16),
    costs=st.lists(st.integers(0, 30), min_size=16, max_size=16),
    pairs=st.lists(st.tuples(st.integers(0, 17), st.integers(0, 17)), max_size=24),
    budget=st.integers(0, 160),
    target=st.integers(0, 5),
    fallback=st.booleans(),
    order=st.randoms(use_true_random=False),
)
def test_pack_ranked_equals_its_straightforward_form(
    size: int,
    costs: list[int],
    pairs: list[tuple[int, int]],
    budget: int,
    target: int,
    fallback: bool,
    order: random.Random,
) -> None:
    """``pack_ranked`` (positions, the Stage-1 picks removed from a copy of the ranking)
    selects, drops, charges and labels as the seed's two stages written plainly do."""
    names = [f"c{k:02d}" for k in range(18)]  # (c16, c17: ends outside the candidates)
    ranked = names[:size]
    order.shuffle(ranked)  # (any ranking: the pack takes the order it is given)
    cost = dict(zip(names, costs, strict=False))
    joined = [(names[a], names[b]) for a, b in pairs]
    got = pack_ranked(
        ranked,
        pairs=joined,
        token_costs=cost,
        token_budget=budget,
        cluster_diversity_target=target,
        fallback_to_score=fallback,
    )
    selected, dropped, used, labels = _straightforward_pack(
        ranked, joined, cost, budget, target, fallback
    )
    assert (got.selected, got.dropped, got.used_tokens, got.cluster_ids) == (
        selected,
        dropped,
        used,
        labels,
    )
    assert got.representative_ids == selected[: len(got.representative_ids)]
