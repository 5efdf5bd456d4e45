"""Multi-hop expansion: reach along edges from the seeds, decayed by weight and hop.

score(v) = max over paths seed -> ... -> v of  s(seed) * prod(edge weight) * decay^hops.
Only positive edges are walked, in both directions; the best path wins (max, not sum, so a
hub does not collect score from every neighbour). Each hop is one batched query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING

from credo.store.graph import Link

if TYPE_CHECKING:
    from credo.store.warm_heat import HeatRow

DEFAULT_DECAY = 0.5

_MEMBERS = attrgetter("members")  # of a HeatRow
_ORDER = attrgetter("order")
_STRONGEST = attrgetter("strongest")


def expand_hop(
    frontier: Mapping[str, float], links: Sequence[Link], *, decay: float = DEFAULT_DECAY
) -> dict[str, float]:
    """Scores reached in one hop from ``frontier`` (node -> score) over ``links``."""
    reached: dict[str, float] = {}
    get, best = frontier.get, reached.get
    for src, dst, _kind, weight in links:  # (one unpacking: no attribute look-ups)
        if weight <= 0:
            continue
        # Both directions, src -> dst first (the order matters only for equal values).
        base = get(src)
        if base is not None:
            value = base * weight * decay
            if value > best(dst, 0.0):
                reached[dst] = value
        base = get(dst)
        if base is not None:
            value = base * weight * decay
            if value > best(src, 0.0):
                reached[src] = value
    return reached


def bfs_over_rows(
    seeds: Mapping[str, float],
    rows: Mapping[str, HeatRow],
    decay: float,
    keep: Mapping[str, float],
    limit: int,
) -> dict[str, float] | None:
    """``graph_lanes.lane_best(bfs_scores(seeds, hops, decay), keep, limit)`` (no lock
    met) with ``hops`` the seeds' links over one hop, read whole, from the seeds' heat rows
    (``rows``, per store version: store/warm_heat.py) as a few whole-array steps: the same
    dict in the same order (tested). None when the rows cannot tell it: a seed without a
    row (or without ``strongest`` and ``order``), a kept node (``keep``) reached other
    than a seed (the lane lists those in the order the links reach them), or ``limit``
    below 0.

    A node's best path over one hop is, over the seeds whose rows hold it, the seed's
    scaled score times the strongest of their edges, times ``decay``: the product grows
    with the weight (each rounding too), so the strongest edge gives the very float the
    loop keeps, and the best over the seeds is the loop's running best. The seeds are
    left out (the loop pops them). No kept node is reached, so the lane's best is its
    ``limit`` hottest by (score desc, id asc): a ``lexsort`` on the version's ranks by id
    (``HeatRow.order``), which number each node too (a node two seeds share)."""
    import numpy

    best = max(seeds.values())
    names = sorted(seeds)
    try:
        held = list(map(rows.__getitem__, names))
    except KeyError:
        return None
    if limit < 0 or not all(map(_STRONGEST, held)) or not all(map(_ORDER, held)):
        return None
    members = list(chain.from_iterable(map(_MEMBERS, held)))
    if not seeds.keys() >= (keep.keys() & members):
        return None  # (a kept node reached: the loop's answer)
    sizes = list(map(len, map(_MEMBERS, held)))
    # (``v / best``: the loop's frontier, float for float)
    scaled = numpy.repeat(numpy.array([seeds[n] / best for n in names], numpy.float64), sizes)
    strongest = numpy.frombuffer(b"".join(map(_STRONGEST, held)), numpy.float64)
    value = scaled * strongest * decay  # ((base * weight) * decay, as the loop multiplies)
    reached = value > 0.0  # (as the loop keeps a value: above 0.0; a NaN is not)
    reached &= numpy.frombuffer(bytes(map(seeds.__contains__, members)), numpy.bool_) == 0
    at = numpy.flatnonzero(reached)
    order = numpy.frombuffer(b"".join(map(_ORDER, held)), numpy.int64)
    if len(set(members)) != len(members):  # a node met twice: its best entry alone
        ranks = order[at]
        by = numpy.lexsort((-value[at], ranks))  # (by node, its best entry first)
        at, ranks = at[by], ranks[by]
        first = numpy.ones(len(at), numpy.bool_)
        numpy.not_equal(ranks[1:], ranks[:-1], out=first[1:])
        at = at[first]
    picked = at[numpy.lexsort((order[at], -value[at]))][:limit]
    return dict(zip(map(members.__getitem__, picked.tolist()), value[picked].tolist(), strict=True))
