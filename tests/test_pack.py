"""The score-order pack: table of cases, errors, and invariants (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.retrieval.pack import PackResult, fitting_prefix, pack_by_score

COSTS = {"a": 10, "b": 20, "c": 5, "d": 0, "e": 30}


@pytest.mark.parametrize(
    ("ids", "budget", "selected", "dropped", "used"),
    [
        ([], 100, (), (), 0),
        (["a", "b", "c"], 100, ("a", "b", "c"), (), 35),
        (["a", "b", "c"], 35, ("a", "b", "c"), (), 35),  # exactly the budget fits
        (["a", "b", "c"], 34, ("a", "b"), ("c",), 30),
        # Stops at the first misfit: the small "c" after "e" is not taken.
        (["a", "e", "c"], 20, ("a",), ("e", "c"), 10),
        (["e", "a"], 10, (), ("e", "a"), 0),
        (["d", "a"], 0, ("d",), ("a",), 0),  # zero budget still takes zero-cost beliefs
        (["a", "d"], 0, (), ("a", "d"), 0),
        (["a", "b", "a", "c"], 100, ("a", "b", "c"), (), 35),  # a repeat counts once
    ],
)
def test_pack_by_score_table(
    ids: list[str],
    budget: int,
    selected: tuple[str, ...],
    dropped: tuple[str, ...],
    used: int,
) -> None:
    result = pack_by_score(ids, token_costs=COSTS, token_budget=budget)
    assert result == PackResult(selected, dropped, used, budget)
    assert result.remaining_tokens == budget - used


def test_accepts_any_iterable() -> None:
    result = pack_by_score(iter(["a", "c"]), token_costs=COSTS, token_budget=15)
    assert result.selected == ("a", "c")


@pytest.mark.parametrize(
    ("ids", "costs", "budget", "message"),
    [
        (["a"], {"a": 1}, -1, "token_budget is -1; it must be >= 0"),
        (["a", "b"], {"a": 1, "b": -3}, 10, "token cost of belief 'b' is -3"),
        (["a", "zz"], {"a": 1}, 10, "no token cost for belief 'zz'"),
    ],
)
def test_invalid_input(ids: list[str], costs: dict[str, int], budget: int, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        pack_by_score(ids, token_costs=costs, token_budget=budget)


def test_fitting_prefix() -> None:
    assert fitting_prefix(["a", "b", "c"], COSTS, 30) == (2, 30)
    assert fitting_prefix(["a", "b", "c"], COSTS, 100) == (3, 35)
    assert fitting_prefix([], COSTS, 0) == (0, 0)


ranked_ids = st.lists(st.sampled_from([f"b{i}" for i in range(15)]), max_size=20)
costs_for = st.lists(st.integers(0, 60), min_size=15, max_size=15).map(
    lambda costs: {f"b{i}": cost for i, cost in enumerate(costs)}
)


@given(ranked_ids, costs_for, st.integers(0, 300))
def test_pack_invariants(ids: list[str], costs: dict[str, int], budget: int) -> None:
    """Never over budget; selected + dropped is the de-duplicated ranking, split once;
    the split is maximal (the first dropped belief really did not fit)."""
    result = pack_by_score(ids, token_costs=costs, token_budget=budget)
    unique = list(dict.fromkeys(ids))
    assert result.used_tokens <= budget
    assert result.used_tokens == sum(costs[i] for i in result.selected)
    assert list(result.selected + result.dropped) == unique
    if result.dropped:
        assert result.used_tokens + costs[result.dropped[0]] > budget
