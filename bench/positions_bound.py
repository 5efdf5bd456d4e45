"""A measured bound for issue #17: how fast could the warm path rank on integer positions?

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python bench/positions_bound.py [--db STORE]
        [--size 10000] [--queries 200] [--heat powers|steps|folded] [--instructions]

A prototype, not engine code. The engine keys every stage by string ids (dicts of id ->
score per lane, rows by id, sorts by id). Here the same queries, on the same warm store,
go through ``pipeline._rank``'s work re-expressed on rowids with numpy (``PositionRank``):

- the keyword top straight from the bm25 mirror's arrays (``Bm25Mirror.top`` stopped
  before its rows become ``(rowid, score)`` tuples), ties broken by each rowid's rank by id;
- the seeds' one-hop links from the warm graph's compressed rows (``WarmGraph._out`` and
  ``_into``), the heat kernel's Taylor series over the local graph (``--heat``: dense
  mat-vecs, stacked powers by default or term by term, or ``folded``: the lane's own
  ``subtract.reduceat`` fold, whose sums have an order, giving the engine's floats to the
  bit), the bfs hop as ``maximum.at``;
- each graph lane's best (``lane_best``), ``compose``'s normalisation and weighted sum in
  the lanes' name order, ``rank.rounded``'s rounding, the (score desc, id asc) order and
  the relevance floor as array operations;
- ids made strings only for the beliefs asked for (``PositionRanking.named``).

And ``candidate_pairs`` (the edges among the candidates that clustering reads) as one
gather over the compressed rows.

What it does not carry it refuses (``Unsupported``): keyword terms FTS5 must answer, a
number among the terms, a question among the hits (dialog lane), labelled beliefs (speaker
lane), sessions, trails (ingested passages: the line and defn lanes, the history, tests
and ``lift`` rules), a doc or date lane that fires, locked beliefs, a hop cut at
``graph_max_links``, the hrr lane. The bench store (synthetic Zipf notes, two
edges per belief, as bench/scale.py builds) meets none of them.

The bench answers each query with ``Memory.retrieve`` (the stages timed inside it by
wrapping the names the pipeline calls, as bench/warm_stages.py does) and with the
prototype, the order alternating query by query, the cycle collector held off around
each, and prints: per query, whether the prototype's top 10 and candidate set equal the
engine's (the shares); the p50 / p90 of the engine's covered stages (``_rank`` and
``candidate_pairs``) beside the prototype's; and the implied whole-query p50 (each query's
engine total less its covered stages plus the prototype's), with the other stages' p50s.
With ``--instructions``, the same as instructions per query instead, counted by cachegrind
(bench/cachegrind.py) in one child per mode: figures the machine's load cannot move.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Mapping
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from credo import Memory  # noqa: E402
from credo.retrieval import pipeline  # noqa: E402
from credo.retrieval.lanes.date import windows  # noqa: E402
from credo.retrieval.lanes.dialog import is_question  # noqa: E402
from credo.retrieval.lanes.doc import doc_scores  # noqa: E402
from credo.retrieval.lanes.speaker import label_words  # noqa: E402
from credo.retrieval.options import DEFAULT_LANES, Options  # noqa: E402
from credo.store.fts import ANCHOR_WEIGHT, CONTENT_WEIGHT, CONTEXT_WEIGHT, query_terms  # noqa: E402
from credo.store.inflection import with_base_words  # noqa: E402
from credo.store.warm_truth import positions  # noqa: E402

if TYPE_CHECKING:
    import numpy.typing as npt

    from credo.store import SqliteStore

UNLOCKED = 1  # a rowid's state in the warm graph (warm_graph.UNLOCKED)
KEYWORD_WEIGHTS = (CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT)
DENSE_NODES = 400  # past this many nodes the heat series would want a sparse product
_ROUND_SURE = 0.5 - 2.0**-10  # rank.rounded's bounds
_ROUND_BELOW = 2.0**40


class Unsupported(Exception):
    """The query or store needs a part of the pipeline the prototype does not carry."""


class PositionRanking(NamedTuple):
    """The prototype's ranking: rowids best first, their scores, each lane's part."""

    rids: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float64]
    lanes: tuple[str, ...]  # the lanes with a part, in name order
    parts: npt.NDArray[np.float64]  # shape (lanes, candidates), in ``rids``' order
    candidates: npt.NDArray[np.int64]  # every candidate (ranked or under the floor), sorted
    ids: tuple[str | None, ...]

    def named(self, count: int) -> list[tuple[str, float, dict[str, float]]]:
        """(id, score, parts) of the ``count`` best, the parts as ``Scored.lanes`` lists
        them (those not zero): the only strings made."""
        ids, block = self.ids, self.parts[:, :count]
        # Which parts each belief has, as bits: one dict shape per pattern, filled C-level.
        codes = (_BITS[: len(block)] @ (block != 0)).tolist()
        shapes = _shapes(self.lanes)
        return [
            (ids[rid], score, dict(zip(keys, compress(row, mask), strict=True)))  # type: ignore[misc]
            for rid, score, row, (keys, mask) in zip(
                self.rids[:count].tolist(),
                self.scores[:count].tolist(),
                block.T.tolist(),
                map(shapes.__getitem__, codes),
                strict=True,
            )
        ]


_BITS = 1 << np.arange(8)


@functools.cache
def _shapes(lanes: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[bool, ...]]]:
    """By the bits of the parts a belief has: their names, and which of a row they are."""
    masks = [
        tuple(bool(code >> i & 1) for i in range(len(lanes))) for code in range(1 << len(lanes))
    ]
    return [(tuple(compress(lanes, mask)), mask) for mask in masks]


class PositionRank:
    """``pipeline._rank`` on rowids, over one warm index's arrays (read once per version)."""

    def __init__(self, store: SqliteStore, options: Options) -> None:
        warm = store._warm
        if warm is None or warm.mirror is None or warm.table is None:
            raise Unsupported("the store has no warm index with a keyword mirror")
        lanes = {**DEFAULT_LANES, **options.lanes}
        if lanes["hrr"]:
            raise Unsupported("the hrr lane")
        self.options = options
        self.store = store
        graph, table = warm.graph, warm.table
        self.mirror = warm.mirror
        self.ids = graph._ids
        self.rows = warm._rows
        size = graph.size
        named = [rid for rid, name in enumerate(self.ids) if name is not None]
        by_id = np.zeros(size, dtype=np.int64)  # each rowid's rank by its id
        by_id[sorted(named, key=self.ids.__getitem__)] = np.arange(len(named))
        self.by_id = by_id
        state = graph._state
        if (state == 2).any():
            raise Unsupported("locked beliefs (L0 and the graph lanes' locked filter)")
        self.incident = _incidence(graph._out, graph._into, state, size)
        alpha, beta = table._alpha, table._beta
        with np.errstate(all="ignore"):  # (a rowid with no live belief: never a candidate)
            confidence = alpha / (alpha + beta)
            # compose's posterior term, the same IEEE operations per belief
            self.prior = options.weights.posterior * (confidence - 0.5)
        rows = table.rows(named)
        texts = [row[0] if row is not None else "" for row in rows]
        self.question = np.zeros(size, dtype=np.bool_)
        self.question[named] = [("?" in t or "？" in t) and is_question(t) for t in texts]
        if any(label_words(t) for t in texts):
            raise Unsupported("labelled beliefs (the speaker lane)")
        if any(row is not None and row[3] is not None for row in rows):
            raise Unsupported("sessions (the session lane)")
        if store.trails([self.ids[r] for r in named]):  # type: ignore[misc]
            raise Unsupported("trails (history, tests, lift, members_first)")
        self.scratch = np.zeros(size, dtype=np.bool_)  # a membership mask, cleared after use
        self.laps: list[tuple[str, int]] | None = None  # ``lap``'s, when timed
        self._lapped = 0
        self.slot = np.zeros(size, dtype=np.int64)  # ``compact``'s, written before each read
        weights = options.weights
        self.lane_weights = np.array([[weights.lanes.get(n, 0.0)] for n in LANE_NAMES])

    def rank(self, text: str) -> PositionRanking:
        options, lap = self.options, self.lap
        lap("")
        terms = with_base_words(query_terms(text), text)
        named, _paths = doc_scores(self.store, text)
        if named:
            raise Unsupported("the doc lane")
        if windows(text):
            raise Unsupported("the date lane")
        if not terms:
            return self._empty()
        if any(map(str.isdigit, terms)):
            raise Unsupported("a number (numbers.without_dotted)")
        lap("terms, doc and date lanes (engine code)")
        kw_rids, kw_scores = self.keyword_top(terms, options.keyword_limit)
        if not len(kw_rids):
            return self._empty()
        if self.question[kw_rids].any():
            raise Unsupported("a question among the hits (the dialog lane)")
        lap("keyword top")
        seeds = kw_rids[: options.graph_seeds]
        near, far, weight = self.links(seeds, options.graph_max_links)
        lap("seeds' links")
        count = len(seeds)
        nodes, local = self.compact(np.concatenate((seeds, near, far)))
        n, links = len(nodes), len(near)
        a, b = local[count : count + links], local[count + links :]
        first = np.zeros(n)
        first[local[:count]] = kw_scores[:count] / kw_scores[0]  # (the best seed is first)
        lap("local numbering")
        if FOLDED:
            heat = heat_folded(n, a, b, weight, first, options.heat_t, self.by_id[nodes])
        else:
            heat = heat_series(n, a, b, weight, first, options.heat_t)
        lap("heat series")
        reach = bfs_hop(n, a, b, weight, first, options.bfs_decay)
        lap("bfs hop")
        # Each graph lane's best (``lane_best``): the keyword hits it reached, and its
        # ``graph_lane_limit`` best others by (score desc, id asc), as masks over the nodes.
        keep = self.scratch
        keep[kw_rids] = True
        hit = keep[nodes]
        keep[kw_rids] = False
        order_id = self.by_id[nodes]
        limit = options.graph_lane_limit
        heat_in = _best_of(heat > 1e-9, hit, heat, order_id, limit)
        bfs_in = _best_of(reach > 0.0, hit, reach, order_id, limit)
        reached = heat_in | bfs_in
        lap("lane_best x2")
        found = np.concatenate((kw_rids, nodes[reached]))
        candidates, at = self.compact(found)
        raw = np.zeros((len(LANE_NAMES), len(candidates)))  # bfs, bm25f, heat: by name
        raw[1, at[: len(kw_rids)]] = kw_scores
        node_at = np.full(n, -1)
        node_at[reached] = at[len(kw_rids) :]
        raw[0, node_at[bfs_in]] = reach[bfs_in]
        raw[2, node_at[heat_in]] = heat[heat_in]
        lap("candidates and lane matrix")
        ranking = self.compose(candidates, raw)
        lap("compose, order, floor")
        return ranking

    def lap(self, name: str) -> None:
        """With ``laps`` a list, the time since the last lap, as (name, ns)."""
        laps = self.laps
        if laps is not None:
            now = time.perf_counter_ns()
            if name:
                laps.append((name, now - self._lapped))
            self._lapped = now

    def compact(self, values: Any) -> tuple[Any, Any]:
        """The distinct ``values`` (rowids, in no particular order) and each value's place
        among them: ``np.unique(values, return_inverse=True)`` without its sort, by the
        scratch ``slot`` array (a dozen numpy calls fewer, where each costs ~2 us)."""
        slot, at = self.slot, np.arange(len(values))
        slot[values] = at  # (one of each value's places wins: whichever, the same for all)
        distinct = values[slot[values] == at]
        slot[distinct] = np.arange(len(distinct))
        return distinct, slot[values]

    def keyword_top(self, terms: list[str], limit: int) -> tuple[Any, Any]:
        """The ``limit`` best live unlocked rows by bm25 (score desc, id asc) and their
        scores: ``Bm25Mirror.top``'s arithmetic, kept as arrays."""
        mirror = self.mirror
        stems = mirror._tokenizer.stems(terms)
        if stems is None:
            raise Unsupported("a term of several tokens (FTS5 answers)")
        found = [p for p in map(mirror._term_postings, stems) if len(p.docs)]
        if not found:
            return np.zeros(0, np.int64), np.zeros(0)
        parts = [mirror._parts(p, KEYWORD_WEIGHTS) for p in found]
        if len(found) == 1:  # (a term's rows are distinct and ascending already)
            docs, scores = found[0].docs, parts[0]
        else:
            # Each row's parts added from 0.0 in term order: ``top``'s very bincount.
            docs, where = self.compact(np.concatenate([p.docs for p in found]))
            scores = np.bincount(where, weights=np.concatenate(parts))
        # (no locked row: the store has none, ``__init__``; the index holds live rows)
        if len(docs) > limit:
            cut = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            best = scores >= cut  # (every row tied with the cut: ties go by id below)
            docs, scores = docs[best], scores[best]
        order = np.lexsort((self.by_id[docs], -scores))[:limit]
        return docs[order], scores[order]

    def links(self, seeds: Any, limit: int) -> tuple[Any, Any, Any]:
        """(near, far, weight) of the positive edges touching ``seeds`` whose other end is
        live, an edge between two seeds once (``links_with_ends``' links the lanes read:
        unordered, direction aside, as heat and bfs read them)."""
        start, other, weight, into, every, rank = self.incident
        if every[seeds].sum() >= limit:  # (at most the hop's links: its cut may apply)
            raise Unsupported("a hop cut at graph_max_links")
        at, counts = positions(start, seeds)
        far = other[at]
        inside = self.scratch
        inside[seeds] = True
        twice = into[at] & inside[far]  # an in-edge from a seed: that seed's out-edge
        inside[seeds] = False
        kept = ~twice
        near, far, weight = np.repeat(seeds, counts)[kept], far[kept], weight[at][kept]
        if FOLDED:  # (src, dst) in key order, as the lane meets the links
            at = at[kept]
            order = np.argsort(rank[at])
            into, near, far, weight = into[at][order], near[order], far[order], weight[order]
            near, far = np.where(into, far, near), np.where(into, near, far)
        return near, far, weight

    def compose(self, candidates: Any, raw: Any) -> PositionRanking:
        """``rank.compose`` over ``candidates`` (sorted rowids; ``raw``: each lane's scores,
        by lane name): each lane divided by its best, weighted, summed in the lanes' name
        order, the posterior term added, rounded to 9 places, ordered (score desc, id asc)
        and cut at the relevance floor."""
        best = raw.max(axis=1, keepdims=True)
        best[best <= 0] = np.inf  # (an empty lane: no part)
        parts = self.lane_weights * (raw / best)
        total = parts[0] + parts[1]
        total += parts[2]  # (left to right, as ``sum`` adds a belief's parts; + 0.0 is exact)
        prior = self.prior[candidates]
        total += prior
        scores = rounded(total)
        order = np.lexsort((self.by_id[candidates], -scores))
        # (every candidate has a part: each comes from a lane with a score above 0)
        ordered = scores[order]
        passing = np.count_nonzero(
            (ordered >= self.options.weights.floor * ordered[0]) & (ordered > 0)
        )
        order = order[:passing]  # (sorted: what passes is a prefix)
        parts = np.concatenate((parts[:, order], prior[None, order]))
        return PositionRanking(candidates[order], scores[order], PARTS, parts, candidates, self.ids)

    def _empty(self) -> PositionRanking:
        none = np.zeros(0, np.int64)
        return PositionRanking(none, np.zeros(0), PARTS, np.zeros((len(PARTS), 0)), none, self.ids)

    def pairs(self, candidates: Any, floor: float) -> tuple[Any, Any]:
        """``candidate_pairs`` on rowids: (src, dst) of the edges among ``candidates`` (the
        ranked ones: what clustering reads) weighing at least ``floor``."""
        start, other, weight, into, *_ = self.incident
        at, counts = positions(start, candidates)
        far = other[at]
        member = self.scratch
        member[candidates] = True
        kept = member[far] & ~into[at] & (weight[at] >= floor)
        member[candidates] = False
        return np.repeat(candidates, counts)[kept], far[kept]


LANE_NAMES = ("bfs", "bm25f", "heat")  # the lanes with scores on the bench store, by name
PARTS = (*LANE_NAMES, "posterior")  # a ranked belief's parts, in ``Scored.lanes``' order


def _incidence(out: Any, into: Any, state: Any, size: int) -> tuple[Any, ...]:
    """Each belief's edges both ways in one compressed row, made once per version: (start,
    far end, weight, whether it is an in-edge, each belief's count of links to live ends).
    Only positive edges to live ends are laid out (heat and bfs walk no other; the pairs
    clustering reads weigh at least its floor, above 0); the count holds every link, the
    hop's cut counts them all."""
    near = np.concatenate([np.repeat(np.arange(size), np.diff(s.start)) for s in (out, into)])
    far = np.concatenate((out.other, into.other)).astype(np.int64)
    weight = np.concatenate((out.weight, into.weight))
    is_in = np.concatenate((np.zeros(len(out.other), bool), np.ones(len(into.other), bool)))
    # Each edge's rank in (src, dst, type) order (a prepared store's: ``WarmGraph.prepare``).
    rank = np.concatenate((out.rank, into.rank)) if out.rank is not None else np.zeros(len(far))
    live = state[far] != 0
    every = np.bincount(near[live], minlength=size)
    kept = live & (weight > 0)
    order = np.argsort(near[kept], kind="stable")
    near, far, weight, is_in, rank = (x[kept][order] for x in (near, far, weight, is_in, rank))
    start = np.searchsorted(near, np.arange(size + 1))
    return start, far, weight, is_in, every, rank


def _best_of(scored: Any, hit: Any, values: Any, by_id: Any, limit: int) -> Any:
    """``lane_best`` as a mask over the nodes: those ``scored`` that are keyword hits, and
    the ``limit`` best of the others by (value desc, id asc)."""
    others = np.flatnonzero(scored & ~hit)
    if len(others) > limit:
        others = others[np.lexsort((by_id[others], -values[others]))[:limit]]
    chosen = scored & hit
    chosen[others] = True
    return chosen


def heat_series(n: int, a: Any, b: Any, weight: Any, first: Any, t: float) -> Any:
    """exp(-tL) ``first`` over the local graph of positive edges (a, b, weight) among ``n``
    nodes, by the heat lane's 12-term Taylor series as dense mat-vecs (parallel edges add;
    a self-loop counts twice, as ``heat_over_links``); below 0 made 0.

    ``STEPS``: term by term as the lane (``term = (-t / k) * (L @ term)``, three numpy calls
    a step); else the powers ``(-tL)^k first`` stacked, one call a step, and the series
    one product with ``1 / k!`` at the end (other roundings: a few ulps apart)."""
    if n > DENSE_NODES:
        raise Unsupported("a local graph too large for a dense matrix")
    degree = np.bincount(a, weight, n) + np.bincount(b, weight, n)
    inv = np.zeros(n)
    linked = degree > 0
    inv[linked] = 1.0 / np.sqrt(degree[linked])
    normal = weight * inv[a] * inv[b]
    cells = np.concatenate((a * n + b, b * n + a))
    adjacent = np.bincount(cells, np.concatenate((normal, normal)), n * n).reshape(n, n)
    if STEPS:
        step = -adjacent
        step.flat[:: n + 1] += 1.0  # L = I - D^-1/2 W D^-1/2
        term, total = first, first.copy()
        for k in range(1, 12):
            term = (-t / k) * (step @ term)
            total += term
        return np.where(total < 0.0, 0.0, total)
    step = adjacent * t
    step.flat[:: n + 1] -= t  # -tL = t (D^-1/2 W D^-1/2 - I)
    powers = np.empty((12, n))
    powers[0] = first
    for k in range(1, 12):
        np.dot(step, powers[k - 1], out=powers[k])
    total = _INVERSE_FACTORIALS @ powers
    return np.where(total < 0.0, 0.0, total)


def heat_folded(n: int, a: Any, b: Any, weight: Any, first: Any, t: float, by_id: Any) -> Any:
    """``heat_series`` by the lane's own fold (``lanes/heat._folded``: ``bincount`` over
    each node's segment, itself then its neighbours by id: a left fold, an order numpy
    defines, where a BLAS mat-vec's sums have none), its segments laid out by numpy calls
    instead of a Python pass. With the links (src, dst) in key order (``links``), each
    entry is added, and each degree summed, in the lane's order: the lane's floats."""
    from credo.retrieval.lanes.heat import _folded

    # Each link's two entries in turn, src's row first, as the lane adds them.
    rows = np.stack((a, b), axis=1).ravel()
    cols = np.stack((b, a), axis=1).ravel()
    cells = rows * n + cols
    merged = np.repeat(weight, 2)
    seen = np.empty(n * n, dtype=np.int64)  # (written before it is read)
    at = np.arange(len(cells))
    seen[cells] = at
    if (seen[cells] != at).any():  # a cell twice (parallel edges, a self-loop): rare
        cells, at = _distinct_cells(cells)
        merged = np.bincount(at, merged)  # parallel edges added, in turn
        rows, cols = cells // n, cells % n
    degree = np.bincount(rows, merged, n)
    inv = np.zeros(n)
    linked = degree > 0
    inv[linked] = 1.0 / np.sqrt(degree[linked])
    # Each node's segment: itself (-1.0: the fold adds the running subtraction negated),
    # then its neighbours by id; each entry names the node whose segment holds it.
    node = np.concatenate((np.arange(n), rows))
    entry = np.concatenate((np.arange(n), cols))
    value = np.concatenate((-np.ones(n), merged * inv[rows] * inv[cols]))
    mine = np.concatenate((np.zeros(n, bool), np.ones(len(rows), bool)))
    order = np.lexsort((by_id[entry], mine, node))
    return _folded(entry[order], value[order], node[order], first.tolist(), t, 12)


def _distinct_cells(cells: Any) -> tuple[Any, Any]:
    """``np.unique(cells, return_inverse=True)``, first appearances first."""
    found, first, at = np.unique(cells, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    place = np.empty(len(found), dtype=np.int64)
    place[order] = np.arange(len(found))
    return found[order], place[at.reshape(-1)]


STEPS = False  # the heat series term by term (``--heat steps``), else by stacked powers
FOLDED = False  # the heat series by the lane's fold (``--heat folded``)
_INVERSE_FACTORIALS = np.array([1.0 / math.factorial(k) for k in range(12)])


def bfs_hop(n: int, a: Any, b: Any, weight: Any, first: Any, decay: float) -> Any:
    """One bfs hop from the seeds (``first``: their scaled scores, 0 elsewhere) over the
    positive edges, both ways, the best path kept; the seeds themselves left at 0."""
    reach = np.zeros(n)
    np.maximum.at(reach, b, first[a] * weight * decay)
    np.maximum.at(reach, a, first[b] * weight * decay)
    reach[first > 0] = 0.0
    return reach


def rounded(values: Any) -> Any:
    """``rank.rounded`` on an array: ``round(v, 9)``, the very same floats."""
    with np.errstate(all="ignore"):
        scaled = values * 1e9
        near = np.rint(scaled)
        out = near / 1e9
        unsure = ~((np.abs(scaled - near) < _ROUND_SURE) & (np.abs(scaled) < _ROUND_BELOW))
    for at in np.flatnonzero(unsure).tolist():
        out[at] = round(float(values[at]), 9)
    return out


class Stages:
    """Nanoseconds spent in each wrapped name since the last ``take`` (warm_stages.py's)."""

    def __init__(self, patched: list[tuple[Any, str, Any]]) -> None:
        self.spent: dict[str, int] = defaultdict(int)
        self.patched = patched  # (owner, name, what it held): put back by ``restore``

    def wrap(self, owner: Any, name: str) -> None:
        inner = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        self.patched.append((owner, name, inner))
        if isinstance(inner, classmethod):
            inner = getattr(owner, name)
        spent, clock = self.spent, time.perf_counter_ns

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[name] += clock() - started

        setattr(owner, name, timed)

    def take(self) -> dict[str, int]:
        taken = dict(self.spent)
        self.spent.clear()
        return taken


# The stages ``_retrieve`` calls at its top level (none inside another), so what is left
# of a query's time is the glue between them.
TOP_STAGES = (
    "_rank", "_currency", "Shown", "place_locked", "Classes", "verbatim_ids", "Costs",
    "Charges", "candidate_pairs", "picked", "Marks",
)  # fmt: skip
# Called at the top level too, through an object (counted in ``TOP_STAGES``' sum).
EXTRA_STAGES = (
    (pipeline.clustering, "pack_ranked"),
    (pipeline.Known, "at"),
    (pipeline.Costs, "fill"),
    (pipeline.Costs, "shown_all"),
    (pipeline.Classes, "of_packed"),
)


class Seen:
    """What the engine made of the query under way: its options, candidates, ranking, and
    the pairs clustering read (wrappers around the pipeline's names)."""

    def __init__(self, patched: list[tuple[Any, str, Any]]) -> None:
        self.patched = patched
        self.options: Options | None = None
        self.ranked: list[Any] = []
        self.candidates: set[str] = set()
        self.pairs: list[tuple[str, str]] = []
        self.on = False

    def install(self) -> None:
        """Wrap the names; nothing is kept until ``on`` (a pass of its own, not timed: the
        truth step reorders the ranking in place, so it is copied as ``_rank`` returns it)."""
        rank, compose, pairs = pipeline._rank, pipeline.compose, pipeline.candidate_pairs

        def ranked(store: Any, text: str, options: Options, *rest: Any) -> Any:
            self.options = options
            out = rank(store, text, options, *rest)
            if self.on:
                self.ranked = [(s[0], s[1], dict(s[2])) for s in out[0]]  # (Ranked)
            return out

        def composed(lanes: Any, confidence: Mapping[str, float], *rest: Any, **kw: Any) -> Any:
            if self.on:
                self.candidates = set(confidence)
            return compose(lanes, confidence, *rest, **kw)

        def paired(*args: Any) -> Any:
            found = pairs(*args)
            if self.on:
                self.pairs = list(found)
            return found

        for name in ("_rank", "compose", "candidate_pairs"):
            self.patched.append((pipeline, name, getattr(pipeline, name)))
        pipeline._rank = ranked  # type: ignore[assignment]
        pipeline.compose = composed  # type: ignore[assignment]
        pipeline.candidate_pairs = paired  # type: ignore[assignment]


EXTRA_NAMES = tuple(name for _, name in EXTRA_STAGES)
# Around the stages (not summed with them): the glue is told apart by them.
OUTER_STAGES = ("retrieve", "_retrieve")


def measure(db: Path, count: int) -> dict[str, Any]:
    """Answer ``count`` first-pass queries both ways on the warm store ``db``; the figures."""
    patched: list[tuple[Any, str, Any]] = []
    try:
        return _measure(db, count, patched)
    finally:  # (the pipeline as it was: a test runs this in the suite's process)
        for owner, name, held in reversed(patched):
            setattr(owner, name, held)


def _measure(db: Path, count: int, patched: list[tuple[Any, str, Any]]) -> dict[str, Any]:
    from credo.surfaces.collector import Collector
    from scale import query_sets

    seen, stages = Seen(patched), Stages(patched)
    seen.install()
    for name in TOP_STAGES:
        stages.wrap(pipeline, name)
    for owner, name in EXTRA_STAGES:
        stages.wrap(owner, name)
    for name in OUTER_STAGES:
        stages.wrap(pipeline, name)
    texts, warmup = query_sets(count)
    collector = Collector()
    engine: dict[str, list[int]] = defaultdict(list)
    proto: dict[str, list[int]] = defaultdict(list)
    same: dict[str, list[bool]] = defaultdict(list)
    refused: dict[str, int] = defaultdict(int)
    laps: dict[str, list[int]] = defaultdict(list)  # the prototype's rank, step by step
    clock = time.perf_counter_ns
    with Memory(db, root=db.parent) as memory:
        store = memory.store
        assert store.build_warm()
        for text in warmup:  # (the engine's per-version memos, as a long-lived server's)
            memory.retrieve(text)
        assert seen.options is not None
        ranker = PositionRank(store, seen.options)  # type: ignore[arg-type]
        floor = seen.options.cluster_edge_weight_floor
        for text in warmup[:20]:
            with contextlib.suppress(Unsupported):
                _prototype(ranker, text, floor)
        for turn, text in enumerate(texts):
            first = "engine" if turn % 2 == 0 else "prototype"
            for side in (first, "prototype" if first == "engine" else "engine"):
                with collector.paused():
                    if side == "engine":
                        started = clock()
                        memory.retrieve(text)
                        engine["Memory.retrieve"].append(clock() - started)
                        taken = stages.take()  # (0 for a stage the query skipped)
                        for name in (*TOP_STAGES, *EXTRA_NAMES, *OUTER_STAGES):
                            engine[name].append(taken.get(name, 0))
                    else:
                        ranker.laps = []
                        try:
                            spent_on = _prototype(ranker, text, floor)[0]
                        except Unsupported as why:
                            refused[str(why)] += 1
                        else:
                            for name, spent in spent_on.items():
                                proto[name].append(spent)
                            for name, spent in ranker.laps:
                                laps[name].append(spent)
                        ranker.laps = None
        seen.on = True  # the answers again, untimed, compared
        for text in texts:
            result = memory.retrieve(text)
            try:
                _, ranking, pairs = _prototype(ranker, text, floor)
            except Unsupported:
                continue
            _compare(seen, ranking, pairs, len(result.beliefs), same)
    return {"engine": engine, "proto": proto, "same": same, "refused": refused, "laps": laps}


def _prototype(ranker: PositionRank, text: str, floor: float) -> tuple[dict[str, int], Any, Any]:
    """The prototype's answer to ``text`` and its stages' nanoseconds: the ranking, the
    candidates' pairs, the strings of the beliefs a pack of today's size would list (the
    65 best), and what today's later stages read of every candidate (the handoff)."""
    clock = time.perf_counter_ns
    started = clock()
    ranking = ranker.rank(text)
    ranked = clock()
    pairs = ranker.pairs(ranking.rids, floor)
    paired = clock()
    ranking.named(65)
    named = clock()
    _handoff(ranker, ranking)
    done = clock()
    spent = {
        "rank": ranked - started,
        "pairs": paired - ranked,
        "named": named - paired,
        "handoff": done - named,
    }
    return spent, ranking, pairs


def _handoff(ranker: PositionRank, ranking: PositionRanking) -> tuple[list[Any], dict[str, Any]]:
    """What ``_retrieve``'s later stages read today, string-keyed: every ranked candidate as
    a ``rank.Ranked`` (a plain tuple, as ``compose`` makes it since day-warmC68: a ``Scored``
    made here through its Python ``__new__`` is a cost the engine no longer has) and every
    candidate's row (from the warm index's per-version cache)."""
    ids = ranker.ids
    rows = ranker.store._warm._rows
    ranked = ranking.named(len(ranking.rids))
    names = [ids[r] for r in ranking.candidates.tolist()]
    return ranked, {name: rows[name] for name in names}  # type: ignore[index]


def _compare(
    seen: Seen, ranking: PositionRanking, pairs: tuple[Any, Any], packed: int,
    same: dict[str, list[bool]],
) -> None:  # fmt: skip
    ids = ranking.ids
    engine = [(i, score) for i, score, _ in seen.ranked]
    mine = [
        (ids[r], s) for r, s in zip(ranking.rids.tolist(), ranking.scores.tolist(), strict=True)
    ]
    same["top 10 ids"].append([i for i, _ in engine[:10]] == [i for i, _ in mine[:10]])
    same["top 10 ids and scores"].append(engine[:10] == mine[:10])
    same["candidate set"].append(seen.candidates == {ids[r] for r in ranking.candidates.tolist()})
    same["top n ids (n: the engine's packed count)"].append(
        [i for i, _ in engine[:packed]] == [i for i, _ in mine[:packed]]
    )
    same["whole ranking, ids and scores"].append(engine == mine)
    theirs = [parts for *_, parts in seen.ranked[:packed]]
    ours = [p for *_, p in ranking.named(packed)]
    same["top n's parts (Scored.lanes)"].append(theirs == ours)
    same["  the same to 1e-12"].append(
        all(
            a.keys() == b.keys() and all(math.isclose(a[k], b[k], rel_tol=1e-12) for k in a)
            for a, b in zip(theirs, ours, strict=True)
        )
    )
    src, dst = pairs
    mine_pairs = {(ids[s], ids[d]) for s, d in zip(src.tolist(), dst.tolist(), strict=True)}
    same["candidate pairs (as a set)"].append(set(seen.pairs) == mine_pairs)


def report(figures: dict[str, Any]) -> None:
    engine, proto, same = figures["engine"], figures["proto"], figures["same"]
    answered = len(proto["rank"])
    print(f"{len(engine['retrieve'])} first-pass queries; the prototype answered {answered}")
    for why, times in figures["refused"].items():
        print(f"  refused {times}: {why}")
    print("same as the engine (share of the queries answered):")
    for what, flags in same.items():
        print(f"  {what:<36} {sum(flags) / len(flags):6.3f}")

    def cut(values: list[int]) -> str:
        ordered = sorted(values)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        return f"{statistics.median(values) / 1000:8.1f} {p90 / 1000:8.1f}"

    print(f"{'engine stage':<24} {'p50 us':>8} {'p90 us':>8}")
    for name in sorted(engine, key=lambda n: -statistics.median(engine[n])):
        print(f"  {name:<22} {cut(engine[name])}")
    total = engine["Memory.retrieve"]
    inline = [
        engine["_retrieve"][i] - sum(engine[n][i] for n in (*TOP_STAGES, *EXTRA_NAMES))
        for i in range(len(total))
    ]
    print("  the glue between the stages:")
    print(f"    {'_retrieve, its own lines':<38} {cut(inline)}")
    scope = [r - o for r, o in zip(engine["retrieve"], engine["_retrieve"], strict=True)]
    print(f"    {'retrieve(): checks, one_version':<38} {cut(scope)}")
    own = [t - r for t, r in zip(total, engine["retrieve"], strict=True)]
    print(f"    {'Memory.retrieve: options, global locks':<38} {cut(own)}")
    print(f"{'prototype stage':<24} {'p50 us':>8} {'p90 us':>8}")
    for name, values in proto.items():
        print(f"  {name:<22} {cut(values)}")
        if name == "rank":
            for step, spent in figures["laps"].items():
                print(f"    {step:<38} {statistics.median(spent) / 1000:8.1f}")
    covered = [engine["_rank"][i] + engine["candidate_pairs"][i] for i in range(len(total))]
    core = [sum(proto[n][i] for n in ("rank", "pairs", "named")) for i in range(answered)]
    with_handoff = [core[i] + proto["handoff"][i] for i in range(answered)]
    print(f"  {'covered, engine':<22} {cut(covered)}")
    print(f"  {'covered, prototype':<22} {cut(core)}   (rank + pairs + 65 named)")
    print(f"  {'  + handoff':<22} {cut(with_handoff)}   (+ today's string-keyed inputs)")
    if answered == len(total):
        print("implied whole query (engine total - covered + prototype), per query:")
        print(f"  {'engine as is':<22} {cut(total)}")
        for label, spent in (("prototype core", core), ("prototype + handoff", with_handoff)):
            implied = [t - c + p for t, c, p in zip(total, covered, spent, strict=True)]
            print(f"  {label:<22} {cut(implied)}")


MODES = (
    "base", "engine", "engine covered",
    "prototype", "prototype + handoff", "prototype, folded heat",
)  # fmt: skip
_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); import positions_bound as p; "
    "p.child(*sys.argv[2:])"
)


def child(db: str, mode: str, count: str) -> None:
    """One valgrind child of ``instructions``: the warm store read, the warm-up queries
    answered both ways, then the ``count`` measured ones by ``mode`` ("base": none)."""
    global FOLDED
    patched: list[tuple[Any, str, Any]] = []
    folded, FOLDED = FOLDED, mode == "prototype, folded heat"
    try:
        _child(Path(db), mode, int(count), patched)
    finally:
        FOLDED = folded
        for owner, name, held in reversed(patched):
            setattr(owner, name, held)


def _child(path: Path, mode: str, count: int, patched: list[tuple[Any, str, Any]]) -> None:
    texts, warmup = __import__("scale").query_sets(count)
    seen = Seen(patched)
    seen.install()
    with Memory(path, root=path.parent) as memory:
        store = memory.store
        assert store.build_warm()
        for text in warmup:
            memory.retrieve(text)
        assert seen.options is not None
        options = seen.options
        ranker = PositionRank(store, options)  # type: ignore[arg-type]
        floor = options.cluster_edge_weight_floor
        for text in warmup[:20]:
            with contextlib.suppress(Unsupported):
                _prototype(ranker, text, floor)
        labels: dict[str, str] = {}  # (``Known.labels``: the speaker lane's, kept)
        for text in texts if mode != "base" else ():
            if mode == "engine":
                memory.retrieve(text)
            elif mode == "engine covered":  # ``_rank`` and ``candidate_pairs``, as called
                with store.one_version():
                    ranked, _, around, _, _ = pipeline._rank(store, text, options, labels)
                    ids = [s[0] for s in ranked]  # (a Ranked: its id)
                    if ids:
                        pipeline.candidate_pairs(
                            store, ids, around, options.cluster_edge_weight_floor
                        )
            else:
                ranking = ranker.rank(text)
                ranker.pairs(ranking.rids, floor)
                ranking.named(65)
                if mode == "prototype + handoff":
                    _handoff(ranker, ranking)


def instructions(db: Path, count: int) -> None:
    """Instructions per query of each of ``MODES`` past "base", counted by cachegrind in a
    child each (bench/cachegrind.py): figures the machine's load cannot move."""
    from cachegrind import python_instructions

    src = Path(pipeline.__file__).resolve().parents[2]
    env = {"OPENBLAS_NUM_THREADS": "1"}
    counts = {}
    for mode in MODES:
        args = [str(BENCH), str(db), mode, str(count)]
        counts[mode] = python_instructions(src, _CHILD, args, env)
        print(f"  {mode:<22} {counts[mode]:>15,} instructions in all", flush=True)
    base = counts["base"]
    print(f"per query ({count} first-pass queries):")
    for mode in MODES[1:]:
        print(f"  {mode:<22} {(counts[mode] - base) / count:>12,.0f}")
    whole, covered = counts["engine"] - base, counts["engine covered"] - base
    for mode in MODES[3:]:
        implied = (whole - covered + counts[mode] - base) / count
        print(f"  implied whole query, {mode:<20} {implied:>12,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store (default: a synthetic one, built)")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--heat",
        choices=("powers", "steps", "folded"),
        default="powers",
        help="see heat_series, heat_folded",
    )
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind) instead"
    )
    args = parser.parse_args()
    global STEPS, FOLDED
    STEPS, FOLDED = args.heat == "steps", args.heat == "folded"
    print(f"load {os.getloadavg()[0]:.2f} at {time.strftime('%H:%M:%S', time.gmtime())} UTC")
    gc.collect()
    if args.db is not None and args.instructions:
        instructions(args.db, args.queries)
    elif args.db is not None:
        report(measure(args.db, args.queries))
    else:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            (folder / ".git").mkdir()
            db = folder / "bench.db"
            from synth import write_records

            with Memory(db, root=folder) as memory:
                memory.import_records(write_records(folder / "r.jsonl", args.size, 2, text="zipf"))
            report(measure(db, args.queries))
    print(f"load {os.getloadavg()[0]:.2f} at {time.strftime('%H:%M:%S', time.gmtime())} UTC")


if __name__ == "__main__":
    main()
