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
from typing import TYPE_CHECKING, TypeVar

from credo.store.fts import CandidateRow

if TYPE_CHECKING:
    from credo.retrieval.currency import Currency

__all__ = ["in_told_order", "newer_first", "told_order"]

T = TypeVar("T")
_CREATED = 4  # a CandidateRow's created_at


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
        created: dict[str, float] = {}
        for m in group:
            for found in rows:
                if (row := found.get(m)) is not None:
                    created[m] = row[_CREATED]
                    break
        order = told_order(group, disputes, created)
        if order is None:
            continue
        if out is None:
            out = list(packed)
        at = {m: packed[n + k] for k, m in enumerate(group)}
        out[n:end] = [at[m] for m in order]
    return packed if out is None else out


def in_told_order(
    packed: list[T], state: "Currency | None", rows: Mapping[str, CandidateRow]
) -> list[T]:
    """``newer_first`` of the pipeline's packed beliefs (entries whose first item is a
    ``Scored``), as the truth step left them (``state``; None: no truth link met, nothing
    to do): a group is led by a belief of ``state.tails`` (``Relevant``'s third field is
    the group) or of ``state.groups``; ``rows``: the candidates' rows, then the step's."""
    if state is None or not state.disputes or not (state.groups or state.tails):
        return packed
    tails = state.tails
    eager = {g[0]: g for g in state.groups}

    def group_of(i: str) -> Sequence[str] | None:
        info = tails.get(i)
        return info[2] if info is not None else eager.get(i)

    ids = [entry[0][0] for entry in packed]  # type: ignore[index]
    return newer_first(packed, ids, group_of, state.disputes, (rows, state.rows, state.far))
