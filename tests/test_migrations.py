"""Schema migrations: forward-only, automatic on open, data kept, newer schemas refused."""

from __future__ import annotations

import sqlite3
from hashlib import sha256
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import SchemaVersionError, StoreError
from credo.store import LATEST_VERSION, Store, migrations
from credo.store.migrations import MIGRATIONS


def _old_store(path: Path) -> None:
    """A file as the first release wrote it: schema v1, before belief_documents."""
    store = Store(path, migrations=MIGRATIONS[:1])
    now = 1_700_000_000.0
    store.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, updated_at) "
        "VALUES ('old-1', 'Deploys go through ops/deploy.sh', 'h1', 'factual', "
        "'user_stated', ?, ?)",
        (now, now),
    )
    store.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, updated_at) "
        "VALUES ('old-2', 'Staging mirrors production', 'h2', 'factual', 'user_stated', ?, ?)",
        (now, now),
    )
    store.conn.execute(
        "INSERT INTO edges(src, dst, type, weight, created_at) "
        "VALUES ('old-1', 'old-2', 'SUPPORTS', 1.0, ?)",
        (now,),
    )
    assert store.schema_version == 1
    store.close()


def test_old_file_is_migrated_with_data_intact(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _old_store(path)
    raw = sqlite3.connect(path)
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    raw.close()
    assert "belief_documents" not in tables

    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        assert memory.get("old-1").content == "Deploys go through ops/deploy.sh"
        assert [e.dst for e in memory.edges("old-1")] == ["old-2"]
        # The new table works on the migrated file: write an anchor and read it back equal.
        anchor = memory.link("old-1", "ops/deploy.sh", lines="3-9")
        assert memory.anchors("old-1") == [anchor]
        assert anchor.doc_uri == "ops/deploy.sh#L3-L9"
        assert anchor.position_hint == "L3-L9"
        # The FTS index built by v1's triggers still answers.
        hits = memory.store.keyword_search(["staging"], limit=5)
        assert [h.belief_id for h in hits] == ["old-2"]


def test_m005_drops_a_forgotten_beliefs_anchor_text_from_an_old_file(tmp_path: Path) -> None:
    """Before m005 a forgotten belief's anchor text stayed in what it cited; the upgrade
    rebuilds those targets, and from then on forgetting and restoring keep them true."""
    path = tmp_path / "v4.db"
    store = Store(path, migrations=MIGRATIONS[:4])
    now = 1_700_000_000.0
    for i, (belief_id, content) in enumerate(
        [("wrong", "We run Oracle in production"), ("target", "Schema changes use a runner")]
    ):
        store.conn.execute(
            "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, "
            "updated_at) VALUES (?, ?, ?, 'factual', 'user_stated', ?, ?)",
            (belief_id, content, f"h{i}", now, now),
        )
    store.conn.execute(
        "INSERT INTO edges(src, dst, type, weight, anchor_text, created_at) "
        "VALUES ('wrong', 'target', 'CITES', 0.5, 'oracle runbook', ?)",
        (now,),
    )
    store.conn.execute("UPDATE beliefs SET deleted_at = ? WHERE id = 'wrong'", (now,))
    kept = store.conn.execute("SELECT anchor_text FROM beliefs WHERE id = 'target'").fetchone()
    assert kept == ("oracle runbook",)  # v4's triggers kept the forgotten belief's words
    store.close()

    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION

        def anchor_text() -> str:
            row = memory.store.conn.execute(
                "SELECT anchor_text FROM beliefs WHERE id = 'target'"
            ).fetchone()
            return str(row[0])

        assert anchor_text() == ""
        assert memory.store.keyword_search(["runbook"], limit=5) == []
        with memory.store.transaction():  # what remembering the forgotten text again does
            memory.store.set_deleted("wrong", None, now)
        assert anchor_text() == "oracle runbook"
        assert [h.belief_id for h in memory.store.keyword_search(["runbook"], limit=5)] == [
            "target"
        ]
        memory.forget("wrong")
        assert anchor_text() == ""
        memory.store.fts_integrity_check()


# sha256 (first 16 hex digits) of each shipped migration's SQL. A migration never changes
# once shipped: a store that applied it would not get the change. M005 is built from
# LIVE_ANCHOR_TEXT, which the bulk loader shares: a new rule needs a new migration.
SHIPPED = {
    "M001_INITIAL": "a9713ac503335166",
    "M002_BELIEF_DOCUMENTS": "b2992a4e0788616f",
    "M003_INGESTED_FILES": "585c82e29219fbea",
    "M004_HRR": "9e75bc6a54306e22",
    "M005_LIVE_ANCHOR_TEXT": "b2ccb5c863d1dc2f",
}


@pytest.mark.parametrize(("name", "digest"), sorted(SHIPPED.items()))
def test_shipped_migrations_never_change(name: str, digest: str) -> None:
    assert sha256(getattr(migrations, name).encode()).hexdigest()[:16] == digest


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    Memory(path, root=tmp_path).close()
    with Memory(path, root=tmp_path) as memory:
        rows = memory.store.conn.execute("SELECT version FROM _migrations ORDER BY version")
        assert [r[0] for r in rows] == [m.version for m in MIGRATIONS]


def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    Memory(path, root=tmp_path).close()
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO _migrations VALUES (999, 'm999_future', 0)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(SchemaVersionError, match="999"):
        Memory(path, root=tmp_path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [b"this is not a database at all, just text" * 100, b"SQLite format 3\x00" + b"\xff" * 5000],
)
def test_corrupt_file_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=r"bad\.db"):
        Memory(path, root=tmp_path)
    assert path.read_bytes() == content


def test_pragmas(memory: Memory) -> None:
    conn = memory.store.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
