"""What the compress stage would make of every belief at a store version, made at once
when a small store's warm index is read (store/warm.py's ``WarmPlan.ahead``; the composition
root sets it, memory.py): a first pass over new queries then meets no line for the first
time. The same values ``Costs.__missing__`` keeps as queries meet the beliefs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from credo.retrieval.compress import MAX_KNOWN, SHORT_CHARS, Known, whole_line
from credo.retrieval.place import Places
from credo.store.short_ids import derived_ids


def known_ahead(
    beliefs: Iterable[tuple[str, str]],
    trails: Mapping[str, str],
    links: Mapping[str, object] | None,
) -> Known:
    """The version's ``Known``: the ``lines`` of every short belief (``beliefs``: its id and
    text; ``trails``: id -> trail, for those with one), and, when every truth link is known
    (``links``, by belief), the ``plain`` ones among them, as ``Costs.__missing__`` keeps
    them: no truth link (so no marks in any query) and an id not derived (never shown
    short). A first pass then costs those by ``Costs.fill``, one C-level pass, and asks
    ``Marks`` and ``Shown`` nothing of them."""
    known = Known()
    places = Places(trails)
    lines = known.lines
    for belief_id, text in beliefs:
        if len(text) <= SHORT_CHARS and (chars := whole_line(places, belief_id, text)) is not None:
            lines[belief_id] = chars  # (None: its first line dropped, left to each query)
    if len(lines) > MAX_KNOWN:  # (``Known`` would start over: nothing worth keeping)
        return Known()
    if links is not None:
        derived = set(derived_ids(lines))
        known.plain = {i: c for i, c in lines.items() if i not in links and i not in derived}
    return known
