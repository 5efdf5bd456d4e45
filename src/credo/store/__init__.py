"""The store: the only layer that runs SQL. It returns records (named tuples), never rows.

``Store`` (store/protocol.py) is the interface the engine talks to. ``SqliteStore`` here is
one SQLite file; ``PostgresStore`` (store/postgres/) is a team's PostgreSQL server, loaded
only for a ``postgresql://`` location (``open_store``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from credo.errors import StoreError
from credo.store.acronyms import AcronymTable
from credo.store.anchors import AnchorTable
from credo.store.beliefs import BeliefTable
from credo.store.captures import CaptureTable
from credo.store.db import (
    Transactions,
    connect,
    enable_wal,
    read_only_here,
    store_version,
)
from credo.store.defns import DefnTable
from credo.store.dump import TableDump
from credo.store.edge_files import EdgeFileTable
from credo.store.edges import EdgeTable
from credo.store.files import FileTable
from credo.store.fts import FtsIndex, KeywordHit
from credo.store.graph import GraphQueries, Link
from credo.store.hrr import HrrTraces
from credo.store.journal import JournalTable
from credo.store.lines import LineTable
from credo.store.log import LogTable
from credo.store.migrations import (
    LATEST_VERSION,
    MIGRATIONS,
    Migration,
    check_version,
    current_version,
    migrate,
    read_only_version,
)
from credo.store.truth import TruthQueries

if TYPE_CHECKING:
    # The interface the engine talks to: loaded when first asked for (``__getattr__`` below),
    # as no read runs by it (its three Protocol classes cost a fresh process ~1.6M
    # instructions). The warm index: by a long-lived process's first warm read.
    from credo.store.protocol import Store
    from credo.store.warm import Ahead, WarmIndex, WarmPlan
    from credo.types import StoreStats

__all__ = ["LATEST_VERSION", "KeywordHit", "Link", "SqliteStore", "Store", "open_store"]


def open_store(location: str | Path) -> Store:
    """The store at ``location``: a ``postgresql://`` URL (``credo.config.PostgresUrl``)
    opens a PostgreSQL server, anything else a SQLite file (psycopg is imported only for
    the former)."""
    from credo.config import PostgresUrl

    if isinstance(location, PostgresUrl):
        from credo.store.postgres.store import PostgresStore

        return PostgresStore(location)
    return SqliteStore(location)


class SqliteStore(
    BeliefTable,
    EdgeTable,
    AnchorTable,
    LogTable,
    FtsIndex,
    GraphQueries,
    TruthQueries,
    HrrTraces,
    FileTable,
    EdgeFileTable,
    CaptureTable,
    JournalTable,
    LineTable,
    DefnTable,
    AcronymTable,
    TableDump,
):
    """One SQLite file: opened, migrated, and wrapped in a re-entrant transaction scope."""

    # What the engine makes of every belief at a warm index read, when the store is small
    # enough to prepare (``WarmPlan.ahead``); the composition root sets it (memory.py).
    ahead: Ahead | None = None

    def __init__(self, path: str | Path, *, migrations: tuple[Migration, ...] = MIGRATIONS) -> None:
        self.path = str(path)
        # A store on a read-only mount, in a folder of another user's, or a read-only file:
        # reads only. Told from the folder and the file, not from a failed open: SQLite opens
        # such a file without complaint when it needs no -shm of its own (a rollback-journal
        # file such as a backup, or a writer elsewhere keeping -wal and -shm), and would fail
        # only at the first write.
        why = read_only_here(self.path)
        self.read_only = why is not None
        self.conn = connect(self.path, read_only=self.read_only, wal=False)
        try:
            # The schema read below holds until another connection commits: check_current
            # reads it again only then (read first, so no commit can slip in between).
            seen = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            # Refuse a newer schema before WAL mode rewrites the header: never modified.
            version = check_version(self.conn, self.path, migrations)
            if self.read_only:
                self.schema_version = read_only_version(self.path, version, migrations)
            else:
                enable_wal(self.conn, self.path)
                self.schema_version = migrate(self.conn, self.path, migrations)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(f"cannot open store {self.path}: {exc}") from exc
        except BaseException:
            self.conn.close()
            raise
        self._latest = migrations[-1].version
        self._schema_seen = seen  # data_version at the last schema read
        self._file = _file_identity(self.path)  # (absolute path, dev, inode) of what is open
        self._tx = Transactions(self.conn, self.path, read_only=why)
        self._tx.before_commit.append(self.flush_line_df)
        self._tx.after_begin.append(self.check_current)

    def check_current(self, data_version: int | None = None) -> None:
        """Raise when the store this process opened may no longer be used: its file was
        deleted or replaced (``StoreError``: what a process wrote there went to a file nobody
        reads), or another process migrated it past this code (``SchemaVersionError``:
        ``refuse_moved``). Every write transaction and every retrieve's ``one_version``
        check; a long-lived surface checks before each request. A ``stat`` (~1 us), and
        ``PRAGMA data_version`` (given, or read: ~5 us) telling whether anyone else
        committed since the last check: only then is ``_migrations`` read again."""
        if self._file is not None:
            _still_there(self._file)
        if data_version is None:
            data_version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        if data_version == self._schema_seen:
            return
        try:
            version = current_version(self.conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        if version > self._latest:
            from credo.store.report import refuse_moved  # (a module import costs a hook ~0.5M)

            refuse_moved(self.path, version, self._latest)
        self._schema_seen = data_version

    def checked(self) -> contextlib.AbstractContextManager[None]:
        """``check_current`` once for a long-lived surface's request: the retrieves inside
        take that check as theirs while no other connection commits (``PRAGMA
        data_version`` unchanged, which each still reads), instead of a ``stat`` and the
        version compare again each. Not re-entrant: a request is one scope."""
        return _Checked(self)

    def before_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` at the end of every outermost write transaction, before COMMIT
        (derived state such as HRR traces is flushed inside the same transaction)."""
        self._tx.before_commit.append(callback)

    def before_first_write(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once, before this connection's first write transaction begins."""
        self._tx.before_first_write.append(callback)

    def transaction(
        self, *, foreign_keys: bool = True, beliefs_or_edges: bool = True
    ) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """All writes go through here: one atomic unit, nested scopes join the outer one.

        ``foreign_keys=False`` is for a bulk writer that has checked every reference itself
        (the records import): SQLite then skips its own checks (see ``Transactions.scope``).
        ``beliefs_or_edges=False`` is for a write of the journal alone (the hook's per-prompt
        log): the edge watchers are not loaded for it.
        """
        return self._tx.scope(foreign_keys=foreign_keys, beliefs_or_edges=beliefs_or_edges)

    @contextlib.contextmanager
    def write_errors(self) -> Iterator[None]:
        """Turn SQLite failures of a write into StoreError with the store's path."""
        try:
            yield
        except UnicodeEncodeError as exc:
            from credo.store.report import unencodable

            raise unencodable(exc) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"write to {self.path} failed: {exc}") from exc

    def warm_plan(self) -> WarmPlan | None:
        """What reading this store's warm index takes (``store/warm.py``): its path, its
        version now and its tokenizer. None for a store no other connection can open
        (":memory:") or inside a transaction. ``read_index(plan)`` then reads it on a
        connection of its own (a background thread may, while this store answers from
        SQL), and ``install_warm`` puts it to use."""
        if self.conn.in_transaction or self.path == ":memory:":
            return None
        from credo.store.tokenizer import tokenize_option
        from credo.store.warm import WarmPlan

        return WarmPlan(self.path, store_version(self.conn), tokenize_option(self.conn), self.ahead)

    def warm_ahead(self) -> object:
        """What ``ahead`` made of the store at its version when its warm index was read
        (None: no warm index now, or nothing made)."""
        warm = self._warm_now()
        return None if warm is None else warm.ahead

    def install_warm(self, index: WarmIndex) -> bool:
        """Answer reads from ``index`` if the store has not moved since it was read."""
        if self.conn.in_transaction or store_version(self.conn) != index.version:
            return False
        self._warm = index
        if index.mirror is not None:
            index.mirror.rebind(self.conn)
            self._mirror_policy().adopt(index.mirror)
        if index.truth is not None:  # every truth edge, read with it (store/truth.py)
            self._adopt_truth(index.version, index.truth, getattr(index.ahead, "graph", None))
        return True

    def build_warm(self) -> bool:
        """``warm_plan``, ``read_index`` and ``install_warm``, here and now (a service that
        holds a store for many queries): True when the reads are warm."""
        plan = self.warm_plan()
        if plan is None:
            return False
        from credo.store.warm import read_index

        return self.install_warm(read_index(plan))

    @property
    def warm(self) -> bool:
        """Whether the reads are answered by a warm index of the store as it is now."""
        return self._warm_now() is not None

    def close(self) -> None:
        self._warm = None
        if self._bm25 is not None:
            self._bm25.close()
        self.conn.close()

    def stats(self) -> StoreStats:
        size = 0
        if self.path != ":memory:":
            page_count = self.conn.execute("PRAGMA page_count").fetchone()[0]
            page_size = self.conn.execute("PRAGMA page_size").fetchone()[0]
            size = int(page_count) * int(page_size)
        from credo.store.report import store_stats

        return store_stats(
            self.conn,
            path=self.path,
            schema_version=current_version(self.conn),
            size_bytes=size,
        )

    def integrity_check(self) -> list[str]:
        """Problems SQLite finds in the file and the FTS index; empty when healthy. FTS5's
        check is a write statement: a read-only store's index is not checked."""
        problems = [str(r[0]) for r in self.conn.execute("PRAGMA integrity_check")]
        problems = [p for p in problems if p != "ok"]
        try:
            if not self.read_only:
                self.fts_integrity_check()
        except sqlite3.DatabaseError as exc:
            problems.append(f"fts: {exc}")
        problems += [
            f"foreign key: {r[0]} row {r[1]} -> {r[2]}"
            for r in self.conn.execute("PRAGMA foreign_key_check")
        ]
        return problems


class _Checked:
    """``SqliteStore.checked``'s scope (a class: a generator-based one costs more)."""

    __slots__ = ("_store",)

    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    def __enter__(self) -> None:
        store = self._store
        data_version = int(store.conn.execute("PRAGMA data_version").fetchone()[0])
        store.check_current(data_version)  # raises before the scope holds anything
        store._checked_at = data_version

    def __exit__(self, *_: object) -> None:
        self._store._checked_at = None


# (Said to a one-off command as to a server: a CLI run meets it too, mid-ingest.)
_RESTART = (
    "nothing was written; run the command again, or restart the process that holds the store "
    "(credo serve, or the MCP client's credo mcp)"
)


def _file_identity(path: str) -> tuple[str, int, int] | None:
    if path == ":memory:" or path.startswith("file:"):
        return None
    absolute = os.path.abspath(path)  # a service may change its folder later
    st = os.stat(absolute)
    return absolute, st.st_dev, st.st_ino


def _still_there(file: tuple[str, int, int]) -> None:
    """``StoreError`` when the file at the store's path is not the one open here."""
    try:
        st = os.stat(file[0])
    except FileNotFoundError:
        raise StoreError(
            f"{file[0]} was deleted or moved away while this process had it open; {_RESTART}"
        ) from None
    except OSError:
        return  # unreadable folder: the connection still reads what it opened
    if (st.st_dev, st.st_ino) != file[1:]:
        raise StoreError(
            f"{file[0]} was replaced by another file while this process had it open; {_RESTART}"
        )


def __getattr__(name: str) -> object:
    """``Store`` of ``credo.store.protocol``, loaded when first asked for (PEP 562)."""
    if name == "Store":
        from credo.store.protocol import Store

        return Store
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
