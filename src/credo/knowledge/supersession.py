"""The write rules of supersession (SYSTEM.md § Beliefs change): what a SUPERSEDES edge may
not do, checked by every path that writes one (``Memory.relate`` and so ``resolve`` and
``dedup --apply``; the records import).

- A belief cannot supersede itself (every self-edge is refused).
- Supersession runs one way: an edge that would close a cycle (A supersedes B, B already
  supersedes A, directly or through others) is refused. Forgotten beliefs count: reviving
  one would bring the cycle back.
- A locked belief is the user's word: only a locked successor, or the user's explicit
  ``force`` (``credo relate NEW OLD SUPERSEDES --force``), may supersede it. An agent's
  call (the MCP server never forces) gets ``LockedError``, which says why.

What retrieval makes of the edges is ``credo.retrieval.currency``'s business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from credo.edge_types import EdgeType
from credo.errors import InvalidInputError, LockedError

if TYPE_CHECKING:
    from credo.store import Store
    from credo.types import Belief


def check_supersedes(store: Store, new: Belief, old: Belief, *, force: bool, verb: str) -> None:
    """Refuse ``new`` SUPERSEDES ``old`` when it closes a cycle or retires a lock.

    ``verb`` is the command that would write it with ``--force`` (``relate NEW OLD
    SUPERSEDES`` or ``resolve NEW OLD``), named in the lock error.

    Raises:
        InvalidInputError: ``old`` already supersedes ``new``, directly or through others.
        LockedError: ``old`` is locked, ``new`` is not, and ``force`` is False.
    """
    if store.supersedes_path(old.id, new.id):
        raise InvalidInputError(cycle_message(new.id, old.id))
    if old.locked and not new.locked and not force:
        raise LockedError(
            f"belief {old.id!r} is locked (user ground truth) and {new.id!r} is not: only the "
            f"user can retire a lock. Lock {new.id!r} first (credo lock {new.id}), or run "
            f"`credo {verb} --force`"
        )


def cycle_message(new: str, old: str) -> str:
    return (
        f"{new} SUPERSEDES {old} would close a cycle: {old} already supersedes {new} "
        "(directly or through others); supersession runs one way, from the newer belief to "
        "the older"
    )


def closing_edge(
    store: Store | None,
    edges: Iterable[tuple[str, str, str, *tuple[object, ...]]],
    line_of: Callable[[tuple[str, str, str]], int],
) -> tuple[str, str, str] | None:
    """The key (src, dst, type) of the first SUPERSEDES edge among ``edges`` (rows that start
    with src, dst, type; taken in the order of ``line_of``) that would close a cycle with
    the ones before it and those stored, or None. ``store`` None: nothing stored yet."""
    supersedes = EdgeType.SUPERSEDES.value
    keys = sorted(((e[0], e[1], supersedes) for e in edges if e[2] == supersedes), key=line_of)
    if not keys:
        return None
    ends = {end for key in keys for end in key[:2]}
    stored = store.supersedes_below(ends) if store is not None else []
    bad = first_cycle([key[:2] for key in keys], stored)
    return None if bad is None else (*bad, supersedes)


def first_cycle(
    edges: Sequence[tuple[str, str]], stored: Iterable[tuple[str, str]]
) -> tuple[str, str] | None:
    """The first of ``edges`` (src, dst: SUPERSEDES edges in the order they would be written)
    that would close a cycle with the ones before it and the ``stored`` edges, or None.

    ``stored`` must hold every stored SUPERSEDES edge reachable from the ends of ``edges``
    (``Store.supersedes_below``)."""
    below: dict[str, list[str]] = {}
    for src, dst in stored:
        below.setdefault(src, []).append(dst)
    for src, dst in edges:
        if _reaches(below, dst, src):
            return src, dst
        below.setdefault(src, []).append(dst)
    return None


def _reaches(below: Mapping[str, list[str]], start: str, goal: str) -> bool:
    """Whether following ``below`` from ``start`` meets ``goal``."""
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for nxt in below.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def current_again(store: Store, belief_id: str) -> list[str]:
    """The live beliefs that only ``belief_id`` supersedes among live beliefs: forgetting
    it makes them current again (docs/RETRIEVAL.md § Beliefs change: only live beliefs
    count), so `forget` names them. Sorted; call it before the forget."""
    edges = store.edges_touching([belief_id])
    olds = sorted({e.dst for e in edges if e.type == EdgeType.SUPERSEDES and e.src == belief_id})
    if not olds:
        return []
    around = store.edges_touching(olds)
    ends = store.get_beliefs({*olds, *(e.src for e in around)})

    def live(other: str) -> bool:
        return other in ends and ends[other].deleted_at is None

    return [
        old
        for old in olds
        if live(old)
        and not any(
            e.type == EdgeType.SUPERSEDES and e.dst == old and e.src != belief_id and live(e.src)
            for e in around
        )
    ]
