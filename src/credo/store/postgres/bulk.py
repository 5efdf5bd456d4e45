"""A bulk insert of beliefs and edges on PostgreSQL (the records import): store/bulk.py's
``BulkLoad`` interface, rows sent with COPY. Nothing is suspended: the triggers queue the
new rows for the keyword index, which is built once, before COMMIT."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from credo.store.bulk import BELIEF_COLUMNS, EDGE_COLUMNS
from credo.store.postgres.tables import belief_row

if TYPE_CHECKING:
    import psycopg


class BulkLoad:
    """``start()``, any number of ``add_beliefs`` / ``add_edges``, then ``finish()``."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn
        self.beliefs_added = 0

    def start(self) -> None:
        """Nothing to suspend (the module docstring)."""

    def add_beliefs(self, rows: Sequence[Sequence[object]]) -> int | None:
        """Insert belief rows (``NewBelief``). Returns None: the caller logs them itself
        (rids are the server's to give)."""
        self._copy("beliefs", BELIEF_COLUMNS, [belief_row(r) for r in rows])
        self.beliefs_added += len(rows)
        return None

    def add_edges(self, rows: Sequence[Sequence[object]]) -> None:
        self._copy("edges", EDGE_COLUMNS, rows)

    def finish(self) -> None:
        """The triggers did the rest (anchor text, the index queue)."""

    def close(self) -> None:
        """Nothing to restore."""

    def _copy(self, table: str, columns: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        with self.conn.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
