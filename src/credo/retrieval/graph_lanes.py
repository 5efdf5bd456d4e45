"""The graph lanes' side of a query (retrieval/pipeline.py calls them): the links read
hop by hop out of the keyword seeds, the heat and bfs scores over them, each lane's best
beliefs, and the edges among the candidates that clustering reads."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Mapping
from itertools import compress, filterfalse
from operator import not_
from typing import TYPE_CHECKING

from credo.retrieval.lanes.bfs import expand_hop
from credo.retrieval.lanes.heat import heat_lane
from credo.retrieval.options import Options
from credo.store.fts import CandidateRow
from credo.store.graph import Link

if TYPE_CHECKING:
    from credo.store import Store

__all__ = [
    "bfs_scores",
    "candidate_pairs",
    "heat_scores",
    "lane_best",
    "link_ends",
    "neighbourhood",
]


def candidate_pairs(
    store: "Store",
    ids: list[str],
    around_seeds: tuple[set[str], list[Link]] | None,
    floor: float,
) -> list[tuple[str, str]]:
    """(src, dst) of the edges at or above ``floor`` among the candidates ``ids``.

    An edge with an end in the seeds is among the seeds' links already (all of them, when
    ``around_seeds`` is given: both ends of an edge among candidates are live), so only the
    other candidates' edges are read: a fifth fewer index lookups on a typical query.
    """
    if around_seeds is None:
        return store.pairs_among(ids, min_weight=floor)
    seeds, links = around_seeds
    members = set(ids)
    # (each Link unpacked: reading a NamedTuple's field by name costs a descriptor call)
    pairs = [
        (src, dst)
        for src, dst, _kind, weight in links
        if weight >= floor and src in members and dst in members
    ]
    rest = list(filterfalse(seeds.__contains__, ids))  # (C-level: ~6k a query fewer)
    return pairs + store.pairs_among(rest, min_weight=floor) if rest else pairs


def lane_best(
    scores: dict[str, float],
    keep: Mapping[str, float],
    limit: int,
    locked: Mapping[str, CandidateRow | None] | None = None,
) -> dict[str, float]:
    """A graph lane's scores for the keyword hits plus its ``limit`` best other beliefs: the
    long tail of weakly reached neighbours would never clear the relevance floor, and
    carrying it through composition costs time on every query. With ``locked`` (the rows
    met, None for a locked belief), the locked beliefs are left out first: a locked
    belief carries heat and paths like any other, but L0 places it."""
    if locked is not None:
        scores = {k: v for k, v in scores.items() if locked.get(k, ()) is not None}
    # (C-level passes, no bytecode per belief: the bfs lane's ~70 are rarely keyword hits,
    # ~0.1 a query on the 10k bench, so one ``isdisjoint`` over ``keep`` usually settles it)
    if scores.keys().isdisjoint(keep):
        best: dict[str, float] = {}
        others = list(scores)
    else:
        held = list(map(keep.__contains__, scores))
        best = dict(compress(scores.items(), held))
        others = list(compress(scores, map(not_, held)))
    # (score desc, id asc) by two stable sorts, cheaper than a tuple key per belief.
    others.sort()
    others.sort(key=scores.__getitem__, reverse=True)
    del others[limit:]
    best.update(zip(others, map(scores.__getitem__, others), strict=True))
    return best


def neighbourhood(
    store: "Store",
    seeds: Mapping[str, float],
    options: Options,
    known: dict[str, CandidateRow | None],
) -> list[list[Link]]:
    """The links of each hop outward from the seeds (one batched query per hop); the
    beliefs they reach are added to ``known``."""
    seen = set(seeds)
    frontier = set(seeds)
    hops: list[list[Link]] = []
    for hop in range(options.graph_hops):
        if not frontier:
            break
        links, ends = store.links_with_ends(frontier, limit=options.graph_max_links)
        known.update(ends)
        hops.append(links)
        if hop + 1 < options.graph_hops:
            frontier = link_ends(links) - seen
            seen |= frontier
    return hops


def link_ends(links: list[Link]) -> set[str]:
    ends = {link.src for link in links}
    ends.update([link.dst for link in links])
    return ends


def heat_scores(
    store: "Store",
    seeds: Mapping[str, float],
    hops: list[list[Link]],
    options: Options,
    keep: Mapping[str, float] | None = None,
    locked: Mapping[str, CandidateRow | None] | None = None,
) -> dict[str, float]:
    """The heat lane's scores: the seeds scaled to a best of 1.0, over the first
    ``heat_hops`` hops (gathered from the store's heat rows when it keeps them); none
    when no seed scores above 0 (nothing to scale by: a ZeroDivisionError before). With
    ``keep``, ``lane_best(heat, keep, options.graph_lane_limit, locked)`` of them, taken
    from the series' answer when no lock was met (``heat.best_of``, tested equal)."""
    best = max(seeds.values())
    if not best > 0.0:  # (no seed scored: nothing to spread, and nothing to scale by)
        return {}
    scaled = {k: v / best for k, v in seeds.items()}
    taken, cap, limit = hops[: options.heat_hops], options.graph_max_links, options.graph_lane_limit
    picked = None if keep is None or locked is not None else (keep, limit)
    heat = heat_lane(
        scaled, taken, store.heat_rows, cap=cap, t=options.heat_t, above=1e-9, best=picked
    )
    return heat if keep is None or picked is not None else lane_best(heat, keep, limit, locked)


def bfs_scores(
    seeds: Mapping[str, float], hops: list[list[Link]], decay: float
) -> dict[str, float]:
    best = max(seeds.values())
    if not best > 0.0:  # (as ``heat_scores``)
        return {}
    frontier = {k: v / best for k, v in seeds.items()}
    if len(hops) == 1:
        # One hop (the default): nothing is reached before it, and a step holds values above
        # zero only, so the lane is the step less the seeds, popped: no test per belief.
        reached = expand_hop(frontier, hops[0], decay=decay)
        for seed in seeds:
            reached.pop(seed, None)
        return reached
    reached: dict[str, float] = {}
    for links in hops:
        step = expand_hop(frontier, links, decay=decay)
        frontier = {k: v for k, v in step.items() if v > reached.get(k, 0.0) and k not in seeds}
        reached.update(frontier)
    return reached
