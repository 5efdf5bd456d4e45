"""``PostgresStore``: a credo store on a PostgreSQL server, behind the same ``Store``
protocol as the SQLite file (store/protocol.py).

Writers serialise per store: every write transaction first takes the store's advisory
lock (``pg_advisory_xact_lock``), waiting at most ``LOCK_TIMEOUT_MS`` before a clear
error; readers take no lock and never wait for a writer. Before COMMIT the transaction
hands the edge changes to their watchers (the HRR lane), runs the ``before_commit``
callbacks, and indexes the rows whose text changed (keyword.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from credo.config import redact_url
from credo.errors import InvalidInputError, StoreError
from credo.store.postgres import schema
from credo.store.postgres.acronyms import AcronymTable
from credo.store.postgres.connect import LOCK_TIMEOUT_MS, connect, scrub
from credo.store.postgres.defns import DefnTable
from credo.store.postgres.dump import TableDump
from credo.store.postgres.edge_files import EdgeFiles
from credo.store.postgres.keyword import KeywordIndex, flush_keyword_index
from credo.store.postgres.ledger import Ledger
from credo.store.postgres.lines import LineTable
from credo.store.postgres.reads import Reads
from credo.store.postgres.tables import Tables
from credo.store.postgres.tokenizer import Tokenizer
from credo.store.report import refuse_moved, store_stats, unencodable
from credo.types import StoreStats

if TYPE_CHECKING:
    import psycopg


class PostgresStore(
    Tables, Reads, Ledger, EdgeFiles, LineTable, DefnTable, AcronymTable, KeywordIndex, TableDump
):
    """One PostgreSQL database: opened, migrated, written in serialised transactions."""

    def __init__(
        self, url: str, *, migrations: tuple[schema.Migration, ...] = schema.MIGRATIONS
    ) -> None:
        self._url = url
        self.path = redact_url(url)  # what messages and ``stats`` show
        self.read_only = False  # (a server's permissions are its own: a write says so)
        self._tokenizer = Tokenizer()
        self._edge_watchers = []
        self._before_commit: list[Callable[[], None]] = []
        self._before_first_write: list[Callable[[], None]] = []
        self._depth = 0
        self.conn = connect(url)  # imports psycopg (or says how to install it)
        self._latest = migrations[-1].version
        import psycopg

        try:
            self.schema_version = schema.migrate(
                self.conn, self.path, migrations, after=self._index_queued
            )
        except psycopg.Error as exc:
            self.close()
            raise StoreError(f"cannot migrate {self.path}: {self._scrub(exc)}") from None
        except BaseException:
            self.close()
            raise

    def check_current(self, data_version: int | None = None) -> None:
        """``SqliteStore.check_current``: the long-lived surfaces ask before each request
        (one query; PostgreSQL has no ``data_version`` to skip it by). Writes and retrieves
        do not check here: a round trip each would cost every call of a one-shot process."""
        import psycopg

        try:
            version = schema.current_version(self.conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot read {self.path}: {self._scrub(exc)}") from None
        refuse_moved(self.path, version, self._latest)

    def checked(self) -> contextlib.AbstractContextManager[None]:
        """``SqliteStore.checked``: ``check_current`` now, for a request."""
        self.check_current()
        return contextlib.nullcontext()

    def _scrub(self, exc: BaseException) -> str:
        return scrub(" ".join(str(exc).split()), self._url)

    def _index_queued(self) -> None:
        flush_keyword_index(self.conn, self._tokenizer)

    # -- transactions ----------------------------------------------------------------------
    def before_commit(self, callback: Callable[[], None]) -> None:
        self._before_commit.append(callback)

    def before_first_write(self, callback: Callable[[], None]) -> None:
        self._before_first_write.append(callback)

    @contextlib.contextmanager
    def transaction(
        self, *, foreign_keys: bool = True, beliefs_or_edges: bool = True
    ) -> Iterator[psycopg.Connection]:
        """One atomic unit under the store's write lock; nested scopes join the outer one.
        (``foreign_keys``: PostgreSQL always checks them.)"""
        import psycopg

        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        while beliefs_or_edges and self._before_first_write:
            self._before_first_write.pop(0)()
        try:
            with self.conn.transaction():
                self.conn.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)", (schema.LOCK_CLASS, schema.WRITE_KEY)
                )
                self._depth = 1
                try:
                    yield self.conn
                    self.report_edge_changes()
                    for callback in self._before_commit:
                        callback()
                    flush_keyword_index(self.conn, self._tokenizer)
                finally:
                    self._depth = 0
        except psycopg.errors.LockNotAvailable:
            raise StoreError(
                f"cannot write to {self.path}: another writer held the store's lock for "
                f"{LOCK_TIMEOUT_MS // 1000} s; try again"
            ) from None
        except psycopg.OperationalError as exc:
            raise StoreError(f"cannot write to {self.path}: {self._scrub(exc)}") from None

    @contextlib.contextmanager
    def write_errors(self) -> Iterator[None]:
        """Turn server failures of a write into typed errors naming the store (redacted)."""
        import psycopg

        try:
            yield
        except UnicodeEncodeError as exc:
            raise unencodable(exc) from None
        except psycopg.DataError as exc:
            raise InvalidInputError(
                f"write to {self.path} refused a value: {self._scrub(exc)}"
            ) from None
        except psycopg.Error as exc:
            raise StoreError(f"write to {self.path} failed: {self._scrub(exc)}") from None

    def close(self) -> None:
        self._tokenizer.close()
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()

    # -- reports ---------------------------------------------------------------------------
    def stats(self) -> StoreStats:
        (size,) = self.conn.execute("SELECT pg_database_size(current_database())").fetchone() or (
            0,
        )
        return store_stats(
            self.conn,
            path=self.path,
            schema_version=schema.current_version(self.conn),
            size_bytes=int(size),
        )

    def integrity_check(self) -> list[str]:
        """Problems of the keyword index and its queue; empty when healthy (the server
        keeps its own pages and foreign keys)."""
        problems = self.fts_integrity_check()
        (queued,) = self.conn.execute("SELECT count(*) FROM fts_dirty").fetchone() or (0,)
        if queued:
            problems.append(f"fts: {queued} rows wait to be indexed")
        return problems
