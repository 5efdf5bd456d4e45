"""``Charges.prefix`` (a flat store's fitting prefix in C-level passes) against the walk
one unit at a time it stands for: the same count and cost, the same charges, and every
line asked for in the same order, up to the first unit that does not fit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from credo.retrieval.place import Charges, Places


class Asked(dict[str, int]):
    """Lines costed on first lookup, as ``compress.Costs`` does; ``log`` the ids in the
    order they were first asked for (what a lookup's side effects follow)."""

    def __init__(self, sizes: dict[str, int]) -> None:
        super().__init__()
        self.sizes = sizes
        self.log: list[str] = []

    def __missing__(self, key: str) -> int:
        self.log.append(key)
        found = self[key] = self.sizes[key]
        return found


def walked(units: list[str], charges: Charges, budget: int) -> tuple[int, int]:
    """pack.fitting_prefix's walk, one unit at a time."""
    used = 0
    for index, unit in enumerate(units):
        cost = charges[unit]
        if used + cost > budget:
            return index, used
        used += cost
        charges.take(unit)
    return len(units), used


@given(
    st.lists(st.integers(0, 90), min_size=1, max_size=14),
    st.lists(st.lists(st.integers(0, 13), min_size=2, max_size=3), max_size=4),
    st.integers(0, 120),
    st.integers(0, 3),
    st.booleans(),
)
def test_the_prefix_is_the_walk(
    sizes: list[int], groups: list[list[int]], budget: int, first: int, known: bool
) -> None:
    ids = [f"b{i}" for i in range(len(sizes))]
    members: dict[str, list[str]] = {}
    grouped: set[str] = set()
    for group in groups:  # a leader and its others, none in two groups
        picked = [ids[i] for i in dict.fromkeys(group) if i < len(ids) and ids[i] not in grouped]
        if len(picked) >= 2:
            members[picked[0]] = picked
            grouped.update(picked)
    units = [i for i in ids if i not in grouped or i in members]
    outcomes = []
    for way in ("walk", "prefix"):
        lines = Asked(dict(zip(ids, sizes, strict=True)))
        charges = Charges(lines, Places({}), members)
        calls: list[str] = []
        if known:
            charges.known = calls.append
        before = units[: min(first, len(units))]
        for unit in before:  # a pack's Stage 1 took these already
            charges.take(unit)
        rest = units[len(before) :]
        found = walked(rest, charges, budget) if way == "walk" else charges.prefix(rest, budget)
        charged = list(charges.charged.items())  # in the order charged
        outcomes.append((found, charged, charges._chars, lines.log, calls))
    assert outcomes[0] == outcomes[1]
