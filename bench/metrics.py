"""Retrieval metrics for the benchmarks: pure functions over ranked ids, no I/O.

Conventions shared by every function:

- ``ranked`` is best first. An id that appears twice counts once, at its first position (a
  ranking cannot earn credit for the same memory twice).
- ``k`` and ``budget`` must be positive; an empty relevant set (or no expected cluster) is a
  caller error, because recall of nothing is undefined; the harness drops such questions
  before it scores them.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

Id = TypeVar("Id", bound=Hashable)


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")


def _check_relevant(relevant: Collection[object]) -> None:
    if not relevant:
        raise ValueError("relevant is empty; the metric is undefined without a relevant item")


def _top_k(ranked: Iterable[Id], k: int) -> list[Id]:
    """The first ``k`` distinct ids of ``ranked``, in order."""
    seen: dict[Id, None] = {}
    for item in ranked:
        if item not in seen:
            seen[item] = None
            if len(seen) == k:
                break
    return list(seen)


def _discount(rank: int) -> float:
    """Log2 position discount of DCG for a 1-based ``rank`` (rank 1 is undiscounted)."""
    return 1.0 / math.log2(rank + 1)


def recall_at_k(ranked: Sequence[Id], relevant: Collection[Id], k: int) -> float:
    """Fraction of the relevant ids found in the top ``k``: |top_k ∩ R| / |R|.

    Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), §8.3.
    """
    _check_k(k)
    _check_relevant(relevant)
    wanted = set(relevant)
    return sum(1 for item in _top_k(ranked, k) if item in wanted) / len(wanted)


def ndcg_at_k(ranked: Sequence[Id], relevant: Collection[Id], k: int) -> float:
    """Normalised discounted cumulative gain at ``k`` with binary gains.

    DCG@k = Σ_{i=1..k} rel_i / log2(i + 1), with rel_i = 1 if the item at rank i is relevant;
    IDCG@k is the DCG of a ranking that puts min(k, |R|) relevant items first; nDCG = DCG/IDCG.
    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4),
    2002 (the log2(i + 1) discount is the common form of Burges et al., ICML 2005).
    """
    _check_k(k)
    _check_relevant(relevant)
    wanted = set(relevant)
    dcg = sum(
        _discount(rank) for rank, item in enumerate(_top_k(ranked, k), start=1) if item in wanted
    )
    ideal = sum(_discount(rank) for rank in range(1, min(k, len(wanted)) + 1))
    return dcg / ideal


def all_found_at_k(ranked: Sequence[Id], relevant: Collection[Id], k: int) -> bool:
    """Whether every relevant id is in the top ``k`` (the multi-evidence "complete answer"
    criterion: a multi-hop question is answerable only when all its evidence is present)."""
    _check_k(k)
    _check_relevant(relevant)
    return set(relevant) <= set(_top_k(ranked, k))


def recall_within_budget(
    ranked: Sequence[tuple[Id, int]], relevant: Collection[Id], budget: int
) -> float:
    """Recall of the relevant ids inside the pack a token budget buys.

    The pack is the longest prefix of ``ranked`` (pairs of id and token cost) whose costs sum
    to at most ``budget``: it stops at the first item that does not fit, as a prompt hook's
    score-order pack does, rather than skipping it to squeeze a cheaper one in.
    """
    _check_relevant(relevant)
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget}")
    packed: list[Id] = []
    used = 0
    for item, cost in ranked:
        if cost < 0:
            raise ValueError(f"token cost must be >= 0, got {cost} for {item!r}")
        if used + cost > budget:
            break
        used += cost
        packed.append(item)
    return recall_at_k(packed, relevant, max(1, len(packed)))


def _alpha_gain(
    subtopics: Iterable[Hashable], covered: Mapping[Hashable, int], alpha: float
) -> float:
    """Gain of one document: each of its subtopics counts (1 - alpha)^r, where r is how many
    earlier documents already covered that subtopic (the redundancy penalty)."""
    return sum((1.0 - alpha) ** covered.get(s, 0) for s in subtopics)


def _alpha_dcg(
    ranked: Iterable[Id], subtopic_of: Mapping[Id, Collection[Hashable]], alpha: float
) -> float:
    covered: dict[Hashable, int] = {}
    total = 0.0
    for rank, item in enumerate(ranked, start=1):
        subtopics = subtopic_of.get(item, ())
        total += _alpha_gain(subtopics, covered, alpha) * _discount(rank)
        for s in subtopics:
            covered[s] = covered.get(s, 0) + 1
    return total


def _greedy_ideal(subtopic_of: Mapping[Id, Collection[Hashable]], k: int, alpha: float) -> list[Id]:
    """The ideal ranking as Clarke et al. approximate it: repeatedly take the document with
    the highest marginal gain (ties broken by ``repr`` of the id, for determinism)."""
    pool = sorted(subtopic_of, key=repr)
    covered: dict[Hashable, int] = {}
    order: list[Id] = []
    while pool and len(order) < k:
        best = max(pool, key=lambda d: _alpha_gain(subtopic_of[d], covered, alpha))
        pool.remove(best)
        order.append(best)
        for s in subtopic_of[best]:
            covered[s] = covered.get(s, 0) + 1
    return order


def alpha_ndcg_at_k(
    ranked: Sequence[Id],
    subtopic_of: Mapping[Id, Collection[Hashable]],
    k: int,
    alpha: float = 0.5,
) -> float:
    """α-nDCG@k: nDCG whose gain rewards novelty across subtopics.

    The gain of the document at rank i is Σ_s J(d_i, s) (1 - α)^{r_{s,i-1}}, where J says
    whether d_i covers subtopic s and r_{s,i-1} counts the documents above rank i that cover
    s; gains are discounted by log2(i + 1) and divided by the α-DCG of the ideal ranking.
    Clarke et al., "Novelty and diversity in information retrieval evaluation", SIGIR 2008.

    The ideal ranking is NP-hard to compute; like the paper (and TREC's ``ndeval``) this uses
    the greedy approximation. Greedy can underestimate the true ideal, so the ratio is capped
    at 1.0. ``subtopic_of`` maps each judged id to its subtopics; ids absent from it (or with
    no subtopic) earn nothing.
    """
    _check_k(k)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be within [0, 1], got {alpha}")
    judged = {item: subtopics for item, subtopics in subtopic_of.items() if subtopics}
    _check_relevant(judged)
    ideal = _alpha_dcg(_greedy_ideal(judged, k, alpha), judged, alpha)
    return min(1.0, _alpha_dcg(_top_k(ranked, k), judged, alpha) / ideal)


def cluster_coverage_at_k(
    ranked: Sequence[Id], expected_clusters: Sequence[Collection[Id]], k: int
) -> float:
    """Fraction of the expected clusters with at least one member in the top ``k``.

    This is subtopic recall (S-recall@k) of Zhai, Cohen & Lafferty, "Beyond independent
    relevance", SIGIR 2003, with each expected cluster playing a subtopic.
    """
    _check_k(k)
    _check_relevant(expected_clusters)
    top = set(_top_k(ranked, k))
    hit = sum(1 for cluster in expected_clusters if top.intersection(cluster))
    return hit / len(expected_clusters)
