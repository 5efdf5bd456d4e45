"""A SQLite store's rows out and in, table by table: the two ends of ``credo migrate``
(store/transfer.py). Reads run in one read transaction, a snapshot while writers go on
(WAL); loads run in one write transaction, the FTS index built once at the end."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING

from credo.store.bulk import insert_rows

if TYPE_CHECKING:
    from credo.store.db import Transactions
    from credo.store.transfer import Table


class SqliteLoader:
    """Rows into the tables of one SQLite store, inside its write transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def count(self, table: str) -> int:
        return int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    def add(self, table: Table, rows: list[tuple[object, ...]]) -> None:
        insert_rows(self.conn, table.name, ", ".join(table.columns), rows)


class TableDump:
    conn: sqlite3.Connection
    path: str
    _tx: Transactions

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Every read inside sees the store as it was at the first one."""
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.conn.execute("ROLLBACK")  # nothing was written: ending the read is all

    def read_rows(self, table: Table, batch: int) -> Iterator[list[tuple[object, ...]]]:
        cursor = self.conn.execute(
            f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order}"
        )
        while rows := cursor.fetchmany(batch):
            yield [tuple(r) for r in rows]

    @contextlib.contextmanager
    def load_rows(self) -> Iterator[SqliteLoader]:
        """One write transaction. The rows carry their derived columns (a belief's
        anchor_text) already, so the per-row FTS and anchor-text triggers are suspended
        (M001's ``_bulk_load`` flag) and the index is rebuilt once from what went in."""
        with self._tx.scope() as conn:
            conn.execute("INSERT INTO _bulk_load(active) VALUES (1)")
            yield SqliteLoader(conn)
            conn.execute("DELETE FROM _bulk_load")
            conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild')")
            conn.execute("INSERT INTO values_fts(values_fts) VALUES ('rebuild')")  # (m016)
