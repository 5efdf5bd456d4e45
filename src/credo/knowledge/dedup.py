"""Near-duplicate audit: group beliefs whose texts say almost the same thing.

Why: exact duplicates never reach the store (the content hash corroborates them), but
restatements do ("Deploys go through ops/deploy.sh" vs "deploys go through ops/deploy.sh
now"). They waste the token budget twice. This audit finds them offline, reports them as
clusters and, on request, marks the older ones as superseded by the newest.

Similarity: Jaccard similarity of word-shingle sets. Text is lowercased and split into
word tokens (``\\w+``); a shingle is ``SHINGLE_SIZE`` (3) consecutive tokens, so word order
matters locally but a reordered clause only costs the shingles that straddle it. A text
shorter than the shingle size is one shingle of all its tokens. Two beliefs are near
duplicates when J(A, B) = |A ∩ B| / |A ∪ B| >= ``DEFAULT_THRESHOLD`` (0.7): on one-sentence
beliefs that is "the same sentence with a word or two changed", while two sentences that
merely share a topic sit far below it.

Candidates (never all pairs): prefix filtering over an inverted index (Chaudhuri, Ganti &
Kaushik, ICDE 2006; Bayardo, Ma & Srikant, "Scaling up all pairs similarity search", WWW
2007). Shingles are ordered globally rarest first; each set's prefix is its first
|x| - ceil(t * |x|) + 1 shingles. If J(x, y) >= t then |x ∩ y| >= ceil(t * max(|x|, |y|)),
and two sets with that overlap must share a shingle within those prefixes; so probing an
inverted index of prefixes finds every qualifying pair, and because prefixes hold the rare
shingles the posting lists stay short. A size filter (|y| >= t * |x|) prunes further. This
was chosen over MinHash + LSH because it is exact (recall 1.0 by construction, which the
tests check against an all-pairs oracle) and deterministic, and it is fast enough: 100k
beliefs in seconds (``bench/dedup.py``). Every candidate pair is then verified with the
exact Jaccard similarity; verified pairs are merged with ``credo.unionfind.UnionFind``.

Apply and undo: ``apply`` writes a SUPERSEDES edge from each cluster's newest belief
(greatest created_at, then id) to every other member, through ``Memory.relate`` (so each
edge is checked and logged), skipping edges that already exist, locked members (user
ground truth is never superseded automatically) and members that already supersede the
kept one (the edge would close a cycle). Retrieval then packs one belief of each group,
the kept one, carrying the group's positive evidence (credo.retrieval.currency). The writes
are logged in ``ingest_log`` with the source ``DEDUP_SOURCE``; that log is how ``undo`` finds
them. (An anchor_text marker
was rejected: anchor text is indexed for BM25F, so a marker word would make every superseded
belief match queries for it.) ``undo`` replays the log and removes the SUPERSEDES edges whose
last writer was dedup and that still exist, logging an ``unrelate`` entry for each.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from credo.edge_types import EdgeType
from credo.errors import InvalidInputError
from credo.types import Belief
from credo.unionfind import UnionFind

if TYPE_CHECKING:
    from credo.store import Store

SHINGLE_SIZE = 3
DEFAULT_THRESHOLD = 0.7
DEDUP_SOURCE = "credo-dedup"
_TOKEN = re.compile(r"\w+")
_EPSILON = 1e-9  # t * n is computed in floating point; never round a whole number up


@dataclass(frozen=True, slots=True)
class DuplicateCluster:
    """Beliefs that are near duplicates of each other (connected by verified pairs).

    Attributes:
        keep_id: the newest member, the one the others are marked superseded by.
        member_ids: all members, newest first (created_at desc, id desc).
        max_similarity: the highest verified Jaccard similarity inside the cluster.
    """

    keep_id: str
    member_ids: tuple[str, ...]
    max_similarity: float


@dataclass(frozen=True, slots=True)
class DedupReport:
    """What a scan found, and what it cost.

    Attributes:
        beliefs: live beliefs scanned.
        pairs_checked: candidate pairs verified with the exact Jaccard (the prefilter's
            output; all-pairs would be beliefs * (beliefs - 1) / 2).
        pairs: verified near-duplicate pairs (id, id, similarity), ids ascending.
        clusters: groups of two or more, largest first, then by keep_id.
    """

    beliefs: int
    threshold: float
    shingle_size: int
    pairs_checked: int
    pairs: tuple[tuple[str, str, float], ...]
    clusters: tuple[DuplicateCluster, ...]


@dataclass(frozen=True, slots=True)
class SimilarPairs:
    """Output of `similar_pairs`: verified pairs by index, and the number verified."""

    pairs: list[tuple[int, int, float]]
    checked: int


def shingles(text: str, size: int = SHINGLE_SIZE) -> frozenset[str]:
    """The set of `size`-word shingles of `text` (lowercased word tokens)."""
    words = _TOKEN.findall(text.lower())
    if len(words) <= size:
        return frozenset([" ".join(words)]) if words else frozenset()
    return frozenset(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 when both are empty (empty texts are never duplicates)."""
    if not a and not b:
        return 0.0
    overlap = len(a & b)
    return overlap / (len(a) + len(b) - overlap)


def check_threshold(threshold: float) -> float:
    """Refuse a threshold outside (0, 1]: 0 would make everything a duplicate."""
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise InvalidInputError(f"threshold {threshold!r} must be a number in (0, 1]")
    if not 0.0 < threshold <= 1.0:
        raise InvalidInputError(f"threshold {threshold!r} must be in (0, 1], e.g. 0.7")
    return float(threshold)


def check_shingle_size(size: int) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 16:
        raise InvalidInputError(f"shingle size {size!r} must be an integer in [1, 16]")
    return size


def similar_pairs(sets: Sequence[frozenset[str]], threshold: float) -> SimilarPairs:
    """Every pair (i, j), i < j, with jaccard(sets[i], sets[j]) >= threshold.

    Prefix filtering (see the module docstring) proposes candidates; each is verified.
    Empty sets never pair.
    """
    threshold = check_threshold(threshold)
    ranked = _rank_by_rarity(sets)
    order = sorted((i for i in range(len(sets)) if ranked[i]), key=lambda i: (len(ranked[i]), i))
    index: dict[int, list[int]] = {}
    found: list[tuple[int, int, float]] = []
    checked = 0
    for x in order:
        tokens = ranked[x]
        min_size = threshold * len(tokens) - _EPSILON
        candidates: set[int] = set()
        for token in tokens[: _prefix_length(len(tokens), threshold)]:
            postings = index.get(token)
            if postings is None:
                index[token] = [x]
                continue
            candidates.update(y for y in postings if len(ranked[y]) >= min_size)
            postings.append(x)
        checked += len(candidates)
        for y in candidates:
            similarity = jaccard(sets[x], sets[y])
            if similarity >= threshold - _EPSILON:
                found.append((min(x, y), max(x, y), similarity))
    found.sort()
    return SimilarPairs(found, checked)


def _prefix_length(size: int, threshold: float) -> int:
    """|x| - ceil(t * |x|) + 1: the prefix two sets over the threshold must share."""
    return size - math.ceil(threshold * size - _EPSILON) + 1


def _rank_by_rarity(sets: Sequence[frozenset[str]]) -> list[list[int]]:
    """Each set as a list of shingle ranks, rarest first (ties by the shingle text).

    The global order is what makes the prefix principle hold; rarest first keeps the
    posting lists of the prefixes short.
    """
    frequency = Counter(shingle for s in sets for shingle in s)
    rank = {s: r for r, s in enumerate(sorted(frequency, key=lambda s: (frequency[s], s)))}
    return [sorted(rank[shingle] for shingle in s) for s in sets]


def find_duplicates(
    beliefs: Iterable[Belief],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    shingle_size: int = SHINGLE_SIZE,
) -> DedupReport:
    """Near-duplicate clusters among the live beliefs given (deleted ones are skipped)."""
    threshold = check_threshold(threshold)
    shingle_size = check_shingle_size(shingle_size)
    live = sorted((b for b in beliefs if b.deleted_at is None), key=lambda b: b.id)
    result = similar_pairs([shingles(b.content, shingle_size) for b in live], threshold)
    pairs = tuple((live[i].id, live[j].id, s) for i, j, s in result.pairs)
    return DedupReport(
        beliefs=len(live),
        threshold=threshold,
        shingle_size=shingle_size,
        pairs_checked=result.checked,
        pairs=pairs,
        clusters=tuple(_clusters(live, pairs)),
    )


def _clusters(
    live: Sequence[Belief], pairs: Sequence[tuple[str, str, float]]
) -> list[DuplicateCluster]:
    """Union-find components of the verified pairs, newest member first."""
    groups: UnionFind[str] = UnionFind()
    groups.union_all((a, b) for a, b, _ in pairs)
    by_id = {b.id: b for b in live}
    best: dict[str, float] = {}
    for a, _b, similarity in pairs:
        root = groups.find(a)
        best[root] = max(best.get(root, 0.0), similarity)
    out = []
    for members in groups.components():
        newest = sorted(members, key=lambda i: (by_id[i].created_at, i), reverse=True)
        out.append(DuplicateCluster(newest[0], tuple(newest), best[groups.find(members[0])]))
    out.sort(key=lambda c: (-len(c.member_ids), c.keep_id))
    return out


# -- writes (through Memory, so they are validated and logged) ----------------------------------


class MemoryView(Protocol):
    """What dedup uses of a ``credo.Memory``, named by its shape: this layer sits below the
    composition root and does not import it."""

    store: Store
    source: str  # the name its writes are logged under

    def get(self, belief_id: str) -> Belief: ...

    def relate(self, src: str, dst: str, type: EdgeType) -> object: ...


@dataclass(frozen=True, slots=True)
class ApplyReport:
    """Edges written by `apply`, and members left alone (and why): the edge is there, the
    member is locked, or the member already supersedes the kept one (the edge would close a
    cycle, which ``Memory.relate`` refuses)."""

    written: tuple[tuple[str, str], ...]
    skipped_existing: tuple[tuple[str, str], ...]
    skipped_locked: tuple[str, ...]
    skipped_cycle: tuple[tuple[str, str], ...] = ()


def scan(
    memory: MemoryView, *, threshold: float = DEFAULT_THRESHOLD, shingle_size: int = SHINGLE_SIZE
) -> DedupReport:
    """`find_duplicates` over every live belief of a store."""
    return find_duplicates(
        memory.store.iter_beliefs(), threshold=threshold, shingle_size=shingle_size
    )


def apply(memory: MemoryView, report: DedupReport) -> ApplyReport:
    """Write SUPERSEDES newest -> each other member, in one transaction, logged as dedup's.

    Existing edges are left as they are (``Memory.relate`` would refuse them anyway), and
    locked members are skipped: a lock is the user's word and outranks a similarity score.
    """
    written: list[tuple[str, str]] = []
    existing: list[tuple[str, str]] = []
    locked: list[str] = []
    cycles: list[tuple[str, str]] = []
    store = memory.store
    with store.transaction(), _as_source(memory, DEDUP_SOURCE):
        for cluster in report.clusters:
            for other in cluster.member_ids[1:]:
                if store.get_edge(cluster.keep_id, other, EdgeType.SUPERSEDES) is not None:
                    existing.append((cluster.keep_id, other))
                elif memory.get(other).locked:
                    locked.append(other)
                elif store.supersedes_path(other, cluster.keep_id):
                    cycles.append((cluster.keep_id, other))
                else:
                    memory.relate(cluster.keep_id, other, EdgeType.SUPERSEDES)
                    written.append((cluster.keep_id, other))
    return ApplyReport(tuple(written), tuple(existing), tuple(locked), tuple(cycles))


def undo(memory: MemoryView) -> tuple[tuple[str, str], ...]:
    """Remove the SUPERSEDES edges dedup wrote that still exist; returns them (src, dst).

    The owner of an edge is the source of the last log entry that created it: an edge
    dedup wrote, undid, and a person then added again by hand belongs to that person and
    stays. Each removal is logged as an ``unrelate`` entry with the dedup source.
    """
    store = memory.store
    removed: list[tuple[str, str]] = []
    with store.transaction():
        now = time.time()
        for src, dst in sorted(_dedup_owned(memory)):
            if store.delete_edge(src, dst, EdgeType.SUPERSEDES):
                removed.append((src, dst))
        store.append_log(
            [
                (now, "unrelate", src, DEDUP_SOURCE, {"dst": dst, "type": "SUPERSEDES"})
                for src, dst in removed
            ]
        )
    return tuple(removed)


def _dedup_owned(memory: MemoryView) -> set[tuple[str, str]]:
    """SUPERSEDES edges whose last logged writer is dedup (replaying relate/unrelate)."""
    owner: dict[tuple[str, str], str | None] = {}
    for entry in memory.store.log_entries():
        if entry.op not in ("relate", "unrelate") or entry.belief_id is None:
            continue
        if entry.payload.get("type") != EdgeType.SUPERSEDES.value:
            continue
        key = (entry.belief_id, str(entry.payload.get("dst")))
        owner[key] = entry.source_path if entry.op == "relate" else None
    return {key for key, source in owner.items() if source == DEDUP_SOURCE}


@contextmanager
def _as_source(memory: MemoryView, source: str) -> Iterator[None]:
    """Log the writes made inside under `source`: the mark `undo` looks for."""
    previous = memory.source
    memory.source = source
    try:
        yield
    finally:
        memory.source = previous
