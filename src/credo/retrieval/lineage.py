"""The views of beliefs changing: a belief's lineage (``credo history``) and the open
contradictions (``credo conflicts``), under the rules retrieval packs by
(``credo.retrieval.currency``). Read only; loaded by those commands, never by a query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from credo.retrieval.currency import TruthGraph
from credo.store.truth import SUPERSEDES

if TYPE_CHECKING:
    from credo.store import Store
    from credo.store.truth import TruthFacts, TruthLink
    from credo.types import Belief


class Conflict(NamedTuple):
    """Two live, current beliefs joined by CONTRADICTS and not by RESOLVES. ``first`` is the
    locked one when one is (it outranks the other), else the smaller id."""

    first: Belief
    second: Belief


class Step(NamedTuple):
    """One belief of a lineage.

    Attributes:
        status: ``current`` (packed by default), ``superseded`` (a live belief supersedes
            it) or ``forgotten``.
        supersedes: the beliefs it supersedes directly (any status).
        superseded_by: the beliefs that supersede it directly (any status).
    """

    belief: Belief
    status: str
    supersedes: tuple[str, ...]
    superseded_by: tuple[str, ...]


class History(NamedTuple):
    """A belief's lineage, oldest first (created_at, then id); ``current`` names the
    beliefs of it that retrieval packs."""

    id: str
    current: tuple[str, ...]
    steps: tuple[Step, ...]


def lineage(store: Store, belief_id: str) -> History:
    """Every belief joined to ``belief_id`` by SUPERSEDES edges, in either direction."""
    edges = store.lineage_edges(belief_id)
    beliefs = store.get_beliefs({belief_id, *(end for edge in edges for end in edge)})
    live = {i for i, b in beliefs.items() if b.deleted_at is None}
    graph = TruthGraph(_serve([(s, d, SUPERSEDES) for s, d in edges if s in live and d in live]))
    graph.close_upward(live)
    steps = []
    for belief in sorted(beliefs.values(), key=lambda b: (b.created_at, b.id)):
        i = belief.id
        status = (
            "forgotten" if i not in live else "superseded" if not graph.current(i) else "current"
        )
        steps.append(
            Step(
                belief,
                status,
                tuple(sorted(d for s, d in edges if s == i)),
                tuple(sorted(s for s, d in edges if d == i)),
            )
        )
    current = tuple(sorted(s.belief.id for s in steps if s.status == "current"))
    return History(belief_id, current, tuple(steps))


def open_conflicts(store: Store) -> list[Conflict]:
    """Every open contradiction, each pair once, sorted by (first id, second id). A pair's
    first is a lock, or else (neither or both locked) the side that disputes the other and
    was told after it (the edge's source, created later: the user's newer word, as the pack
    shows it, retrieval/told_first.py), or else the lower id."""
    pairs = store.contradiction_ids()
    ends = {end for pair in pairs for end in pair}
    graph = TruthGraph(store.truth_reader().links)
    graph.close_upward(ends)
    beliefs = store.get_beliefs(ends)
    disputes = set(pairs)
    found: dict[tuple[str, str], Conflict] = {}
    for a, b in pairs:
        if not (graph.current(a) and graph.current(b)) or b not in graph.conflicts(a):
            continue
        first, second = beliefs[min(a, b)], beliefs[max(a, b)]
        if (first.id, second.id) in found:
            continue
        if first.locked != second.locked:
            if second.locked:
                first, second = second, first
        elif _newer_word(second, first, disputes):  # (both locked too: probe92)
            first, second = second, first
        found[(min(a, b), max(a, b))] = Conflict(first, second)
    return sorted(found.values(), key=lambda c: (c.first.id, c.second.id))


def _newer_word(x: Belief, y: Belief, disputes: set[tuple[str, str]]) -> bool:
    """Whether ``x`` disputes ``y`` (a CONTRADICTS edge from it) and was told after it."""
    return (x.id, y.id) in disputes and x.created_at > y.created_at


def _serve(links: list[TruthLink]) -> Callable[[Iterable[str]], TruthFacts]:
    """A ``Fetch`` over links already in hand (a lineage is read whole)."""
    by_id: dict[str, list[TruthLink]] = {}
    for link in links:
        by_id.setdefault(link[0], []).append(link)
        by_id.setdefault(link[1], []).append(link)

    def fetch(ids: Iterable[str]) -> TruthFacts:
        return {i: tuple(by_id[i]) for i in ids if i in by_id}, {}, frozenset()

    return fetch
