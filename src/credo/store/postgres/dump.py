"""A PostgreSQL store's rows out and in, table by table: the two ends of ``credo migrate``
(store/transfer.py). Reads run in one REPEATABLE READ transaction (a snapshot; writers go
on) through a server-side cursor; loads go in with COPY inside one write transaction, and
the triggers queue the beliefs for the keyword index, built once before COMMIT."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg

    from credo.store.transfer import Table


class PostgresLoader:
    """Rows into the tables of one PostgreSQL store, inside its write transaction."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn
        self.counters: set[tuple[str, str]] = set()

    def count(self, table: str) -> int:
        row = self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        return int(row[0]) if row else 0

    def add(self, table: Table, rows: list[tuple[object, ...]]) -> None:
        if not rows:
            return
        columns = ", ".join(table.columns)
        with (
            self.conn.cursor() as cur,
            cur.copy(f"COPY {table.name} ({columns}) FROM STDIN") as copy,  # type: ignore[arg-type]
        ):
            for row in rows:
                copy.write_row(row)
        if table.counter:
            self.counters.add((table.name, table.counter))

    def continue_counters(self) -> None:
        """The identity columns given explicit values carry on past the largest."""
        for table, column in sorted(self.counters):
            self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "  # type: ignore[arg-type]
                f"(SELECT max({column}) FROM {table}))"
            )


class TableDump:
    conn: psycopg.Connection
    transaction: Callable[..., contextlib.AbstractContextManager[psycopg.Connection]]

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Every read inside sees the store as it was at the first one."""
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield

    def read_rows(self, table: Table, batch: int) -> Iterator[list[tuple[object, ...]]]:
        """Inside ``read_snapshot``: a server-side cursor, ``batch`` rows at a time."""
        with self.conn.cursor(name=f"credo_dump_{table.name.lstrip('_')}") as cursor:
            cursor.itersize = batch
            cursor.execute(
                f"SELECT {', '.join(table.columns)} FROM {table.name} "  # type: ignore[arg-type]
                f"ORDER BY {table.order}"
            )
            while rows := cursor.fetchmany(batch):
                yield [tuple(r) for r in rows]

    @contextlib.contextmanager
    def load_rows(self) -> Iterator[PostgresLoader]:
        with self.transaction() as conn:
            loader = PostgresLoader(conn)
            yield loader
            loader.continue_counters()
