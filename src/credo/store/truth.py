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
from collections.abc import Iterable

from credo.store.db import json_array, store_version
from credo.store.fts import CandidateRow

SUPERSEDES = "SUPERSEDES"
CONTRADICTS = "CONTRADICTS"
RESOLVES = "RESOLVES"
_TYPES = f"('{SUPERSEDES}','{CONTRADICTS}','{RESOLVES}')"


# A SUPERSEDES, CONTRADICTS or RESOLVES edge between two live beliefs: (src, dst, type).
# Plain tuples, like CandidateRow: a named tuple class costs every fresh process ~0.2 ms.
TruthLink = tuple[str, str, str]


# Each truth edge touching one of the ids (json ?1) whose other end is live, with that end's
# row (locked, then a CandidateRow's columns): out-edges by the primary key, in-edges by
# edges_dst, which holds (dst, src, type): neither side reads an edge row.
_LINKS = (
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    "b.created_at FROM json_each(?1) AS j CROSS JOIN edges AS e ON e.src = j.value "
    f"JOIN beliefs AS b ON b.id = e.dst WHERE e.type IN {_TYPES} AND b.deleted_at IS NULL "
    "UNION ALL "
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    "b.created_at FROM json_each(?1) AS j CROSS JOIN edges AS e ON e.dst = j.value "
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
# every other end met; which of those ends are locked).
TruthFacts = tuple[dict[str, tuple[TruthLink, ...]], dict[str, CandidateRow], frozenset[str]]


# A far end as read: (locked, its CandidateRow).
_End = tuple[bool, CandidateRow]
_Seen = tuple[tuple[int, int], dict[str, tuple[TruthLink, ...]], dict[str, _End]]


class TruthQueries:
    conn: sqlite3.Connection
    # (store version, id -> its links, id -> far end) as last read.
    _truth_seen: "_Seen | None" = None

    def truth_links(self, ids: Iterable[str]) -> TruthFacts:
        """The truth links of ``ids`` (which must be live): id -> its SUPERSEDES, CONTRADICTS
        and RESOLVES edges whose other end is live, sorted, for the ids that have any; and
        the row of every other end. One query for the ids not read since the store last
        changed."""
        wanted = list(dict.fromkeys(ids))
        if self.conn.in_transaction:  # what it sees may yet be rolled back: keep nothing
            links: dict[str, tuple[TruthLink, ...]] = {}
            ends: dict[str, _End] = {}
            self._read_truth(wanted, links, ends)
        else:
            version = store_version(self.conn)
            seen = self._truth_seen
            if seen is None or seen[0] != version:
                seen = self._truth_seen = (version, {}, {})
            _, links, ends = seen
            missing = [i for i in wanted if i not in links]
            if missing:
                self._read_truth(missing, links, ends)
        found = {i: got for i in wanted if (got := links[i])}
        if not found:
            return {}, {}, frozenset()
        far = {dst if src == i else src for i, got in found.items() for src, dst, _ in got}
        return (
            found,
            {end: ends[end][1] for end in far},
            frozenset(end for end in far if ends[end][0]),
        )

    def _read_truth(
        self, ids: list[str], links: dict[str, tuple[TruthLink, ...]], ends: dict[str, _End]
    ) -> None:
        """Read the links of ``ids`` into ``links`` (an empty tuple for none) and their far
        ends into ``ends``."""
        read: dict[str, list[TruthLink]] = {i: [] for i in ids}
        for r in self.conn.execute(_LINKS, (json_array(ids),)):
            read[r[0]].append((r[1], r[2], r[3]))
            ends[r[2] if r[1] == r[0] else r[1]] = (bool(r[4]), (r[5], r[6], r[7], r[8], r[9]))
        for i, got in read.items():
            links[i] = tuple(sorted(got)) if got else ()

    def supersedes_path(self, start: str, goal: str) -> bool:
        """Whether SUPERSEDES edges lead from ``start`` to ``goal`` (any belief, forgotten
        ones included)."""
        return self.conn.execute(_PATH, (start, goal)).fetchone() is not None

    def lineage_edges(self, belief_id: str) -> list[tuple[str, str]]:
        """(src, dst) of every SUPERSEDES edge in the lineage of ``belief_id``: the beliefs
        joined to it by SUPERSEDES in either direction, forgotten ones included."""
        rows = self.conn.execute(_LINEAGE, (belief_id, LINEAGE_LIMIT)).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

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
