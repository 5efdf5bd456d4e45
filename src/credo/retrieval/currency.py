"""Which beliefs are current: supersession and contradiction shape the pack (SYSTEM.md
§ Beliefs change; docs/RETRIEVAL.md § Beliefs change).

Pure: the ranked candidates, the locks and a way to read truth links (``Fetch``, the
store's ``truth_links``) in; a ``Currency`` out, which the pipeline packs. Only live beliefs
and the edges between them count: forgetting a belief (soft or hard) takes its edges out
of play.

Supersession. ``B SUPERSEDES A`` (src B, dst A) means B replaces A. A belief is *superseded*
when a live belief supersedes it (directly) and does not itself descend from it (an edge
that would close a cycle is refused on write; a store that holds a cycle anyway treats its
members as current rather than hiding them all). A superseded belief is history: it is not
packed, and each of its *heads* (the current beliefs that supersede it, directly or through
a chain) stands in its place, with at least its score (the part ``supersedes``). Chains
resolve to the newest live belief; when the successor is forgotten, the old belief is
current again. The result says what each belief replaced (``replaces``: the beliefs it
hides directly). With ``include_superseded`` the history is packed too, each superseded
belief at its own score and marked with what supersedes it (``superseded_by``).

Evidence. A current belief carries the positive evidence of the beliefs it hides directly
(its dedup group, or the versions it replaced): alpha' = alpha + sum(alpha_i - 1). Each
belief starts from the uniform prior (1, 1), so the sum pools observations, not priors;
harm (beta) stays with the belief it was recorded on, usually the reason it was replaced.
The posterior part of the score is recomputed from alpha' (rank.py's formula).

Contradiction. Two current beliefs joined by CONTRADICTS (either direction) and not by
RESOLVES are in conflict. A belief in the pack by relevance (a current candidate, or a
head standing in for one) brings its conflicts along: the unlocked ones form a *group*
that is packed whole or not at all, each member at the group's best score (the part
``contradicts``), so the agent sees both sides or neither, never one at random. A belief
brought along this way does not bring its own other conflicts (that would walk a chain of
disputes away from the query). A locked belief outranks what contradicts it: it is placed
first (L0), and the conflict is marked on the belief that disagrees with it (a lock's own
mark names only the other locks it conflicts with, so its cost is known when L0 is
charged).

Ties are broken by id everywhere; the result depends only on the store and the query.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from credo.retrieval.rank import Scored, Weights
from credo.store.fts import CandidateRow
from credo.store.truth import CONTRADICTS, RESOLVES, SUPERSEDES, TruthFacts
from credo.unionfind import UnionFind

Fetch = Callable[[Iterable[str]], TruthFacts]
NO_IDS: tuple[str, ...] = ()


class Currency(NamedTuple):
    """What supersession and contradiction make of a ranking.

    Attributes:
        ranked: the beliefs the pack may take, (score desc, id asc): current candidates,
            heads standing in for superseded ones, conflicts brought along (and, with
            ``include_superseded``, the superseded candidates).
        superseded: ranked candidates left out because a live belief supersedes them.
        retired_locks: locks a live belief supersedes: not placed.
        replaces: id -> the beliefs it hides directly (the ``replaces`` mark).
        conflicts: id -> the beliefs it is in conflict with (the ``conflicts with`` mark).
        superseded_by: id -> what supersedes it directly (history only).
        groups: conflict groups of unlocked beliefs, each packed whole, members in rank order.
        rows: the rows of beliefs in ``ranked`` that were not candidates.
    """

    ranked: list[Scored]
    superseded: tuple[str, ...] = ()
    retired_locks: frozenset[str] = frozenset()
    replaces: Mapping[str, tuple[str, ...]] = {}
    conflicts: Mapping[str, tuple[str, ...]] = {}
    superseded_by: Mapping[str, tuple[str, ...]] = {}
    groups: tuple[tuple[str, ...], ...] = ()
    rows: Mapping[str, CandidateRow] = {}


class TruthGraph:
    """The live truth links around some beliefs, read through ``fetch`` as they are needed.

    ``successors(x)``: the beliefs that supersede x directly; ``predecessors(x)``: those x
    supersedes directly. Both need x read (``load``); ``reach`` and everything built on it
    need x's upward closure read (``close_upward``).
    """

    def __init__(self, fetch: Fetch) -> None:
        self._fetch = fetch
        self.read: set[str] = set()
        self.rows: dict[str, CandidateRow] = {}
        self.locked: set[str] = set()
        self._succ: dict[str, list[str]] = {}
        self._pred: dict[str, list[str]] = {}
        self._against: dict[str, list[str]] = {}  # CONTRADICTS, either direction
        self._settled: set[tuple[str, str]] = set()  # RESOLVES, both orders
        self._reach: dict[str, frozenset[str]] = {}

    @property
    def empty(self) -> bool:
        return not (self._succ or self._pred or self._against)

    def load(self, ids: Iterable[str]) -> None:
        missing = [i for i in dict.fromkeys(ids) if i not in self.read]
        if not missing:
            return
        self.add(missing, self._fetch(missing))

    def add(self, ids: Iterable[str], facts: TruthFacts) -> None:
        """Take in the facts read for ``ids`` (``load`` reads them; a caller may have them)."""
        self.read.update(ids)
        links, rows, locked = facts
        self.rows.update(rows)
        self.locked |= locked
        for belief_id, found in links.items():
            for src, dst, kind in found:
                other = dst if src == belief_id else src
                if kind == SUPERSEDES:
                    side = self._pred if src == belief_id else self._succ
                    side.setdefault(belief_id, []).append(other)
                elif kind == CONTRADICTS:
                    self._against.setdefault(belief_id, []).append(other)
                elif kind == RESOLVES:
                    self._settled.update(((belief_id, other), (other, belief_id)))

    def close_upward(self, ids: Iterable[str]) -> None:
        """Read ``ids`` and every belief that supersedes one of them, transitively."""
        frontier = list(dict.fromkeys(ids))
        seen = set(frontier)
        while frontier:
            self.load(frontier)
            above = [y for x in frontier for y in self._succ.get(x, NO_IDS) if y not in seen]
            frontier = list(dict.fromkeys(above))
            seen.update(frontier)

    def successors(self, x: str) -> Sequence[str]:
        return self._succ.get(x, NO_IDS)

    def reach(self, x: str) -> frozenset[str]:
        """Every belief that supersedes ``x``, directly or through others."""
        found = self._reach.get(x)
        if found is None:
            seen: set[str] = set()
            stack = list(self.successors(x))
            while stack:
                y = stack.pop()
                if y not in seen:
                    seen.add(y)
                    stack.extend(self.successors(y))
            found = self._reach[x] = frozenset(seen)
        return found

    def superseded_by(self, x: str) -> tuple[str, ...]:
        """The live beliefs that supersede ``x`` directly and do not descend from it."""
        return tuple(sorted(y for y in self.successors(x) if x not in self.reach(y)))

    def current(self, x: str) -> bool:
        return x not in self._succ or not self.superseded_by(x)

    def heads(self, x: str) -> tuple[str, ...]:
        """The current beliefs that supersede ``x``, directly or through a chain."""
        return tuple(sorted(y for y in self.reach(x) if self.current(y)))

    def hides(self, y: str) -> tuple[str, ...]:
        """The beliefs ``y`` supersedes directly and that do not supersede it back."""
        reach = self.reach(y)
        return tuple(sorted(x for x in self._pred.get(y, NO_IDS) if x not in reach))

    def conflicts(self, x: str) -> list[str]:
        """The beliefs joined to ``x`` by CONTRADICTS and not by RESOLVES (read, current or
        not)."""
        against = self._against.get(x, NO_IDS)
        return sorted({y for y in against if (x, y) not in self._settled})


def resolve(
    ranked: list[Scored],
    rows: Mapping[str, CandidateRow],
    locks: Sequence[str],
    fetch: Fetch,
    *,
    weights: Weights,
    include_superseded: bool = False,
    read: TruthFacts | None = None,
) -> Currency:
    """Apply supersession and contradiction (the module docstring) to ``ranked``.

    Args:
        ranked: the candidates as ``rank.compose`` ranked them (all unlocked and live).
        rows: the candidates' rows (their evidence is pooled from them).
        locks: the ids of the live locked beliefs, in placement order.
        fetch: reads the truth links of live beliefs (``Store.truth_links``).
        weights: the weights ``compose`` used (for the posterior part).
        include_superseded: keep superseded candidates, marked, instead of leaving them out.
        read: what ``fetch`` returned for the candidates and the locks, if the caller has it.
    """
    graph = TruthGraph(fetch)
    ids = [s.id for s in ranked]
    if read is None:
        graph.load([*ids, *locks])
    else:
        graph.add([*ids, *locks], read)
    if graph.empty:
        return Currency(ranked)
    graph.close_upward([*ids, *locks])
    rows_of = {**graph.rows, **rows}
    shown, superseded, inherited = _supersede(ranked, graph, rows_of, weights)
    for head, score in sorted(inherited.items()):
        own = shown.get(head)
        if own is None:
            shown[head] = Scored(head, score, {"supersedes": score})
        elif score > own.score:
            shown[head] = _raised(own, score, "supersedes")
    groups, conflicts = _conflicts(graph, shown, locks)
    if include_superseded:
        for s in ranked:
            if s.id in superseded:
                shown[s.id] = s
    marked = [*shown, *locks]
    replaces = {i: got for i in marked if (got := graph.hides(i))}
    # Current beliefs before history at equal scores (a head inherits its predecessor's).
    final = sorted(shown.values(), key=lambda s: (-s.score, s.id in superseded, s.id))
    order = {s.id: n for n, s in enumerate(final)}
    return Currency(
        ranked=final,
        superseded=() if include_superseded else tuple(superseded),
        retired_locks=frozenset(i for i in locks if not graph.current(i)),
        replaces=replaces,
        conflicts=conflicts,
        superseded_by=(
            {i: graph.superseded_by(i) for i in superseded} if include_superseded else {}
        ),
        groups=tuple(tuple(sorted(g, key=order.__getitem__)) for g in groups),
        rows={i: rows_of[i] for i in shown if i not in rows},
    )


def _supersede(
    ranked: list[Scored],
    graph: TruthGraph,
    rows: Mapping[str, CandidateRow],
    weights: Weights,
) -> tuple[dict[str, Scored], dict[str, None], dict[str, float]]:
    """The current candidates (their evidence pooled), the superseded ones, and the best
    score each unlocked head inherits from the candidates it stands in for."""
    shown: dict[str, Scored] = {}
    superseded: dict[str, None] = {}
    inherited: dict[str, float] = {}
    for s in ranked:
        if graph.current(s.id):
            hidden = graph.hides(s.id)
            shown[s.id] = _pooled(s, hidden, rows, weights) if hidden else s
            continue
        superseded[s.id] = None
        for head in graph.heads(s.id):
            if head not in graph.locked and inherited.get(head, -1.0) < s.score:
                inherited[head] = s.score
    return shown, superseded, inherited


def _pooled(
    s: Scored, hidden: Sequence[str], rows: Mapping[str, CandidateRow], weights: Weights
) -> Scored:
    """``s`` with the posterior part recomputed from its evidence plus the positive evidence
    of the beliefs it hides."""
    _content, alpha, beta, _session, _created = rows[s.id]
    alpha += sum(max(rows[h][1] - 1.0, 0.0) for h in hidden if h in rows)
    prior = weights.posterior * (alpha / (alpha + beta) - 0.5)
    lanes = {k: v for k, v in s.lanes.items() if k != "posterior"}
    if prior:
        lanes["posterior"] = prior
    return Scored(s.id, round(sum(lanes.values()), 9), lanes)


def _raised(s: Scored, score: float, part: str) -> Scored:
    """``s`` at ``score``, the difference listed as ``part`` so the parts still add up."""
    return Scored(s.id, score, {**s.lanes, part: round(score - s.score, 9)})


def _conflicts(
    graph: TruthGraph, shown: dict[str, Scored], locks: Sequence[str]
) -> tuple[list[list[str]], dict[str, tuple[str, ...]]]:
    """Bring the conflicts of the beliefs in ``shown`` along (added to it at the group's
    score); return the groups of unlocked beliefs and every belief's conflict mark."""
    relevant = list(shown)
    others = {y for x in relevant for y in graph.conflicts(x)}
    lock_set = set(locks)
    others |= {y for x in locks for y in graph.conflicts(x) if y in lock_set}
    if not others:
        return [], {}
    graph.close_upward(others)
    marks: dict[str, set[str]] = {}
    pairs: list[tuple[str, str]] = []
    for x in relevant:
        for y in graph.conflicts(x):
            if not graph.current(y):
                continue
            marks.setdefault(x, set()).add(y)
            if y not in graph.locked:
                marks.setdefault(y, set()).add(x)
                pairs.append((x, y))
    for x in locks:
        if graph.current(x):
            for y in graph.conflicts(x):
                if y in lock_set and graph.current(y):
                    marks.setdefault(x, set()).add(y)
    components: UnionFind[str] = UnionFind()
    components.union_all(pairs)
    groups = [list(group) for group in components.components()]
    for group in groups:
        for member in group:
            if member not in shown:
                shown[member] = Scored(member, 0.0, {})
        best = max(shown[m].score for m in group)
        for member in group:
            if shown[member].score < best:
                shown[member] = _raised(shown[member], best, "contradicts")
    return groups, {x: tuple(sorted(ys)) for x, ys in marks.items()}
