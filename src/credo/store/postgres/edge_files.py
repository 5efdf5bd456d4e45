"""``edge_files`` on PostgreSQL: the statements of store/edge_files.py, with the same
results (lists travel as arrays)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from credo.store.edge_files import EdgeFileRows, EdgeFileTable
from credo.store.postgres.pyformat import pyformat

if TYPE_CHECKING:
    import psycopg


class EdgeFiles(EdgeFileRows):
    conn: psycopg.Connection
    _id_list = staticmethod(list)
    _OF_FILE = pyformat(EdgeFileTable._OF_FILE)
    _ADD = pyformat(EdgeFileTable._ADD)
    _DROP = pyformat(EdgeFileTable._DROP)
    _OWNED = "SELECT DISTINCT src, dst, type FROM edge_files WHERE src = ANY(%s)"
    _DELETE_EDGE = pyformat(EdgeFileTable._DELETE_EDGE)
    _CITING = pyformat(EdgeFileTable._CITING)
    _UNKNOWN_FILES = EdgeFileTable._UNKNOWN_FILES
    _PENDING_DROP = pyformat(EdgeFileTable._PENDING_DROP)
    _PENDING_DROP_TO = pyformat(EdgeFileTable._PENDING_DROP_TO)
    _PENDING_ADD = pyformat(EdgeFileTable._PENDING_ADD)
    _PENDING_TO = pyformat(EdgeFileTable._PENDING_TO)
    _HOLD_CITES_TO = pyformat(EdgeFileTable._HOLD_CITES_TO)

    def _many(self, sql: str, rows: list[tuple[str, ...]]) -> int:
        if not rows:
            return 0
        with self.conn.cursor() as cur:
            cur.executemany(sql, rows)  # type: ignore[arg-type]
            return max(cur.rowcount, 0)  # (psycopg sums the rows of every execution)
