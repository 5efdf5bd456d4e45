"""Which beliefs are current: supersession and contradiction shape the pack (SYSTEM.md
§ Beliefs change; docs/RETRIEVAL.md § Beliefs change).

Pure: the ranked candidates, the locks and the truth links around them (a ``TruthGraph``,
retrieval/truth_graph.py, over the store's ``truth_links``) in; a ``Currency`` out, which
the pipeline packs. Only live beliefs and the edges between them count: forgetting a
belief (soft or hard) takes its edges out of play.

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
from collections.abc import Collection, Mapping, Sequence
from itertools import chain, compress, filterfalse
from operator import eq, itemgetter, not_

from credo.retrieval.rank import Scored, Weights, brought_along
from credo.retrieval.truth_graph import NO_IDS, Relevant, Standing, TruthGraph
from credo.store.fts import CandidateRow

__all__ = ["Currency", "Standing", "TruthGraph", "resolve", "resolve_lazy"]

_new = tuple.__new__  # (a Scored without its Python-level __new__)
_FREE = itemgetter(1)  # its unlocked current conflicts
_PLACE_FIRST_OUT = itemgetter(0, 1)  # (of an edit of ``_gather``'s)


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
            those that supersede it directly; what its marks say. A leader of a group in
            ``tails`` is not here unless set since (e.g. what it hides): its standing is
            its entry's first field.
        groups: conflict groups of unlocked beliefs, each packed whole, best member first.
        rows: the rows of beliefs in ``ranked`` that were not candidates.
        brought: the beliefs in ``ranked`` that are there only as a conflict brought along
            (clustering reads the edges among the others).
        tails: the groups of their own (most of them), kept aside by ``resolve_lazy``: the
            relevant belief leading each -> what it brings (``TruthGraph.as_relevant``: its
            group, the others, their standing, rows and texts). Their members are in none
            of the fields above; ``expanded`` puts them there. Empty from ``resolve``.
        far: the rows the truth graph holds of beliefs that were not candidates (those
            of the ``tails``' others among them).
        ids: the ids of ``ranked``, when the step made them (None: not made).
        bringers: a belief -> the relevant beliefs whose kept group lists it among the
            others (``TruthGraph.bringers``): the leader of a ``tails`` group one of its
            others belongs to is the one of them in ``tails``.
        plain: the relevant beliefs -> what each brings (``TruthGraph.as_relevant``), whose
            marks the block takes as they are when their standing is the graph's: the
            graph's own map of every belief it worked out at this store version (``Marks``
            takes an entry only when the belief's standing here is the very tuple it keeps,
            which holds for the relevant beliefs of this query and no other).
    """

    __slots__ = (
        "bringers",
        "brought",
        "far",
        "groups",
        "ids",
        "plain",
        "ranked",
        "retired_locks",
        "rows",
        "standing",
        "superseded",
        "tails",
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
        tails: Mapping[str, Relevant] | None = None,
        far: Mapping[str, CandidateRow] | None = None,
        plain: Mapping[str, Relevant] | None = None,
        ids: list[str] | None = None,
        bringers: Mapping[str, list[str]] | None = None,
    ) -> None:
        self.ranked = ranked
        self.superseded = superseded
        self.retired_locks = retired_locks
        self.standing: Mapping[str, Standing] = {} if standing is None else standing
        self.groups = groups
        self.rows: Mapping[str, CandidateRow] = {} if rows is None else rows
        self.brought = brought
        self.tails: Mapping[str, Relevant] = {} if tails is None else tails
        self.far: Mapping[str, CandidateRow] = {} if far is None else far
        self.plain: Mapping[str, Relevant] = {} if plain is None else plain
        self.ids = ids
        self.bringers: Mapping[str, list[str]] = {} if bringers is None else bringers

    def expanded(self) -> "Currency":
        """The same result with the ``tails`` in the other fields: each group's others right
        after its leader at the leader's score (part ``contradicts``), by id; the groups in
        the order of their leaders; the others' standing, rows and ids."""
        tails = self.tails
        if not tails:
            return self
        ranked: list[Scored] = []
        groups: list[tuple[str, ...]] = []
        standing = dict(self.standing)
        rows = dict(self.rows)
        brought = set(self.brought)
        eager = {g[0]: g for g in self.groups}
        for s in self.ranked:
            ranked.append(s)
            info = tails.get(s.id)
            if info is None:
                if (group := eager.get(s.id)) is not None:
                    groups.append(group)
                continue
            score = s.score
            ranked += [brought_along(m, score) for m in info[3]]
            groups.append(info[2])
            standing.setdefault(s.id, info[0])  # type: ignore[arg-type]
            for m, said in info[4].items():  # (a mark set since, e.g. what it hides, stays)
                standing.setdefault(m, said)
            rows.update(info[5])
            brought.update(info[5])
        return Currency(
            ranked,
            self.superseded,
            self.retired_locks,
            standing,
            tuple(groups),
            rows,
            frozenset(brought),
            plain=self.plain,
            bringers=self.bringers,
        )


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
    """Apply supersession and contradiction (the module docstring) to ``ranked``: every
    field filled (``resolve_lazy``, expanded)."""
    return resolve_lazy(
        ranked,
        rows,
        locks,
        graph,
        weights=weights,
        include_superseded=include_superseded,
        touched=touched,
    ).expanded()


def resolve_lazy(
    ranked: list[Scored],
    rows: Mapping[str, CandidateRow],
    locks: Sequence[str],
    graph: TruthGraph,
    *,
    weights: Weights,
    include_superseded: bool = False,
    touched: set[str] | None = None,
    ids: list[str] | None = None,
    order: list[str] | None = None,
    in_place: bool = False,
) -> Currency:
    """``resolve`` with the groups of their own kept aside in ``tails``, as the truth graph
    keeps them: most of a query's groups, whose members the pack may never reach (the
    pipeline reads them where it needs them).

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
        ids: the ids of ``ranked``, when the caller has them.
        order: those of ``ids`` in ``touched``, in their order, when the caller has them.
        in_place: the caller gives ``ranked`` and ``ids`` up: when a group moves beliefs,
            they are edited in place and returned (else the result's ranking is a copy).
    """
    if touched is None:
        touched = graph.touched([*(s.id for s in ranked), *locks])
    if not touched:
        return Currency(ranked)
    given = ranked
    superseded: dict[str, None] = {}
    heads: Collection[str] = ()
    retired: frozenset[str] = frozenset()
    succ, pred = graph.superseded_any, graph.superseding
    # (keys(): a set's isdisjoint walks a whole dict, and these grow with the process)
    if not succ.keys().isdisjoint(touched) or not pred.keys().isdisjoint(touched):
        # Only a belief with a successor needs its upward closure read.
        graph.close_upward(succ.keys() & touched)
        ranked, superseded, heads = _supersede(
            ranked, rows, graph, weights, include_superseded, touched
        )
        retired = frozenset(i for i in locks if i in succ and not graph.current(i))
        if include_superseded:  # history keeps a retired lock too, marked like the others
            superseded.update(dict.fromkeys(sorted(retired)))
            retired = frozenset()
    ranked, ranked_ids, groups, standing, found, tails = _gather(
        ranked,
        graph,
        locks,
        touched,
        superseded,
        heads,
        ids if ranked is given else None,
        order if ranked is given else None,
        in_place or ranked is not given,
    )
    brought = frozenset(found)
    if pred:  # what each packed belief hides (those brought along count too)
        # The packed beliefs that can hide one have a truth link: the touched candidates
        # and locks (less those left out as superseded), the heads and those brought along.
        packed = (
            touched.difference(superseded) if superseded and not include_superseded else touched
        )
        hiding = pred.keys() & packed
        if heads or brought:
            hiding |= pred.keys() & {*heads, *brought}
        tailed = {m: info[4][m] for info in tails.values() for m in info[7]}
        hiding |= tailed.keys()
        for i in sorted(hiding):
            if hidden := graph.hides(i):
                said = (
                    standing.get(i)
                    or (own[0] if (own := tails.get(i)) is not None else None)
                    or tailed.get(i)
                    or (NO_IDS, NO_IDS, NO_IDS)
                )
                standing[i] = (hidden, *said[1:])
        if include_superseded:
            for i in superseded:  # (candidates and locks)
                old = standing.get(i, (NO_IDS, NO_IDS, NO_IDS))
                standing[i] = (old[0], old[1], graph.superseded_by(i))
    # The rows of the beliefs ranked that were not candidates: those brought along (the graph
    # keeps most with the groups), and the heads standing in.
    if heads:
        far = graph.rows
        found.update((i, far[i]) for i in heads)
    if found and not found.keys().isdisjoint(rows):
        found = {i: row for i, row in found.items() if i not in rows}
    return Currency(
        ranked=ranked,
        superseded=() if include_superseded else tuple(superseded),
        retired_locks=retired,
        standing=standing,
        groups=groups,
        rows=found,
        brought=brought,
        tails=tails,
        far=graph.rows,
        plain=graph.relevant_known,
        ids=ranked_ids,
        bringers=graph.bringers,
    )


def _supersede(
    ranked: list[Scored],
    rows: Mapping[str, CandidateRow],
    graph: TruthGraph,
    weights: Weights,
    include_superseded: bool,
    touched: Collection[str],
) -> tuple[list[Scored], dict[str, None], Collection[str]]:
    """The ranking with each superseded candidate replaced by its unlocked heads (kept
    too, after them, with ``include_superseded``), the evidence of current beliefs pooled;
    the superseded candidates, in rank order; and the heads that stand in for them. Only
    the ``touched`` candidates (those with a truth link) can change; the others keep their
    places."""
    succ, pred = graph.superseded_any, graph.superseding
    gone = {x for x in touched if x in rows and x in succ and not graph.current(x)}
    pooled = {
        x: hidden
        for x in touched
        if x in rows and x in pred and x not in gone and (hidden := graph.hides(x))
    }
    if not gone and not pooled:
        return ranked, {}, ()  # no candidate superseded, none hiding another: nothing moves
    # Only a touched candidate moves, and only one can be a head: the others are not read.
    by_id = {s.id: s for s in ranked if s.id in touched}
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
    return out, {i: None for i in by_id if i in gone}, inherited.keys()


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
    return _new(Scored, (s.id, score, {**s.lanes, part: round(score - s.score, 9)}))


def _gather(
    ranked: list[Scored],
    graph: TruthGraph,
    locks: Sequence[str],
    touched: set[str],
    superseded: Mapping[str, None],
    heads: Collection[str] = (),
    ids: list[str] | None = None,
    linked: list[str] | None = None,
    own: bool = False,
) -> tuple[
    list[Scored],
    list[str] | None,
    tuple[tuple[str, ...], ...],
    dict[str, Standing],
    dict[str, CandidateRow],
    dict[str, Relevant],
]:
    """Bring the conflicts of the current beliefs in ``ranked`` along. Returns the ranking
    with each group at the place of its best member (the others after it, at its score),
    its ids when it moved (else None), the groups (that member first, the others in ranking
    order), every belief's standing as to conflicts but the leaders kept aside' (each
    their entry's first field), the beliefs brought along that were not ranked; and the
    groups of their own, kept aside (``Currency.tails``: the ranking, the groups, the
    standing and the rows above hold none of their others).

    A group is a connected part of the links from each relevant belief (a current one in
    ``ranked``) to its unlocked conflicts. Conflicts are symmetric among current unlocked
    beliefs, so a ranked belief met as a conflict is relevant itself, and its mark (all its
    current conflicts, kept by the graph) names every relevant belief it meets; one brought
    along is marked with the relevant beliefs that brought it. Most groups are one relevant
    belief and conflicts no other one meets: the graph keeps such a group whole. Only the
    relevant beliefs are walked; the others keep their places, copied in slices. ``ids``:
    the ranked beliefs' ids, when the caller has them; ``linked``: those of them in ``touched``,
    in their order, when the caller has them; ``own``: ``ranked`` and ``ids`` are the step's
    to edit in place (else a moved ranking is a copy)."""
    against = graph.against
    # The relevant beliefs with a truth link (the touched candidates and the heads standing
    # in) in rank order, and what each brings as the graph keeps it (None: not worked out
    # yet): C-level passes, one probe of a big dict per belief. (An entry is made only for a
    # belief with a CONTRADICTS edge: when every one has its entry, some touched belief has
    # one, and there is no need to ask.)
    kept = graph.relevant_known
    wanted: set[str] = touched
    if heads or superseded:
        wanted = touched.union(heads).difference(superseded)
    ids_given = ids is not None
    if ids is None:
        ids = [s.id for s in ranked]
    if linked is not None and wanted is touched:
        order = linked
    else:
        order = list(filter(wanted.__contains__, ids))
    infos: list[Relevant] = list(map(kept.get, order))  # type: ignore[arg-type]
    conflicts_of = graph.conflicts
    lock_set = set(locks)
    lock_wanted = (
        [y for x in locks if x in against for y in conflicts_of(x) if y in lock_set]
        if locks
        else NO_IDS
    )
    # Which beliefs are relevant, as the conflicts and the groups' members are asked about:
    # ``wanted`` holds the relevant ones, and besides them only locks, which no conflict
    # brought along is, and (below) those without a CONTRADICTS edge, which none is either.
    relevant = wanted
    # (``all``: an entry is a tuple, never empty; truth tests cost less than ``None in``'s
    # comparisons)
    if not all(infos) or lock_wanted:
        if against.keys().isdisjoint(touched) and not superseded:  # (a head may bring one)
            return ranked, None, (), {}, {}, {}
        # Those without their entry yet; one without a CONTRADICTS edge brings nothing:
        # left out.
        missing = list(compress(order, map(not_, infos)))
        if not all(map(against.__contains__, missing)):
            left = set(missing).difference(against)
            order = list(filterfalse(left.__contains__, order))
            missing = list(filterfalse(left.__contains__, missing))
        # One batched read for every conflict not met yet (each belief's current conflicts
        # are then kept by the graph: a warm query reads and filters none).
        known = graph.live_known
        fresh = {y for x in missing if x not in known for y in conflicts_of(x)}
        if fresh or lock_wanted:
            graph.settle([*fresh, *lock_wanted])
        for x in missing:
            graph.as_relevant(x)
        infos = list(map(kept.get, order))
        relevant = set(order)
    if not order and not lock_wanted:
        return ranked, None, (), {}, {}, {}
    # Each relevant belief's standing is its entry's first field. Those of the groups kept
    # aside (most) are left there, read where the pack reaches them (``Currency.tails``):
    # a mark is one more object a query brings into cache, and most are never shown.
    standing: dict[str, Standing] = {}
    # Those with an unlocked conflict (each has a current conflict, so a mark, too).
    frees: list[tuple[str, ...]] = list(map(_FREE, infos))
    walked_ids, walked = order, infos
    if not all(frees):
        picks = list(map(bool, frees))
        walked_ids, walked = list(compress(order, picks)), list(compress(infos, picks))
        frees = list(compress(frees, picks))
        # (the others: conflicts with locks alone, marked, or none at all)
        for i, info in compress(zip(order, infos, strict=True), map(not_, picks)):
            if info[0] is not None:
                standing[i] = info[0]
    # The conflicts met twice, or relevant themselves: their groups are joined here.
    met = list(chain.from_iterable(frees))
    distinct = set(met)
    shared: set[str] = set()
    if len(distinct) < len(met) or not distinct.isdisjoint(relevant):
        shared = distinct.intersection(relevant)
        if len(distinct) < len(met):  # (sorted, a conflict met twice is next to itself)
            met.sort()
            shared.update(compress(met[1:], map(eq, met, met[1:])))
    group_of: dict[str, list[str]] = {}  # member -> its joined group (one shared list)
    brought: dict[str, CandidateRow] = {}  # (and their rows)
    if shared:
        brought_by: dict[str, list[str]] = {}  # one brought along -> the relevant that bring it
        # (only those meeting a shared conflict: the others are groups of their own, kept by
        # the graph; picked C-level)
        joining = compress(
            zip(walked_ids, frees, strict=True), map(not_, map(shared.isdisjoint, frees))
        )
        for x, free in joining:
            group = group_of.get(x)
            if group is None:
                group = group_of[x] = [x]
            for y in free:
                if y not in relevant:
                    if (by := brought_by.get(y)) is None:
                        brought_by[y] = [x]
                    else:
                        by.append(x)
                other = group_of.get(y)
                if other is None:
                    group_of[y] = group
                    group.append(y)
                elif other is not group:  # two groups join: the smaller moves into the larger
                    if len(other) > len(group):
                        group, other = other, group
                    for m in other:
                        group_of[m] = group
                    group.extend(other)
        for y, by in brought_by.items():
            standing[y] = (NO_IDS, tuple(by) if len(by) == 1 else tuple(sorted(by)), NO_IDS)
        far = graph.rows
        brought.update({y: far[y] for y in brought_by})
    if lock_wanted:
        current = graph.current
        for x in locks:
            if x in against and current(x):
                mark = [y for y in conflicts_of(x) if y in lock_set and current(y)]
                if mark:  # (a lock is never relevant nor brought: this is all its mark)
                    ys = tuple(sorted(set(mark))) if len(mark) > 1 else tuple(mark)
                    standing[x] = (NO_IDS, ys, NO_IDS)
    tails = dict(zip(walked_ids, walked, strict=True))
    if not group_of:  # every group one of its own: the ranking stays as it is
        return ranked, None, (), standing, {}, tails
    # A group of its own stays at its leader's place, kept aside: only the joined groups'
    # members are walked, and the ranking (a copy unless ``own``) edited where they stand: a
    # rebuilt list would touch each of the ~113 ranked beliefs and ids for a few moves.
    leaders = list(filter(group_of.__contains__, walked_ids))
    for i in leaders:
        standing[i] = tails.pop(i)[0]  # type: ignore[assignment]
    # Where each of them stands in the ranking: one forward scan (they are in rank order),
    # so a group's ranked members are placed without a look-up from the start each.
    at = ids.index  # (the ids hold the very objects walked: each found by identity)
    where: dict[str, int] = {}
    n = -1
    for i in leaders:
        n = where[i] = at(i, n + 1)
    groups: list[tuple[str, ...]] = []
    placed: set[str] = set()
    # (place, 1: the member there taken out | 0: the others put in there, and their ids)
    edits: list[tuple[int, int, list[Scored], list[str]]] = []
    for i in leaders:
        n = where[i]
        if i in placed:  # (a member of a group placed at its leader's)
            edits.append((n, 1, [], []))
            continue
        score = ranked[n].score
        group = group_of[i]
        # The group takes the place of its best member, the others after it at its score:
        # ranked ones in rank order, then those brought along, by id.
        if len(group) == 2:
            rest = [group[1] if group[0] == i else group[0]]
        else:  # (a relevant member was walked, so it is in ``where``; C-level keys)
            rest = sorted(filter(relevant.__contains__, group), key=where.__getitem__)
            del rest[rest.index(i)]
            rest += sorted(filterfalse(relevant.__contains__, group))
        put: list[Scored] = []
        for m in rest:
            if m not in relevant:
                put.append(brought_along(m, score))
            elif (was := ranked[where[m]]).score < score:
                put.append(_raised(was, score, "contradicts"))
            else:
                put.append(was)
        edits.append((n + 1, 0, put, rest))
        placed.update(rest)
        groups.append((i, *rest))
    out = ranked if own else ranked.copy()
    out_ids = ids if own or not ids_given else ids.copy()
    # From the last place back, so each edit leaves the places before it as they were; at
    # one place the member there is taken out before the others go in.
    edits.sort(key=_PLACE_FIRST_OUT, reverse=True)
    for n, take_out, put, rest in edits:
        if take_out:
            del out[n]
            del out_ids[n]
        else:
            out[n:n] = put
            out_ids[n:n] = rest
    return out, out_ids, tuple(groups), standing, brought, tails
