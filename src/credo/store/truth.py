"""Reads for truth maintenance: the SUPERSEDES, CONTRADICTS and RESOLVES edges between live
beliefs (SYSTEM.md § Beliefs change). The store only reads them; which belief is current
is decided above (``credo.retrieval.currency``).

A retrieve asks for the links of its candidates in one batched query (``truth_links``). A
long-lived process asks again for the beliefs its next query meets, so the answers are kept
per belief until the store changes (another connection commits or this one writes: the
version ``current_locks`` watches); a warm engine then reads only the beliefs it has not
met since the last write.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from credo.store.db import json_array, store_version
from credo.store.fts import CANDIDATE_CREATED, CandidateRow

if TYPE_CHECKING:
    from credo.store.warm_graph import WarmGraph

SUPERSEDES = "SUPERSEDES"
CONTRADICTS = "CONTRADICTS"
RESOLVES = "RESOLVES"
_TYPES = f"('{SUPERSEDES}','{CONTRADICTS}','{RESOLVES}')"
_KINDS = frozenset((SUPERSEDES, CONTRADICTS, RESOLVES))
TRUTH_KINDS = _KINDS  # (what a warm index lays out: ``WarmGraph.hold_truth``)
_SAME_KIND = {k: k for k in _KINDS}  # a type as read -> the constant (compared by identity)


# A SUPERSEDES, CONTRADICTS or RESOLVES edge between two live beliefs: (src, dst, type).
# Plain tuples, like CandidateRow: a named tuple class costs every fresh process ~0.2 ms.
TruthLink = tuple[str, str, str]


# Whether the belief ``b`` has no SUPERSEDES edge at all (forgotten ends included: a safe
# "no"), by two index probes (the primary key, edges_dst; neither reads an edge row): such
# a far end is current and hides nothing, so truth maintenance need not read its links.
_STILL = (
    f"NOT EXISTS (SELECT 1 FROM edges AS m WHERE m.dst = b.id AND m.type = '{SUPERSEDES}') "
    f"AND NOT EXISTS (SELECT 1 FROM edges AS m WHERE m.src = b.id AND m.type = '{SUPERSEDES}')"
)

# Each truth edge touching one of the ids (json ?1) whose other end is live, with that end's
# row (locked, then a CandidateRow's columns, then ``_STILL``): out-edges by the primary
# key, in-edges by edges_dst, which holds (dst, src, type): neither side reads an edge row.
_LINKS = (
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    f"b.created_at, {_STILL} FROM json_each(?1) AS j CROSS JOIN edges AS e ON e.src = j.value "
    f"JOIN beliefs AS b ON b.id = e.dst WHERE e.type IN {_TYPES} AND b.deleted_at IS NULL "
    "UNION ALL "
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    f"b.created_at, {_STILL} FROM json_each(?1) AS j CROSS JOIN edges AS e ON e.dst = j.value "
    f"JOIN beliefs AS b ON b.id = e.src WHERE e.type IN {_TYPES} AND b.deleted_at IS NULL"
)

# The supersession lineage of a belief: every belief joined to it by SUPERSEDES edges in
# either direction, forgotten ones included (history is an audit view).
_LINEAGE = (
    "WITH RECURSIVE n(id) AS (SELECT ?1 UNION "
    f"SELECT e.src FROM n JOIN edges AS e ON e.dst = n.id WHERE e.type = '{SUPERSEDES}' UNION "
    f"SELECT e.dst FROM n JOIN edges AS e ON e.src = n.id WHERE e.type = '{SUPERSEDES}' "
    "LIMIT ?2) "
    "SELECT e.src, e.dst FROM n JOIN edges AS e ON e.src = n.id "
    f"WHERE e.type = '{SUPERSEDES}' ORDER BY e.src, e.dst"
)

# Is there a SUPERSEDES path from ?1 to ?2 (forgotten beliefs included: one revived would
# bring the path back)?
_PATH = (
    "WITH RECURSIVE n(id) AS (SELECT ?1 UNION "
    f"SELECT e.dst FROM n JOIN edges AS e ON e.src = n.id WHERE e.type = '{SUPERSEDES}') "
    "SELECT 1 FROM n WHERE id = ?2 LIMIT 1"
)

LINEAGE_LIMIT = 10_000  # beliefs in one lineage: a bound, never reached by real chains


# What ``truth_links`` read: (each asked belief's links, for those that have any; the row of
# every other end met; which of those ends are locked), and optionally which of those ends
# have no live SUPERSEDES edge (a fetch that does not know leaves it out: every end may).
TruthFacts = (
    tuple[dict[str, tuple[TruthLink, ...]], dict[str, CandidateRow], frozenset[str]]
    | tuple[
        dict[str, tuple[TruthLink, ...]], dict[str, CandidateRow], frozenset[str], frozenset[str]
    ]
)


# A far end as read: (locked, its CandidateRow, it has no SUPERSEDES edge).
End = tuple[bool, CandidateRow, bool]

# Every truth edge between two live beliefs, with both ends' rows: the whole index at once.
_ALL = (
    "SELECT e.src, e.dst, e.type, s.locked, s.content, s.alpha, s.beta, s.session, "
    "s.created_at, d.locked, d.content, d.alpha, d.beta, d.session, d.created_at "
    "FROM edges AS e JOIN beliefs AS s ON s.id = e.src JOIN beliefs AS d ON d.id = e.dst "
    f"WHERE e.type IN {_TYPES} AND s.deleted_at IS NULL AND d.deleted_at IS NULL"
)
# What reading every truth edge costs per edge of the store, before a store has measured its
# own: the first price in the ski-rental rule below. ~0.35 us an edge at 20k edges here, 2.4
# us at 2M (cold pages, a quarter of them truth edges): the larger, so a big store never buys
# a read that would stall a query on a guess.
ESTIMATED_SECONDS_PER_EDGE = 2.5e-6
MIN_PRICE_SECONDS = 0.002  # below this much spent, no full read is worth a count of edges
# A full read is bought only while it stays short: at a million beliefs with a quarter of a
# million truth edges it took ~5 s and ~390 MiB, a stall no query may take. Such a store stays
# on batched reads (a warm engine's reads per query are then those of the beliefs it meets).
MAX_FULL_READ_SECONDS = 0.25
# Beliefs whose links one version keeps before it starts over: a long-lived process at one
# version would otherwise keep every belief it ever met.
MAX_KEPT = 200_000


# (every truth link by belief, every end's row, the read's seconds per edge of the store, and
# whether no dispute was told after what it disputes: ``TruthReader.told_in_order``)
EveryTruthEdge = tuple[dict[str, tuple[TruthLink, ...]], dict[str, End], float, bool]


def read_every_truth_edge(
    conn: sqlite3.Connection, graph: "WarmGraph | None" = None
) -> tuple[dict[str, tuple[TruthLink, ...]], dict[str, End]]:
    """Every live truth edge on ``conn``: each linked belief's links, sorted, and each end's
    (locked, row, still: no live SUPERSEDES edge). With ``graph`` (a warm index's, read in
    the same transaction), each id is the graph's own object, the one the ranked ids are:
    a look-up of a candidate then finds its key by identity, without reading a second copy
    of the string (a query probes ~45 keys here and ~45 more in the truth graph)."""
    read: dict[str, list[TruthLink]] = {}
    ends: dict[str, End] = {}
    rids, names = graph.id_table if graph is not None else ({}, ())
    for r in conn.execute(_ALL):
        src, dst = r[0], r[1]
        if names:  # (both ends are in the graph: one snapshot)
            src, dst = names[rids[src]] or src, names[rids[dst]] or dst
        link = (src, dst, _SAME_KIND.get(r[2], r[2]))
        read.setdefault(src, []).append(link)
        read.setdefault(dst, []).append(link)
        ends[src] = (bool(r[3]), (r[4], r[5], r[6], r[7], r[8]), True)
        ends[dst] = (bool(r[9]), (r[10], r[11], r[12], r[13], r[14]), True)
    links = {i: tuple(sorted(got)) for i, got in read.items()}
    for i, got in links.items():  # every live edge is here: still unless one is
        if any(kind == SUPERSEDES for _, _, kind in got):
            locked, row, _ = ends[i]
            ends[i] = (locked, row, False)
    return links, ends


def read_truth_if_short(conn: sqlite3.Connection, graph: "WarmGraph") -> "EveryTruthEdge | None":
    """``read_every_truth_edge`` when the store's edges (``graph``, read in the same
    transaction) at the estimated rate (``ESTIMATED_SECONDS_PER_EDGE``) make a read within
    ``MAX_FULL_READ_SECONDS`` and one of them is a truth edge (a warm index's read, off the
    lock), with whether no dispute was told after what it disputes; else None."""
    edges = graph.edges
    if edges * ESTIMATED_SECONDS_PER_EDGE > MAX_FULL_READ_SECONDS or not graph.holds_any(_KINDS):
        return None
    started = time.perf_counter()
    links, ends = read_every_truth_edge(conn, graph)
    seconds = (time.perf_counter() - started) / max(edges, 1)
    return links, ends, seconds, not told_later(links, ends)


def facts_of(
    links: "Mapping[str, tuple[TruthLink, ...]]", ends: "Mapping[str, End]", wanted: list[str]
) -> "TruthFacts":
    """What ``truth_links`` answers for ``wanted`` from ``links`` (by belief) and ``ends``
    (each far end's (locked, row, still)) read before."""
    found = {i: got for i in wanted if (got := links.get(i))}
    if not found:
        return {}, {}, frozenset(), frozenset()
    far = {dst if src == i else src for i, got in found.items() for src, dst, _ in got}
    return (
        found,
        {end: ends[end][1] for end in far},
        frozenset(end for end in far if ends[end][0]),
        frozenset(end for end in far if ends[end][2]),
    )


def told_later(links: "Mapping[str, tuple[TruthLink, ...]]", ends: "Mapping[str, End]") -> bool:
    """Whether one of the CONTRADICTS edges in ``links`` has a source created after its
    destination (by the ends' rows); an end without a row counts as one (it may be). A pass
    over every link (~8M instructions at 10k beliefs, more than a query): made off the lock
    with the warm index (``read_truth_if_short``), else once per version when first asked."""
    for got in links.values():
        for src, dst, kind in got:
            if kind == CONTRADICTS:
                told, was = ends.get(src), ends.get(dst)
                if (
                    told is None
                    or was is None
                    or told[1][CANDIDATE_CREATED] > was[1][CANDIDATE_CREATED]
                ):
                    return True
    return False


class _Memo:
    """The truth links read at one store version. ``complete``: every live truth edge is
    here (an id without an entry has none). ``kept``: what the engine derived from them,
    kept for as long as they hold (retrieval/pipeline.py keeps its truth graph there)."""

    __slots__ = (
        "__weakref__", "complete", "ends", "in_order", "kept", "links", "spent", "version"
    )  # fmt: skip

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.links: dict[str, tuple[TruthLink, ...]] = {}
        self.ends: dict[str, End] = {}
        self.complete = False
        self.spent = 0.0  # seconds of batched reads at this version
        self.kept: dict[str, object] = {}
        self.in_order: bool | None = None  # ``TruthReader.told_in_order``, once worked out

    def add(self, ids: list[str], rows: "Iterable[Sequence[Any]]") -> None:
        """Keep the links of ``ids`` (an empty tuple for none) and their far ends from
        ``rows`` of ``_LINKS`` (or a backend's statement of the same columns)."""
        read: dict[str, list[TruthLink]] = {i: [] for i in ids}
        for r in rows:
            read[r[0]].append((r[1], r[2], r[3]))
            self.ends[r[2] if r[1] == r[0] else r[1]] = (
                bool(r[4]),
                (r[5], r[6], r[7], r[8], r[9]),
                bool(r[10]),
            )
        for i, got in read.items():
            self.links[i] = tuple(sorted(got)) if got else ()

    def take(self, ids: list[str], found: dict[str, list[TruthLink]], ends: dict[str, End]) -> None:
        """``add`` for what a warm index made (``WarmIndex.truth_links_of``): the links of
        those of ``ids`` that have any (unsorted), and their far ends."""
        links = self.links
        links.update(dict.fromkeys(ids, ()))  # (in ``ids``' order, as ``add`` keeps them)
        for i, got in found.items():
            links[i] = tuple(sorted(got))
        self.ends.update(ends)

    def facts(self, wanted: list[str]) -> "TruthFacts":
        """What ``truth_links`` answers for ``wanted``, from the links kept."""
        return facts_of(self.links, self.ends, wanted)


class TruthReader:
    """The truth links as one retrieve reads them: at the store version seen when it began
    (data read later is at least as new, and the next retrieve sees the version move)."""

    __slots__ = ("_memo", "_read")

    def __init__(self, read: "Callable[[_Memo, Iterable[str]], TruthFacts]", memo: _Memo):
        self._read = read
        self._memo = memo

    @property
    def none(self) -> bool:
        """Whether the store is known to hold no live truth edge at this version (once every
        edge was read): then a query has nothing to ask."""
        memo = self._memo
        return memo.complete and not memo.links

    @property
    def every(self) -> dict[str, tuple[TruthLink, ...]] | None:
        """Every live truth edge by belief, when all are read at this version (a belief
        without an entry has none); else None."""
        memo = self._memo
        return memo.links if memo.complete else None

    def told_in_order(self) -> bool:
        """Whether no live CONTRADICTS edge's source was told (created) after its destination
        at this version, known once every truth edge is read: then no conflict group's order
        moves (retrieval/told_first.py) and a query need not work it out. Worked out once
        per version; False while not every edge is read (each group is then checked)."""
        memo = self._memo
        if not memo.complete:
            return False
        if memo.in_order is None:
            memo.in_order = not told_later(memo.links, memo.ends)
        return memo.in_order

    @property
    def kept(self) -> dict[str, object]:
        """What the engine derived at this version (empty when the store moved)."""
        return self._memo.kept

    def links(self, ids: Iterable[str]) -> TruthFacts:
        """``TruthQueries.truth_links`` at this reader's version."""
        return self._read(self._memo, ids)

    def kept_links(self) -> Callable[[Iterable[str]], TruthFacts]:
        """``links`` for what is kept in ``kept``: it holds this version's memo weakly, so the
        memo and what is derived from it make no reference cycle, and the store moving frees
        them by reference counting alone (the warm server holds its collector off: AGENT.md)."""
        memo, read = weakref.ref(self._memo), self._read

        def links(ids: Iterable[str]) -> TruthFacts:
            kept = memo()
            if kept is None:  # (only what the memo kept can call this, and it went with it)
                raise RuntimeError("the truth links of a store version no longer kept")
            return read(kept, ids)

        return links


class TruthLinks:
    """What both backends read of the truth edges the same way."""

    conn: Any  # sqlite3.Connection or psycopg.Connection

    def truth_reader(self) -> TruthReader:
        raise NotImplementedError

    def truth_links(self, ids: Iterable[str]) -> TruthFacts:
        """The truth links of ``ids`` (which must be live): id -> its SUPERSEDES, CONTRADICTS
        and RESOLVES edges whose other end is live, sorted, for the ids that have any; and
        the row of every other end. One query for the ids not read since the store last
        changed."""
        return self.truth_reader().links(ids)

    def contradiction_ids(self) -> list[tuple[str, str]]:
        """(src, dst) of every CONTRADICTS edge between two live beliefs, sorted (a scan of
        the edges: for ``credo conflicts``, never the read path)."""
        rows = self.conn.execute(
            "SELECT e.src, e.dst FROM edges AS e "
            "JOIN beliefs AS s ON s.id = e.src AND s.deleted_at IS NULL "
            "JOIN beliefs AS d ON d.id = e.dst AND d.deleted_at IS NULL "
            f"WHERE e.type = '{CONTRADICTS}' ORDER BY e.src, e.dst"
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]


class TruthQueries(TruthLinks):
    """Reads a long-lived process repeats (the module docstring): answers kept per belief
    until the store changes, and once the batched reads at one version have cost what
    reading every truth edge costs, every truth edge read at once (the ski-rental rule of
    the bm25 mirror, store/bm25_policy.py): a warm engine then reads none per query, a
    one-shot process (the hook, ``credo search``) never pays for the whole."""

    conn: sqlite3.Connection
    _warm_now: Callable[[], Any]  # GraphQueries': the warm index at this version, or None
    _truth_memo: _Memo | None = None
    # The last full read's measured seconds per edge of the store: a price that follows the
    # store's size (a cost in seconds measured on a small store would stay cheap after a big
    # ingest).
    _truth_seconds_per_edge: float | None = None
    # (version, its number of edges): counting them costs ~3 ms at a million beliefs
    _truth_edges: tuple[tuple[int, int], int] | None = None
    _version_now: Callable[[], tuple[int, int]]  # GraphQueries': one_version's, or read now

    def truth_reader(self) -> TruthReader:
        """A reader of the truth links at the store's current version (one version check;
        none inside a retrieve's ``one_version`` scope, which read it at its start)."""
        if self.conn.in_transaction:  # what it sees may yet be rolled back: keep nothing
            return TruthReader(self._truth_at, _Memo((-1, -1)))
        version = self._version_now()
        memo = self._truth_memo
        if (
            memo is None
            or memo.version != version
            or (not memo.complete and len(memo.links) > MAX_KEPT)
        ):
            memo = self._truth_memo = _Memo(version)
            warm = self._warm_now()
            # A warm index at this version knows every edge type: none a truth link's, and
            # every query can skip the step without asking about its candidates.
            if warm is not None and warm.version == version and not warm.graph.holds_any(_KINDS):
                memo.complete = True
        return TruthReader(self._truth_at, memo)

    def _truth_at(self, memo: _Memo, ids: Iterable[str]) -> TruthFacts:
        wanted = list(dict.fromkeys(ids))
        if not memo.complete:
            missing = [i for i in wanted if i not in memo.links]
            if missing and memo.version[0] >= 0 and self._full_read_pays(memo.spent):
                self._read_all_truth(memo)
            elif missing:
                started = time.perf_counter()
                self._read_truth(missing, memo)
                memo.spent += time.perf_counter() - started
        return memo.facts(wanted)

    def _read_truth(self, ids: list[str], memo: _Memo) -> None:
        """Read the links of ``ids`` into ``memo`` (an empty tuple for none) and their far
        ends."""
        warm = self._warm_now()
        if warm is not None:  # the warm index's graph holds every edge: no query
            memo.take(ids, *warm.truth_links_of(self.conn, ids, _KINDS, SUPERSEDES))
            return
        # Sorted: the index pages are then walked in order (a cold process reads fewer).
        memo.add(ids, self.conn.execute(_LINKS, (json_array(sorted(ids)),)))

    def _read_all_truth(self, memo: _Memo) -> None:
        """Read every live truth edge into ``memo`` and mark it complete."""
        started = time.perf_counter()
        memo.links, ends = read_every_truth_edge(self.conn)
        memo.ends.update(ends)
        memo.complete = True
        self._truth_seconds_per_edge = (time.perf_counter() - started) / max(self._edge_count(), 1)

    def _adopt_truth(
        self, version: tuple[int, int], every: "EveryTruthEdge", graph: object = None
    ) -> None:
        """Take every truth edge as a warm index read them at ``version`` (off the lock, in
        its own read: ``warm.read_index``), unless the store holds them all already; and
        ``graph``, what the engine made of them with the index (``WarmIndex.ahead``), as
        what it keeps at the version under "graph" unless it keeps one already."""
        memo = self._truth_memo
        links, ends, seconds_per_edge, in_order = every
        if memo is None or memo.version != version:
            memo = self._truth_memo = _Memo(version)
            memo.ends = ends
        elif not memo.complete:  # (read at this version already: what the engine keeps stays)
            memo.ends.update(ends)
        if graph is not None:
            memo.kept.setdefault("graph", graph)
        if memo.complete:
            return
        memo.links = links
        memo.complete = True
        memo.in_order = in_order
        self._truth_seconds_per_edge = seconds_per_edge

    def _full_read_pays(self, spent: float) -> bool:
        """Whether the batched reads at this version have cost what reading every truth edge
        costs (the ski-rental rule), and that read is short enough to take in a query."""
        price = self._truth_price(spent)
        return spent >= price and price <= MAX_FULL_READ_SECONDS

    def _truth_price(self, spent: float) -> float:
        """What reading every truth edge costs, in seconds: the store's edges (counted once
        per version, once ``spent`` makes it worth asking) at the last read's measured rate,
        else at the estimate's."""
        if spent < MIN_PRICE_SECONDS:
            return MIN_PRICE_SECONDS
        rate = self._truth_seconds_per_edge
        return self._edge_count() * (ESTIMATED_SECONDS_PER_EDGE if rate is None else rate)

    def _edge_count(self) -> int:
        version = store_version(self.conn)
        if self._truth_edges is None or self._truth_edges[0] != version:
            edges = int(self.conn.execute("SELECT count(*) FROM edges").fetchone()[0])
            self._truth_edges = (version, edges)
        return self._truth_edges[1]

    def supersedes_path(self, start: str, goal: str) -> bool:
        """Whether SUPERSEDES edges lead from ``start`` to ``goal`` (any belief, forgotten
        ones included)."""
        return self.conn.execute(_PATH, (start, goal)).fetchone() is not None

    def supersedes_below(self, ids: Iterable[str]) -> list[tuple[str, str]]:
        """(src, dst) of every SUPERSEDES edge reachable from ``ids`` by following them from
        src to dst (any belief, forgotten ones included): what a cycle check needs."""
        rows = self.conn.execute(
            "WITH RECURSIVE n(id) AS (SELECT value FROM json_each(?1) UNION "
            f"SELECT e.dst FROM n JOIN edges AS e ON e.src = n.id WHERE e.type = '{SUPERSEDES}') "
            "SELECT e.src, e.dst FROM n JOIN edges AS e ON e.src = n.id "
            f"WHERE e.type = '{SUPERSEDES}' ORDER BY e.src, e.dst",
            (json_array(sorted(set(ids))),),
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def lineage_edges(self, belief_id: str) -> list[tuple[str, str]]:
        """(src, dst) of every SUPERSEDES edge in the lineage of ``belief_id``: the beliefs
        joined to it by SUPERSEDES in either direction, forgotten ones included."""
        rows = self.conn.execute(_LINEAGE, (belief_id, LINEAGE_LIMIT)).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]
