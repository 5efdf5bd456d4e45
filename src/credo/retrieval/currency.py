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
disputes away from the query). The pipeline then shows a packed group's newer disputing
word first (retrieval/told_first.py). A locked belief outranks what contradicts it: it is placed
first (L0), and the conflict is marked on the belief that disagrees with it (a lock's own
mark names only the other locks it conflicts with, so its cost is known when L0 is
charged).

Ties are broken by id everywhere; the result depends only on the store and the query.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import bisect
from collections.abc import Callable, Collection, Mapping, Sequence

from credo.retrieval.conflict_groups import gather, lock_conflicts, raised
from credo.retrieval.rank import ID, PARTS, SCORE, Ranked, Weights, brought_along
from credo.retrieval.truth_graph import NO_IDS, Relevant, Standing, TruthGraph
from credo.store.fts import CandidateRow

__all__ = ["Currency", "Standing", "TruthGraph", "resolve", "resolve_lazy"]


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
        disputes: (src, dst) of the CONTRADICTS edges the graph read: which side of a
            conflict disputes the other (retrieval/told_first.py shows the newer word first).
        told: the graph's memo of the ``tails`` groups' order (``TruthGraph.told``), or None.
        among: ``disputes`` with every edge among the given beliefs read first
            (``TruthGraph.disputes_among``): a group's others may not be read. None when
            ``disputes`` holds every edge (the graph is whole) or nothing more can be read.
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
        "among",
        "bringers",
        "brought",
        "disputes",
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
        "told",
    )

    def __init__(
        self,
        ranked: list[Ranked],
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
        disputes: Collection[tuple[str, str]] = (),
        told: tuple[set[str], dict[str, list[str]]] | None = None,
        among: Callable[[Collection[str]], Collection[tuple[str, str]]] | None = None,
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
        self.disputes = disputes
        self.told = told
        self.among = among

    def expanded(self) -> "Currency":
        """The same result with the ``tails`` in the other fields: each group's others right
        after its leader at the leader's score (part ``contradicts``), by id; the groups in
        the order of their leaders; the others' standing, rows and ids."""
        tails = self.tails
        if not tails:
            return self
        ranked: list[Ranked] = []
        groups: list[tuple[str, ...]] = []
        standing = dict(self.standing)
        rows = dict(self.rows)
        brought = set(self.brought)
        eager = {g[0]: g for g in self.groups}
        for s in self.ranked:
            ranked.append(s)
            info = tails.get(s[ID])
            if info is None:
                if (group := eager.get(s[ID])) is not None:
                    groups.append(group)
                continue
            score = s[SCORE]
            ranked += [brought_along(m, score) for m in info[3]]
            groups.append(info[2])
            standing.setdefault(s[ID], info[0])  # type: ignore[arg-type]
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
            disputes=self.disputes,
            among=self.among,
        )


def resolve(
    ranked: list[Ranked],
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
    ranked: list[Ranked],
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
    twins: Collection[str] = (),
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
        twins: beliefs ``graph`` takes as locked because a global lock shows them (under
            their id): each stands in for what it supersedes as that lock, never in the
            ranking, but takes the standing of the candidates it replaces.
    """
    if touched is None:
        touched = graph.touched([*(s[ID] for s in ranked), *locks])
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
        if locks:  # (the locks' closures are read: which are retired is the version's)
            memo = lock_conflicts(graph, locks)
            if memo.retired is None:
                memo.retired = frozenset(i for i in locks if i in succ and not graph.current(i))
            retired = memo.retired
        if include_superseded:  # history keeps a retired lock too, marked like the others
            superseded.update(dict.fromkeys(sorted(retired)))
            retired = frozenset()
    ranked, ranked_ids, groups, standing, found, tails = gather(
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
        if twins and superseded:  # (a twin is no head, but replaces what the query reached)
            hiding.update(h for x in superseded for h in graph.heads(x) if h in twins)
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
        disputes=graph.disputes,
        told=graph.told,
        among=None if graph.whole else graph.disputes_among,
    )


def _supersede(
    ranked: list[Ranked],
    rows: Mapping[str, CandidateRow],
    graph: TruthGraph,
    weights: Weights,
    include_superseded: bool,
    touched: Collection[str],
) -> tuple[list[Ranked], dict[str, None], Collection[str]]:
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
    by_id = {s[ID]: s for s in ranked if s[ID] in touched}
    moved = {x: _pooled(by_id[x], h, rows, graph.rows, weights) for x, h in pooled.items()}
    inherited: dict[str, float] = {}
    for x in gone:
        score = by_id[x][SCORE]
        for head in graph.heads(x):
            if head not in graph.locked and inherited.get(head, -1.0) < score:
                inherited[head] = score
    for head, score in inherited.items():
        own = moved.get(head) or by_id.get(head)
        if own is None:
            moved[head] = (head, score, {"supersedes": score})
        elif score > own[SCORE]:
            moved[head] = raised(own, score, "supersedes")

    # Current beliefs before history at equal scores (a head inherits its predecessor's).
    def key(s: Ranked) -> tuple[float, bool, str]:
        return (-s[SCORE], s[ID] in gone, s[ID])

    out = [s for s in ranked if s[ID] not in gone and s[ID] not in moved]
    placed = [*moved.values(), *(by_id[x] for x in gone if include_superseded)]
    for s in sorted(placed, key=key):
        bisect.insort(out, s, key=key)
    return out, {i: None for i in by_id if i in gone}, inherited.keys()


def _pooled(
    s: Ranked,
    hidden: Sequence[str],
    rows: Mapping[str, CandidateRow],
    far: Mapping[str, CandidateRow],
    weights: Weights,
) -> Ranked:
    """``s`` with the posterior part recomputed from its evidence plus the positive evidence
    of the beliefs it hides."""
    alpha, beta = rows[s[ID]][1], rows[s[ID]][2]
    for h in hidden:
        row = rows.get(h) or far.get(h)
        if row is not None:
            alpha += max(row[1] - 1.0, 0.0)
    prior = weights.posterior * (alpha / (alpha + beta) - 0.5)
    lanes = {k: v for k, v in s[PARTS].items() if k != "posterior"}
    if prior:
        lanes["posterior"] = prior
    return (s[ID], round(sum(lanes.values()), 9), lanes)
