"""The heat lane's best taken from the series' answer (``heat_lane(..., best=...)``, which
``graph_lanes.heat_scores`` asks with ``keep``) is ``lane_best`` of the whole lane: the same
floats by ``repr``, in the same key order, on the rows path and the links path, with many
ties (equal weights around equal seeds), and through ``heat_scores`` with locks met."""

from __future__ import annotations

from struct import unpack
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.graph_lanes import bfs_scores, heat_scores, lane_best
from credo.retrieval.lanes import heat
from credo.store.graph import Link
from credo.store.warm_heat import HeatRow, heat_row
from tests.test_heat_rows import ABOVE, NAMES, _links, rows_of, touching

_keep = st.sets(st.sampled_from(NAMES), max_size=6)
_limit = st.integers(0, 8)
# Seeds of equal scores: equal heat among their leaves, so the (heat desc, id asc) order
# is asked on every example.
_seeds = st.dictionaries(
    st.sampled_from(NAMES), st.sampled_from([0.25, 0.5, 1.0]), min_size=1, max_size=6
)


def _rows(links: list[Link], seeds: dict[str, float]) -> dict[str, HeatRow]:
    rows = rows_of(links)
    for name in seeds:
        rows.setdefault(name, heat_row(name, []))
    return rows


@settings(max_examples=400, deadline=None)
@given(links=_links, seeds=_seeds, keep=_keep, limit=_limit, by_rows=st.booleans())
def test_the_lane_s_best_from_the_series_is_lane_best_of_the_lane(
    links: list[Link], seeds: dict[str, float], keep: set[str], limit: int, by_rows: bool
) -> None:
    import numpy  # noqa: F401  (the rows path is a warm process's: numpy loaded)

    hop = touching(links, seeds)
    rows = _rows(links, seeds) if by_rows else None
    keyword = dict.fromkeys(keep, 1.0)
    whole = heat.heat_lane(seeds, [hop], lambda: rows, cap=10_000, t=1.0, above=ABOVE)
    want = lane_best(whole, keyword, limit)
    got = heat.heat_lane(
        seeds, [hop], lambda: rows, cap=10_000, t=1.0, above=ABOVE, best=(keyword, limit)
    )
    assert repr(got) == repr(want)


@settings(max_examples=200, deadline=None)
@given(
    links=_links,
    seeds=_seeds,
    keep=_keep,
    limit=_limit,
    locks=st.sets(st.sampled_from(NAMES), max_size=3),
)
def test_heat_scores_with_keep_is_lane_best_of_heat_scores(
    links: list[Link], seeds: dict[str, float], keep: set[str], limit: int, locks: set[str]
) -> None:
    import numpy  # noqa: F401

    hop = touching(links, seeds)
    rows = _rows(links, seeds)
    store: Any = SimpleNamespace(heat_rows=lambda: rows)
    options: Any = SimpleNamespace(
        heat_hops=1, graph_max_links=10_000, graph_lane_limit=limit, heat_t=1.0
    )
    keyword = dict.fromkeys(keep, 1.0)
    # (as the pipeline hands it: each belief met, None for a locked one; None: no lock met)
    met: dict[str, Any] = {n: (n,) for n in NAMES}
    met.update(dict.fromkeys(locks))
    locked = met if locks else None
    whole = heat_scores(store, seeds, [hop], options)
    want = lane_best(whole, keyword, limit, locked)
    got = heat_scores(store, seeds, [hop], options, keyword, locked)
    assert repr(got) == repr(want)


def _ranked_rows(
    links: list[Link], seeds: dict[str, float], by_id: dict[str, int]
) -> dict[str, HeatRow]:
    """``_rows`` made as a prepared store makes them: each row with its members' ranks by
    id (``HeatRow.order``)."""
    ordered = sorted(links)
    rank = {link: i for i, link in enumerate(ordered)}
    ends = {end for link in links for end in (link.src, link.dst)} | set(seeds)
    rows = {}
    for name in sorted(ends):
        mine = [(x, x.dst, 1, rank[x]) for x in ordered if x.src == name]
        mine += [(x, x.src, 1, rank[x]) for x in ordered if x.dst == name and x.src != name]
        rows[name] = heat_row(name, mine, by_id)
    return rows


@settings(max_examples=400, deadline=None)
@given(
    links=_links,
    seeds=_seeds,
    keep=_keep,
    limit=_limit,
    gap=st.integers(1, 5),
)
def test_the_lane_s_best_by_the_rows_ranks_is_lane_best_of_the_lane(
    links: list[Link], seeds: dict[str, float], keep: set[str], limit: int, gap: int
) -> None:
    """Rows holding their members' ranks by id (a prepared store's) give the lane's best by
    whole-array steps when every node is met once (``heat._best_by_rank``): the same dict,
    in the same order, as ``lane_best`` of the whole lane, ties by id."""
    import numpy  # noqa: F401

    hop = touching(links, seeds)
    by_id = {name: gap * i + 7 for i, name in enumerate(sorted(NAMES))}  # (ranks with gaps)
    rows = _ranked_rows(links, seeds, by_id)
    assert all(
        unpack(f"{len(row.members)}q", row.order) == tuple(map(by_id.__getitem__, row.members))
        for row in rows.values()
    )
    keyword = dict.fromkeys(keep, 1.0)
    whole = heat.heat_lane(seeds, [hop], lambda: rows, cap=10_000, t=1.0, above=ABOVE)
    want = lane_best(whole, keyword, limit)
    taken: list[object] = []
    by_rank = heat._best_by_rank
    try:
        heat._best_by_rank = lambda *a: taken.append(a) or by_rank(*a)  # type: ignore[assignment]
        got = heat.heat_lane(
            seeds, [hop], lambda: rows, cap=10_000, t=1.0, above=ABOVE, best=(keyword, limit)
        )
    finally:
        heat._best_by_rank = by_rank  # type: ignore[assignment]
    assert repr(got) == repr(want)
    # (every node met once: the ranks' way is the one taken)
    met = [m for name in sorted(seeds) for m in rows[name].members]
    assert bool(taken) == (len(set(met)) == len(met))


@settings(max_examples=100, deadline=None)
@given(links=_links, seeds=_seeds, keep=_keep, by_rows=st.booleans())
def test_seeds_that_all_score_zero_give_the_graph_lanes_nothing(
    links: list[Link], seeds: dict[str, float], keep: set[str], by_rows: bool
) -> None:
    """Fails before: ``heat_scores`` (and ``bfs_scores``) divided by the best seed's score,
    0.0 when every seed scores 0 (warm once named constants the cold path could not see,
    review84), and raised ZeroDivisionError; such a query's graph lanes are empty."""
    import numpy  # noqa: F401

    zero = dict.fromkeys(seeds, 0.0)
    hop = touching(links, zero)
    rows = _rows(links, zero) if by_rows else None
    store: Any = SimpleNamespace(heat_rows=lambda: rows)
    options: Any = SimpleNamespace(
        heat_hops=1, graph_max_links=10_000, graph_lane_limit=4, heat_t=1.0
    )
    assert heat_scores(store, zero, [hop], options) == {}
    assert heat_scores(store, zero, [hop], options, dict.fromkeys(keep, 0.0), None) == {}
    assert bfs_scores(zero, [hop], 0.5) == {}
    assert bfs_scores(zero, [hop, hop], 0.5) == {}
