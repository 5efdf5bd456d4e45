"""The retrieval pipeline: L0 locked beliefs, the lane fan-out, score composition, the pack
(score order or intentional clustering) and the anchor projection (SYSTEM.md § Retrieval).

Pure orchestration over the store's batched reads: one keyword query (two with notes
beside documents: store/own_pool.py), two for the line lane (two more with notes beside
documents: own_line.py), one read of a question's successors (dialog lane), one query per
graph hop, one edge fetch for clustering, one anchor fetch, one belief fetch when the doc or
HRR lane adds beliefs. No per-candidate reads.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Collection, Mapping
from itertools import chain, filterfalse
from operator import itemgetter
from types import ModuleType
from typing import TYPE_CHECKING

from credo.errors import InvalidInputError
from credo.retrieval import cluster as clustering
from credo.retrieval import named as naming
from credo.retrieval.acronym_terms import terms_asked
from credo.retrieval.adjacent import adjacent_first
from credo.retrieval.bundle import Expanding, Units
from credo.retrieval.candidate_rows import Texts, candidate_rows
from credo.retrieval.compress import Carried, Classes, Costs, Known, verbatim_ids
from credo.retrieval.contained import heads_after_members
from credo.retrieval.crowd import crowd_yields
from credo.retrieval.graph_lanes import (
    bfs_scores,
    candidate_pairs,
    heat_scores,
    lane_best,
    neighbourhood,
)
from credo.retrieval.head import asked_files, by_line_in_ties, head_first
from credo.retrieval.lanes import defn, dialog, latest, line, title
from credo.retrieval.lanes.date import date_lane, windows
from credo.retrieval.lanes.doc import doc_scores, without_named
from credo.retrieval.lanes.session import session_lane
from credo.retrieval.lanes.speaker import speaker_lane
from credo.retrieval.line_floor import least_chars, long_ids, text_lengths
from credo.retrieval.lock_places import LockPlaces, as_beliefs, lock_rows
from credo.retrieval.members import members_first
from credo.retrieval.numbers import without_dotted
from credo.retrieval.options import (
    DEFAULT_LANES,
    LastOptions,
    Options,
    check_options,
    with_default_lanes,
)
from credo.retrieval.own_line import with_own_lines
from credo.retrieval.own_unit import with_own_units
from credo.retrieval.pack import pack_by_score
from credo.retrieval.place import Charges, Places
from credo.retrieval.prior import weighed_sets
from credo.retrieval.rank import ID, Ranked, compose
from credo.retrieval.specific import lift
from credo.retrieval.spread import asks_several, spread
from credo.retrieval.standing import GroupLines, Marks, picked, place_locked
from credo.retrieval.support import by_file_support
from credo.retrieval.told_first import in_told_order
from credo.store.fts import MAX_QUERY_CHARS, CandidateRow
from credo.store.graph import Link
from credo.store.identifier import with_identifier_phrases
from credo.store.short_ids import Shown
from credo.tokens import CHARS_PER_TOKEN, marks
from credo.types import GLOBAL_SCOPE, Belief, RetrievalResult, RetrievedBelief

if TYPE_CHECKING:  # loaded only when a candidate has truth links (``_currency``)
    from credo.retrieval.currency import Currency, Standing
    from credo.retrieval.truth_graph import Relevant
    from credo.store import Store  # named in quotes: credo.store loads it when asked for
    from credo.store.truth import TruthReader

__all__ = [
    "DEFAULT_LANES",
    "LastOptions",
    "Options",
    "check_options",
    "retrieve",
    "with_default_lanes",
]


def retrieve(
    store: "Store", query: object, options: Options, *, checked: bool = False
) -> RetrievalResult:
    """``checked``: ``options`` passed ``check_options`` already, and hold nothing changed
    since (``options.LastOptions``)."""
    if not checked:
        check_options(options)
    if not isinstance(query, str):
        raise InvalidInputError(f"query must be a string, got {type(query).__name__}")
    # Lone surrogates cannot reach SQLite; each becomes "?" (the encoder's replacement).
    text = query[:MAX_QUERY_CHARS].encode("utf-8", "replace").decode("utf-8")
    with store.one_version():  # every read below takes the store as it is now
        return _retrieve(store, text, options)


def _retrieve(store: "Store", text: str, options: Options) -> RetrievalResult:
    budget = options.token_budget
    locks = store.current_locks()
    reader = store.truth_reader()  # (at the version the retrieve's scope read: one for all)
    held = reader.kept  # (what holds while the store keeps its version)
    # (L0's placements at this version: the locks' ids, costs and forms, made once)
    placings = LockPlaces.at(held, locks) if locks else None
    lock_ids = placings.ids if placings is not None else []
    memo, stated = Known.at(held, store.stated, store.warm_ahead)
    ranked, rows, around_seeds, known_trails, content = _rank(store, text, options, memo.labels)
    shared = _global(options.global_locks, locks)
    if shared:  # a global lock stands in for the project belief with its id
        ranked = [s for s in ranked if s[ID] not in shared]
    ids = list(map(_FIRST, ranked))  # (C-level: ~110 candidates)
    state = _currency(reader, ranked, ids, rows, lock_ids, options, placings, shared)
    units = None
    standing: Mapping[str, Standing] = {}
    tails: Mapping[str, Relevant] = {}  # groups of their own, kept aside (Currency.tails)
    relevant = None  # the ranked ids clustering reads edges among: all but those brought along
    filled: list[str] | None = None  # the ids before the groups aside are expanded
    long: list[str] | None = None  # the long candidates, and their least chars, when known
    least: int | None = None
    if state is not None:
        if state.retired_locks:
            locks = [b for b in locks if b.id not in state.retired_locks]
            lock_ids = [b.id for b in locks]
        if state.ranked is not ranked:  # (the same list when no belief moved)
            ranked = state.ranked
            ids = list(map(_FIRST, ranked)) if state.ids is None else state.ids
        if brought_rows := state.rows:
            content.update({i: row[0] for i, row in brought_rows.items()})
        standing = state.standing
        tails = state.tails
        if state.groups or tails:
            ranked_ids = filled = ids
            relevant = _without(ids, state.brought) if state.brought else ids
            if tails:  # every group's others right after its leader, as the pack and block see
                # Their texts are read when asked for (most never are: the pack stops first);
                # what the compress stage reads of all of them, the graph keeps per group.
                content.far = state.far
                values = tails.values()
                lengths = text_lengths(ids, content)  # (read once for both answers)
                long = long_ids(ids, content, lengths)
                long += chain.from_iterable(map(_LONG, values))  # (most groups have none)
                if long and options.compress == "auto":  # (read only then: verbatim_ids)
                    least = least_chars(ids, content, lengths)
                    # (it only rules a whole pack out: past the budget's characters with the
                    # candidates alone, the groups' others add nothing to that answer)
                    if least <= CHARS_PER_TOKEN * budget:
                        least += sum(map(_LEAST, values))
                # (a group's others read where a reader reaches its leader: most stop early)
                ids = Expanding(ids, tails)  # type: ignore[assignment]
            units = Units(ranked_ids, state.groups, tails)
    # The ids the block shows: derived ones by their shortest unique prefix (short_ids.py).
    # The others of the groups aside (~50 a query on a store in dispute, a third reached)
    # are asked for as met when their answers need no statement over the candidates: each
    # derived id's answer is held (``sharing``), or the truth graph knows none of them is a
    # derived id (each is then shown whole, as it would be listed).
    placing = key = None  # (L0's placement at this version, when made already)
    if placings is not None:
        retired = state.retired_locks if state is not None else ()
        key = placings.key(budget, standing, retired, options.global_locks, shared)
        placing = placings.kept(key)
        if placing is not None:  # (its forms are given back: the locks are not asked again)
            lock_ids = []
    sharing = store.short_prefix_sharing()
    if (
        tails
        and filled is not None
        and (sharing is not None or getattr(reader.kept.get("graph"), "plain_ids", False))
    ):
        asked = [*lock_ids, *filled]
    else:
        asked = [*lock_ids, *ids]
    shown = Shown(asked, store.sharing_short_prefix, store.ids_with_prefix, shared, sharing)
    marked = Marks(standing, shown, state)
    if shared:  # after the project's locks, in the global store's order; marked "global"
        locks = [*locks, *shared.values()]
        marked.update(dict.fromkeys(shared, marks(scope=GLOBAL_SCOPE)))
    if placings is None:  # (only the global store's, if any: placed as they come)
        locked, overflow, locked_costs = place_locked(locks, budget, marked, shown)
        locked_used = sum(locked_costs)
        overflow_ids = tuple(b.id for b in overflow)
    else:
        if placing is None:
            placing = placings.place(key, locks, budget, marked, shown, standing, shared)
        else:
            placings.replay(placing, shown)
        locked_used, overflow_ids = placing.used, placing.overflow_ids
    remaining = budget - locked_used
    # Costed when the pack first asks: the candidates past the first that does not fit are
    # never asked for (the cluster pack stops there), a third of them on a typical query.
    trails = {i: t for i in ids if (t := known_trails.get(i)) is not None} if known_trails else {}
    # Those brought along by the truth step (with the groups aside, ~55 a query in dispute),
    # read when there is one; found by the store as it reads them: one that holds no trail
    # (a store of notes) answers without looking at them.
    unread = filterfalse(rows.__contains__, ids)
    if (first := next(unread, None)) is not None:
        trails.update(store.trails(chain((first,), unread)))
    # Compress (rank -> cluster -> compress -> pack): each candidate is charged as rendered,
    # a passage's line with its line range alone, under its file and section lines, which
    # the first passage packed under them pays for (retrieval/place.py).
    places = Places(trails, shown)
    classes = Classes(store.retention, ids, content, options.retention_rules, long)
    kept = verbatim_ids(
        ids, content, marked, places, remaining, options.compress, stated, classes, least, memo
    )
    costs = Costs(content, marked, places, text, kept, classes, shown, memo)
    # (True: none has a link; with every link read, one not among them has none)
    # (the ranked ids: the others of a group aside have a truth link, so never a plain line)
    filled = ids if filled is None else filled
    costs.fill(filled, True if state is None else held.get("graph"), reader.every)
    unit_ids = ids if units is None else units.ids  # a conflict group: one unit (bundle.py)
    unit_costs = (
        Charges(costs, places)
        if units is None
        else Charges(costs, places, units.members, units.aside)
    )
    if tails and places.flat:  # a group's others' lines the truth graph knows, when reached
        # (with ``costs`` when its marks can be taken as kept: a reached leader's line too)
        taken = costs if marked.standing_of is not None else None
        unit_costs.known = GroupLines(tails, memo, shown, shared, taken, standing)
    cluster_of: dict[str, int] = {}
    if options.use_intentional_clustering and ranked:
        # cluster_candidates + pack_with_clusters, for ids already ranked (compose's order).
        pairs = candidate_pairs(
            store,
            ids if relevant is None else relevant,
            around_seeds,
            options.cluster_edge_weight_floor,
        )
        packed = clustering.pack_ranked(
            unit_ids,
            pairs=pairs if units is None else units.pairs(pairs),
            token_costs=unit_costs,
            token_budget=remaining,
            cluster_diversity_target=options.cluster_diversity_target,
            # Stage 1 promotes a representative only for a query term the candidates
            # ranked above it do not show (cluster.py § the aspect gate), read from the
            # lines the compress stage renders.
            carried=Carried(costs, None if units is None else units.all_members()),
        )
        cluster_of = dict(zip(packed.selected, packed.cluster_ids, strict=True))
    else:
        packed = pack_by_score(unit_ids, token_costs=unit_costs, token_budget=remaining)
    dropped = packed.dropped
    # (with groups: what ``picked`` finds in the ranking)
    chosen = set(packed.selected) if units is None else units.ranked(packed.selected)
    if units is not None:
        if cluster_of:  # a group shares its cluster (a group aside: ``picked`` says so)
            units.share(cluster_of, packed.selected)
        dropped = tuple(units.expand(dropped))
    # Clustering changes which beliefs are packed, not how relevant each is: the result
    # lists them by score (``ranked``'s order; ``filled``: its ids, groups aside not expanded).
    packed_standing = picked(ranked, chosen, standing, tails, content, cluster_of, filled)
    packed_standing, packed_ids = in_told_order(packed_standing, state, rows, reader.told_in_order)
    known = classes.of_packed(packed_ids)  # for the result
    out = (
        placing.beliefs()
        if placing is not None
        else _placed(locked, locked_costs, standing, shared)
        if locked
        else []
    )
    charged = unit_costs.charged  # each one's line, and the file or section lines it opened
    renders = costs.shown_all(packed_ids)  # (strategy, text)
    # (each packed belief's Ranked and standing unpacked once, into names, in the loop)
    out += [
        _new(  # (a RetrievedBelief without its Python-level __new__: one per packed belief)
            RetrievedBelief,
            (
                belief_id,
                (said := content[belief_id]),  # (one lookup: the Texts subclass's is generic)
                score,
                False,
                charged[belief_id],
                lanes,
                cluster_of.get(belief_id),
                replaces,
                conflicts,
                superseded_by,
                trails.get(belief_id, ""),
                "",
                strategy,
                rendered,
                len(said),
                known.get(belief_id, "fact"),
                "",
                (),
            ),
        )
        for ((belief_id, score, lanes), (replaces, conflicts, superseded_by)), (
            strategy,
            rendered,
        ) in zip(packed_standing, renders, strict=True)
    ]
    anchors = None
    used = locked_used + packed.used_tokens
    if options.fold_siblings and trails and len(out) > 1:  # (only passages have siblings)
        from credo.retrieval.siblings import folded

        if (refolded := folded(out, costs, places, remaining)) is not None:
            out, unlocked_used = refolded
            used = locked_used + unlocked_used
    hints: tuple[str, ...] = ()
    if options.with_doc_anchors:
        from credo.retrieval.answering import shown_anchors
        from credo.retrieval.hints import charge_hints

        anchors = shown_anchors(store, text, out)  # (folded: theirs too; answering file first)
        out, used, hints = charge_hints(out, anchors, budget, used)
    return RetrievalResult(
        query=text,
        beliefs=tuple(out),
        token_budget=budget,
        used_tokens=used,
        dropped=tuple(dropped),
        locked_overflow=overflow_ids,
        doc_anchors=anchors,
        clustering=options.use_intentional_clustering,
        superseded=() if state is None else state.superseded,
        short_ids=shown.changed(),
        hints=hints,
    )


_new = tuple.__new__
_SECOND = itemgetter(1)
_FIRST = itemgetter(0)  # of a packed belief (``picked``): its Ranked; of a Ranked: its id

# Of a group aside in ``Currency.tails`` (``TruthGraph.as_relevant``): its others longer than
# line_floor.SHORT_CHARS, and the least their lines cost.
_LONG = itemgetter(8)
_LEAST = itemgetter(9)


_FEW_BROUGHT = 8  # past this many brought along, ``_without`` filters instead of removing


def _without(ids: list[str], brought: Collection[str]) -> list[str]:
    """``ids`` less those in ``brought`` (each in ``ids`` once), in order: a few are
    removed one by one from a copy (C-level), more filtered out."""
    if len(brought) > _FEW_BROUGHT:
        return list(filterfalse(brought.__contains__, ids))
    out = ids.copy()
    for i in brought:
        out.remove(i)
    return out


def _text_of(known: Mapping[str, CandidateRow | None]) -> Callable[[str], str]:
    """id -> the text of a belief met on the way ("" for a locked one, which L0 places)."""

    def text(belief_id: str) -> str:
        row = known.get(belief_id)
        return "" if row is None else row[0]

    return text


def _placed(
    locked: list[Belief],
    costs: list[int],
    standing: "Mapping[str, Standing]",
    shared: Collection[str],
) -> list[RetrievedBelief]:
    """The placed locks as the result lists them, when the project has none (only global
    ones: not kept, as ``LockPlaces`` keeps a store version's)."""
    return as_beliefs(lock_rows(locked, costs, standing, shared))


def _global(found: tuple[Belief, ...], locks: list[Belief]) -> dict[str, Belief]:
    """The global locks to place, by id: those the project has not locked already under
    the same id or text (the project's copy stands, shown once). The project's locks are
    taken before supersession: one the project retired keeps its global twin out too."""
    if not found:
        return {}
    ids = {b.id for b in locks}
    texts = {b.content_hash for b in locks}
    return {b.id: b for b in found if b.id not in ids and b.content_hash not in texts}


def _graph_key(reader: "TruthReader", shared: Collection[str]) -> tuple[str, list[str]]:
    """Where the truth graph is kept, and the project beliefs it takes as locked: those a
    global lock shows under their id (its twins) that have a truth link. The truth step
    never brings a locked belief back (a head standing in, a conflict brought along), so a
    twin is shown once, as its global lock. A graph that takes twins as locked is kept apart
    from the version's own (the global store changes on its own)."""
    twins = sorted(reader.links(shared)[0])
    return (f"graph locking {' '.join(twins)}" if twins else "graph"), twins


_STEP: dict[str, "ModuleType"] = {}  # the truth step's module (retrieval/currency.py)


def _currency(
    reader: "TruthReader",
    ranked: list[Ranked],
    ids: list[str],
    rows: Mapping[str, CandidateRow],
    lock_ids: list[str],
    options: Options,
    placings: LockPlaces | None = None,
    shared: Collection[str] = (),
) -> "Currency | None":
    """Supersession and contradiction over the ranking (retrieval/currency.py), or None when
    no candidate and no lock has a SUPERSEDES, CONTRADICTS or RESOLVES edge to a live
    belief: then nothing changes, and the module is not even loaded.

    The truth graph is kept with the store's truth links while the store does not change,
    so a long-lived process reads each belief's links once, whatever the queries. ``ids``
    are the ranked beliefs' ids; ``reader``: the store's truth links at this version;
    ``placings``: the version's locks (``lock_ids``, all of them), which keep which have a
    truth link; ``shared``: the ids of the global locks placed (``_global``)."""
    if reader.none:  # no truth edge at all: nothing to ask, whatever the query
        return None
    asked = ids + lock_ids if lock_ids else ids
    order = None
    key, twins = _graph_key(reader, shared) if shared else ("graph", ())
    graph = reader.kept.get(key)
    if graph is None:
        read = reader.links(asked)
        if not read[0]:
            return None
        from credo.retrieval.currency import TruthGraph

        graph = reader.kept[key] = TruthGraph(reader.kept_links())
        graph.locked.update(twins)
        graph.add(asked, read)
        touched = graph.linked.intersection(asked)
    else:
        every = reader.every
        if every is not None:
            order = graph.linked_in_order(ids, every)  # (one pass, as the step walks them)
            touched = set(order)
            if placings is not None:
                touched |= placings.touched(graph, every)
            elif lock_ids:
                touched |= graph.touched(lock_ids, every)
        else:
            touched = graph.touched(asked, every)
        if not touched:
            return None
    step = _STEP.get("currency")
    if step is None:  # (an import statement costs a warm query ~1-5 us: once)
        from credo.retrieval import currency as step

        _STEP["currency"] = step
    return step.resolve_lazy(
        ranked,
        rows,
        lock_ids,
        graph,  # type: ignore[arg-type]
        weights=options.weights,
        include_superseded=options.include_superseded,
        touched=touched,
        ids=ids,
        order=order,
        in_place=True,  # (``_retrieve`` reads the ranking and its ids only as the step leaves them)
        twins=twins,
    )


def _rank(
    store: "Store", text: str, options: Options, labels: dict[str, str] | None = None
) -> tuple[
    list[Ranked],
    dict[str, CandidateRow],
    tuple[set[str], list[Link]] | None,
    dict[str, str],
    Texts,
]:
    """Candidates ranked by ``compose``, their rows, the graph seeds with every live link
    touching them (None when the graph lanes did not run or a hub cut the links short):
    clustering reuses those links instead of reading them again; and the candidates'
    trails (those that have one), which tell changelog passages (retrieval/prior.py) and
    which the pack renders; then their texts. ``labels``: the beliefs' labels met at the
    store version (``Known.labels``, which the speaker lane reads and fills; None: none
    kept)."""
    lanes = {**DEFAULT_LANES, **options.lanes}
    terms = terms_asked(store, text)  # base words, relatives, acronyms (acronym_terms.py)
    # "checkRateLimit" asks for its callers, whose context holds "check rate limit"
    terms = with_identifier_phrases(terms, text)
    named: dict[str, float] = {}  # the doc lane's scores, read first: see without_named
    asked: list[str] = []  # the paths named, when the question asks for nothing else
    if lanes["doc"]:
        named, paths = doc_scores(store, text)
        asked = asked_files(terms, paths, text)  # "what does src/x.py do", "dev.py"
        terms = without_named(terms, paths, text)
    lane_scores: dict[str, dict[str, float]] = {}
    found: dict[str, float] = {}  # the keyword hits' scores as FTS5 gave them
    keyword: dict[str, float] = {}  # and after the dialog lane
    titled: dict[str, float] = {}  # the pages the title lane brought, when hits are flat
    flat = False
    defs = defn.nothing_read().rows  # the definitions the keyword hits sit in (read once)
    # What the engine needs of each belief met on the way (``CandidateRow``), or None for a
    # locked one: the keyword and graph queries read it with their rows, so only beliefs
    # the other lanes add are fetched at the end.
    known: dict[str, CandidateRow | None] = {}
    around_seeds: tuple[set[str], list[Link]] | None = None
    lines_read = None  # what the line lane read (own_line.py reads it again)
    if lanes["bm25f"] and terms:
        limit = options.keyword_limit  # (and the user's own beliefs past it: own_pool.py)
        hits, hit_rows = store.keyword_beliefs(terms, limit=limit, own=options.own_limit)
        found = keyword = naming.with_named(store, text, terms, dict(hits), known)  # (named.py)
        known.update(hit_rows)
        if any(map(str.isdigit, terms)):  # "lines 2 and 4" is not release 4.10.2 (numbers.py)
            found = keyword = without_dotted(
                text,
                terms,
                found,
                _text_of(known),
                store.trails,
                store.keyword_scores,
                store.index_extras,
            )
        if flat := lanes["title"] and title.is_flat(hits, limit):  # (title.py)
            found = keyword = title.widened(store, terms, found, known, titled)
        if lanes["dialog"]:
            keyword = dialog.dialog_step(store, found, known, limit=options.graph_max_links)
        lane_scores["bm25f"] = keyword
        stems = line.QueryStems(terms)  # (both lanes', made once if at all: lanes/line.py)
        if lanes["line"]:  # documentation passages by their best line (lanes/line.py)
            lane_scores["line"], lines_read = line.line_scores(store, stems, keyword)
        if lanes["defn"]:  # code passages by their definition as written (lanes/defn.py)
            lane_scores["defn"], defs = defn.defn_scores(store, stems, keyword, _text_of(known))
    seeds: dict[str, float] = {}  # the graph lanes' (own_line.py reads them too)
    if (lanes["heat"] or lanes["bfs"]) and keyword:
        # (score desc, id asc) by two stable C-keyed sorts: ids are unique, so the pairs
        # sort by id alone first
        ordered = sorted(keyword.items())
        ordered.sort(key=_SECOND, reverse=True)
        seeds = dict(ordered[: options.graph_seeds])
        hops = neighbourhood(store, seeds, options, known)
        if hops and len(hops[0]) < options.graph_max_links:
            around_seeds = (set(seeds), hops[0])
        # A locked belief carries heat and paths like any other, but L0 places it: it must
        # not take one of a lane's places from an unlocked neighbour.
        # (None: no lock met; a row is a non-empty tuple, so only a lock's None is false)
        locked = None if all(known.values()) else known
        if lanes["heat"]:
            lane_scores["heat"] = heat_scores(store, seeds, hops, options, keyword, locked)
        if lanes["bfs"]:
            bfs = bfs_scores(seeds, hops, options.bfs_decay)
            lane_scores["bfs"] = lane_best(bfs, keyword, options.graph_lane_limit, locked)
    if lanes["doc"]:
        # A folder named in the query can match thousands of anchors: bounded like the
        # graph lanes (the keyword hits plus the lane's best others).
        lane_scores["doc"] = lane_best(named, keyword, options.graph_lane_limit)
    if lanes["latest"] and keyword and latest.asks_latest(text):  # a changelog's newest
        lane_scores["latest"] = latest.latest_scores(store, store.trails(list(keyword)))
    if lanes["hrr"]:
        from credo.retrieval.lanes.structural import structural_lane

        lane_scores["hrr"] = structural_lane(store, text)
    pool = set().union(*lane_scores.values())
    # (a set less a dict looks each of the set's ids up in the dict, with its hash kept)
    if missing := pool.difference(known):
        known.update(store.live_unlocked(sorted(missing)))
    rows, confidence, sessions, texts = candidate_rows(sorted(pool), known)  # (one pass)
    # The session, date and speaker lanes add no candidates: they reorder those above.
    if lanes["session"] and keyword:
        lane_scores["session"] = session_lane(keyword, sessions)
    if lanes["date"] and (dates := windows(text)):
        lane_scores["date"] = date_lane(dates, {i: row[4] for i, row in rows.items()})
    if lanes["speaker"] and terms:
        lane_scores["speaker"] = speaker_lane(set(terms), texts, labels)
    trails = store.trails(list(rows)) if rows else {}
    if flat and trails:
        lane_scores["title"] = title.title_scores(terms, trails, titled)
    weighed = weighed_sets(terms, trails, named, defs)  # changelogs, tests, inner (prior.py)
    # A note (no trail) is its own unit: its keyword share in a unit lane (own_unit.py)
    lane_scores = with_own_units(lane_scores, confidence, trails, options.weights.lanes)
    lane_scores = with_own_lines(lines_read, lane_scores, keyword, trails, texts, seeds)
    ranked = compose(lane_scores, confidence, options.weights, *weighed, by_id=True)
    if trails and asks_several(text):  # a section shown yields to one not yet (spread.py)
        ranked = spread(ranked, trails)
    ranked = by_file_support(ranked, trails)  # a near tie: the file held more (support.py)
    ranked = adjacent_first(ranked, text, texts, trails, store.index_extras)  # (adjacent.py)
    if trails and keyword:  # a section before the one around it (retrieval/specific.py)
        ranked = lift(store, ranked, trails, terms, keyword, options.weights, weighed)
        ranked = members_first(ranked, trails, defs)  # a class after its members
    if newest := lane_scores.get("latest"):  # the newest release's passages lead
        ranked = latest.latest_first(ranked, newest)
    ranked = by_line_in_ties(head_first(ranked, trails, asked), trails)  # (retrieval/head.py)
    ranked = naming.lift_paths(ranked, trails, text)  # "Error::msg" leads (named.py)
    if trails:  # in code, a head below its own member yields (retrieval/contained.py)
        ranked = heads_after_members(ranked, trails)
        if asks_several(text):  # one file crowding the ten yields a place (crowd.py)
            ranked = crowd_yields(ranked, trails)
    if keyword is not found:
        dialog.explain_shares(ranked, found, keyword, options.weights, confidence)
    return ranked, rows, around_seeds, trails, texts
