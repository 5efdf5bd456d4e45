"""The PostgreSQL backend's own behaviour: the real CLI on a server, migrations raced by two
processes, writers serialised by the store's advisory lock (readers not), and bad input
refused with typed errors. Skipped where CREDO_TEST_POSTGRES is unset (.ci/run sets it)."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import InvalidInputError, StoreError
from credo.store.postgres import schema
from tests.conftest import credo_command, postgres_store


@pytest.fixture
def url() -> object:
    with postgres_store() as location:
        yield location


def _credo(cwd: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CREDO_DB": url}
    return subprocess.run(
        [*credo_command(), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_cli_works_on_a_postgres_store(url: str, tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    rows = [
        {"kind": "belief", "id": "d1", "content": "Deploys go through ops/deploy.sh"},
        {"kind": "belief", "id": "d2", "content": "The deploy script runs migrations first"},
        {"kind": "edge", "src": "d2", "dst": "d1", "type": "SUPPORTS"},
    ]
    records.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = _credo(tmp_path, url, "import", str(records))
    assert done.returncode == 0, done.stderr
    found = json.loads(_credo(tmp_path, url, "search", "deploy migrations", "--json").stdout)
    assert [b["id"] for b in found["beliefs"]][:2] == ["d2", "d1"]
    stats = json.loads(_credo(tmp_path, url, "stats", "--json").stdout)
    assert (stats["beliefs"], stats["edges"]) == (2, 1)
    assert stats["schema_version"] == schema.LATEST_VERSION
    assert stats["path"].startswith("postgresql://")
    doctor = _credo(tmp_path, url, "doctor")
    assert doctor.returncode == 0, doctor.stderr
    backup = _credo(tmp_path, url, "backup", str(tmp_path / "b.db"))
    assert backup.returncode == 1 and "pg_dump" in backup.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]


def _open(location: str) -> int:
    with Memory(location) as memory:
        return memory.stats().schema_version


def test_two_processes_migrating_at_once_apply_each_step_once(url: str) -> None:
    with ProcessPoolExecutor(2) as pool:
        versions = list(pool.map(_open, [url, url]))
    assert versions == [schema.LATEST_VERSION] * 2
    with Memory(url) as memory:
        rows = memory.store.conn.execute("SELECT version FROM _migrations ORDER BY 1").fetchall()
    assert [r[0] for r in rows] == [m.version for m in schema.MIGRATIONS]


def test_writers_wait_for_the_lock_and_fail_clearly_readers_do_not(
    url: str, tmp_path: Path
) -> None:
    import psycopg

    with Memory(url, root=tmp_path) as memory:
        memory.remember("the deploy checklist lives in the wiki")
        memory.store.conn.execute("SET lock_timeout = 300")
        with psycopg.connect(url, autocommit=True) as other, other.transaction():
            other.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", (schema.LOCK_CLASS, schema.WRITE_KEY)
            )
            assert memory.retrieve("deploy checklist").ids  # a reader never waits
            with pytest.raises(StoreError, match="another writer held the store's lock"):
                memory.remember("a second belief")
        memory.remember("a second belief")  # the lock is free again
        assert memory.stats().beliefs == 2


def test_text_postgres_cannot_hold_is_refused_typed(url: str, tmp_path: Path) -> None:
    with Memory(url, root=tmp_path) as memory:
        with pytest.raises(InvalidInputError, match="NUL"):
            memory.remember("fine text", session="a\x00b")
        assert memory.stats().beliefs == 0  # the transaction rolled back whole
        assert memory.store.integrity_check() == []


def test_rows_waiting_to_be_indexed_are_no_fault_of_the_index(url: str, tmp_path: Path) -> None:
    """review85: a row queued in ``fts_dirty`` (a statement outside ``transaction()``:
    every store write indexes its rows before COMMIT) was reported as an indexed row that
    disagrees with its text, or as a stale one, beside the queue's own line. The queue is
    said once; the next write indexes it and the check is clean."""
    with Memory(url, root=tmp_path) as memory:
        kept = memory.remember("the deploy checklist lives in the wiki")
        gone = memory.remember("the release notes live in the changelog")
        conn = memory.store.conn
        conn.execute("UPDATE beliefs SET content = 'the checklist moved' WHERE id = %s", (kept,))
        conn.execute("UPDATE beliefs SET deleted_at = 1.0 WHERE id = %s", (gone,))
        assert memory.store.fts_integrity_check() == []
        assert memory.store.integrity_check() == ["fts: 2 rows wait to be indexed"]
        memory.remember("a third belief")  # a write indexes the queue
        assert memory.store.integrity_check() == []
        assert kept in memory.retrieve("checklist moved").ids
