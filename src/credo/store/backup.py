"""Backup and restore of a store file through SQLite's online backup API.

Why the backup API and not a file copy: a store in WAL mode keeps committed pages in the
``-wal`` file until a checkpoint, so copying ``memory.db`` alone can miss recent writes or
catch a page mid-checkpoint. ``sqlite3.Connection.backup`` reads one consistent snapshot
inside a read transaction; in WAL mode writers keep committing while it runs.

``backup`` writes a self-contained file (rollback-journal mode, no ``-wal`` beside it) next
to its destination and renames it into place, so a failed backup leaves no half file.

``restore`` never swaps the live file underneath other processes. Renaming a new file over
``memory.db`` while the hook, the MCP server or an ingest hold it open would leave them
writing to the unlinked old inode, and a ``-wal`` file of the old database could then be
replayed into the new one. Instead restore:

1. copies the source into a private temporary file and validates that copy (it opens, ``PRAGMA
   integrity_check`` and the FTS index check pass, foreign keys hold, it is a credo store,
   its schema is not newer than this credo) without ever touching the source;
2. readies that copy for this place and this credo (the root its backup kept aside, the
   schema migrated, then checked) before the live store is touched;
3. keeps the current store as ``<name>.before-restore-<UTC timestamp>`` (itself an online
   backup, so it is consistent);
4. copies the readied pages into the live store with the backup API, which writes them
   as one write transaction through the store's own WAL: atomic (a crash mid-restore
   leaves the old content), and every other connection sees the restored content, already
   at this schema, at its next transaction. A writer holding the lock makes restore wait
   up to the busy timeout, then fail with a clear error and nothing changed.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from credo.errors import SchemaVersionError, StoreError
from credo.store.db import BUSY_TIMEOUT_MS, read_only_here, read_only_uri
from credo.store.index_text import register
from credo.store.migrations import LATEST_VERSION, current_version, migrate


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What ``backup`` wrote: the file, its size and what it holds."""

    source: str
    path: str
    size_bytes: int
    schema_version: int
    beliefs: int
    seconds: float


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """What ``restore`` did: the restored store, the kept copy of the old one."""

    source: str
    path: str
    previous_copy: str | None
    schema_version: int
    beliefs: int
    seconds: float
    migrated_to: int | None = None  # the schema the restored store was migrated to


def _open(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A plain connection with credo's busy timeout: readers of a live store must wait for a
    checkpoint rather than fail. A file in a folder this process cannot write (a read-only
    mount) is always opened for reading, as the store opens it (db.read_only_uri)."""
    try:
        if read_only or read_only_here(str(path)):
            conn = sqlite3.connect(read_only_uri(str(path)), uri=True, isolation_level=None)
        else:
            conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        register(conn)  # the index check reads beliefs_live, which calls it (m013)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot open {path}: {exc}") from exc
    return conn


@contextlib.contextmanager
def _closing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    try:
        yield conn
    finally:
        conn.close()


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable: the directory entry must reach the disk too."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _count_beliefs(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM beliefs").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Online-backup ``source`` into a new self-contained file at ``target``."""
    dest = sqlite3.connect(str(target), isolation_level=None)
    try:
        source.backup(dest)  # pages=-1: one consistent snapshot in one step
        # The copied header says WAL; a backup file should stand alone, without a -wal.
        dest.execute("PRAGMA journal_mode = DELETE")
        dest.execute("PRAGMA synchronous = FULL")
    finally:
        dest.close()
    with target.open("rb+") as handle:
        os.fsync(handle.fileno())


# A store's root (knowledge/root.py) is kept relative to its file when the file lies in it.
# A backup file lies elsewhere, so it keeps the root absolute (opened where it is, it names
# the same files) and the relative form aside, which a restore puts back.
_ROOT = "root"
_ROOT_IN_STORE = "root_in_store"


def _pin_root(copy: Path, store_file: Path) -> None:
    """Make a relative root in ``copy`` (a backup of ``store_file``) absolute."""
    with _closing(sqlite3.connect(str(copy), isolation_level=None)) as conn:
        row = _meta_value(conn, _ROOT)
        if row is None or not row[0] or Path(row[0]).is_absolute():
            return
        pinned = (store_file.resolve().parent / row[0]).resolve().as_posix()
        with conn:
            conn.execute("BEGIN")
            conn.executemany(
                "INSERT INTO _meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                ((_ROOT, pinned), (_ROOT_IN_STORE, row[0])),
            )


def _unpin_root(conn: sqlite3.Connection, store_file: Path) -> None:
    """Give a store restored at ``store_file`` back the relative root its backup kept
    aside, where that names the same folder (restored elsewhere, it keeps the absolute)."""
    relative = _meta_value(conn, _ROOT_IN_STORE)
    if relative is None:
        return
    pinned = _meta_value(conn, _ROOT)
    same = (store_file.resolve().parent / relative[0]).resolve().as_posix()
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        if pinned is not None and pinned[0] == same:
            conn.execute("UPDATE _meta SET value = ? WHERE key = ?", (relative[0], _ROOT))
        conn.execute("DELETE FROM _meta WHERE key = ?", (_ROOT_IN_STORE,))


def _meta_value(conn: sqlite3.Connection, key: str) -> tuple[str] | None:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_meta'").fetchone() is None:
        return None  # (not a credo store: validate says so)
    return conn.execute("SELECT value FROM _meta WHERE key = ?", (key,)).fetchone()


def _temp_beside(path: Path, prefix: str) -> Path:
    """A fresh temporary file name in ``path``'s folder (same file system: rename is
    atomic)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=".db", dir=path.parent)
    except OSError as exc:
        raise StoreError(f"cannot write in {path.parent}: {exc.strerror or exc}") from exc
    os.close(fd)
    os.unlink(name)  # SQLite creates it; an empty file would also do, but not on all VFSs
    return Path(name)


def _remove_db(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def backup(store_path: str | os.PathLike[str], dest: str | os.PathLike[str]) -> BackupReport:
    """Copy the store at ``store_path`` to ``dest`` while other processes keep writing.

    Raises:
        StoreError: the store does not exist or cannot be read, or ``dest`` is the store
            itself or cannot be written.
    """
    started = time.perf_counter()
    source_path, target = Path(store_path), Path(dest)
    if not source_path.is_file():
        raise StoreError(f"no store at {source_path}; nothing to back up")
    if target.exists() and target.resolve() == source_path.resolve():
        raise StoreError(f"backup destination {target} is the store itself; pick another path")
    if target.is_dir():
        raise StoreError(f"backup destination {target} is a folder; give a file path")
    tmp = _temp_beside(target, ".credo-backup-")
    try:
        with _closing(_open(source_path, read_only=False)) as source:
            _copy(source, tmp)
        _pin_root(tmp, source_path)
        with _closing(_open(tmp, read_only=True)) as check:
            version = current_version(check)
            beliefs = _count_beliefs(check)
        os.replace(tmp, target)
        _fsync_dir(target.parent)
    except sqlite3.DatabaseError as exc:
        _remove_db(tmp)
        raise StoreError(f"backup of {source_path} failed: {exc}") from exc
    except BaseException:
        _remove_db(tmp)
        raise
    return BackupReport(
        source=str(source_path),
        path=str(target),
        size_bytes=target.stat().st_size,
        schema_version=version,
        beliefs=beliefs,
        seconds=time.perf_counter() - started,
    )


def validate(path: str | os.PathLike[str]) -> tuple[int, int]:
    """Check that ``path`` is a healthy credo store this credo can open, without writing to
    it; returns (schema_version, beliefs).

    Raises:
        StoreError: it does not open, fails an integrity check or is not a credo store.
        SchemaVersionError: it was written by a newer credo.
    """
    source = Path(path)
    with _checked_copy(source) as (_copy_path, version, beliefs):
        return version, beliefs


@contextlib.contextmanager
def _checked_copy(source: Path) -> Iterator[tuple[Path, int, int]]:
    """A private copy of ``source``, validated: (its path, schema version, beliefs). The
    copy is removed on leaving."""
    if not source.is_file():
        raise StoreError(f"no backup at {source}")
    # Checks run on a private copy: the FTS check is an INSERT command, and a source in WAL
    # mode needs its -shm written even to be read.
    tmp = _temp_beside(Path(tempfile.gettempdir()) / "x", ".credo-validate-")
    try:
        try:
            with _closing(_open(source, read_only=True)) as conn:
                _copy(conn, tmp)
            version, beliefs = _validate_copy(tmp, source)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{source} is not a usable credo store: {exc}") from exc
        yield tmp, version, beliefs
    finally:
        _remove_db(tmp)


def _validate_copy(copy: Path, named: Path) -> tuple[int, int]:
    with _closing(_open(copy, read_only=False)) as conn:
        problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise StoreError(f"{named} fails integrity_check: {'; '.join(problems[:3])}")
        version = current_version(conn)
        if version == 0:
            raise StoreError(f"{named} is an SQLite file but not a credo store")
        if version > LATEST_VERSION:
            raise SchemaVersionError(
                f"{named} has schema version {version}, newer than this credo understands "
                f"({LATEST_VERSION}); upgrade credo to restore it"
            )
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('integrity-check', 1)")
        if version >= 16:  # (m016: the constants' index)
            conn.execute("INSERT INTO values_fts(values_fts, rank) VALUES ('integrity-check', 1)")
        broken = conn.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise StoreError(f"{named} has {len(broken)} rows with broken references")
        return version, _count_beliefs(conn)


def restore(
    src: str | os.PathLike[str], store_path: str | os.PathLike[str], *, keep_old: bool = True
) -> RestoreReport:
    """Replace the content of the store at ``store_path`` with the backup ``src``.

    The source is validated first and never modified; the current store is kept as a
    timestamped copy (unless ``keep_old`` is false); the replacement is one write
    transaction on the live store (see the module docstring for other open connections).

    Raises:
        StoreError: the source is unusable, the store is busy beyond the busy timeout, or a
            file cannot be written. Nothing was changed then.
        SchemaVersionError: the source was written by a newer credo.
    """
    started = time.perf_counter()
    source, target = Path(src), Path(store_path)
    if target.exists() and source.exists() and source.resolve() == target.resolve():
        raise StoreError(f"{source} is the store itself; restore from a backup file")
    with _checked_copy(source) as (ready, version, beliefs):
        # Everything that changes the pages happens on the private copy, so the live
        # store is replaced in one step or not at all (a failed migration used to leave it
        # holding the backup's content after saying it was left as it was).
        migrated = _ready_for(ready, source, target, version)
        previous = _keep_old(target) if target.exists() and keep_old else None
        try:
            with (
                _closing(_open(ready, read_only=True)) as reader,
                _closing(_open(target, read_only=False)) as live,
            ):
                mode = live.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise StoreError(f"cannot switch {target} to WAL mode (got {mode})")
                live.execute("PRAGMA synchronous = FULL")
                reader.backup(live)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"cannot restore into {target}: {exc}; the store was left as it was"
                + (f" (a copy is at {previous})" if previous else "")
            ) from exc
    return RestoreReport(
        source=str(source),
        path=str(target),
        previous_copy=previous,
        schema_version=version,
        beliefs=beliefs,
        seconds=time.perf_counter() - started,
        migrated_to=migrated,
    )


def _ready_for(copy: Path, source: Path, target: Path, version: int) -> int | None:
    """Ready a validated private ``copy`` of ``source`` to become the store at ``target``:
    its root unpinned where that names the same folder, its schema brought to this credo's
    (an open process reads the restored store with this code and never migrates it).
    Returns the schema migrated to, or None."""
    try:
        with _closing(_open(copy, read_only=False)) as conn:
            _unpin_root(conn, target)
            if version >= LATEST_VERSION:
                return None
            migrated = migrate(conn, str(source))
            problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{source} migrated fails quick_check: {problems[:3]}")
            return migrated
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot ready {source} for {target}: {exc}; nothing was changed") from exc


def _keep_old(target: Path) -> str:
    """Keep the current store beside itself as ``<name>.before-restore-<UTC stamp>``."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = target.with_name(f"{target.name}.before-restore-{stamp}")
    n = 1
    while kept.exists():
        kept = target.with_name(f"{target.name}.before-restore-{stamp}-{n}")
        n += 1
    backup(target, kept)
    return str(kept)
