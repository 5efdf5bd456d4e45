"""The bfs lane's best from the seeds' heat rows (``bfs.bfs_over_rows``, which
``graph_lanes.bfs_best`` takes on a prepared store) is ``lane_best`` of the loop's lane
(``bfs_scores`` over the seeds' one hop): the same floats by ``repr``, in the same key
order, on random graphs with parallel edges, self-loops, non-positive weights, shared
neighbours, linked seeds and ties (equal weights around equal seeds)."""

from __future__ import annotations

from struct import unpack
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.graph_lanes import bfs_best, bfs_scores, lane_best
from credo.retrieval.lanes.bfs import bfs_over_rows
from credo.store.graph import Link
from tests.test_heat_best import _ranked_rows
from tests.test_heat_rows import NAMES, _links, touching

_keep = st.sets(st.sampled_from(NAMES), max_size=6)
_limit = st.integers(0, 8)
_decay = st.sampled_from([0.5, 0.3, 1.0])
_seeds = st.one_of(
    st.dictionaries(
        st.sampled_from(NAMES), st.sampled_from([0.25, 0.5, 1.0]), min_size=1, max_size=6
    ),
    st.dictionaries(
        st.sampled_from(NAMES), st.floats(1e-3, 1.0, allow_subnormal=False), min_size=1, max_size=8
    ),
)
_BY_ID = {name: 3 * i + 7 for i, name in enumerate(sorted(NAMES))}  # (ranks with gaps)


def _strongest(links: list[Link], name: str, far: str) -> float:
    """The strongest positive edge between ``name`` and ``far`` (either way round)."""
    found = [
        x.weight for x in links if {x.src, x.dst} == {name, far} and x.weight > 0 and x.src != x.dst
    ]
    if name == far:
        found = [x.weight for x in links if x.src == x.dst == name and x.weight > 0]
    return max(found, default=0.0)


@settings(max_examples=500, deadline=None)
@given(links=_links, seeds=_seeds, keep=_keep, limit=_limit, decay=_decay)
def test_the_bfs_lane_from_the_rows_is_lane_best_of_the_loop(
    links: list[Link], seeds: dict[str, float], keep: set[str], limit: int, decay: float
) -> None:
    import numpy  # noqa: F401  (the rows path is a warm process's: numpy loaded)

    rows = _ranked_rows(links, seeds, _BY_ID)
    keyword = dict.fromkeys(keep | set(seeds), 1.0)  # (the seeds are keyword hits)
    want = lane_best(bfs_scores(seeds, [touching(links, seeds)], decay), keyword, limit)
    got = bfs_over_rows(seeds, rows, decay, keyword, limit)
    reached = {m for name in seeds for m in rows[name].members} - set(seeds)
    if got is None:  # (only when a kept node other than a seed is in a seed's row)
        assert reached & keep
    else:
        assert repr(got) == repr(want)


@settings(max_examples=300, deadline=None)
@given(
    links=_links,
    seeds=_seeds,
    keep=_keep,
    limit=_limit,
    decay=_decay,
    locks=st.sets(st.sampled_from(NAMES), max_size=3),
    ranked=st.booleans(),
)
def test_bfs_best_is_lane_best_of_bfs_scores(
    links: list[Link],
    seeds: dict[str, float],
    keep: set[str],
    limit: int,
    decay: float,
    locks: set[str],
    ranked: bool,
) -> None:
    """Through ``bfs_best``, with locks met or not, rows with ranks or without: always
    the loop's answer."""
    import numpy  # noqa: F401

    hop = touching(links, seeds)
    rows = _ranked_rows(links, seeds, _BY_ID) if ranked else None
    store: Any = SimpleNamespace(heat_rows=lambda: rows)
    options: Any = SimpleNamespace(graph_max_links=10_000, graph_lane_limit=limit, bfs_decay=decay)
    keyword = dict.fromkeys(keep | set(seeds), 1.0)
    met: dict[str, Any] = {n: (n,) for n in NAMES}
    met.update(dict.fromkeys(locks))
    locked = met if locks else None
    want = lane_best(bfs_scores(seeds, [hop], decay), keyword, limit, locked)
    assert repr(bfs_best(store, seeds, [hop], options, keyword, locked)) == repr(want)


@settings(max_examples=200, deadline=None)
@given(links=_links)
def test_a_heat_row_holds_each_member_s_strongest_edge(links: list[Link]) -> None:
    for name, row in _ranked_rows(links, {}, _BY_ID).items():
        strongest = unpack(f"{len(row.members)}d", row.strongest)
        assert strongest[0] == 0.0
        for far, weight in zip(row.members[1:], strongest[1:], strict=True):
            assert weight == _strongest(links, name, far)
