"""The retrieval pipeline: L0 locked beliefs, the lane fan-out, score composition, the pack
(score order or intentional clustering) and the anchor projection (SYSTEM.md § Retrieval).

Pure orchestration over the store's batched reads: one keyword query, one query per graph
hop, one belief fetch, one edge fetch for clustering, one anchor fetch. No lane touches the
database per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from credo import cluster as clustering
from credo.errors import InvalidInputError
from credo.lanes import LANES
from credo.lanes.bfs import DEFAULT_DECAY, expand_hop
from credo.lanes.doc import mentions
from credo.lanes.heat import DEFAULT_T, adjacency, heat_kernel
from credo.pack import pack_by_score
from credo.rank import Scored, Weights, compose
from credo.store import Store
from credo.store.fts import MAX_QUERY_CHARS, query_terms
from credo.store.graph import Link
from credo.tokens import belief_tokens
from credo.types import Belief, RetrievalResult, RetrievedBelief

# Lanes on by default: each earned its place in the LoCoMo ablation (docs/BENCHMARKS.md).
DEFAULT_LANES: dict[str, bool] = {
    "bm25f": True,
    "heat": True,
    "bfs": True,
    "hrr": False,
    "doc": True,
}


class Options(NamedTuple):
    """Everything that shapes one retrieval; ``Memory.retrieve`` resolves the defaults."""

    token_budget: int = 2400
    lanes: Mapping[str, bool] = MappingProxyType(DEFAULT_LANES)
    use_intentional_clustering: bool = True  # as config.RetrievalSettings
    cluster_edge_weight_floor: float = clustering.DEFAULT_CLUSTER_EDGE_FLOOR
    cluster_diversity_target: int = clustering.DEFAULT_CLUSTER_DIVERSITY_TARGET
    with_doc_anchors: bool = False
    weights: Weights = Weights()
    keyword_limit: int = 50  # BM25F hits considered
    graph_seeds: int = 20  # best BM25F hits that start the graph lanes
    graph_hops: int = 1  # BFS reach (a second hop added nothing on LoCoMo, cost 1.5 ms)
    heat_hops: int = 1  # the heat kernel's local graph: seeds and their direct neighbours
    graph_max_links: int = 600  # per hop: hubs cannot blow up a query
    graph_lane_limit: int = 60  # best beliefs a graph lane may add to the candidates
    heat_t: float = DEFAULT_T
    bfs_decay: float = DEFAULT_DECAY


def check_options(options: Options) -> None:
    if (
        isinstance(options.token_budget, bool)
        or not isinstance(options.token_budget, int)
        or options.token_budget < 0
    ):
        raise InvalidInputError(f"token_budget {options.token_budget!r} must be an integer >= 0")
    unknown = sorted(set(options.lanes) - set(LANES))
    if unknown:
        raise InvalidInputError(f"unknown lane {unknown[0]!r}; lanes are {', '.join(LANES)}")
    floor = options.cluster_edge_weight_floor
    if not isinstance(floor, int | float) or not math.isfinite(floor):
        raise InvalidInputError(f"cluster_edge_weight_floor {floor!r} must be a number")
    target = options.cluster_diversity_target
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        raise InvalidInputError(f"cluster_diversity_target {target!r} must be an integer >= 0")


def retrieve(store: Store, query: object, options: Options) -> RetrievalResult:
    check_options(options)
    if not isinstance(query, str):
        raise InvalidInputError(f"query must be a string, got {type(query).__name__}")
    # Lone surrogates cannot reach SQLite; they become U+FFFD like any undecodable byte.
    text = query[:MAX_QUERY_CHARS].encode("utf-8", "replace").decode("utf-8")
    budget = options.token_budget

    locked, locked_overflow, locked_costs = _place_locked(store.locked_beliefs(), budget)
    locked_used = sum(locked_costs)
    ranked, content = _rank(store, text, options)
    remaining = budget - locked_used
    costs = {s.id: belief_tokens(s.id, content[s.id], False) for s in ranked}
    scores = {s.id: s.score for s in ranked}
    cluster_of: dict[str, int] = {}
    if options.use_intentional_clustering and ranked:
        ids = [s.id for s in ranked]
        clusters = clustering.cluster_candidates(
            ids,
            scores,
            edges=store.edges_for_beliefs(ids),
            edge_weight_floor=options.cluster_edge_weight_floor,
        )
        packed = clustering.pack_with_clusters(
            clusters,
            candidate_scores=scores,
            token_costs=costs,
            token_budget=remaining,
            cluster_diversity_target=options.cluster_diversity_target,
        )
        cluster_of = {m: c.cluster_id for c in clusters for m in c.member_ids}
        # Clustering changes which beliefs are packed, not how relevant each one is: the
        # result lists them by score, so a model reads the best first either way.
        selected = sorted(packed.selected, key=lambda i: (-scores[i], i))
    else:
        packed = pack_by_score([s.id for s in ranked], token_costs=costs, token_budget=remaining)
        selected = list(packed.selected)

    by_id = {s.id: s for s in ranked}
    out = [
        RetrievedBelief(b.id, b.content, 0.0, True, cost, {"locked": 1.0})
        for b, cost in zip(locked, locked_costs, strict=True)
    ]
    out += [
        RetrievedBelief(
            i, content[i], by_id[i].score, False, costs[i], dict(by_id[i].lanes), cluster_of.get(i)
        )
        for i in selected
    ]
    anchors = None
    if options.with_doc_anchors:
        found = store.anchors_for([b.id for b in out])
        anchors = tuple(tuple(found.get(b.id, ())) for b in out)
    return RetrievalResult(
        query=text,
        beliefs=tuple(out),
        token_budget=budget,
        used_tokens=locked_used + packed.used_tokens,
        dropped=tuple(packed.dropped),
        locked_overflow=tuple(b.id for b in locked_overflow),
        doc_anchors=anchors,
        clustering=options.use_intentional_clustering,
    )


def _place_locked(
    locked: list[Belief], budget: int
) -> tuple[list[Belief], list[Belief], list[int]]:
    """L0: locked beliefs first, never trimmed for relevance; but if they alone exceed half
    the budget, the other half stays reserved for the query, and the locks beyond it are
    listed (``locked_overflow``), never dropped silently. Returns (placed, overflow, the
    placed beliefs' costs)."""
    costs = [belief_tokens(b.id, b.content, True) for b in locked]
    cap = budget if sum(costs) <= budget // 2 else budget // 2
    placed: list[Belief] = []
    placed_costs: list[int] = []
    overflow: list[Belief] = []
    used = 0
    for belief, cost in zip(locked, costs, strict=True):
        if not overflow and used + cost <= cap:
            placed.append(belief)
            placed_costs.append(cost)
            used += cost
        else:
            overflow.append(belief)
    return placed, overflow, placed_costs


def _rank(store: Store, text: str, options: Options) -> tuple[list[Scored], dict[str, str]]:
    lanes = {**DEFAULT_LANES, **options.lanes}
    terms = query_terms(text)
    lane_scores: dict[str, dict[str, float]] = {}
    keyword: dict[str, float] = {}
    if lanes["bm25f"] and terms:
        hits = store.keyword_search(terms, limit=options.keyword_limit)
        keyword = {h.belief_id: h.score for h in hits}
        lane_scores["bm25f"] = keyword
    if (lanes["heat"] or lanes["bfs"]) and keyword:
        seeds = dict(sorted(keyword.items(), key=lambda kv: (-kv[1], kv[0]))[: options.graph_seeds])
        hops = _neighbourhood(store, seeds, options)
        if lanes["heat"]:
            heat = _heat(seeds, hops[: options.heat_hops], options.heat_t)
            lane_scores["heat"] = _best(heat, keyword, options.graph_lane_limit)
        if lanes["bfs"]:
            bfs = _bfs(seeds, hops, options.bfs_decay)
            lane_scores["bfs"] = _best(bfs, keyword, options.graph_lane_limit)
    if lanes["doc"]:
        # A folder named in the query can match thousands of anchors: bounded like the
        # graph lanes (the keyword hits plus the lane's best others).
        lane_scores["doc"] = _best(_doc(store, text), keyword, options.graph_lane_limit)
    if lanes["hrr"]:
        from credo.lanes.structural import structural_lane

        lane_scores["hrr"] = structural_lane(store, text)
    candidates = sorted({i for scores in lane_scores.values() for i in scores})
    rows = store.live_unlocked(candidates)
    confidence = {i: a / (a + b) for i, (_, a, b) in rows.items()}
    ranked = compose(lane_scores, confidence, options.weights)
    return ranked, {i: rows[i][0] for i in confidence}


def _best(scores: dict[str, float], keep: Mapping[str, float], limit: int) -> dict[str, float]:
    """A graph lane's scores for the keyword hits plus its ``limit`` best other beliefs: the
    long tail of weakly reached neighbours would never clear the relevance floor, and
    carrying it through composition costs time on every query."""
    extra = sorted((k for k in scores if k not in keep), key=lambda k: (-scores[k], k))[:limit]
    return {k: scores[k] for k in (*(k for k in scores if k in keep), *extra)}


def _neighbourhood(store: Store, seeds: Mapping[str, float], options: Options) -> list[list[Link]]:
    """The links of each hop outward from the seeds (one batched query per hop)."""
    seen = set(seeds)
    frontier = set(seeds)
    hops: list[list[Link]] = []
    for _ in range(options.graph_hops):
        if not frontier:
            break
        links = store.links_touching(frontier, limit=options.graph_max_links)
        hops.append(links)
        reached = {end for link in links for end in (link.src, link.dst)} - seen
        seen |= reached
        frontier = reached
    return hops


def _heat(seeds: Mapping[str, float], hops: list[list[Link]], t: float) -> dict[str, float]:
    links = [link for hop in hops for link in hop]
    nodes = set(seeds) | {end for link in links for end in (link.src, link.dst)}
    best = max(seeds.values())
    heat = heat_kernel({k: v / best for k, v in seeds.items()}, adjacency(links, nodes), t=t)
    return {k: v for k, v in heat.items() if v > 1e-9}


def _bfs(seeds: Mapping[str, float], hops: list[list[Link]], decay: float) -> dict[str, float]:
    best = max(seeds.values())
    reached: dict[str, float] = {}
    frontier = {k: v / best for k, v in seeds.items()}
    for links in hops:
        step = expand_hop(frontier, links, decay=decay)
        frontier = {k: v for k, v in step.items() if v > reached.get(k, 0.0) and k not in seeds}
        reached.update(frontier)
    return reached


# Anchors one named document may contribute. The scan is an index range (or one LIKE pass),
# so this is cheap; a small cap would cut a long file at an arbitrary point (rows come in
# doc_uri order, and "#L1000" sorts before "#L2"), leaving most of the named file unscored.
DOC_LANE_LIMIT = 20_000
# A folder names many documents at once: fewer rows, and a lower score than a named file.
FOLDER_LIMIT = 2_000
FOLDER_SCORE = 0.6


def _doc(store: Store, text: str) -> dict[str, float]:
    found = mentions(text)
    if not found:
        return {}
    scores: dict[str, float] = {}
    for needle, value in found:
        folder = needle.endswith("/")
        limit, score = (
            (FOLDER_LIMIT, min(value, FOLDER_SCORE)) if folder else (DOC_LANE_LIMIT, value)
        )
        for belief_id, _uri in store.doc_anchor_matches([needle], limit=limit):
            scores[belief_id] = max(scores.get(belief_id, 0.0), score)
    return scores
