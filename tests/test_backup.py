"""Safe operations (issue 7, part 5): online backup while others write, validated atomic
restore, and a hard forget that leaves no trace of the text in the database file."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import SchemaVersionError, StoreError
from credo.store import SqliteStore
from credo.store import backup as backup_module
from credo.store.backup import backup, restore, validate
from credo.store.migrations import LATEST_VERSION, MIGRATIONS
from tests.conftest import CliRun

MARKER = "zqxmarkerwombat"
WRITER = """
import sys, time
from credo import Memory
with Memory(sys.argv[1], root=sys.argv[2]) as memory:
    deadline = time.time() + float(sys.argv[3])
    n = 0
    while time.time() < deadline:
        memory.remember(f"writer belief {n} about caching and deploys")
        n += 1
    print(n)
"""


def _fill(path: Path, count: int, prefix: str = "belief") -> list[str]:
    with Memory(path, root=path.parent) as memory:
        return [memory.remember(f"{prefix} {i} about caching and deploys") for i in range(count)]


def _beliefs(path: Path) -> int:
    with Memory(path, root=path.parent) as memory:
        return memory.stats().beliefs


def test_backup_while_another_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db, 50)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(tmp_path), "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    sizes = []
    for n in range(3):
        report = backup(db, tmp_path / f"b{n}.db")
        sizes.append(report.beliefs)
        assert report.schema_version >= 1
    out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0
    assert int(out) > 0
    assert sizes == sorted(sizes) and sizes[0] >= 50
    for n in range(3):
        copy = tmp_path / f"b{n}.db"
        assert not Path(f"{copy}-wal").exists()  # self-contained
        with Memory(copy, root=tmp_path) as memory:
            assert memory.store.integrity_check() == []
            assert memory.stats().beliefs == sizes[n]


def test_backup_refuses_its_own_store_and_missing_sources(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db, 3)
    with pytest.raises(StoreError, match="itself"):
        backup(db, db)
    with pytest.raises(StoreError, match="no store"):
        backup(tmp_path / "absent.db", tmp_path / "b.db")
    assert not (tmp_path / "b.db").exists()


def test_restore_replaces_content_keeps_old_copy_and_open_connections_follow(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    kept_ids = _fill(db, 10)
    backup(db, tmp_path / "b.db")
    _fill(db, 5, prefix="later")
    with Memory(db, root=tmp_path) as open_elsewhere:
        assert open_elsewhere.stats().beliefs == 15
        report = restore(tmp_path / "b.db", db)
        # Another open connection sees the restored content at its next read, and can write.
        assert open_elsewhere.stats().beliefs == 10
        assert open_elsewhere.retrieve("caching").beliefs
        open_elsewhere.remember("written after the restore")
    assert report.previous_copy is not None
    assert _beliefs(Path(report.previous_copy)) == 15
    with Memory(db, root=tmp_path) as memory:
        assert memory.store.integrity_check() == []
        assert {memory.get(i).id for i in kept_ids} == set(kept_ids)
        assert memory.stats().beliefs == 11


@pytest.mark.parametrize("bad", ["garbage", "truncated", "newer", "plain-sqlite", "missing"])
def test_restore_validates_the_source_first_and_changes_nothing(tmp_path: Path, bad: str) -> None:
    db = tmp_path / "m.db"
    _fill(db, 10)
    source = tmp_path / "source.db"
    backup(db, source)
    data = source.read_bytes()
    if bad == "garbage":
        source.write_bytes(b"x" * len(data))
    elif bad == "truncated":
        source.write_bytes(data[: len(data) // 3])
    elif bad == "newer":
        conn = sqlite3.connect(source)
        conn.execute("INSERT INTO _migrations VALUES (99, 'm099_future', 0)")
        conn.commit()
        conn.close()
    elif bad == "plain-sqlite":
        source.unlink()
        conn = sqlite3.connect(source)
        conn.execute("CREATE TABLE t(x)")
        conn.close()
    else:
        source.unlink()
    before = db.read_bytes()
    source_before = source.read_bytes() if source.exists() else b""
    error = SchemaVersionError if bad == "newer" else StoreError
    with pytest.raises(error):
        restore(source, db)
    assert db.read_bytes() == before
    assert (source.read_bytes() if source.exists() else b"") == source_before
    assert not list(tmp_path.glob("m.db.before-restore-*"))


def _older_backup(path: Path) -> None:
    """A backup written by a credo whose schema stopped at version 12."""
    old = SqliteStore(path, migrations=MIGRATIONS[:12])
    old.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, updated_at) "
        "VALUES ('old', 'a belief of the older backup', 'old', 'factual', 'user_stated', 1, 1)"
    )
    old.close()


def _failing(exc: Exception) -> Callable[..., None]:
    def fail(*_args: object, **_kwargs: object) -> None:
        raise exc

    return fail


@pytest.mark.parametrize(
    ("step", "exc"),
    [
        ("migrate", StoreError("cannot migrate b.db: no space left on device")),
        ("_unpin_root", sqlite3.OperationalError("disk I/O error")),
    ],
)
def test_a_restore_failing_while_readying_the_backup_leaves_the_store_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, exc: Exception
) -> None:
    """Before, the backup's pages were copied into the live store first and the root and
    schema fixed after: a failure there said "left as it was" over the backup's content."""
    db = tmp_path / "m.db"
    _fill(db, 4)
    source = tmp_path / "b.db"
    _older_backup(source)
    before = db.read_bytes()
    monkeypatch.setattr(backup_module, step, _failing(exc))
    with pytest.raises(StoreError):
        restore(source, db)
    assert db.read_bytes() == before
    assert _beliefs(db) == 4
    assert not list(tmp_path.glob("m.db.before-restore-*"))


def test_an_older_backup_reaches_the_live_store_already_migrated(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db, 2)
    source = tmp_path / "b.db"
    _older_backup(source)
    source_before = source.read_bytes()
    report = restore(source, db)
    assert (report.schema_version, report.migrated_to) == (12, LATEST_VERSION)
    assert source.read_bytes() == source_before  # the backup itself is never migrated
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT max(version) FROM _migrations").fetchone() == (LATEST_VERSION,)
    assert raw.execute("SELECT id FROM beliefs").fetchall() == [("old",)]
    raw.close()


def test_validate_reports_version_and_size(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db, 4)
    backup(db, tmp_path / "b.db")
    version, beliefs = validate(tmp_path / "b.db")
    assert version >= 1 and beliefs == 4


def test_cli_backup_and_restore(run: CliRun, tmp_path: Path) -> None:
    run("remember", "first belief about caching", check=True)
    out = run("backup", str(tmp_path / "copy.db"), check=True).stdout
    assert "backed up 1 beliefs" in out
    run("remember", "second belief", check=True)
    done = run("restore", str(tmp_path / "copy.db"), check=True)
    assert "restored 1 beliefs" in done.stdout and "previous store kept" in done.stdout
    failed = run("restore", str(tmp_path / "nothing.db"))
    assert failed.returncode == 1
    assert failed.stderr.startswith("Error: ") and failed.stderr.count("\n") == 1


def _traces(db: Path, marker: str) -> int:
    found = 0
    for suffix in ("", "-wal"):
        path = Path(f"{db}{suffix}")
        if path.exists():
            found += path.read_bytes().count(marker.encode())
    return found


def _forget_hard(db: Path, *, fts_optimize: bool) -> None:
    with Memory(db, root=db.parent) as memory:
        for i in range(60):
            memory.remember(f"filler belief {i} about deploys and caches")
        secret = memory.remember(f"the password is {MARKER} again {MARKER}", session=f"s-{MARKER}")
        memory.link(secret, f"https://example.test/{MARKER}")
        other = memory.remember("a belief that cites the secret one")
        memory.relate(secret, other, "SUPPORTS")
        memory.forget(secret, hard=True)
        if fts_optimize:  # the patch proposed for Memory.forget(hard=True)
            memory.store.conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')")
        memory.store.conn.execute("VACUUM")
        assert memory.store.integrity_check() == []


def test_hard_forget_leaves_no_trace_in_the_file(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _forget_hard(db, fts_optimize=False)
    assert _traces(db, MARKER) == 0


def test_hard_forget_with_fts_optimize_leaves_no_trace(tmp_path: Path) -> None:
    """The proposed fix works: with an FTS 'optimize' after the delete, the marker is gone
    from the file (table rows, log payloads, the FTS index, freed pages)."""
    db = tmp_path / "m.db"
    _forget_hard(db, fts_optimize=True)
    assert _traces(db, MARKER) == 0


def test_hard_forget_erases_anchor_text_pointing_at_the_belief(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        secret = memory.remember("the secret belief")
        other = memory.remember("a citing belief")
        memory.relate(other, secret, "CITES", anchor_text=f"words for {MARKER}")
        memory.forget(secret, hard=True)
        memory.store.conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')")
        memory.store.conn.execute("VACUUM")
    assert _traces(db, MARKER) == 0
