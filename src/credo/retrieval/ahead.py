"""What the compress stage would make of every belief at a store version, made at once
when a small store's warm index is read (store/warm.py's ``WarmPlan.ahead``; the composition
root sets it, memory.py): a first pass over new queries then meets no line for the first
time. The same values ``Costs.__missing__`` keeps as queries meet the beliefs. With it, the
version's truth graph (retrieval/truth_ahead.py), which the store's truth memo keeps."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.compress import MAX_KNOWN, SHORT_CHARS, Known, id_chars, whole_line
from credo.retrieval.lanes.speaker import label_of
from credo.retrieval.named import names_ahead
from credo.retrieval.place import Places
from credo.retrieval.standing import GroupLines, others_lines
from credo.store.short_ids import SHORT_CHARS as ID_CHARS
from credo.store.short_ids import derived_ids, shortenable
from credo.store.truth import EveryTruthEdge
from credo.tokens import marks

if TYPE_CHECKING:
    from credo.retrieval.truth_graph import TruthGraph


def known_ahead(
    beliefs: Iterable[tuple[str, str]],
    trails: Mapping[str, str],
    truth: EveryTruthEdge | None,
    sharing: Mapping[str, bool] | None = None,
    constants: Collection[str] = (),
) -> Known:
    """The version's ``Known``: the ``lines`` of every short belief (``beliefs``: its id and
    text; ``trails``: id -> trail, for those with one), the ``labels`` of all (the speaker
    lane's), and, when every truth edge is known (``truth``: ``read_truth_if_short``'s),
    the ``plain`` ones among them, as
    ``Costs.__missing__`` keeps them: no truth link (so no marks in any query) and an id not
    derived (never shown short). A first pass then costs those by ``Costs.fill``, one
    C-level pass, and asks ``Marks`` and ``Shown`` nothing of them. Its ``graph``: the truth
    graph made whole (``truth_ahead.graph_ahead``), when every truth edge is known; with
    ``sharing`` (every derived id -> whether its short prefix starts another id:
    ``WarmIndex.short_prefix_sharing``), its ``groups`` and ``kept``: the lines of each
    group's others (``groups_ahead``) and of each relevant belief marked as the graph keeps
    it (``kept_ahead``). Its ``names``: every definition name of the passages among
    ``beliefs`` (``named.names_ahead``), so a question naming one reads no index: but
    ``constants``' (store/values.py), which the context index a cold question reads holds
    none of (review84: warm found a constant by its name, cold did not)."""
    links = None if truth is None else truth[0]
    known = Known()
    places = Places(trails)
    lines = known.lines
    labels = known.labels
    said: dict[str, str] = {}  # (a label as met first: a speaker's turns share one string)
    unlocked: list[str] = []
    for belief_id, text in beliefs:
        if len(text) <= SHORT_CHARS and (chars := whole_line(places, belief_id, text)) is not None:
            lines[belief_id] = chars  # (None: its first line dropped, left to each query)
        label = label_of(text)
        labels[belief_id] = said.setdefault(label, label)
        unlocked.append(belief_id)
    if len(labels) > MAX_KNOWN:  # (as ``_labelled`` bounds them: started over)
        labels.clear()
    if len(lines) > MAX_KNOWN:  # (``Known`` would start over: nothing worth keeping)
        known = Known()
    elif links is not None:
        derived = set(derived_ids(lines))
        known.plain = {i: c for i, c in lines.items() if i not in links and i not in derived}
    if constants:
        unlocked = [i for i in unlocked if i not in constants]
    known.names = names_ahead(unlocked, trails)
    if truth is not None:
        from credo.retrieval.truth_ahead import graph_ahead

        known.graph = graph = graph_ahead(truth[0], truth[1])
        if graph is not None and sharing is not None:
            form = _form_of(sharing)
            known.groups = groups_ahead(graph, form)
            known.kept = kept_ahead(graph, lines, form)
    return known


def _form_of(sharing: Mapping[str, bool]) -> Callable[[str], str]:
    """An id -> the form every query at the version shows it in (``Shown.form``) when that
    is its ``SHORT_CHARS`` prefix or the id whole; raises ``_Unknown`` for a derived id
    whose prefix another id shares (``shortest``'s range reads: left to the queries)."""

    def form(belief_id: str) -> str:
        flag = sharing.get(belief_id)
        if flag is False:
            return belief_id[:ID_CHARS]
        if flag is None and not shortenable(belief_id):
            return belief_id  # (not derived: shown whole)
        raise _Unknown

    return form


def groups_ahead(graph: TruthGraph, form: Callable[[str], str]) -> dict[str, dict[str, int]]:
    """What ``standing.GroupLines`` keeps in ``Known.groups`` as queries reach the groups
    kept aside, for every relevant belief of ``graph`` (made whole) whose others' ids are
    all shown by their ``SHORT_CHARS`` prefix or whole: a first pass then makes no group's
    lines (7 a query on the derived-id bench store, ~8 us each, mostly first touches of
    their texts). A group naming an id ``form`` leaves to the queries is left to them."""
    groups: dict[str, dict[str, int]] = {}
    kept = GroupLines.kept_ahead
    for leader, info in graph.relevant_known.items():
        if info is not None and kept(info):
            try:
                groups[leader] = others_lines(info, form)
            except _Unknown:
                continue
    return groups


def kept_ahead(
    graph: TruthGraph, lines: Mapping[str, int], form: Callable[[str], str]
) -> dict[str, tuple[object, int] | tuple[object, int, tuple[tuple[str, str], ...]]]:
    """What ``compress.Costs`` keeps in ``Known.kept`` as queries cost the relevant beliefs
    marked as the truth graph keeps them (``Costs._keep_marked``), for every relevant belief
    of ``graph`` with marks and a short line (``lines``: ``Known.lines``): its standing (the
    graph's very tuple), its line's characters with its id and the ids its marks name as
    shown, and the forms of those shown short, in the order a query asks for them (the
    named ids, then its own: ``Shown.forms``). A first pass then costs them without making
    their lines (~8 a query on the bench stores)."""
    kept: dict[str, tuple[object, int] | tuple[object, int, tuple[tuple[str, str], ...]]] = {}
    hiding = graph.superseding  # (a query gives one its own standing: what it replaces)
    for belief_id, info in graph.relevant_known.items():
        said = None if info is None else info[0]
        chars = lines.get(belief_id)
        if said is None or chars is None or belief_id in hiding:
            continue
        try:
            marked = marks(*(tuple(map(form, part)) for part in said))
            if not marked:
                continue
            asked = (*said[0], *said[1], *said[2], belief_id)
            forms = tuple((i, shown) for i in asked if (shown := form(i)) != i)
        except _Unknown:
            continue
        chars += id_chars(form(belief_id)) - id_chars(belief_id) + len(marked)
        kept[belief_id] = (said, chars, forms) if forms else (said, chars)
    return kept


class _Unknown(Exception):
    """An id whose form ``_form_of`` leaves to the queries."""
