"""A read-only view of another store file's locks: how a project reads the user-global
store's personal rules (credo.agent.global_store) without ever creating, migrating or
writing that file."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from credo.errors import StoreError
from credo.store.beliefs import _COLUMNS, _belief  # pyright: ignore[reportPrivateUsage]
from credo.store.db import connect
from credo.store.migrations import current_version

if TYPE_CHECKING:
    from credo.types import Belief

# m006 added beliefs.context, m009 beliefs.retention; an older file is read as it is (the
# migration waits for a write command), its beliefs without a trail, or as facts.
_CONTEXT_SINCE = 6
_RETENTION_SINCE = 9
# Live locks that no live belief supersedes, in the order every store places its locks
# (BeliefTable.locked_beliefs: created_at, then id).
_LOCKS = (
    "SELECT {columns} FROM beliefs b WHERE b.locked = 1 AND b.deleted_at IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM edges e JOIN beliefs s ON s.id = e.src "
    "WHERE e.dst = b.id AND e.type = 'SUPERSEDES' AND s.deleted_at IS NULL) "
    "ORDER BY b.created_at, b.id"
)


class LockReader:
    """The locked beliefs of the store file at ``path``, read through one read-only
    connection and kept while the file does not change: a read costs a ``stat`` and
    ``PRAGMA data_version`` (~10 us) until another connection commits. A missing file is no
    locks and opens nothing; a file replaced under the same name is opened afresh."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None
        self._version: int | None = None
        self._locks: tuple[Belief, ...] = ()

    def locks(self) -> tuple[Belief, ...]:
        # No file, nothing open (the common case): asked without the exception a failed
        # ``stat`` raises (~1 us hot, several in a query's flow).
        if self._conn is None and not os.access(self.path, os.F_OK):
            return ()
        try:
            stat = os.stat(self.path)
        except OSError:  # missing (the common case) or unreadable: nothing to include
            self.close()
            return ()
        identity = (stat.st_dev, stat.st_ino)
        try:
            if self._conn is None or identity != self._identity:
                self.close()
                self._conn = connect(self.path, read_only=True)
                self._identity = identity
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            if version != self._version:
                self._locks = self._read(self._conn)
                self._version = version
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        return self._locks

    @staticmethod
    def _read(conn: sqlite3.Connection) -> tuple[Belief, ...]:
        schema = current_version(conn)
        if schema == 0:  # an empty file: no credo schema yet, so no locks
            return ()
        columns = _COLUMNS
        if schema < _RETENTION_SINCE:
            columns = columns.replace("b.retention", "'fact'")
        if schema < _CONTEXT_SINCE:
            columns = columns.replace("b.context", "''")
        return tuple(_belief(row) for row in conn.execute(_LOCKS.format(columns=columns)))

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        self._identity = self._version = None
        self._locks = ()
