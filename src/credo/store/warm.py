"""The warm index: what retrieval reads, held in memory for one store version.

A long-lived process (``credo serve``, the MCP server's listener, a service holding a
``Memory``) answers many queries of one store. It keeps:
- the keyword index's bm25 mirror with every term's postings read up front
  (``bm25_mirror``), so no query reads ``fts5vocab``;
- the graph (``warm_graph``): live beliefs and their edges as adjacency lists;
- every live belief's row, compactly (``warm_rows``), with the rows of the beliefs queries
  meet cached as Python values in front of it;
- per-version caches of the trails and origins of the beliefs queries meet.

An index is read on a read-only connection of its own, inside one read transaction, so a
background thread can read it while the store's connection answers queries from SQLite.
It is installed only if the store has not moved since before the read began: no commit by
any connection and no write of this one (``store_version``) in between, so what was read is
exactly that version. Every read then checks the version again and falls back to SQL the
moment it moves; the stale index is let go at once (at a million beliefs it is ~1 GB).
"""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from itertools import filterfalse
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from credo.store.db import connect, json_array
from credo.store.fts import CandidateRow
from credo.store.short_ids import learn_derived
from credo.store.truth import TRUTH_KINDS, EveryTruthEdge, read_truth_if_short
from credo.store.warm_graph import WarmGraph
from credo.store.warm_rows import WarmRows

if TYPE_CHECKING:
    from credo.store import SqliteStore
    from credo.store.bm25_mirror import Bm25Mirror
    from credo.store.defns import DefnHit
    from credo.store.truth import End, TruthLink
    from credo.types import DocAnchor

# Past this many cached rows (or trails, or origins) a cache starts over: a few hundred
# bytes a row, so tens of MB at most, whatever the store's size.
MAX_CACHED = 200_000
# The same for a passage's definitions (~800 bytes: each holds its definition's terms) and
# a belief's document anchors (~500 bytes): ~40 MB at most.
MAX_CACHED_DOCS = 50_000
# Up to this many beliefs and edge ends (rowids + 2 x edges), what queries make of each
# belief they meet is made at index read (``WarmIndex.prepare``): ~400 bytes each (13.6 MB
# at 10k beliefs and 20k edges, and 6.8 MB of heat rows: store/warm_heat.py), so ~60 MB
# at most; beyond, beliefs are met as queries reach them (a 1M store's index is ~1 GB
# already).
PREPARED = 150_000


class WarmIndex:
    """One store version's graph and keyword mirror, and its belief caches."""

    __slots__ = (
        "_anchors",
        "_classes",
        "_defns",
        "_rows",
        "_shared",
        "_stated",
        "_trails",
        "ahead",
        "every_shared",
        "graph",
        "mirror",
        "table",
        "truth",
        "version",
    )

    def __init__(
        self,
        version: tuple[int, int],
        graph: WarmGraph,
        mirror: Bm25Mirror | None,
        table: WarmRows | None = None,
        truth: EveryTruthEdge | None = None,
    ) -> None:
        self.version = version
        self.graph = graph
        self.mirror = mirror
        self.table = table
        self.truth = truth  # every truth edge, when that read was short (store/truth.py)
        if mirror is not None and table is not None:
            # (not a method of this index: the mirror it holds would hold it, a cycle)
            mirror.source = functools.partial(_mirror_rows, graph, table)
        self._rows: dict[str, CandidateRow | None] = {}
        self._trails: dict[str, str | None] = {}
        self._stated: dict[str, bool] = {}
        self._classes: dict[str, str] = {}
        self._defns: dict[str, tuple[DefnHit, ...] | None] = {}
        self._anchors: dict[str, tuple[DocAnchor, ...]] = {}
        self._shared: dict[str, bool] = {}
        self.every_shared = False  # whether ``_shared`` answers for every derived id
        # What the engine made of this version at index read (``WarmPlan.ahead``), if any.
        self.ahead: object = None

    def prepare(
        self,
        ahead: Ahead | None = None,
        trails: dict[str, str] | None = None,
        constants: frozenset[str] = frozenset(),
    ) -> None:
        """Make now, at index read, what a query would make of each belief it meets for the
        first time (its links, its row as the row cache and the keyword mirror hold it),
        for a store within ``PREPARED`` (``WarmGraph.prepare``): a long-lived process's
        first pass over new queries then meets no belief for the first time. The same
        values as made on first use (one text object shared by both rows)."""
        rids = self.graph.prepare(PREPARED)
        table = self.table
        if not rids or table is None:
            return
        # (every derived id's shared-prefix answer: a first pass asks no statement for them)
        from credo.store.short_ids import sharing_flags

        self._shared.update(sharing_flags(filter(None, self.graph.id_table[1])))
        self.every_shared = True
        names = self.graph.names(rids)
        learn_derived([name for name, _ in names if name is not None])  # (their short forms)
        found = table.rows(rids)
        self._rows.update(
            (name, row) for (name, _), row in zip(names, found, strict=True) if name is not None
        )
        if self.mirror is not None:  # (deleted_at is NULL: the table holds live beliefs)
            live = [
                (rid, name, locked, row)
                for rid, (name, locked), row in zip(rids, names, found, strict=True)
                if row is not None
            ]
            self.mirror.hold(
                {
                    rid: (name, locked, row[0], row[1], row[2], None, row[3], row[4])
                    for rid, name, locked, row in live
                },
                # (the keyword hits' entries share the row: no tuple more a belief)
                {rid: (name, locked, None, row) for rid, name, locked, row in live},
            )
        if ahead is not None and trails is not None:  # (met one at a time: no list of all)
            beliefs = (
                (name, row[0])
                for (name, locked), row in zip(names, found, strict=True)
                if row is not None and name is not None and not locked
            )
            sharing = self.short_prefix_sharing()
            self.ahead = ahead(beliefs, trails, self.truth, sharing, constants)

    def rows(self, conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, CandidateRow]:
        """id -> ``CandidateRow`` of the live, unlocked beliefs among ``ids`` (sorted by id,
        as ``GraphQueries.live_unlocked``); rows not yet cached are read in one query."""
        return self.unlocked_rows(conn, self.graph.live_unlocked(ids))

    def unlocked_rows(self, conn: sqlite3.Connection, ids: list[str]) -> dict[str, CandidateRow]:
        """``rows`` of ``ids`` the graph has already found live and unlocked (distinct), in
        their order."""
        self._read_rows(conn, ids)
        rows = self._rows
        return {i: row for i in ids if (row := rows[i]) is not None}

    @property
    def cached_rows(self) -> Mapping[str, CandidateRow | None]:
        """The row cache ``row_list`` reads (None: cached as absent); not to be written to."""
        return self._rows

    def row_list(self, conn: sqlite3.Connection, ids: list[str]) -> list[CandidateRow | None]:
        """The row of each of ``ids`` (distinct, found live and unlocked by the graph), None
        for one with none: ``unlocked_rows`` without its dict, for a caller that joins the
        rows to its own keys (``WarmGraph.links_with_ends``: ~80 ends a query). One pass
        when every row is cached (a prepared store's always are): a None among them is one
        not cached yet or cached as absent, and ``_read_rows`` tells which."""
        rows = self._rows
        found = list(map(rows.get, ids))
        if None in found:
            self._read_rows(conn, ids)
            found = list(map(rows.__getitem__, ids))
        return found

    def truth_links_of(
        self, conn: sqlite3.Connection, ids: Iterable[str], kinds: frozenset[str], still: str
    ) -> tuple[dict[str, list[TruthLink]], dict[str, End]]:
        """What store/truth.py's ``_LINKS`` reads of ``ids``, as ``_Memo.take`` keeps it: each
        asked id's truth links (an edge of a type in ``kinds`` to a live belief), for those
        that have any, in the statement's order; and each far end's (locked, row from the row
        cache, whether it has no ``still`` (SUPERSEDES) edge at all). Made straight from the
        graph's links: no row of eleven columns a link, taken apart again (a first pass at a
        million beliefs meets ~40 linked beliefs a query)."""
        graph = self.graph
        held = graph.truth_found(ids, kinds)
        if held is not None:  # (laid out: each end's rowid known, no search of the ids)
            found, fars = held
            ends, end_rids = list(fars), list(fars.values())
            self._read_rows(conn, ends, fars)
            facts = self._end_facts(ends, graph.end_facts(ends, still, end_rids))
            if len(facts) < len(ends):
                found = _with_ends(found, facts)
            return found, facts
        links = graph.truth_links(ids, kinds)
        if not links:
            return {}, {}
        ends = list(dict.fromkeys(map(_FAR, links)))
        self._read_rows(conn, ends)
        facts = self._end_facts(ends, graph.end_facts(ends, still))
        found = {}
        for asked, src, dst, kind, far in links:
            if far in facts:
                if (got := found.get(asked)) is None:
                    found[asked] = [(src, dst, kind)]
                else:
                    got.append((src, dst, kind))
        return found, facts

    def _end_facts(self, ends: list[str], facts: list[tuple[bool, bool]]) -> dict[str, End]:
        """(locked, row, unmoved) of each of ``ends`` (their rows read) by id. An end another
        connection deleted since the version was checked has no row: it is left out, as the
        SQL statement's join to ``beliefs`` leaves its link out."""
        rows = self._rows
        return {
            end: (locked, row, unmoved)
            for end, (locked, unmoved) in zip(ends, facts, strict=True)
            if (row := rows[end]) is not None
        }

    def _read_rows(
        self, conn: sqlite3.Connection, ids: list[str], rids: Mapping[str, int] | None = None
    ) -> None:
        """Cache the rows of ``ids`` not cached yet (None for an id with no belief): from
        the row table, and from SQL for any it does not hold (none, in one version).
        ``rids``: each id's rowid, when the caller knows them."""
        held = None
        if self.table is not None:
            held = functools.partial(self._held_rows, known=rids)
        _fill(self._rows, ids, None, conn, _ROWS, lambda r: (r[0], tuple(r[1:])), held)

    def _held_rows(
        self, ids: list[str], known: Mapping[str, int] | None = None
    ) -> dict[str, CandidateRow]:
        """The rows the row table holds of ``ids`` (the live beliefs among them); ``known``:
        their rowids, when the caller has them."""
        table = self.table
        assert table is not None
        rids = self.graph.rids(ids) if known is None else list(map(known.__getitem__, ids))
        held = [(i, rid) for i, rid in zip(ids, rids, strict=True) if rid >= 0]
        found = table.rows([rid for _, rid in held])
        return {i: row for (i, _), row in zip(held, found, strict=True) if row is not None}

    def trails(self, conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, str]:
        """``GraphQueries.trails`` from the cache (the caller knows the store has some)."""
        asked = list(dict.fromkeys(ids))
        _fill(self._trails, asked, None, conn, _TRAILS, tuple)
        return {i: trail for i in asked if (trail := self._trails[i]) is not None}

    def stated(self, conn: sqlite3.Connection, ids: Iterable[str]) -> set[str]:
        """``GraphQueries.stated`` from the cache."""
        asked = list(dict.fromkeys(ids))
        held = None if self.table is None else self._held_stated
        _fill(self._stated, asked, False, conn, _STATED, lambda r: (r[0], True), held)
        return {i for i in asked if self._stated[i]}

    def _held_stated(self, ids: list[str]) -> dict[str, bool]:
        """``stated``'s answer for the live beliefs among ``ids``, from the row table (the
        others, forgotten or unknown, are left to SQL)."""
        table = self.table
        assert table is not None
        rids = self.graph.rids(ids)
        held = [(i, rid) for i, rid in zip(ids, rids, strict=True) if rid >= 0]
        found = table.stated([rid for _, rid in held])
        return {i: flag for (i, _), flag in zip(held, found, strict=True) if flag is not None}

    def sharing_short_prefix(self, conn: sqlite3.Connection, ids: list[str]) -> set[str]:
        """``GraphQueries.sharing_short_prefix`` from the cache."""
        from credo.store.beliefs import SHARING_SHORT_PREFIX

        _fill(self._shared, ids, False, conn, SHARING_SHORT_PREFIX, lambda r: (r[0], True))
        return {i for i in ids if self._shared[i]}

    def short_prefix_sharing(self) -> Mapping[str, bool] | None:
        """Every derived id -> whether its short prefix starts another stored id, when the
        index read made them all (``prepare``); else None."""
        return self._shared if self.every_shared else None

    def passage_definitions(
        self, conn: sqlite3.Connection, ids: Iterable[str]
    ) -> dict[str, list[DefnHit]]:
        """``DefnTable.passage_definitions`` from the cache: a code store's keyword hits
        are mostly passages met before, whose definitions SQL read for every query."""
        from credo.store.defns import read_passage_definitions

        known = self._defns
        missing = _unknown(known, ids)
        if missing:
            known.update(dict.fromkeys(missing))
            found = read_passage_definitions(conn, missing)
            known.update((i, tuple(hits)) for i, hits in found.items())
        # (lists of their own, in id order, as SQL gives them)
        return {i: list(hits) for i in sorted(set(ids)) if (hits := known[i]) is not None}

    def anchors_for(
        self, conn: sqlite3.Connection, ids: Iterable[str]
    ) -> dict[str, list[DocAnchor]]:
        """``AnchorTable.anchors_for`` from the cache (a query with its document anchors
        read them for every packed passage, mostly the same ones)."""
        from credo.store.anchors import read_anchors_for

        known = self._anchors
        missing = _unknown(known, ids)
        if missing:
            known.update(dict.fromkeys(missing, ()))
            found = read_anchors_for(conn, missing)
            known.update((i, tuple(anchors)) for i, anchors in found.items())
        return {i: list(anchors) for i in sorted(set(ids)) if (anchors := known[i])}

    def retention(self, conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, str]:
        """``GraphQueries.retention`` from the cache (the caller knows the store has some)."""
        asked = list(dict.fromkeys(ids))
        _fill(self._classes, asked, "fact", conn, _CLASSES, tuple)
        return {i: kind for i in asked if (kind := self._classes[i]) != "fact"}


def _with_ends(
    found: dict[str, list[TruthLink]], facts: dict[str, End]
) -> dict[str, list[TruthLink]]:
    """The links of ``found`` whose far end is in ``facts``, of the asked ids left any."""
    kept: dict[str, list[TruthLink]] = {}
    for asked, links in found.items():
        if got := [link for link in links if link[1 if link[0] == asked else 0] in facts]:
            kept[asked] = got
    return kept


def _mirror_rows(
    graph: WarmGraph, table: WarmRows, rowids: list[int]
) -> dict[int, tuple[object, ...]]:
    """The keyword mirror's belief rows (``Bm25Mirror.beliefs``) of the live ones among
    ``rowids``, from the row table: the others are left to SQL."""
    size = graph.size
    held = [r for r in rowids if 0 <= r < size]
    return {  # deleted_at is NULL: the table holds live beliefs only
        rid: (name, locked, row[0], row[1], row[2], None, row[3], row[4])
        for rid, (name, locked), row in zip(held, graph.names(held), table.rows(held), strict=True)
        if row is not None
    }


_FAR = itemgetter(4)  # of ``WarmGraph.truth_links``' rows: the far end

# What the caches read, for the ids in json ?: the SQL of GraphQueries' own reads.
_ROWS = (
    "SELECT id, content, alpha, beta, session, created_at FROM beliefs "
    "WHERE id IN (SELECT value FROM json_each(?))"
)
_TRAILS = (
    "SELECT id, substr(context, 1, instr(context || char(10), char(10)) - 1) "
    "FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) AND context <> ''"
)
_CLASSES = (
    "SELECT id, retention FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) "
    "AND retention <> 'fact'"
)
_STATED = (
    "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) "
    "AND (origin IN ('user_stated', 'user_corrected') OR kind = 'correction')"
)


def _unknown(known: dict[str, Any], ids: Iterable[str]) -> list[str]:
    """The ids of ``ids`` a per-belief cache of documents (a passage's definitions, a
    belief's anchors) lacks; all of them when the cache, past ``MAX_CACHED_DOCS``, starts
    over."""
    asked = list(dict.fromkeys(ids))
    missing = list(filterfalse(known.__contains__, asked))  # (C-level)
    if len(known) + len(missing) > MAX_CACHED_DOCS:
        known.clear()
        return asked
    return missing


def _fill(
    known: dict[str, Any],
    asked: list[str],
    absent: object,
    conn: sqlite3.Connection,
    sql: str,
    entry: Callable[[Any], tuple[str, Any]],
    held: Callable[[list[str]], dict[str, Any]] | None = None,
) -> None:
    """Read the ids of ``asked`` that ``known`` lacks: first from ``held`` when given (what
    memory holds), the rest by ``sql`` (``absent`` for those it finds nothing for); a cache
    past ``MAX_CACHED`` starts over."""
    missing = list(filterfalse(known.__contains__, dict.fromkeys(asked)))  # (C-level)
    if not missing:
        return
    if len(known) + len(missing) > MAX_CACHED:
        known.clear()  # and read all of ``asked``: the caller looks each of them up
        missing = list(dict.fromkeys(asked))
    if held is not None:
        found = held(missing)
        known.update(found)
        missing = [i for i in missing if i not in found]
        if not missing:
            return
    known.update(dict.fromkeys(missing, absent))
    known.update(entry(row) for row in conn.execute(sql, (json_array(missing),)))


_EVERY_TRAIL = (
    "SELECT id, substr(context, 1, instr(context || char(10), char(10)) - 1) "
    "FROM beliefs WHERE deleted_at IS NULL AND context <> ''"
)
# (id, text) of every live unlocked belief, every live belief's trail (id -> trail, for
# those with one), every truth edge (``read_truth_if_short``; None: not all read) and every
# derived id's shared-prefix answer (``WarmIndex.short_prefix_sharing``; None: not all
# made) -> what the engine keeps of the version (``WarmIndex.ahead``; its ``graph``, if
# any, the truth memo keeps: ``TruthQueries._adopt_truth``).
Ahead = Callable[
    [
        Iterable[tuple[str, str]],
        dict[str, str],
        "EveryTruthEdge | None",
        "Mapping[str, bool] | None",
        frozenset[str],
    ],
    object,
]
# The live constants (store/values.py): in no context index a cold question's names are
# read from (``named._passages_named``), so in no names map made ahead (review84).
_CONSTANTS = "SELECT b.id FROM values_fts_docsize AS d JOIN beliefs AS b ON b.rid = d.id"


class WarmPlan(NamedTuple):
    """What ``read_index`` needs of a store, taken on the store's own connection."""

    path: str
    version: tuple[int, int]  # the store's version before the read began
    tokenizer: str | None  # the keyword index's tokenize option (None: no mirror)
    ahead: Ahead | None = None  # what the engine makes of a prepared store (``prepare``)


def read_index(plan: WarmPlan) -> WarmIndex:
    """Read the warm index of the store at ``plan.path`` on a connection of its own, in one
    read transaction. The store installs it only if it is still at ``plan.version``
    (``Store.install_warm``): then nothing committed since, and this read saw that version."""
    conn = connect(plan.path, read_only=True, wal=False)
    try:
        conn.execute("BEGIN")
        graph = WarmGraph(conn)
        table = WarmRows(conn, graph.size)
        mirror = _full_mirror(conn, plan.version, plan.tokenizer)
        if mirror is not None and mirror.complete:  # (its keyword top ranked on rowids)
            from credo.store.warm_keyword import read_ranks

            mirror.ranks = read_ranks(conn, graph, mirror)
        truth = read_truth_if_short(conn, graph)
        if truth is None and graph.holds_any(TRUTH_KINDS):  # (too many to read: laid out)
            graph.hold_truth(TRUTH_KINDS)
        # (every trail, for ``ahead``: only when ``prepare`` makes every belief's part)
        trails, constants = None, frozenset()
        if plan.ahead is not None and graph.preparable(PREPARED):
            trails = dict(conn.execute(_EVERY_TRAIL))
            constants = frozenset(i for (i,) in conn.execute(_CONSTANTS))
        conn.execute("COMMIT")
    finally:
        conn.close()
    index = WarmIndex(plan.version, graph, mirror, table, truth)
    index.prepare(plan.ahead, trails, constants)
    return index


def _full_mirror(
    conn: sqlite3.Connection, version: tuple[int, int], option: str | None
) -> Bm25Mirror | None:
    if option is None:
        return None
    from credo.store.bm25_mirror import Bm25Mirror
    from credo.store.fts import ANCHOR_WEIGHT, CONTENT_WEIGHT, CONTEXT_WEIGHT
    from credo.store.tokenizer import Tokenizer

    tokenizer = Tokenizer(option)
    mirror = Bm25Mirror(conn, tokenizer, version)
    mirror.read_all_terms((CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT))
    return mirror


class Keeper:
    """Keeps a shared store's warm index current from a thread of its own.

    ``poke`` after anything that may have moved the store (a request answered, a write):
    the thread then checks, and if the index is missing or stale, reads a new one off the
    lock (``read_index``) and installs it under the lock. A store that moved during the
    read is read again after ``retry_seconds``; meanwhile every read goes to SQL, with the
    same answers. ``store_of`` gives the store in use (holding ``lock``), or None; ``say``
    gets one line per index installed and per failure (the server's log).
    """

    def __init__(
        self,
        lock: threading.Lock,
        store_of: Callable[[], SqliteStore | None],
        say: Callable[[str], None],
        *,
        retry_seconds: float = 0.5,
    ) -> None:
        self._lock = lock
        self._store_of = store_of
        self._say = say
        self._retry = retry_seconds
        self._wake = threading.Event()
        self._stopped = False
        self.installed = 0  # indexes put to use, for tests and the bench
        self._thread = threading.Thread(target=self._run, name="credo-warm-index", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopped = True
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._stopped:
                return
            self._wake.clear()
            try:
                settled = self.refresh()
            except Exception as exc:  # the reads stay on SQL; say why, once per failure
                self._say(f"no warm index: {type(exc).__name__}: {exc}")
                settled = True
            if not settled and not self._stopped:
                threading.Event().wait(self._retry)
                self._wake.set()

    def refresh(self) -> bool:
        """Make the index current; False when the store moved while it was read."""
        with self._lock:
            store = self._store_of()
            if store is None or store.warm:
                return True
            plan = store.warm_plan()
        if plan is None:
            return True
        started = time.perf_counter()
        index = read_index(plan)
        with self._lock:
            if self._store_of() is not store or not store.install_warm(index):
                return False
        self.installed += 1
        seconds = time.perf_counter() - started
        self._say(f"warm index of {index.graph.live} beliefs read in {seconds:.2f} s")
        return True
