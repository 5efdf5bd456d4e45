"""Opening a store file: pragmas, integrity of the open, and the transaction scope."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from credo.errors import StoreError
from credo.store.index_text import register

# Writers wait this long for another process's write lock before failing with a clear error.
BUSY_TIMEOUT_MS = 10_000
# Page cache cap per connection, in KiB (negative = KiB for SQLite's cache_size pragma).
CACHE_KIB = -65_536


def connect(path: str | Path, *, read_only: bool = False, wal: bool = True) -> sqlite3.Connection:
    """Open ``path`` (":memory:" allowed) with credo's pragmas.

    WAL lets readers (the hook) run beside a writer; ``synchronous=FULL`` makes a commit
    survive power loss, not only a process crash; foreign keys enforce cascades.
    """
    target = str(path)
    if target != ":memory:":
        parent = Path(target).parent
        if not parent.exists():
            try:
                parent.mkdir(parents=True, exist_ok=True)
                if parent.name == ".credo":
                    # The default store lives inside the work tree: keep it out of git.
                    (parent / ".gitignore").write_text("*\n", encoding="utf-8")
            except OSError as exc:
                raise StoreError(f"cannot create folder {parent} for the store: {exc}") from exc
    try:
        if read_only:
            conn = sqlite3.connect(
                read_only_uri(target),
                uri=True,
                isolation_level=None,
                check_same_thread=False,
                factory=Connection,
            )
        else:
            conn = sqlite3.connect(
                target, isolation_level=None, check_same_thread=False, factory=Connection
            )
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot open store {target}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        register(conn)  # the keyword index's triggers and view call it (m013)
        # Reading the schema is the first real access: a non-database file fails here.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if wal and not read_only:
            enable_wal(conn, target)
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")  # a hard forget leaves no text behind
        # Up to 64 MiB of page cache (the default is 2 MiB), taken only as pages are read:
        # a bulk import touches every index at random and would otherwise spill pages to
        # the WAL and read them back.
        conn.execute(f"PRAGMA cache_size = {CACHE_KIB}")
    except BaseException as exc:
        conn.close()  # (its file stays open until collected otherwise: an exception holds it)
        if isinstance(exc, sqlite3.DatabaseError):
            hint = _left_wal(target) if read_only else ""
            raise StoreError(f"cannot open store {target}: {exc}{hint}") from exc
        raise
    return conn


def _left_wal(target: str) -> str:
    """Why a read-only open failed, when a crashed writer's ``-wal`` is there without its
    ``-shm``: reading the WAL needs the index that SQLite cannot make in this folder."""
    left = Path(target + "-wal").exists() and not Path(target + "-shm").exists()
    if not (left and read_only_here(target)):
        return ""
    return (
        "; it is read-only here and a writer's -wal file is left without its -shm (a crash): "
        "open it once where it can be written"
    )


def read_only_uri(target: str) -> str:
    """The URI that opens ``target`` for reading only. A WAL reader needs the ``-shm``
    file, which SQLite cannot make in a folder no one here may write (a read-only mount):
    there, with no ``-wal`` file left to read, the file is opened as immutable (nothing on
    this side can change it)."""
    # as_uri quotes what is the URI's own (``?``, ``#``, ``%`` in a folder's name) and puts
    # the path after an empty authority: one spelled with a leading // is not read as one,
    # and a Windows drive reads file:///C:/...
    uri = f"{Path(target).absolute().as_uri()}?mode=ro"
    if read_only_here(target) and not Path(target + "-wal").exists():
        uri += "&immutable=1"
    return uri


def read_only_here(target: str) -> str | None:
    """Why this process may not write the store file ``target`` (its folder, or the file
    itself: a read-only file in a writable folder), or None when it may, or it is no file.
    Either way SQLite would open it and fail at the first write (or at once, for a file in
    rollback-journal mode: a backup), and leave -wal and -shm files beside it."""
    path = Path(target)
    if not path.is_file():
        return None
    if not os.access(path.parent, os.W_OK):
        return "its folder cannot be written"
    return None if os.access(path, os.W_OK) else "the file cannot be written"


def enable_wal(conn: sqlite3.Connection, target: str) -> None:
    """Switch to WAL (it rewrites the file header: only once the schema is known good)."""
    if target == ":memory:":
        return
    # Changing the journal mode needs an exclusive lock, and SQLite may answer BUSY at once
    # rather than wait (two processes opening a fresh file together): retry, bounded.
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise StoreError(f"cannot open store {target}: {exc}") from exc
            time.sleep(0.02)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open store {target}: {exc}") from exc
    if str(mode).lower() != "wal":
        raise StoreError(f"cannot switch {target} to WAL mode (got {mode})")


class Transactions:
    """Re-entrant transaction scope over one connection: nested scopes join the outer one."""

    def __init__(
        self, conn: sqlite3.Connection, path: str, *, read_only: str | None = None
    ) -> None:
        self._conn = conn
        self._path = path
        self._read_only = read_only  # why it was opened for reads only (store/__init__.py)
        self._depth = 0
        # Counts the outermost transactions begun: state a writer holds back until commit
        # (store/lines.py) knows by it whether that state's transaction is still the open one.
        self.serial = 0
        self.before_commit: list[Callable[[], None]] = []
        # Run once, before the first write transaction begins (outside it, so a rollback
        # cannot undo them): set-up only writers need, which a read-only process skips.
        self.before_first_write: list[Callable[[], None]] = []
        # Run at the start of every outermost write transaction, holding the write lock (so
        # nothing can move under them before COMMIT): checks that may refuse the write.
        self.after_begin: list[Callable[[], None]] = []

    @property
    def active(self) -> bool:
        return self._depth > 0

    @contextlib.contextmanager
    def scope(
        self, *, foreign_keys: bool = True, beliefs_or_edges: bool = True
    ) -> Iterator[sqlite3.Connection]:
        """``foreign_keys=False``: SQLite skips its foreign-key checks for this transaction
        (a bulk writer that has checked every reference itself; a check costs two index
        probes per edge). The pragma is a no-op inside a transaction, so it is switched
        around BEGIN ... COMMIT, and only by an outermost scope: a nested one keeps the
        outer transaction's setting. ``beliefs_or_edges=False`` (a write of the journal's
        own tables) leaves the ``before_first_write`` callbacks for a later write that
        needs them: they watch edges, which such a write never touches."""
        if self._depth:
            self._depth += 1
            try:
                yield self._conn
            finally:
                self._depth -= 1
            return
        if not foreign_keys:
            self._conn.execute("PRAGMA foreign_keys = OFF")
        try:
            with self._outermost(watch=beliefs_or_edges) as conn:
                yield conn
        finally:
            if not foreign_keys:
                self._conn.execute("PRAGMA foreign_keys = ON")

    @contextlib.contextmanager
    def _outermost(self, *, watch: bool = True) -> Iterator[sqlite3.Connection]:
        if self._read_only:
            raise StoreError(
                f"cannot write to {self._path}: it is read-only here ({self._read_only})"
            )
        while watch and self.before_first_write:
            self.before_first_write.pop(0)()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot write to {self._path}: {exc}") from exc
        try:
            for check in self.after_begin:
                check()
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self.serial += 1
        if watch:
            yield from self._run()
            return
        # A write of the journal's own tables: the read caches (keyword mirror, graph,
        # truth) hold none of them, so it must not make them stale (store_version).
        start = self._conn.total_changes
        try:
            yield from self._run()
        finally:
            if isinstance(self._conn, Connection):
                self._conn.unseen_changes += self._conn.total_changes - start

    def _run(self) -> Iterator[sqlite3.Connection]:
        self._depth = 1
        try:
            yield self._conn
            for callback in self.before_commit:
                callback()
        except BaseException:
            self._depth = 0
            self._conn.execute("ROLLBACK")
            raise
        self._depth = 0
        try:
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(sqlite3.DatabaseError):
                self._conn.execute("ROLLBACK")
            raise StoreError(f"cannot commit to {self._path}: {exc}") from exc


class Connection(sqlite3.Connection):
    """A connection that counts its own writes the read caches need not see (the
    journal's), so a long-lived process that journals every prompt keeps them warm."""

    unseen_changes = 0


def store_version(conn: sqlite3.Connection, data_version: int | None = None) -> tuple[int, int]:
    """Moves when another connection commits (data_version) or this one writes, but not
    for this connection's journal writes (``Connection.unseen_changes``). ``data_version``:
    the pragma's value as read at the start of a retrieve (``GraphQueries.one_version``),
    so its later checks run no SQL; this connection's own writes still move it."""
    unseen = conn.unseen_changes if isinstance(conn, Connection) else 0
    if data_version is None:
        data_version = conn.execute("PRAGMA data_version").fetchone()[0]
    return data_version, conn.total_changes - unseen


def int_array(rowids: Iterable[int]) -> str:
    """A JSON array of integer ``rowids`` for ``json_each(?)``, compared as rowids are."""
    return "[" + ",".join(map(str, rowids)) + "]"


def json_array(values: Iterable[str]) -> str:
    """A JSON array of ``values`` for ``json_each(?)``: how a batched read passes its ids.

    Ids are nearly always plain text, written as they are; anything JSON must escape (a
    quote, a backslash, a control or other non-printable character) goes through
    ``json.dumps``. That keeps the json module out of a process that only reads: importing
    it costs ~2 ms of a one-shot query's ~30."""
    items = list(values)
    if all('"' not in v and "\\" not in v and v.isprintable() for v in items):
        return '["' + '","'.join(items) + '"]' if items else "[]"
    import json

    return json.dumps(items)
