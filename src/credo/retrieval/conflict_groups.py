"""Contradiction's side of the truth step (retrieval/currency.py): the conflicts of the
current beliefs in a ranking brought along, in groups packed whole or not at all, each at
its best member's place and score (SYSTEM.md § Beliefs change; the reference is
tests/currency_reference.py). Pure, like the step: the ranking and the truth graph in."""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Collection, Mapping, Sequence
from itertools import chain, compress, filterfalse
from operator import eq, itemgetter, not_

from credo.retrieval.rank import ID, PARTS, SCORE, Ranked, brought_along
from credo.retrieval.truth_graph import NO_IDS, LockMemo, Relevant, Standing, TruthGraph
from credo.store.fts import CandidateRow

__all__ = ["gather", "lock_conflicts", "lock_marks", "raised"]

_FREE = itemgetter(1)  # its unlocked current conflicts
_PLACE_FIRST_OUT = itemgetter(0, 1)  # (of an edit of ``gather``'s)


def raised(s: Ranked, score: float, part: str) -> Ranked:
    """``s`` at ``score``, the difference listed as ``part`` so the parts still add up."""
    return (s[ID], score, {**s[PARTS], part: round(score - s[SCORE], 9)})


def lock_conflicts(graph: TruthGraph, locks: Sequence[str]) -> LockMemo:
    """The graph's memo of ``locks`` (``TruthGraph.lock_memo``): the locks their conflicts
    name are found here (each lock read: every query's step reads them first); their marks
    and those a live belief supersedes are left for ``lock_marks`` and the step's
    supersession (``currency.resolve_lazy``) to make. The locks and their links are the
    store version's, as the graph is: worked out once, not per lock per query."""
    memo = graph.lock_memo
    given = locks if type(locks) is tuple else tuple(locks)  # (a copy: a list may change)
    if memo is not None and memo.given == given:
        return memo
    lock_set = set(locks)
    against, conflicts_of = graph.against, graph.conflicts
    wanted = (
        [y for x in locks if x in against for y in conflicts_of(x) if y in lock_set]
        if locks
        else NO_IDS
    )
    memo = graph.lock_memo = LockMemo(given, lock_set, wanted)
    return memo


def lock_marks(graph: TruthGraph, locks: Sequence[str], lock_set: set[str]) -> dict[str, Standing]:
    """Each current lock in dispute with another current lock -> its standing (its mark
    names those locks: a lock is never relevant nor brought along, so this is all its
    mark), in ``locks``' order. Exact once the graph is settled for the locks named."""
    against, conflicts_of, current = graph.against, graph.conflicts, graph.current
    out: dict[str, Standing] = {}
    for x in locks:
        if x in against and current(x):
            mark = [y for y in conflicts_of(x) if y in lock_set and current(y)]
            if mark:
                ys = tuple(sorted(set(mark))) if len(mark) > 1 else tuple(mark)
                out[x] = (NO_IDS, ys, NO_IDS)
    return out


def gather(
    ranked: list[Ranked],
    graph: TruthGraph,
    locks: Sequence[str],
    touched: set[str],
    superseded: Mapping[str, None],
    heads: Collection[str] = (),
    ids: list[str] | None = None,
    linked: list[str] | None = None,
    own: bool = False,
) -> tuple[
    list[Ranked],
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
        ids = [s[ID] for s in ranked]
    if linked is not None and wanted is touched:
        order = linked
    else:
        order = list(filter(wanted.__contains__, ids))
    infos: list[Relevant] = list(map(kept.get, order))  # type: ignore[arg-type]
    conflicts_of = graph.conflicts
    memo = lock_conflicts(graph, locks) if locks else None
    lock_wanted: Sequence[str] = NO_IDS if memo is None else memo.wanted
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
    joiners: list[str] = []  # the walked beliefs meeting a shared conflict, in rank order
    meeting: set[str] = set()  # (and the version's beliefs that would)
    brought: dict[str, CandidateRow] = {}  # (and their rows)
    if shared:
        brought_by: dict[str, list[str]] = {}  # one brought along -> the relevant that bring it
        # Only those meeting a shared conflict (the others are groups of their own, kept by
        # the graph): the shared conflicts' bringers, which the graph keeps per version (each
        # walked belief's entry lists it under each of its unlocked conflicts), a few probes
        # where a test of every walked belief's conflicts took ~2.5 us.
        bringers = graph.bringers
        for y in shared:
            meeting.update(bringers.get(y, NO_IDS))
        joining = compress(
            zip(walked_ids, frees, strict=True), map(meeting.__contains__, walked_ids)
        )
        for x, free in joining:
            joiners.append(x)
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
    if lock_wanted and memo is not None:  # (settled for them above: their marks are exact)
        if memo.marks is None:
            memo.marks = lock_marks(graph, locks, memo.lock_set)
        standing.update(memo.marks)
    tails = dict(zip(walked_ids, walked, strict=True))
    if not group_of:  # every group one of its own: the ranking stays as it is
        return ranked, None, (), standing, {}, tails
    # A group of its own stays at its leader's place, kept aside: only the joined groups'
    # members are walked, and the ranking (a copy unless ``own``) edited where they stand: a
    # rebuilt list would touch each of the ~113 ranked beliefs and ids for a few moves.
    # The walked members of those groups: the joiners, as conflicts are symmetric among
    # current unlocked beliefs (a relevant belief met is walked and meets a shared one
    # itself); else filtered from every walked belief.
    leaders = joiners
    if not relevant.isdisjoint(group_of.keys() - meeting):
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
    edits: list[tuple[int, int, list[Ranked], list[str]]] = []
    for i in leaders:
        n = where[i]
        if i in placed:  # (a member of a group placed at its leader's)
            edits.append((n, 1, [], []))
            continue
        score = ranked[n][SCORE]
        group = group_of[i]
        # The group takes the place of its best member, the others after it at its score:
        # ranked ones in rank order, then those brought along, by id.
        if len(group) == 2:
            rest = [group[1] if group[0] == i else group[0]]
        else:  # (a relevant member was walked, so it is in ``where``; C-level keys)
            rest = sorted(filter(relevant.__contains__, group), key=where.__getitem__)
            del rest[rest.index(i)]
            rest += sorted(filterfalse(relevant.__contains__, group))
        put: list[Ranked] = []
        for m in rest:
            if m not in relevant:
                put.append(brought_along(m, score))
            elif (was := ranked[where[m]])[SCORE] < score:
                put.append(raised(was, score, "contradicts"))
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
