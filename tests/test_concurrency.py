"""Writers and readers in separate processes on one store (issue 7, part 1).

The same harness as ``bench/concurrency.py``, for a few seconds: no operation may fail, no
acknowledged write may be missing afterwards, and the file must pass ``integrity_check``.
Two processes opening (and migrating) a fresh file at once are covered here too.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bench.concurrency import run_mixed

from credo import Memory
from credo.store import LATEST_VERSION
from tests.conftest import credo_in, postgres_store

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


# ``python -m credo`` with each file's split held to 0.2 s (a large file's parse, made long
# enough to see): what the CLI does otherwise is untouched.
SLOW_SPLIT_CLI = """
import runpy, sys, time
from credo.knowledge.ingest import pool
split = pool.split_passages
def slow(name, text):
    time.sleep(0.2)
    return split(name, text)
pool.split_passages = slow
sys.argv = ["credo", *sys.argv[1:]]
runpy.run_module("credo", run_name="__main__")
"""


def test_a_long_ingest_lets_other_writers_in_while_it_splits(tmp_path: Path) -> None:
    """probe69: an ingest held the write lock from its commit group's first file to the
    group's commit, through every split, and took it again at once: a ``credo remember``
    during a long ingest waited for its end (14 s on a 13 s ingest) or failed after the
    10 s busy timeout ("database is locked"). Now a file is split before its group's
    write begins: another writer with a 0.1 s busy timeout gets the lock nearly always."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    for i in range(20):
        text = f"# Page {i}\n\nThe page {i} is about topic{i} and nothing else.\n"
        (project / "docs" / f"page{i}.md").write_text(text, encoding="utf-8")
    assert credo_in(project, "init").returncode == 0
    db = project / ".credo" / "memory.db"
    env = {**os.environ, "CREDO_INGEST_WORKERS": "0"}
    ingest = subprocess.Popen(
        [sys.executable, "-c", SLOW_SPLIT_CLI, "ingest", "."],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tries = got = 0
    while ingest.poll() is None:
        conn = sqlite3.connect(db, timeout=0.1, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ROLLBACK")
            got += 1
        except sqlite3.OperationalError:
            pass
        finally:
            conn.close()
        tries += 1
        time.sleep(0.05)
    out, err = ingest.communicate(timeout=60)
    assert ingest.returncode == 0, err
    assert "20 files ingested" in out
    assert tries >= 30, tries  # (the splits alone take 4 s)
    assert got >= 0.8 * tries, (got, tries)
