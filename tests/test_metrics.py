"""bench/metrics.py: hand-computed cases and invariants."""

from __future__ import annotations

import math

import pytest
from bench.metrics import (
    all_found_at_k,
    alpha_ndcg_at_k,
    cluster_coverage_at_k,
    ndcg_at_k,
    recall_at_k,
    recall_within_budget,
)
from hypothesis import given
from hypothesis import strategies as st

L2 = math.log2


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "expected"),
    [
        (["a", "b", "c"], {"a"}, 1, 1.0),
        (["a", "b", "c"], {"c"}, 2, 0.0),
        (["a", "b", "c"], {"b", "c", "z"}, 3, 2 / 3),
        (["x", "a", "x", "b"], {"a", "b"}, 2, 0.5),  # x counts once: top 2 is x, a
        (["x", "x", "a"], {"a"}, 2, 1.0),
        ([], {"a"}, 5, 0.0),
    ],
)
def test_recall_at_k(ranked: list[str], relevant: set[str], k: int, expected: float) -> None:
    assert recall_at_k(ranked, relevant, k) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "expected"),
    [
        (["a", "b"], {"a"}, 10, 1.0),
        (["x", "a"], {"a"}, 10, 1 / L2(3)),
        # DCG = 1/log2(3); ideal for two relevant = 1 + 1/log2(3)
        (["x", "a", "b"], {"a", "z"}, 3, (1 / L2(3)) / (1 + 1 / L2(3))),
        # relevant beyond k earns nothing; ideal is capped at k positions
        (["x", "a", "b"], {"a", "b"}, 2, (1 / L2(3)) / (1 + 1 / L2(3))),
        (["x", "y", "a"], {"a", "b", "c"}, 3, (1 / L2(4)) / (1 + 1 / L2(3) + 1 / L2(4))),
        (["x"], {"a"}, 1, 0.0),
    ],
)
def test_ndcg_at_k(ranked: list[str], relevant: set[str], k: int, expected: float) -> None:
    assert ndcg_at_k(ranked, relevant, k) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "expected"),
    [
        (["a", "b", "c"], {"a", "c"}, 3, True),
        (["a", "b", "c"], {"a", "c"}, 2, False),
        (["a"], {"a"}, 1, True),
        (["a", "b"], {"a", "z"}, 10, False),
    ],
)
def test_all_found_at_k(ranked: list[str], relevant: set[str], k: int, expected: bool) -> None:
    assert all_found_at_k(ranked, relevant, k) is expected


@pytest.mark.parametrize(
    ("ranked", "relevant", "budget", "expected"),
    [
        ([("a", 10), ("b", 10)], {"b"}, 20, 1.0),
        ([("a", 10), ("b", 11)], {"b"}, 20, 0.0),
        # the pack stops at the first item that does not fit: c never gets in
        ([("a", 10), ("b", 50), ("c", 1)], {"a", "c"}, 20, 0.5),
        ([("a", 0), ("b", 5)], {"a", "b"}, 5, 1.0),
        ([("a", 30)], {"a"}, 20, 0.0),
    ],
)
def test_recall_within_budget(
    ranked: list[tuple[str, int]], relevant: set[str], budget: int, expected: float
) -> None:
    assert recall_within_budget(ranked, relevant, budget) == pytest.approx(expected)


SUBTOPICS = {"a": {1, 2}, "b": {1}, "c": {3}}


@pytest.mark.parametrize(
    ("ranked", "k", "alpha", "expected"),
    [
        # greedy ideal: a (gain 2), c (gain 1), b (gain 0.5)
        (["a", "c", "b"], 3, 0.5, 1.0),
        # b: 1; a: 0.5 + 1 = 1.5; c: 1  vs ideal 2 + 1/log2(3) + 0.5/log2(4)
        (
            ["b", "a", "c"],
            3,
            0.5,
            (1 + 1.5 / L2(3) + 1 / L2(4)) / (2 + 1 / L2(3) + 0.5 / L2(4)),
        ),
        # with alpha = 0 the redundancy penalty vanishes: ideal is a, b, c (2, 1, 1)
        (["c", "x"], 2, 0.0, 1.0 / (2 + 1 / L2(3))),
        (["x", "y"], 2, 0.5, 0.0),
    ],
)
def test_alpha_ndcg_at_k(ranked: list[str], k: int, alpha: float, expected: float) -> None:
    assert alpha_ndcg_at_k(ranked, SUBTOPICS, k, alpha) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("ranked", "clusters", "k", "expected"),
    [
        (["a", "b", "c"], [{"a", "b"}, {"c"}], 3, 1.0),
        (["a", "b", "c"], [{"a", "b"}, {"c"}], 2, 0.5),
        (["x", "y"], [{"a"}, {"b"}, {"y"}], 2, 1 / 3),
    ],
)
def test_cluster_coverage_at_k(
    ranked: list[str], clusters: list[set[str]], k: int, expected: float
) -> None:
    assert cluster_coverage_at_k(ranked, clusters, k) == pytest.approx(expected)


@pytest.mark.parametrize(
    "call",
    [
        lambda: recall_at_k(["a"], {"a"}, 0),
        lambda: recall_at_k(["a"], set(), 1),
        lambda: ndcg_at_k(["a"], set(), 3),
        lambda: all_found_at_k(["a"], {"a"}, -1),
        lambda: recall_within_budget([("a", 1)], {"a"}, 0),
        lambda: recall_within_budget([("a", -1)], {"a"}, 5),
        lambda: alpha_ndcg_at_k(["a"], {"a": set()}, 1),
        lambda: alpha_ndcg_at_k(["a"], {"a": {1}}, 1, alpha=1.5),
        lambda: cluster_coverage_at_k(["a"], [], 1),
    ],
)
def test_invalid_input_raises(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


# -- invariants ------------------------------------------------------------------------------

ids = st.sampled_from("abcdefghij")
rankings = st.lists(ids, max_size=12)
relevant_sets = st.sets(ids, min_size=1, max_size=6)
ks = st.integers(min_value=1, max_value=12)


@given(rankings, relevant_sets, ks)
def test_values_in_unit_interval(ranked: list[str], relevant: set[str], k: int) -> None:
    assert 0.0 <= recall_at_k(ranked, relevant, k) <= 1.0
    assert 0.0 <= ndcg_at_k(ranked, relevant, k) <= 1.0 + 1e-12
    assert 0.0 <= cluster_coverage_at_k(ranked, [{r} for r in relevant], k) <= 1.0


@given(relevant_sets, ks, st.lists(ids, max_size=6))
def test_perfect_ranking_scores_one(relevant: set[str], k: int, tail: list[str]) -> None:
    ranked = sorted(relevant) + tail
    # a perfect ranking fills the top k with relevant items (all of them when k allows)
    assert ndcg_at_k(ranked, relevant, k) == pytest.approx(1.0)
    if k >= len(relevant):
        assert recall_at_k(ranked, relevant, k) == 1.0
        assert all_found_at_k(ranked, relevant, k)
        assert cluster_coverage_at_k(ranked, [relevant], k) == 1.0


@given(rankings, relevant_sets, ks)
def test_recall_is_monotone_in_k(ranked: list[str], relevant: set[str], k: int) -> None:
    assert recall_at_k(ranked, relevant, k) <= recall_at_k(ranked, relevant, k + 1)
    # all-found can only switch on as k grows
    assert all_found_at_k(ranked, relevant, k) <= all_found_at_k(ranked, relevant, k + 1)


@given(
    st.lists(st.tuples(ids, st.integers(min_value=0, max_value=50)), max_size=12),
    relevant_sets,
    st.integers(min_value=1, max_value=200),
)
def test_budget_recall_is_monotone_in_budget(
    ranked: list[tuple[str, int]], relevant: set[str], budget: int
) -> None:
    low = recall_within_budget(ranked, relevant, budget)
    assert 0.0 <= low <= recall_within_budget(ranked, relevant, budget + 10) <= 1.0


subtopic_maps = st.dictionaries(
    ids, st.sets(st.integers(min_value=0, max_value=4), min_size=1, max_size=3), min_size=1
)


@given(rankings, subtopic_maps, ks, st.floats(min_value=0.0, max_value=1.0))
def test_alpha_ndcg_in_unit_interval(
    ranked: list[str], subtopic_of: dict[str, set[int]], k: int, alpha: float
) -> None:
    assert 0.0 <= alpha_ndcg_at_k(ranked, subtopic_of, k, alpha) <= 1.0


@given(subtopic_maps, ks)
def test_alpha_ndcg_of_single_subtopic_documents_equals_ndcg(
    subtopic_of: dict[str, set[int]], k: int
) -> None:
    # with alpha = 0 and one subtopic per document, α-nDCG reduces to binary nDCG
    flat = {d: {i} for i, d in enumerate(sorted(subtopic_of))}
    ranked = [*sorted(subtopic_of, reverse=True), "z"]
    assert alpha_ndcg_at_k(ranked, flat, k, alpha=0.0) == pytest.approx(
        ndcg_at_k(ranked, set(flat), k)
    )
