"""SQL over ``edge_files``: which ingested file states which edge that ingest wrote.

An edge ingest wrote has one row per file that states it now (a CITES edge also names the
file it cites: the link is to that file, whose first belief the edge points at, and that
belief may change while the citing file does not). When a file stops stating an edge, its
row goes; an edge whose last row goes is deleted. An edge that another writer (``relate``,
an import, a capture) wrote first has no row and is never deleted by ingest; ``relate``
refuses an edge that exists, so no other writer ever writes an edge ingest owns. (An
import brings the rows an export of ingest's state carries: knowledge/ingest_records.py.)
The rows cascade with their edge (a hard forget deletes both).

A link whose cited file has no cite target when it is settled (the file is not ingested,
holds no chunk, or its first belief is the linking one) makes no edge; it waits in
``pending_cites`` (file, src, cited file), and becomes a CITES edge when the cited file
gets a target (knowledge/ingest/run.py).

The Python is shared by both backends; each gives its statements (PostgreSQL's in
store/postgres/edge_files.py) and how a list travels as one parameter.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from credo.store.db import json_array

EdgeKey = tuple[str, str, str]
"""(src, dst, type) of an edge."""

EdgeSource = tuple[str, str, str, str]
"""(src, dst, type, cited file) of an edge a file states; the cited file is ``''`` but for
CITES (and for the rows backfilled from the log by m012, which a re-read replaces)."""

FileEdgeSource = tuple[str, str, str, str, str]
"""(file, src, dst, type, cited file): one row of ``edge_files``."""

PendingCite = tuple[str, str, str]
"""(file, src, cited file): one row of ``pending_cites``."""

# The _meta key set while some rows name files the ledger does not hold (m012's backfill, or
# an import of such rows): the next ingest run settles them (knowledge/ingest/run.py).
UNSETTLED = "edge_files_unsettled"

_COLUMNS = "src, dst, type, cited_file"


class EdgeFileRows:
    """The reads and writes of ``edge_files`` whose Python is the same on both backends."""

    conn: Any  # sqlite3.Connection or psycopg.Connection
    _OF_FILE: ClassVar[str]  # (file): _COLUMNS
    _ADD: ClassVar[str]  # (file, src, dst, type, cited_file), many
    _DROP: ClassVar[str]  # (file, src, dst, type, cited_file), many
    _OWNED: ClassVar[str]  # (srcs): src, dst, type of the edges with a row
    _DELETE_EDGE: ClassVar[str]  # (src, dst, type), many
    _CITING: ClassVar[str]  # (cited file): file, src, dst of the CITES rows naming it
    _UNKNOWN_FILES: ClassVar[str]  # (): the files with rows that the ledger does not hold
    _PENDING_DROP: ClassVar[str]  # (file): delete its pending cites
    _PENDING_DROP_TO: ClassVar[str]  # (file, cited file): delete its pending cites to it
    _PENDING_ADD: ClassVar[str]  # (file, src, cited file), many
    _PENDING_TO: ClassVar[str]  # (cited file): file, src by file, src
    _HOLD_CITES_TO: ClassVar[str]  # (belief, belief): its CITES rows copied to pending
    _UNSETTLED = (  # (): cited file, its target, of the links that disagree with the ledger
        "SELECT c.cited_file, f.first_belief FROM ("
        " SELECT DISTINCT cited_file, dst FROM edge_files WHERE cited_file <> '' AND type = 'CITES'"
        ") c LEFT JOIN ingested_files f ON f.path = c.cited_file "
        "WHERE f.first_belief IS NULL OR f.first_belief <> c.dst "
        "UNION SELECT p.cited_file, f.first_belief FROM pending_cites p "
        "JOIN ingested_files f ON f.path = p.cited_file "
        "WHERE f.first_belief IS NOT NULL AND f.first_belief <> p.src ORDER BY 1"
    )

    # Every row, in key order: what an export writes (the same SQL on both backends).
    _ALL = f"SELECT file, {_COLUMNS} FROM edge_files ORDER BY file, {_COLUMNS}"
    _PENDING_ALL = "SELECT file, src, cited_file FROM pending_cites ORDER BY file, src, cited_file"

    @staticmethod
    def _id_list(ids: Iterable[str]) -> object:
        raise NotImplementedError

    def iter_edge_sources(self) -> Iterator[FileEdgeSource]:
        """Every row of ``edge_files``, by (file, src, dst, type, cited file)."""
        for r in self.conn.execute(self._ALL):
            yield (str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]))

    def iter_pending_cites(self) -> Iterator[PendingCite]:
        """Every row of ``pending_cites``, by (file, src, cited file)."""
        for r in self.conn.execute(self._PENDING_ALL):
            yield (str(r[0]), str(r[1]), str(r[2]))

    def insert_edge_sources(self, rows: Iterable[FileEdgeSource]) -> int:
        """Add rows (each edge stored, and ingest's); a row already held stays as it is.
        Returns the rows added (the records import: it only adds)."""
        return self._many(self._ADD, list(rows))

    def insert_pending_cites(self, rows: Iterable[PendingCite]) -> int:
        """Add waiting links (each src stored); returns the rows added."""
        return self._many(self._PENDING_ADD, list(rows))

    def edge_sources_of_file(self, file: str) -> set[EdgeSource]:
        """The edges ``file`` states, as recorded (its rows)."""
        return {
            (str(r[0]), str(r[1]), str(r[2]), str(r[3]))
            for r in self.conn.execute(self._OF_FILE, (file,))
        }

    def add_edge_sources(self, file: str, rows: Iterable[EdgeSource]) -> None:
        """Record that ``file`` states these edges (each stored, and written by ingest)."""
        self._many(self._ADD, [(file, *row) for row in rows])

    def owned_edge_keys(self, keys: Iterable[EdgeKey]) -> set[EdgeKey]:
        """Those of ``keys`` that ingest wrote: some file still states them."""
        wanted = set(keys)
        if not wanted:
            return set()
        rows = self.conn.execute(self._OWNED, (self._id_list(sorted({k[0] for k in wanted})),))
        return wanted.intersection((str(r[0]), str(r[1]), str(r[2])) for r in rows)

    def drop_edge_sources(self, file: str, rows: Iterable[EdgeSource]) -> list[EdgeKey]:
        """``file`` no longer states these edges: its rows go, and so does each edge no
        file states any more. Returns the edges deleted, in (src, dst, type) order."""
        dropped = [(file, *row) for row in rows]
        if not dropped:
            return []
        self._many(self._DROP, dropped)
        keys = {(row[1], row[2], row[3]) for row in dropped}
        srcs = self._id_list(sorted({k[0] for k in keys}))
        still = {(str(r[0]), str(r[1]), str(r[2])) for r in self.conn.execute(self._OWNED, (srcs,))}
        orphans = sorted(keys - still)
        self._many(self._DELETE_EDGE, orphans)
        return orphans

    def citing_sources(self, cited_file: str) -> list[tuple[str, str, str]]:
        """(citing file, src, dst) of the CITES rows whose link names ``cited_file``."""
        return [
            (str(r[0]), str(r[1]), str(r[2]))
            for r in self.conn.execute(self._CITING, (cited_file,))
        ]

    def edge_files_off_ledger(self) -> list[str]:
        """The files with rows that the ``ingested_files`` ledger does not hold (m012's
        backfill of files that vanished before it), by name."""
        return [str(r[0]) for r in self.conn.execute(self._UNKNOWN_FILES)]

    def unsettled_cited_files(self) -> list[tuple[str, str | None]]:
        """(cited file, its cite target now) of the files some link disagrees with: a CITES
        whose target is not the file's first belief in the ledger (it changed, or the file
        left the ledger), or a pending link whose file now has a target. Read from the store,
        not from what a run remembers, so a run stopped after its files committed, or
        another process's run, leaves nothing the next run does not settle."""
        return [
            (str(r[0]), None if r[1] is None else str(r[1]))
            for r in self.conn.execute(self._UNSETTLED)
        ]

    def set_pending_cites(self, file: str, rows: Iterable[tuple[str, str]]) -> None:
        """``file``'s links (src, cited file) that make no edge now, in place of its last."""
        self.conn.execute(self._PENDING_DROP, (file,))
        self._many(self._PENDING_ADD, [(file, src, cited) for src, cited in rows])

    def set_pending_cites_to(self, file: str, cited_file: str, srcs: Iterable[str]) -> None:
        """``file``'s links to ``cited_file`` that make no edge now, in place of its last."""
        self.conn.execute(self._PENDING_DROP_TO, (file, cited_file))
        self._many(self._PENDING_ADD, [(file, src, cited_file) for src in srcs])

    def pending_cites_to(self, cited_file: str) -> list[tuple[str, str]]:
        """(file, src) of the links to ``cited_file`` that wait for a target."""
        return [(str(r[0]), str(r[1])) for r in self.conn.execute(self._PENDING_TO, (cited_file,))]

    def hold_cites_to(self, belief_id: str) -> None:
        """The belief is about to be deleted (a hard forget): the links whose CITES point at
        it wait for their file's next cite target instead of going with the edge (which
        cascades, rows and all)."""
        self.conn.execute(self._HOLD_CITES_TO, (belief_id, belief_id))

    def _many(self, sql: str, rows: list[tuple[str, ...]]) -> int:
        """Run ``sql`` once per row; returns the rows it changed."""
        raise NotImplementedError


class EdgeFileTable(EdgeFileRows):
    conn: sqlite3.Connection
    _OF_FILE = f"SELECT {_COLUMNS} FROM edge_files WHERE file = ?"
    _ADD = f"INSERT INTO edge_files(file, {_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
    _DROP = (
        "DELETE FROM edge_files WHERE file = ? AND src = ? AND dst = ? AND type = ? "
        "AND cited_file = ?"
    )
    # The rows of the given sources' edges (the (src, dst, type) index: a prefix scan each).
    _OWNED = (
        "SELECT DISTINCT src, dst, type FROM edge_files "
        "WHERE src IN (SELECT value FROM json_each(?))"
    )
    _DELETE_EDGE = "DELETE FROM edges WHERE src = ? AND dst = ? AND type = ?"
    _CITING = (
        "SELECT file, src, dst FROM edge_files WHERE cited_file = ? AND type = 'CITES' "
        "ORDER BY file, src, dst"
    )
    _UNKNOWN_FILES = (
        "SELECT DISTINCT file FROM edge_files "
        "WHERE file NOT IN (SELECT path FROM ingested_files) ORDER BY file"
    )

    _PENDING_DROP = "DELETE FROM pending_cites WHERE file = ?"
    _PENDING_DROP_TO = "DELETE FROM pending_cites WHERE file = ? AND cited_file = ?"
    _PENDING_ADD = (
        "INSERT INTO pending_cites(file, src, cited_file) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
    )
    _PENDING_TO = "SELECT file, src FROM pending_cites WHERE cited_file = ? ORDER BY file, src"
    _HOLD_CITES_TO = (
        # (through edges' index on dst, then edge_files' on the edge: no scan of the table)
        "INSERT INTO pending_cites(file, src, cited_file) SELECT f.file, f.src, f.cited_file "
        "FROM edges e JOIN edge_files f ON f.src = e.src AND f.dst = e.dst AND f.type = e.type "
        "WHERE e.dst = ? AND e.type = 'CITES' AND f.cited_file <> '' AND e.src <> ? "
        "ON CONFLICT DO NOTHING"
    )
    _id_list = staticmethod(json_array)

    def _many(self, sql: str, rows: list[tuple[str, ...]]) -> int:
        if not rows:  # (most files have no pending cite and drop no edge)
            return 0
        return self.conn.executemany(sql, rows).rowcount
