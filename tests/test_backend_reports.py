"""``credo stats`` and ``credo doctor`` on a SQLite file and on a PostgreSQL store holding
the same writes: the same figures wherever they mean the same thing (everything but the
location and its size), the same anchor problems, the same fixes, and both find a keyword
index that no longer matches its beliefs' text. Through the real CLI; skipped where
CREDO_TEST_POSTGRES is unset (.ci/run sets it)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from credo.store.index_text import register
from tests.conftest import credo_command, postgres_store

GUIDE = """# Guide

## Deploy

Deploys go through ops/deploy.sh and never through the web console.

## Migrations

The deploy script runs the database migrations before it restarts the workers.
"""
NOTES = """# Notes

Releases are tagged from the main branch after CI passes.
"""


@pytest.fixture
def locations(tmp_path: Path) -> Iterator[tuple[str, str]]:
    with postgres_store() as url:
        yield str(tmp_path / "memory.db"), url


def _credo(cwd: Path, db: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CREDO_DB"}
    return subprocess.run(
        [*credo_command(), "--db", db, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _json(cwd: Path, db: str, *args: str, code: int = 0) -> dict[str, Any]:
    done = _credo(cwd, db, *args, "--json")
    assert done.returncode == code, done.stderr
    return json.loads(done.stdout)


def _write_the_same(project: Path, db: str) -> None:
    """The same writes, through the CLI, into one store."""
    assert _credo(project, db, "ingest", "docs").returncode == 0
    kept = _credo(project, db, "remember", "Staging mirrors production", "--doc", "https://x.io/s")
    gone = _credo(project, db, "remember", "A rule nobody follows", "--doc", "docs/guide.md")
    locked = _credo(project, db, "remember", "Never force-push main")
    ids = [r.stdout.strip() for r in (kept, gone, locked)]
    assert all(ids), [r.stderr for r in (kept, gone, locked)]
    assert _credo(project, db, "relate", ids[0], ids[2], "SUPPORTS").returncode == 0
    assert _credo(project, db, "lock", ids[2]).returncode == 0
    assert _credo(project, db, "forget", ids[1]).returncode == 0


def _stats(project: Path, db: str) -> dict[str, Any]:
    stats = _json(project, db, "stats")
    assert stats.pop("size_bytes") > 0
    assert stats.pop("path") == db
    return stats


def test_stats_and_doctor_agree_across_backends(locations: tuple[str, str], tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (project / "docs" / "notes.md").write_text(NOTES, encoding="utf-8")
    for db in locations:
        _write_the_same(project, db)

    sqlite, postgres = (_stats(project, db) for db in locations)
    assert sqlite == postgres
    assert sqlite["beliefs"] >= 5 and sqlite["locked"] == 1 and sqlite["deleted"] == 1
    assert sqlite["edges_by_type"]["SUPPORTS"] == 1 and sqlite["anchors"] >= 5

    healthy = [_json(project, db, "doctor") for db in locations]
    assert healthy[0] == healthy[1]
    assert healthy[0]["healthy"] and healthy[0]["integrity"] == ["ok"]
    assert healthy[0]["skipped"] == 2  # the web URL and the forgotten belief's anchor

    # The guide moves down two lines; the notes vanish.
    (project / "docs" / "guide.md").write_text("<!-- moved -->\n\n" + GUIDE, encoding="utf-8")
    (project / "docs" / "notes.md").unlink()
    found = [_json(project, db, "doctor", code=1) for db in locations]
    assert found[0] == found[1]
    assert found[0]["shifted"] and found[0]["missing_files"]

    fixed = [
        _json(project, db, "doctor", "--fix", "--backfill-anchors", code=1) for db in locations
    ]
    assert fixed[0] == fixed[1]
    assert len(fixed[0]["fixed"]) == len(found[0]["shifted"])
    after = [_json(project, db, "doctor", code=1) for db in locations]  # notes still gone
    assert after[0] == after[1] and not after[0]["shifted"]
    assert _stats(project, locations[0]) == _stats(project, locations[1])


def test_both_doctors_find_an_index_that_no_longer_matches_its_text(
    locations: tuple[str, str], tmp_path: Path
) -> None:
    import psycopg

    (tmp_path / ".git").mkdir()
    sqlite_db, url = locations
    for db in locations:
        assert _credo(tmp_path, db, "remember", "Deploys go through ops/deploy.sh").returncode == 0
    # The text changes behind the index's back (its trigger off for one statement; the
    # constants' index's trigger, m016, reads the row's text by credo's SQL function).
    with sqlite3.connect(sqlite_db) as conn:
        register(conn)
        sql = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'beliefs_fts_update'"
        ).fetchone()[0]
        conn.execute("DROP TRIGGER beliefs_fts_update")
        conn.execute("UPDATE beliefs SET content = 'Deploys go through the console'")
        conn.execute(sql)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER TABLE beliefs DISABLE TRIGGER beliefs_fts_update")
        conn.execute("UPDATE beliefs SET content = 'Deploys go through the console'")
        conn.execute("ALTER TABLE beliefs ENABLE TRIGGER beliefs_fts_update")
    for db in locations:
        report = _json(tmp_path, db, "doctor", code=1)
        assert not report["healthy"]
        assert report["integrity"] != ["ok"]
        assert all(p.startswith("fts") for p in report["integrity"]), report["integrity"]
