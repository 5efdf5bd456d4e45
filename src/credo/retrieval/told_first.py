"""The order a packed conflict group is shown in: the user's newer word first (SYSTEM.md
§ Beliefs change).

The truth step packs a group at its best member's place and score, the others after it
(retrieval/conflict_groups.py), so which side comes first was a matter of score, then id,
and the belief a later statement disputes ("Date formatting uses Moment") was often read
before the statement that disputes it ("Moment was replaced by Luxon."). Here a member
that disputes another member (the CONTRADICTS edge's source) and was told after it
(created later) is moved ahead of the rest, the newest such first; the others keep their
places. Every member of a group is at the group's score, so the result stays in score
order, and both sides stay marked. Locked beliefs are never in a group (a lock is placed
first, L0, above any order made here). Pure and deterministic: a tie in time moves nothing.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Collection, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, TypeVar

from credo.store.fts import CANDIDATE_CREATED, CandidateRow

if TYPE_CHECKING:
    from credo.retrieval.currency import Currency

__all__ = ["in_told_order", "newer_first", "told_order"]

T = TypeVar("T")


def told_order(
    group: Sequence[str], disputes: Collection[tuple[str, str]], created: Mapping[str, float]
) -> list[str] | None:
    """``group``'s members with those that dispute an older member first (newest first,
    ties in their order), the rest after in their order; None when nothing moves.
    ``created``: each member's created_at (one without is never moved)."""
    ahead: list[tuple[float, int, str]] = []
    for n, m in enumerate(group):
        told = created.get(m)
        if told is None:
            continue
        for o in group:
            if (m, o) in disputes and (was := created.get(o)) is not None and was < told:
                ahead.append((-told, n, m))
                break
    if not ahead:
        return None
    ahead.sort()
    first = [m for _, _, m in ahead]
    order = first + [m for m in group if m not in first]
    return None if order == list(group) else order


def newer_first(
    packed: list[T],
    ids: Sequence[str],
    group_of: Callable[[str], Sequence[str] | None],
    disputes: Collection[tuple[str, str]],
    rows: Sequence[Mapping[str, CandidateRow]],
) -> list[T]:
    """``packed`` (one entry per belief, ``ids`` theirs, in the pack's order) with each
    conflict group found whole at its leader's place (``group_of``: a leader -> its
    members, leader first; None for any other belief) in ``told_order``. ``rows``: where
    a member's row is found, in turn."""
    if not disputes:
        return packed
    out: list[T] | None = None
    for n, i in enumerate(ids):
        group = group_of(i)
        if group is None or len(group) < 2:
            continue
        end = n + len(group)
        if tuple(ids[n:end]) != tuple(group):  # (not packed whole here: left as it is)
            continue
        order = told_order(group, disputes, _created(group, rows))
        if order is None:
            continue
        if out is None:
            out = list(packed)
        at = {m: packed[n + k] for k, m in enumerate(group)}
        out[n:end] = [at[m] for m in order]
    return packed if out is None else out


def in_told_order(
    packed: list[T],
    state: "Currency | None",
    rows: Mapping[str, CandidateRow],
    in_order: Callable[[], bool] | None = None,
) -> tuple[list[T], list[str]]:
    """The pipeline's packed beliefs (entries whose first item is a ``Ranked``) with each
    group's newer word first (``told_order``), and their ids. ``state``: the truth step's
    result (None: no truth link met); a group is led by a belief of ``state.tails``
    (``Relevant``'s third field is the group: its order is worked out once per store
    version, ``TruthGraph.told``) or of ``state.groups``; ``rows``: the candidates' rows;
    ``in_order``: whether the store is known to hold no dispute told after what it disputes
    (``TruthReader.told_in_order``: then nothing moves, and no group is looked at)."""
    ids = list(map(_ID, map(_ID, packed)))  # (C-level)
    if state is None or not state.disputes or not (state.groups or state.tails):
        return packed, ids
    if in_order is not None and in_order():  # (asked only now: most queries meet no group)
        return packed, ids
    tails, disputes = state.tails, state.disputes
    known, moving = state.told if state.told is not None else (set(), {})
    sources = (rows, state.rows, state.far)
    orders: dict[str, list[str]] = {}
    leaders = tails.keys() & ids if tails else set()  # (C-level: most meet no group that moves)
    fresh = leaders - known
    if state.among is not None:  # the edges among each group's members, in one read
        unread = [m for i in fresh for m in tails[i][3] if len(tails[i][3]) > 1]
        unread += [m for group in state.groups if len(group) > 2 for m in group]
        if unread:
            disputes = state.among(unread)
    if tails:
        if fresh:
            for i in fresh:
                group = tails[i][2]
                if (order := told_order(group, disputes, _created(group, sources))) is not None:
                    moving[i] = order
            known |= fresh
        if hits := leaders & moving.keys():
            orders = {i: moving[i] for i in hits}
    for group in state.groups:  # (joined groups: made per query)
        if (order := told_order(group, disputes, _created(group, sources))) is not None:
            orders[group[0]] = order
    if not orders:
        return packed, ids
    out = list(packed)
    for i, order in orders.items():
        group = tails[i][2] if i in tails else order
        if i not in ids:
            continue
        n = ids.index(i)
        end = n + len(order)
        if i in tails and tuple(ids[n:end]) != tuple(group):
            continue  # (not packed whole here: left as it is)
        if i not in tails and sorted(ids[n:end]) != sorted(order):
            continue
        at = dict(zip(ids[n:end], out[n:end], strict=True))
        out[n:end] = [at[m] for m in order]
    return out, list(map(_ID, map(_ID, out)))


def _created(
    group: Sequence[str], sources: Sequence[Mapping[str, CandidateRow]]
) -> dict[str, float]:
    """Each member's created_at, from the first of ``sources`` holding its row."""
    created: dict[str, float] = {}
    for m in group:
        for found in sources:
            if (row := found.get(m)) is not None:
                created[m] = row[CANDIDATE_CREATED]
                break
    return created


_ID = itemgetter(0)  # (of a packed entry: its Ranked; of a Ranked: its id)
