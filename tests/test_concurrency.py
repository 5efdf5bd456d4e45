"""Writers and readers in separate processes on one store (issue 7, part 1).

The same harness as ``bench/concurrency.py``, for a few seconds: no operation may fail, no
acknowledged write may be missing afterwards, and the file must pass ``integrity_check``.
Two processes opening (and migrating) a fresh file at once are covered here too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.concurrency import run_mixed

from credo import Memory
from credo.store import LATEST_VERSION
from tests.conftest import postgres_store

OPEN_SCRIPT = """
import sys, time
from credo import Memory
start = float(sys.argv[2])
while time.time() < start:
    pass
with Memory(sys.argv[1], root=sys.argv[3]) as memory:
    memory.remember("opened by " + sys.argv[4])
"""


def test_four_writers_four_readers_nothing_failed_nothing_lost(tmp_path: Path) -> None:
    report = run_mixed(tmp_path / "memory.db", tmp_path, seconds=5.0, writers=4, readers=4)
    assert report.failures == []
    assert report.lost == []
    assert report.integrity == []
    # Every kind of operation really ran, in every role.
    assert {"remember", "relate", "ingest", "retrieve", "hook"} <= set(report.latency_ms)
    assert report.acknowledged["beliefs"] > 20
    assert report.acknowledged["edges"] > 5


def test_on_postgres_four_writers_four_readers_nothing_failed_nothing_lost(
    tmp_path: Path,
) -> None:
    """The same workers on a PostgreSQL store: writers serialise on its advisory lock."""
    with postgres_store() as url:
        report = run_mixed(url, tmp_path, seconds=5.0, writers=4, readers=4)
    assert (report.failures, report.lost, report.integrity) == ([], [], [])
    assert {"remember", "relate", "ingest", "retrieve", "hook"} <= set(report.latency_ms)
    assert report.acknowledged["beliefs"] > 20
    assert report.acknowledged["edges"] > 5


def test_concurrent_first_open_migrates_exactly_once(tmp_path: Path) -> None:
    """Processes that open a fresh file at the same instant all succeed, and every
    migration is applied once (each step re-reads the version under BEGIN IMMEDIATE)."""
    import time

    for trial in range(3):
        db = tmp_path / f"fresh{trial}.db"
        start = time.time() + 1.5
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_SCRIPT, str(db), str(start), str(tmp_path), str(i)],
                stderr=subprocess.PIPE,
            )
            for i in range(3)
        ]
        errors = [p.communicate(timeout=60)[1].decode() for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors
        with Memory(db, root=tmp_path) as memory:
            assert memory.store.integrity_check() == []
            versions = [r[0] for r in memory.store.conn.execute("SELECT version FROM _migrations")]
            assert versions == list(range(1, LATEST_VERSION + 1))
            assert memory.stats().beliefs == 3
