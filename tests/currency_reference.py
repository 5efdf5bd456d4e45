"""A frozen copy of ``credo.retrieval.currency`` as it stood before the step was made
cheaper (main at 620202a): the readable reference the optimised module is checked against,
output for output, on random stores (tests/test_currency_reference.py). Not imported by
credo; do not edit it to follow the module: it is the semantics the module must keep.

Which beliefs are current: supersession and contradiction shape the pack (SYSTEM.md
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

import bisect
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from credo.retrieval.rank import Scored, Weights, as_scored
from credo.store.fts import CandidateRow
from credo.store.truth import CONTRADICTS, RESOLVES, SUPERSEDES, TruthFacts

Fetch = Callable[[Iterable[str]], TruthFacts]
NO_IDS: tuple[str, ...] = ()
# (replaces, conflicts with, superseded by): what a belief's marks say (tokens.marks).
Standing = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
_NONE: frozenset[str] = frozenset()


class Currency:
    """What supersession and contradiction make of a ranking. (A plain class: a named
    tuple class costs a fresh process ~0.2 ms to build, and this one is built by the first
    query that meets a truth link.)

    Attributes:
        ranked: the beliefs the pack may take, (score desc, id asc): current candidates,
            heads standing in for superseded ones, conflicts brought along (and, with
            ``include_superseded``, the superseded candidates).
        superseded: ranked candidates left out because a live belief supersedes them.
        retired_locks: locks a live belief supersedes: not placed.
        standing: id -> (replaces, conflicts, superseded_by) for the beliefs that have any:
            the beliefs it hides directly, those it is in conflict with, and (history only)
            those that supersede it directly; what its marks say.
        groups: conflict groups of unlocked beliefs, each packed whole, best member first.
        rows: the rows of beliefs in ``ranked`` that were not candidates.
        brought: the beliefs in ``ranked`` that are there only as a conflict brought along
            (clustering reads the edges among the others).
    """

    __slots__ = (
        "brought",
        "groups",
        "ranked",
        "retired_locks",
        "rows",
        "standing",
        "superseded",
    )

    def __init__(
        self,
        ranked: list[Scored],
        superseded: tuple[str, ...] = (),
        retired_locks: frozenset[str] = frozenset(),
        standing: Mapping[str, Standing] | None = None,
        groups: tuple[tuple[str, ...], ...] = (),
        rows: Mapping[str, CandidateRow] | None = None,
        brought: frozenset[str] = frozenset(),
    ) -> None:
        self.ranked = ranked
        self.superseded = superseded
        self.retired_locks = retired_locks
        self.standing: Mapping[str, Standing] = {} if standing is None else standing
        self.groups = groups
        self.rows: Mapping[str, CandidateRow] = {} if rows is None else rows
        self.brought = brought


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
        self.disputes: set[tuple[str, str]] = set()  # (src, dst) of each CONTRADICTS
        self._settled: set[tuple[str, str]] = set()  # RESOLVES, both orders
        self._reach: dict[str, frozenset[str]] = {}
        self._conflicts: dict[str, tuple[str, ...]] = {}
        # x -> (its current conflicts, the unlocked ones among them): fixed at a version.
        self._live: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._closed: set[str] = set()  # the beliefs whose upward closure is read
        # Beliefs met as a far end with no live SUPERSEDES edge: current, hiding nothing,
        # their closure known without reading them.
        self._still: set[str] = set()
        self.linked: set[str] = set()  # the beliefs read that have a truth link

    @property
    def empty(self) -> bool:
        return not self.linked

    def touched(self, ids: Collection[str], every: object = None) -> set[str]:
        """Those of ``ids`` that have a truth link (read first). (``every``, the store's
        every truth edge the pipeline passes when it holds them all, is not read: the
        reference reads every id.)"""
        self.load(ids)
        return self.linked.intersection(ids)

    def linked_in_order(self, ids: Iterable[str], every: object = None) -> list[str]:
        """Those of ``ids`` that have a truth link, in their order (read first; ``every`` is
        not read: the reference reads every id)."""
        ids = list(ids)
        self.load(ids)
        return [i for i in ids if i in self.linked]

    def touches(self, ids: Iterable[str]) -> bool:
        """Whether any of ``ids`` (read) has a truth link."""
        linked = self.linked
        return any(i in linked for i in ids)

    def load(self, ids: Collection[str]) -> None:
        if self.read.issuperset(ids):
            return
        missing = [i for i in dict.fromkeys(ids) if i not in self.read]
        if not missing:
            return
        self.add(missing, self._fetch(missing))

    def add(self, ids: Iterable[str], facts: TruthFacts) -> None:
        """Take in the facts read for ``ids`` (``load`` reads them; a caller may have them)."""
        self.read.update(ids)
        links, rows, locked = facts[0], facts[1], facts[2]
        self.rows.update(rows)
        self.locked |= locked
        if len(facts) > 3:
            self._still |= facts[3]  # type: ignore[misc]
        self.linked.update(links)
        for belief_id, found in links.items():
            for src, dst, kind in found:
                other = dst if src == belief_id else src
                if kind == SUPERSEDES:
                    side = self._pred if src == belief_id else self._succ
                    side.setdefault(belief_id, []).append(other)
                elif kind == CONTRADICTS:
                    self._against.setdefault(belief_id, []).append(other)
                    self.disputes.add((src, dst))
                elif kind == RESOLVES:
                    self._settled.update(((belief_id, other), (other, belief_id)))

    def close_upward(self, ids: Iterable[str]) -> None:
        """Read ``ids`` and every belief that supersedes one of them, transitively."""
        closed = self._closed
        frontier = [i for i in dict.fromkeys(ids) if i not in closed]
        seen = set(frontier)
        while frontier:
            self.load(frontier)
            above = [
                y
                for x in frontier
                for y in self._succ.get(x, NO_IDS)
                if y not in seen and y not in closed
            ]
            frontier = list(dict.fromkeys(above))
            seen.update(frontier)
        closed |= seen  # (what is read stays read while the graph lives)

    def settle(self, ids: Iterable[str]) -> None:
        """Make ``current`` and ``hides`` exact for ``ids``: ``close_upward`` for those not
        known to have no SUPERSEDES edge (such a belief needs no read for either)."""
        still = self._still
        self.close_upward([i for i in ids if i not in still] if still else ids)

    def successors(self, x: str) -> Sequence[str]:
        return self._succ.get(x, NO_IDS)

    def reach(self, x: str) -> frozenset[str]:
        """Every belief that supersedes ``x``, directly or through others."""
        if x not in self._succ:
            return _NONE
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

    @property
    def superseded_any(self) -> Mapping[str, list[str]]:
        """The beliefs read that a live belief supersedes (-> those that do)."""
        return self._succ

    def current(self, x: str) -> bool:
        return x not in self._succ or not self.superseded_by(x)

    def heads(self, x: str) -> tuple[str, ...]:
        """The current beliefs that supersede ``x``, directly or through a chain."""
        return tuple(sorted(y for y in self.reach(x) if self.current(y)))

    def hides(self, y: str) -> tuple[str, ...]:
        """The beliefs ``y`` supersedes directly and that do not supersede it back."""
        below = self._pred.get(y)
        if below is None:
            return NO_IDS
        reach = self.reach(y)
        return tuple(sorted(x for x in below if x not in reach))

    @property
    def superseding(self) -> Mapping[str, list[str]]:
        """The beliefs read that supersede another (-> the ones they supersede)."""
        return self._pred

    def supersedes_any(self, ids: Iterable[str]) -> bool:
        """Whether any of ``ids`` (read) supersedes or is superseded by a live belief."""
        succ, pred = self._succ, self._pred
        return bool(succ or pred) and any(i in succ or i in pred for i in ids)

    @property
    def against(self) -> Mapping[str, list[str]]:
        """The beliefs read that have a CONTRADICTS edge (-> the other ends)."""
        return self._against

    def conflicts(self, x: str) -> tuple[str, ...]:
        """The beliefs joined to ``x`` by CONTRADICTS and not by RESOLVES (read, current or
        not), each once. ``x`` must be read, and so must they for what uses them."""
        found = self._conflicts.get(x)
        if found is None:
            against = self._against.get(x, NO_IDS)
            settled = self._settled
            found = self._conflicts[x] = tuple(
                dict.fromkeys(y for y in against if (x, y) not in settled)
            )
        return found

    @property
    def live_known(self) -> Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """The beliefs whose ``live_conflicts`` are kept."""
        return self._live

    def live_conflicts(self, x: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the current beliefs among ``conflicts(x)``, the unlocked ones among those), in
        ``conflicts`` order. ``x`` must be read; its conflicts are settled here."""
        found = self._live.get(x)
        if found is None:
            others = self.conflicts(x)
            if others:
                self.settle(others)
                succ = self._succ
                if succ:
                    others = tuple(y for y in others if y not in succ or self.current(y))
            locked = self.locked
            free = tuple(y for y in others if y not in locked) if locked else others
            found = self._live[x] = (others, free)
        return found


def resolve(
    ranked: list[Scored],
    rows: Mapping[str, CandidateRow],
    locks: Sequence[str],
    graph: TruthGraph,
    *,
    weights: Weights,
    include_superseded: bool = False,
    touched: set[str] | None = None,
) -> Currency:
    """Apply supersession and contradiction (the module docstring) to ``ranked``.

    Args:
        ranked: the candidates as ``rank.compose`` ranked them (all unlocked and live).
        rows: the candidates' rows (their evidence is pooled from them).
        locks: the ids of the live locked beliefs, in placement order.
        graph: the truth links, read as needed (it reads the candidates' and the locks'
            first); a long-lived one may serve many queries at one store version.
        weights: the weights ``compose`` used (for the posterior part).
        include_superseded: keep superseded candidates, marked, instead of leaving them out.
        touched: the candidates and locks that have a truth link, when the caller has read
            them all into ``graph`` already (``TruthGraph.touched``).
    """
    ranked = as_scored(ranked)  # (``Ranked`` tuples, named here for reading)
    if touched is None:
        touched = graph.touched([*(s.id for s in ranked), *locks])
    if not touched:
        return Currency(ranked)
    superseded: dict[str, None] = {}
    retired: frozenset[str] = frozenset()
    succ, pred = graph.superseded_any, graph.superseding
    # (keys(): a set's isdisjoint walks a whole dict, and these grow with the process)
    if not succ.keys().isdisjoint(touched) or not pred.keys().isdisjoint(touched):
        # Only a belief with a successor needs its upward closure read.
        graph.close_upward(succ.keys() & touched)
        ranked, superseded = _supersede(ranked, rows, graph, weights, include_superseded, touched)
        retired = frozenset(i for i in locks if i in succ and not graph.current(i))
        if include_superseded:  # history keeps a retired lock too, marked like the others
            superseded.update(dict.fromkeys(sorted(retired)))
            retired = frozenset()
    ranked, groups, conflicts, brought = _gather(ranked, graph, locks, touched, superseded)
    standing: dict[str, Standing] = {i: (NO_IDS, ys, NO_IDS) for i, ys in conflicts.items()}
    if pred:  # what each packed belief hides (those brought along count too)
        hiding = pred.keys() & {*(s.id for s in ranked), *locks} if superseded else ()
        if not superseded:  # nothing moved: only the touched can hide, or what came along
            hiding = pred.keys() & {*touched, *brought}
        for i in sorted(hiding):
            if hidden := graph.hides(i):
                standing[i] = (hidden, *standing.get(i, (NO_IDS, NO_IDS, NO_IDS))[1:])
        if include_superseded:
            for i in superseded:  # (candidates and locks)
                old = standing.get(i, (NO_IDS, NO_IDS, NO_IDS))
                standing[i] = (old[0], old[1], graph.superseded_by(i))
    return Currency(
        ranked=ranked,
        superseded=() if include_superseded else tuple(superseded),
        retired_locks=retired,
        standing=standing,
        groups=groups,
        rows={s.id: graph.rows[s.id] for s in ranked if s.id not in rows}
        if superseded or brought
        else None,
        brought=brought,
    )


def _supersede(
    ranked: list[Scored],
    rows: Mapping[str, CandidateRow],
    graph: TruthGraph,
    weights: Weights,
    include_superseded: bool,
    touched: Collection[str],
) -> tuple[list[Scored], dict[str, None]]:
    """The ranking with each superseded candidate replaced by its unlocked heads (kept
    too, after them, with ``include_superseded``), the evidence of current beliefs pooled;
    and the superseded candidates, in rank order. Only the ``touched`` candidates (those
    with a truth link) can change; the others keep their places."""
    succ, pred = graph.superseded_any, graph.superseding
    gone = {x for x in touched if x in rows and x in succ and not graph.current(x)}
    pooled = {
        x: hidden
        for x in touched
        if x in rows and x in pred and x not in gone and (hidden := graph.hides(x))
    }
    if not gone and not pooled:
        return ranked, {}  # no candidate superseded, none hiding another: nothing moves
    by_id = {s.id: s for s in ranked}
    moved = {x: _pooled(by_id[x], h, rows, graph.rows, weights) for x, h in pooled.items()}
    inherited: dict[str, float] = {}
    for x in gone:
        score = by_id[x].score
        for head in graph.heads(x):
            if head not in graph.locked and inherited.get(head, -1.0) < score:
                inherited[head] = score
    for head, score in inherited.items():
        own = moved.get(head) or by_id.get(head)
        if own is None:
            moved[head] = Scored(head, score, {"supersedes": score})
        elif score > own.score:
            moved[head] = _raised(own, score, "supersedes")

    # Current beliefs before history at equal scores (a head inherits its predecessor's).
    def key(s: Scored) -> tuple[float, bool, str]:
        return (-s.score, s.id in gone, s.id)

    out = [s for s in ranked if s.id not in gone and s.id not in moved]
    placed = [*moved.values(), *(by_id[x] for x in gone if include_superseded)]
    for s in sorted(placed, key=key):
        bisect.insort(out, s, key=key)
    return out, {s.id: None for s in ranked if s.id in gone}


def _pooled(
    s: Scored,
    hidden: Sequence[str],
    rows: Mapping[str, CandidateRow],
    far: Mapping[str, CandidateRow],
    weights: Weights,
) -> Scored:
    """``s`` with the posterior part recomputed from its evidence plus the positive evidence
    of the beliefs it hides."""
    alpha, beta = rows[s.id][1], rows[s.id][2]
    for h in hidden:
        row = rows.get(h) or far.get(h)
        if row is not None:
            alpha += max(row[1] - 1.0, 0.0)
    prior = weights.posterior * (alpha / (alpha + beta) - 0.5)
    lanes = {k: v for k, v in s.lanes.items() if k != "posterior"}
    if prior:
        lanes["posterior"] = prior
    return Scored(s.id, round(sum(lanes.values()), 9), lanes)


def _raised(s: Scored, score: float, part: str) -> Scored:
    """``s`` at ``score``, the difference listed as ``part`` so the parts still add up."""
    return Scored(s.id, score, {**s.lanes, part: round(score - s.score, 9)})


def _gather(
    ranked: list[Scored],
    graph: TruthGraph,
    locks: Sequence[str],
    touched: set[str],
    superseded: Mapping[str, None],
) -> tuple[list[Scored], tuple[tuple[str, ...], ...], dict[str, tuple[str, ...]], frozenset[str]]:
    """Bring the conflicts of the current beliefs in ``ranked`` along. Returns the ranking
    with each group at the place of its best member (the others after it, at its score),
    the groups (that member first, the others in ranking order), every belief's conflict
    mark, and the beliefs brought along that were not ranked."""
    against = graph.against
    if against.keys().isdisjoint(touched) and not superseded:  # (a head may bring a conflict)
        return ranked, (), {}, frozenset()
    # The relevant beliefs with a CONTRADICTS edge (a head standing in may be new to
    # touched; one whose conflicts are all resolved or superseded adds nothing below).
    conflicts_of = graph.conflicts
    found = [i for s in ranked if (i := s.id) in against and i not in superseded]
    lock_set = set(locks)
    lock_wanted = [y for x in locks if x in against for y in conflicts_of(x) if y in lock_set]
    if not found and not lock_wanted:
        return ranked, (), {}, frozenset()
    # One batched read for every conflict not met yet (each belief's current conflicts are
    # then kept by the graph: a warm query reads and filters none).
    live, known = graph.live_conflicts, graph.live_known
    fresh = {y for x in found if x not in known for y in conflicts_of(x)}
    graph.settle([*fresh, *lock_wanted])
    marks: dict[str, list[str]] = {}
    parent: dict[str, str] = {}  # union-find over the unlocked pairs (groups are small)
    for x in found:
        others, free = known.get(x) or live(x)
        if not others:
            continue
        own = marks.get(x)
        if own is None:
            marks[x] = list(others)
        else:
            own.extend(others)
        for y in free:
            # y's mark, and the union of x's group with y's (a root is its group's least id).
            mark = marks.get(y)
            if mark is None:
                marks[y] = [x]
            else:
                mark.append(x)
            if x not in parent:
                parent[x] = x
            a = x
            while a != (up := parent[a]):  # (path halving)
                parent[a] = up = parent[up]
                a = up
            if y not in parent:
                parent[y] = b = y
            else:
                b = y
                while b != (up := parent[b]):
                    parent[b] = up = parent[up]
                    b = up
            if a != b:
                if a < b:
                    parent[b] = a
                else:
                    parent[a] = b
    if lock_wanted:
        current = graph.current
        for x in locks:
            if x in against and current(x):
                for y in conflicts_of(x):
                    if y in lock_set and current(y):
                        marks.setdefault(x, []).append(y)
    conflicts = {x: tuple(sorted(set(ys))) if len(ys) > 1 else tuple(ys) for x, ys in marks.items()}
    if not parent:
        return ranked, (), conflicts, frozenset()
    components: dict[str, list[str]] = {}
    root_of: dict[str, str] = {}
    for member in parent:
        root = member
        while (up := parent[root]) != root:
            root = up
        root_of[member] = root
        if (component := components.get(root)) is None:
            components[root] = [member]
        else:
            component.append(member)
    by_id = {s.id: s for s in ranked}
    out: list[Scored] = []
    placed: set[str] = set()
    groups: list[tuple[str, ...]] = []
    for s in ranked:
        i = s.id
        root = root_of.get(i)
        if root is None:
            out.append(s)
            continue
        if i in placed:
            continue
        out.append(s)
        # The group takes the place of its best member, the others after it at its score:
        # ranked ones in rank order, then those brought along, by id.
        component = components[root]
        if len(component) == 2:
            rest = [component[1] if component[0] == i else component[0]]
        else:
            rest = [m for m in component if m != i]
            rest.sort(key=lambda m: (m not in by_id, -by_id[m].score if m in by_id else 0.0, m))
        score = s.score
        for m in rest:
            own = by_id.get(m)
            if own is None:
                out.append(Scored(m, score, {"contradicts": score}))
            elif own.score < score:
                out.append(_raised(own, score, "contradicts"))
            else:
                out.append(own)
        placed.update(rest)
        groups.append((i, *rest))
    brought = frozenset(m for m in parent if m not in by_id)
    return out, tuple(groups), conflicts, brought
