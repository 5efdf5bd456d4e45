"""What the compress stage would make of every belief at a store version, made at once
when a small store's warm index is read (store/warm.py's ``WarmPlan.ahead``; the composition
root sets it, memory.py): a first pass over new queries then meets no line for the first
time. The same values ``Costs.__missing__`` keeps as queries meet the beliefs. With it, the
version's truth graph (retrieval/truth_ahead.py), which the store's truth memo keeps."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.compress import MAX_KNOWN, SHORT_CHARS, Known, whole_line
from credo.retrieval.place import Places
from credo.retrieval.standing import GroupLines, others_lines
from credo.store.short_ids import SHORT_CHARS as ID_CHARS
from credo.store.short_ids import derived_ids, shortenable
from credo.store.truth import EveryTruthEdge

if TYPE_CHECKING:
    from credo.retrieval.truth_graph import TruthGraph


def known_ahead(
    beliefs: Iterable[tuple[str, str]],
    trails: Mapping[str, str],
    truth: EveryTruthEdge | None,
    sharing: Mapping[str, bool] | None = None,
) -> Known:
    """The version's ``Known``: the ``lines`` of every short belief (``beliefs``: its id and
    text; ``trails``: id -> trail, for those with one), and, when every truth edge is known
    (``truth``: ``read_truth_if_short``'s), the ``plain`` ones among them, as
    ``Costs.__missing__`` keeps them: no truth link (so no marks in any query) and an id not
    derived (never shown short). A first pass then costs those by ``Costs.fill``, one
    C-level pass, and asks ``Marks`` and ``Shown`` nothing of them. Its ``graph``: the truth
    graph made whole (``truth_ahead.graph_ahead``), when every truth edge is known; with
    ``sharing`` (every derived id -> whether its short prefix starts another id:
    ``WarmIndex.short_prefix_sharing``), its ``groups``: the lines of each group's others
    shown short (``groups_ahead``)."""
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

        known.graph = graph = graph_ahead(truth[0], truth[1])
        if graph is not None and sharing is not None:
            known.groups = groups_ahead(graph, sharing)
    return known


def groups_ahead(graph: TruthGraph, sharing: Mapping[str, bool]) -> dict[str, dict[str, int]]:
    """What ``standing.GroupLines`` keeps in ``Known.groups`` as queries reach the groups
    kept aside, for every relevant belief of ``graph`` (made whole) whose others' ids are
    all shown by their ``SHORT_CHARS`` prefix or whole: a first pass then makes no group's
    lines (7 a query on the derived-id bench store, ~8 us each, mostly first touches of
    their texts). A group naming an id whose prefix another id shares (``shortest``'s range
    reads) is left to the queries."""

    def form(belief_id: str) -> str:
        flag = sharing.get(belief_id)
        if flag is False:
            return belief_id[:ID_CHARS]
        if flag is None and not shortenable(belief_id):
            return belief_id  # (not derived: shown whole)
        raise _Unknown

    groups: dict[str, dict[str, int]] = {}
    kept = GroupLines.kept_ahead
    for leader, info in graph.relevant_known.items():
        if info is not None and kept(info):
            try:
                groups[leader] = others_lines(info, form)
            except _Unknown:
                continue
    return groups


class _Unknown(Exception):
    """An id whose form ``groups_ahead`` leaves to the queries."""
