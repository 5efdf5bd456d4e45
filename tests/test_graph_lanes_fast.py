"""The graph lanes' shortcuts give what the plain forms give: ``bfs_scores`` over one hop
(the step less the seeds, popped) is the hop-by-hop loop's answer, and ``lane_best`` (its
kept and others split by C-level passes) is the comprehension form's, the same floats by
``repr`` in the same key order, with keyword hits among the scores or none, locks met, ties
and non-positive weights."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.graph_lanes import bfs_scores, lane_best
from credo.retrieval.lanes.bfs import expand_hop
from credo.store.graph import Link

NAMES = [f"n{i}" for i in range(10)]
_links = st.lists(
    st.builds(
        Link,
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.sampled_from(["CITES", "SUPPORTS"]),
        st.sampled_from([-0.5, 0.0, 0.25, 0.5, 1.0, 0.3]),
    ),
    max_size=30,
)
_seeds = st.dictionaries(
    st.sampled_from(NAMES), st.sampled_from([0.25, 0.5, 1.0, 0.7]), min_size=1, max_size=5
)


def _bfs_loop(seeds: Mapping[str, float], hops: list[list[Link]], decay: float) -> dict:
    """``bfs_scores`` as the hop-by-hop loop writes it (any number of hops)."""
    best = max(seeds.values())
    reached: dict[str, float] = {}
    frontier = {k: v / best for k, v in seeds.items()}
    for links in hops:
        step = expand_hop(frontier, links, decay=decay)
        frontier = {k: v for k, v in step.items() if v > reached.get(k, 0.0) and k not in seeds}
        reached.update(frontier)
    return reached


def _lane_best_plain(
    scores: dict[str, float], keep: Mapping[str, float], limit: int, locked: Mapping | None
) -> dict[str, float]:
    """``lane_best`` by comprehensions."""
    if locked is not None:
        scores = {k: v for k, v in scores.items() if locked.get(k, ()) is not None}
    best = {k: v for k, v in scores.items() if k in keep}
    others = [k for k in scores if k not in keep]
    others.sort()
    others.sort(key=scores.__getitem__, reverse=True)
    del others[limit:]
    best.update(zip(others, map(scores.__getitem__, others), strict=True))
    return best


@settings(max_examples=400, deadline=None)
@given(links=_links, seeds=_seeds, decay=st.sampled_from([0.5, 1.0, 0.3]))
def test_bfs_over_one_hop_is_the_loop_s_answer(
    links: list[Link], seeds: dict[str, float], decay: float
) -> None:
    assert repr(bfs_scores(seeds, [links], decay)) == repr(_bfs_loop(seeds, [links], decay))


@settings(max_examples=400, deadline=None)
@given(
    links=_links,
    seeds=_seeds,
    keep=st.sets(st.sampled_from(NAMES), max_size=5),
    limit=st.integers(0, 8),
    locks=st.sets(st.sampled_from(NAMES), max_size=3),
)
def test_lane_best_is_the_comprehensions_answer(
    links: list[Link], seeds: dict[str, float], keep: set[str], limit: int, locks: set[str]
) -> None:
    scores = bfs_scores(seeds, [links], 0.5)
    keyword = dict.fromkeys(keep, 1.0)
    met: dict[str, object] = {n: (n,) for n in NAMES}
    met.update(dict.fromkeys(locks))
    for locked in (None, met):
        want = _lane_best_plain(scores, keyword, limit, locked)
        assert repr(lane_best(scores, keyword, limit, locked)) == repr(want)  # type: ignore[arg-type]
