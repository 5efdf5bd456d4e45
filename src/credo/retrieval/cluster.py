"""Intentional clustering: a diversity-aware pack over graph-connected candidate clusters.

Why: the score-order pack (`credo.retrieval.pack.pack_by_score`) fills the budget with the top of
the ranking, and the top is often one topic restated by several tightly linked beliefs.
A multi-fact question then gets many views of one fact and none of the others. This
module changes *selection* at fixed scores (it never re-scores): first one representative
from each of the best few clusters, then the rest of the budget by score.

Pipeline (seed: intentional-clustering spec memo; SYSTEM.md § Intentional clustering):

1. `cluster_candidates`: clusters are the connected components of the candidate-induced
   subgraph. An edge joins two candidates when its weight is >= `edge_weight_floor` and
   both endpoints are candidates; direction is ignored, self-edges and edges to
   non-candidates are ignored. Components come from a union-find (`credo.unionfind`).
   Members are ordered by (score desc, id asc); the representative is the first member;
   `seed_score` is its score; clusters are numbered 0.. densely in representative order,
   (seed_score desc, representative id asc).
2. `pack_with_clusters`, two greedy stages:
   - Stage 1 walks the clusters in that order and takes each representative while fewer
     than `cluster_diversity_target` clusters are covered. A representative that does not
     fit ends Stage 1 when `fallback_to_score` is True, else its cluster is skipped.
     Given the query terms each candidate carries (``carried``; retrieval always gives
     them), a representative that would jump better-ranked candidates must carry a query
     term none of them carries, or Stage 1 ends there (`_Aspects`).
   - Stage 2 walks the remaining candidates in `flattened_score_order` (all candidates,
     (score desc, id asc)) and takes them while they fit, stopping at the first that does
     not, exactly like the score-order pack.

Knobs and their failure modes:
- `edge_weight_floor` (default 0.4, between RELATES_TO 0.3 and CITES/DERIVED_FROM 0.5 in
  `EDGE_VALENCE`). Too low: weak links chain everything into one giant cluster, Stage 1
  takes a single representative and there is no diversity. Too high: every candidate is a
  singleton, each representative is simply the next belief by score, and (with
  `fallback_to_score=True`) the pack degenerates to the score-order pack.
- `cluster_diversity_target` (default 3). 0 turns Stage 1 off (pure score order). Large
  values spend the budget on one belief per cluster, pushing out the second-best member
  of the best cluster even when it outranks every other cluster's representative.
- `fallback_to_score` (default True). True keeps the output close to score order on tight
  budgets: one large representative ends the diversity pass. False skips it and keeps
  looking for smaller representatives, buying coverage with lower-ranked beliefs.

Why the aspect gate (``carried``): Stage 1's only effect on the pack is to promote a
representative past better-ranked candidates, which it pushes out of a full budget. That
pays when the representative brings a part of the query the ranking above it leaves out
(a second fact of a multi-fact question); it costs recall when it only repeats query words
the ranking above already shows, as a weak, unrelated cluster does when a query has fewer
topics than the target. So the query's terms act as its aspects (term-level
diversification: Dang & Croft, SIGIR 2013), and a promotion must add one. Measured on the
A1 corpus (docs/BENCHMARKS.md § Intentional clustering): without the gate Stage 1 gains
two multi-fact rows and loses two (uplift 0.000 once the compress stage lets the score
order reach further); with it, it gains the two and loses none.

Locked beliefs are not handled here: the caller places them first, charges their cost and
passes the remaining budget.

Cost: O(E * alpha(N)) for the union-find plus O(N log N) for the sorts; the microbench
`bench/cluster_micro.py` measures both calls together at N <= 200, E <= 1000.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from credo.errors import InvalidInputError
from credo.retrieval.pack import (
    TokenCosts,
    fitting_prefix,
    taker,
    validate_budget,
    validate_costs,
)
from credo.unionfind import UnionFind, first_labels

if TYPE_CHECKING:  # retrieval passes (src, dst) pairs; a read never loads credo.edge_types
    from credo.edge_types import Edge

DEFAULT_CLUSTER_EDGE_FLOOR = 0.4
DEFAULT_CLUSTER_DIVERSITY_TARGET = 3

_BY_REPRESENTATIVE = attrgetter("representative_id")
_BY_SEED_SCORE = attrgetter("seed_score")


class RetrievalCluster(NamedTuple):
    """One connected component of the candidate subgraph.

    Attributes:
        cluster_id: dense index, 0 for the cluster with the best representative.
        member_ids: candidate ids, (score desc, id asc).
        representative_id: member_ids[0], the best-scored member.
        seed_score: the representative's score.
    """

    cluster_id: int
    member_ids: tuple[str, ...]
    representative_id: str
    seed_score: float


class ClusterPackResult(NamedTuple):
    """A `PackResult` (its four fields first, same meaning) that also says which cluster
    each selected belief came from.

    Attributes:
        cluster_ids: cluster id of each selected belief, parallel to `selected`.
        representative_ids: the Stage-1 picks, one per covered cluster, in pack order;
            always a prefix of `selected`.
    """

    selected: tuple[str, ...]
    dropped: tuple[str, ...]
    used_tokens: int
    budget: int
    cluster_ids: tuple[int, ...]
    representative_ids: tuple[str, ...]

    @property
    def remaining_tokens(self) -> int:
        """Budget left unused: budget - used_tokens (>= 0)."""
        return self.budget - self.used_tokens

    @property
    def clusters_covered(self) -> int:
        """Number of distinct clusters among the selected beliefs."""
        return len(set(self.cluster_ids))


def cluster_candidates(
    candidates: Sequence[str],
    candidate_scores: Mapping[str, float],
    *,
    edges: "Iterable[Edge]",
    edge_weight_floor: float = DEFAULT_CLUSTER_EDGE_FLOOR,
) -> list[RetrievalCluster]:
    """Group candidates into clusters: connected components over edges >= the floor.

    Args:
        candidates: candidate belief ids, any order; a repeated id counts once.
        candidate_scores: rank score of every candidate (finite or infinite, not NaN).
        edges: edges touching the candidates, e.g. `edges_for_beliefs(candidates)`; edges
            with an endpoint outside `candidates` are ignored, as are self-edges.
        edge_weight_floor: an edge joins its endpoints iff weight >= this floor.

    Returns:
        Clusters in representative order, numbered 0..len-1. Every candidate is in
        exactly one cluster; a candidate without qualifying edges is a singleton. The
        result does not depend on the order of `candidates` or of `edges`.

    Raises:
        InvalidInputError: NaN floor, or a candidate without a score or with a NaN score.
    """
    if math.isnan(edge_weight_floor):
        raise InvalidInputError("edge_weight_floor is NaN; pass a number such as 0.4")
    unique = dict.fromkeys(candidates)  # de-duplicated, and an O(1) membership test
    components = _join_components(unique, edges, edge_weight_floor)
    ranked = _score_order(unique, candidate_scores)
    # Partitioning the ranked list keeps each cluster ranked and puts the clusters in
    # representative order: a cluster is first met at its best member.
    return [
        RetrievalCluster(
            cluster_id=index,
            member_ids=tuple(members),
            representative_id=members[0],
            seed_score=candidate_scores[members[0]],
        )
        for index, members in enumerate(components.partition(ranked))
    ]


def flattened_score_order(
    clusters: Iterable[RetrievalCluster], candidate_scores: Mapping[str, float]
) -> tuple[str, ...]:
    """All members of all clusters by (score desc, id asc), ignoring cluster boundaries.

    This is the order of the score-order pack, and the order Stage 2 walks.

    Raises:
        InvalidInputError: an id is in two clusters, a representative is not a member of
            its cluster, or a member has no (or a NaN) score.
    """
    return tuple(_score_order(_cluster_index(tuple(clusters)), candidate_scores))


def pack_with_clusters(
    clusters: Sequence[RetrievalCluster],
    *,
    candidate_scores: Mapping[str, float],
    token_costs: TokenCosts,
    token_budget: int,
    cluster_diversity_target: int = DEFAULT_CLUSTER_DIVERSITY_TARGET,
    fallback_to_score: bool = True,
    carried: Mapping[str, Collection[str]] | None = None,
) -> ClusterPackResult:
    """Two-stage pack: one representative from each of the best clusters, then by score.

    Args:
        clusters: from `cluster_candidates` (any order; walked by (seed_score desc,
            representative id asc)).
        candidate_scores: score of every member (the one given to `cluster_candidates`).
        token_costs: token cost of every member (>= 0).
        token_budget: tokens available (>= 0), after locked beliefs were charged.
        cluster_diversity_target: how many distinct clusters Stage 1 tries to cover
            (>= 0; 0 means a plain score-order pack).
        fallback_to_score: when a representative does not fit, True ends Stage 1 (go to
            Stage 2), False skips that cluster and tries the next one.
        carried: the query terms each member carries; when given, a representative that
            would jump better-ranked members must carry a term none of them carries, or
            Stage 1 ends (the module docstring's aspect gate). None: the seed's Stage 1.

    Returns:
        A `ClusterPackResult`: `selected` is Stage 1's representatives then Stage 2's
        picks; `dropped` is every other member in flattened score order. No id appears
        twice and `used_tokens` <= `token_budget`.

    Raises:
        InvalidInputError: negative budget or target, a member with a missing or negative
            cost, a missing or NaN score, an id in two clusters, or a representative that
            is not a member of its cluster.
    """
    _validate_pack(token_budget, cluster_diversity_target)
    cluster_of = _cluster_index(clusters)
    flat = _score_order(cluster_of, candidate_scores)
    validate_costs(flat, token_costs)

    representatives, used = _stage_one(
        (c.representative_id for c in _representative_order(clusters)),
        token_costs,
        token_budget,
        cluster_diversity_target,
        fallback_to_score,
        None if carried is None else _Aspects(flat, carried),
    )
    return _stage_two(representatives, used, flat, cluster_of, token_costs, token_budget)


def _stage_two(
    picks: Sequence[str],
    used: int,
    ordered_ids: Sequence[str],
    cluster_of: Mapping[str, int],
    token_costs: TokenCosts,
    token_budget: int,
    labels: Sequence[int] | None = None,
) -> ClusterPackResult:
    """Stage 2: after the Stage-1 ``picks`` (costing ``used``), the rest in score order while
    they fit, stopping at the first that does not. With ``labels``, a candidate's cluster is
    ``labels[cluster_of[id]]`` (`first_labels`: ``cluster_of`` holds positions)."""
    remaining = list(ordered_ids)
    for pick in picks:  # (a few, each in the ranking once: found by a C-level scan)
        remaining.remove(pick)
    count, stage_two_used = fitting_prefix(remaining, token_costs, token_budget - used)
    selected = (*picks, *remaining[:count])
    clusters = map(cluster_of.__getitem__, selected)
    if labels is not None:
        clusters = map(labels.__getitem__, clusters)
    return ClusterPackResult(
        selected=selected,
        dropped=tuple(remaining[count:]),
        used_tokens=used + stage_two_used,
        budget=token_budget,
        cluster_ids=tuple(clusters),
        representative_ids=tuple(picks),
    )


def pack_ranked(
    ranked_ids: Sequence[str],
    *,
    pairs: Iterable[tuple[str, str]],
    token_costs: TokenCosts,
    token_budget: int,
    cluster_diversity_target: int = DEFAULT_CLUSTER_DIVERSITY_TARGET,
    fallback_to_score: bool = True,
    carried: Mapping[str, Collection[str]] | None = None,
) -> ClusterPackResult:
    """`cluster_candidates` then `pack_with_clusters`, for candidates as retrieval holds
    them: distinct, already in (score desc, id asc) order, every one with a cost >= 0.

    ``pairs`` are the (src, dst) of the edges at or above the clustering floor (what
    `cluster_candidates` keeps of its ``edges``; e.g. ``store.pairs_among(ranked_ids,
    min_weight=floor)``); pairs with an end outside the candidates are ignored. ``carried``
    as `pack_with_clusters` takes it (read only for a representative that would jump
    better-ranked candidates).

    The result is the two calls' result (tested); what it skips is what those
    preconditions make redundant, on every retrieve(): both score sorts (the ranked
    order is the flattened score order), building a `RetrievalCluster` per component
    and indexing them back (partitioning the ranked ids yields the clusters already in
    representative order, members ranked), and the per-candidate validation. The caller
    must guarantee the preconditions; the public pair checks them.

    Raises:
        InvalidInputError: negative budget or target.
    """
    _validate_pack(token_budget, cluster_diversity_target)
    # Clusters labelled in representative order: a cluster's first ranked id leads it.
    at, labels, representatives = first_labels(ranked_ids, pairs)
    picks, used = _stage_one(
        representatives,
        token_costs,
        token_budget,
        cluster_diversity_target,
        fallback_to_score,
        None if carried is None else _Aspects(ranked_ids, carried),
    )
    return _stage_two(picks, used, ranked_ids, at, token_costs, token_budget, labels)


def _validate_pack(token_budget: int, cluster_diversity_target: int) -> None:
    validate_budget(token_budget)
    if cluster_diversity_target < 0:
        raise InvalidInputError(
            f"cluster_diversity_target is {cluster_diversity_target}; it must be >= 0 "
            "(0 turns the diversity stage off)"
        )


def _stage_one(
    representatives: Iterable[str],
    token_costs: TokenCosts,
    token_budget: int,
    target: int,
    fallback_to_score: bool,
    aspects: "_Aspects | None" = None,
) -> tuple[list[str], int]:
    """Stage 1: ``representatives`` (one per cluster, in representative order) until
    `target` clusters are covered, or (with ``aspects``) until one would be promoted
    without adding a query term.

    Returns the picks (distinct clusters, so distinct ids) and their total cost.
    """
    picks: list[str] = []
    used = 0
    if target == 0:
        return picks, used
    take = taker(token_costs)
    for representative in representatives:
        if aspects is not None and not aspects.promotes(representative, len(picks)):
            break
        cost = token_costs[representative]
        if used + cost <= token_budget:
            picks.append(representative)
            used += cost
            if take is not None:
                take(representative)
            if len(picks) >= target:
                break
        elif fallback_to_score:
            break
    return picks, used


class _Aspects:
    """Stage 1's aspect gate over the ranked candidates and the query terms each carries.

    Representatives arrive in rank order (a cluster is met at its best member), and the
    picks so far are representatives too, so one ranked before this one is left out
    exactly when its rank exceeds the number of picks. Terms are read only then, and each
    candidate's once: a representative next in line is taken as the score order would
    take it, and a pool of singletons never reads a term.
    """

    __slots__ = ("_at", "_carried", "_ranked", "_read", "_seen")

    def __init__(self, ranked: Sequence[str], carried: Mapping[str, Collection[str]]) -> None:
        self._ranked = ranked
        self._carried = carried
        self._at = 0  # the rank of the last representative asked about
        self._seen: set[str] = set()  # the terms of ranked[: self._read]
        self._read = 0

    def promotes(self, representative: str, picked: int) -> bool:
        """Whether Stage 1 may take ``representative`` after ``picked`` picks: it is next
        in line, or it carries a query term no better-ranked candidate carries."""
        ranked = self._ranked
        rank = self._at
        while ranked[rank] != representative:
            rank += 1
        self._at = rank
        if rank == picked:
            return True
        carried, seen = self._carried, self._seen
        for belief_id in ranked[self._read : rank]:
            seen.update(carried[belief_id])
        self._read = rank
        return not seen.issuperset(carried[representative])


def _representative_order(clusters: Sequence[RetrievalCluster]) -> list[RetrievalCluster]:
    """Clusters by (seed_score desc, representative id asc), whatever order they came in.

    Two stable sorts (id asc, then score desc) give the same order as one sort on the key
    (-score, id) without building a tuple per cluster; Python's sort stays stable with
    reverse=True.
    """
    ordered = sorted(clusters, key=_BY_REPRESENTATIVE)
    ordered.sort(key=_BY_SEED_SCORE, reverse=True)
    return ordered


def _score_order(ids: Iterable[str], candidate_scores: Mapping[str, float]) -> list[str]:
    """Ids by (score desc, id asc); every id must have a score, and no score is NaN.

    NaN is refused because it compares false with everything and would make the order
    depend on the input order. Ties are broken by id with two stable sorts (id asc, then
    score desc; Python's sort stays stable with reverse=True), and the id sort only runs
    when two scores are actually equal: fused float scores rarely tie, and sorting the
    ids is the dearer of the two sorts.
    """
    ordered = list(ids)
    score_of = candidate_scores.__getitem__
    try:
        distinct_scores = set(map(score_of, ordered))
    except KeyError as missing:
        raise InvalidInputError(
            f"no score for candidate {missing.args[0]!r}; pass a score for every candidate"
        ) from None
    # A NaN anywhere makes the sum NaN (so does inf + -inf: the scan then finds nothing).
    if math.isnan(sum(distinct_scores)):
        _reject_nan_scores(ordered, candidate_scores)
    if len(distinct_scores) < len(ordered):
        ordered.sort()
    ordered.sort(key=score_of, reverse=True)
    return ordered


def _reject_nan_scores(ids: Iterable[str], candidate_scores: Mapping[str, float]) -> None:
    for belief_id in ids:
        if math.isnan(candidate_scores[belief_id]):
            raise InvalidInputError(
                f"score of candidate {belief_id!r} is NaN; pass a number for every candidate"
            )


def _join_components(
    candidates: Collection[str], edges: "Iterable[Edge]", edge_weight_floor: float
) -> UnionFind[str]:
    """Union the endpoints of every qualifying edge; direction does not matter.

    The weight test comes first because it is the cheapest and rejects the most edges;
    the pairs are collected by a comprehension and merged in one `union_all` call,
    because a Python call per edge would dominate the cost. A self-edge needs no test:
    the union of a key with itself merges nothing.
    """
    pairs = [
        (edge.src, edge.dst)
        for edge in edges
        if edge.weight >= edge_weight_floor and edge.src in candidates and edge.dst in candidates
    ]
    components: UnionFind[str] = UnionFind(candidates)
    components.union_all(pairs)
    return components


def _cluster_index(clusters: Sequence[RetrievalCluster]) -> dict[str, int]:
    """Map each member id to its cluster id, refusing overlapping or malformed clusters."""
    cluster_of = {
        belief_id: cluster.cluster_id for cluster in clusters for belief_id in cluster.member_ids
    }
    if len(cluster_of) < sum(len(cluster.member_ids) for cluster in clusters):
        _reject_overlap(clusters)
    for cluster in clusters:
        if cluster_of.get(cluster.representative_id) != cluster.cluster_id:
            raise InvalidInputError(
                f"cluster {cluster.cluster_id} has representative "
                f"{cluster.representative_id!r}, which is not one of its members"
            )
    return cluster_of


def _reject_overlap(clusters: Iterable[RetrievalCluster]) -> None:
    """Name the first id found in two clusters (or twice in one)."""
    seen: dict[str, int] = {}
    for cluster in clusters:
        for belief_id in cluster.member_ids:
            if belief_id in seen:
                raise InvalidInputError(
                    f"belief {belief_id!r} is in cluster {seen[belief_id]} and in cluster "
                    f"{cluster.cluster_id}; each candidate must be in exactly one cluster "
                    "(build clusters with cluster_candidates)"
                )
            seen[belief_id] = cluster.cluster_id
