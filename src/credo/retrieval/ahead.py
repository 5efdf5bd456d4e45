"""What the compress stage would make of every belief at a store version, made at once
when a small store's warm index is read (store/warm.py's ``WarmPlan.ahead``; the composition
root sets it, memory.py): a first pass over new queries then meets no line for the first
time. The same values ``Costs.__missing__`` keeps as queries meet the beliefs. With it, the
version's truth graph (retrieval/truth_ahead.py), which the store's truth memo keeps."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from credo.retrieval.compress import MAX_KNOWN, SHORT_CHARS, Known, whole_line
from credo.retrieval.place import Places
from credo.store.short_ids import derived_ids
from credo.store.truth import EveryTruthEdge


def known_ahead(
    beliefs: Iterable[tuple[str, str]],
    trails: Mapping[str, str],
    truth: EveryTruthEdge | None,
) -> Known:
    """The version's ``Known``: the ``lines`` of every short belief (``beliefs``: its id and
    text; ``trails``: id -> trail, for those with one), and, when every truth edge is known
    (``truth``: ``read_truth_if_short``'s), the ``plain`` ones among them, as
    ``Costs.__missing__`` keeps them: no truth link (so no marks in any query) and an id not
    derived (never shown short). A first pass then costs those by ``Costs.fill``, one
    C-level pass, and asks ``Marks`` and ``Shown`` nothing of them. Its ``graph``: the truth
    graph made whole (``truth_ahead.graph_ahead``), when every truth edge is known."""
    links = None if truth is None else truth[0]
    known = Known()
    places = Places(trails)
    lines = known.lines
    for belief_id, text in beliefs:
        if len(text) <= SHORT_CHARS and (chars := whole_line(places, belief_id, text)) is not None:
            lines[belief_id] = chars  # (None: its first line dropped, left to each query)
    if len(lines) > MAX_KNOWN:  # (``Known`` would start over: nothing worth keeping)
        known = Known()
    elif links is not None:
        derived = set(derived_ids(lines))
        known.plain = {i: c for i, c in lines.items() if i not in links and i not in derived}
    if truth is not None:
        from credo.retrieval.truth_ahead import graph_ahead

        known.graph = graph_ahead(truth[0], truth[1])
    return known
