"""Schema migrations: forward-only, automatic on open, data kept, newer schemas refused."""

from __future__ import annotations

import sqlite3
from hashlib import sha256
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import SchemaVersionError, StoreError
from credo.knowledge import identity
from credo.store import LATEST_VERSION, migrations
from credo.store import SqliteStore as Store
from credo.store.index_text import register
from credo.store.migrations import MIGRATIONS
from credo.types import trail_of


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


# -- m006: the context column, on a real v5 file -------------------------------------------

NOTES = "# Ops\n\nThe staging database is rebuilt every Monday.\n"
RUNBOOK = "Pager duty rotates weekly between the two oncall engineers.\n"


def _v5_store(path: Path, root: Path) -> None:
    """A file as credo wrote it at schema v5: stated beliefs, a CITES edge with anchor text,
    a forgotten belief, and what ingest made of two files then (a belief per fine chunk:
    the heading "Ops" apart from its paragraph), with their ledger rows."""
    (root / "notes.md").write_text(NOTES, encoding="utf-8")
    (root / "runbook.txt").write_text(RUNBOOK, encoding="utf-8")
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrations.migrate(conn, str(path), migrations=MIGRATIONS[:5]) == 5
    now = 1_700_000_000.0
    beliefs = [
        ("v5-deploy", "Deploys go through the blue green script", "user_stated", None),
        ("v5-rollback", "Rollbacks redeploy the previous release tag", "user_stated", None),
        ("v5-gone", "Zebra crossings were painted over", "user_stated", now),
        ("v5-ops", "Ops", "document", None),
        ("v5-staging", "The staging database is rebuilt every Monday.", "document", None),
        ("v5-pager", RUNBOOK.strip(), "document", None),
    ]
    for belief_id, content, origin, deleted in beliefs:
        conn.execute(
            "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, "
            "updated_at, deleted_at) VALUES (?, ?, ?, 'factual', ?, ?, ?, ?)",
            (belief_id, content, identity.content_hash(content), origin, now, now, deleted),
        )
    conn.execute(
        "INSERT INTO edges(src, dst, type, weight, anchor_text, created_at) "
        "VALUES ('v5-deploy', 'v5-rollback', 'CITES', 0.5, 'quokka procedure', ?)",
        (now,),
    )
    conn.execute(
        "INSERT INTO edges(src, dst, type, weight, created_at) "
        "VALUES ('v5-staging', 'v5-ops', 'DERIVED_FROM', 0.5, ?)",
        (now,),
    )
    for belief_id, uri in [
        ("v5-ops", "notes.md#L1-L1"),
        ("v5-staging", "notes.md#L3-L3"),
        ("v5-pager", "runbook.txt#L1-L1"),
    ]:
        conn.execute(
            "INSERT INTO belief_documents(belief_id, doc_uri, anchor_type, position_hint, "
            "created_at) VALUES (?, ?, 'ingest', ?, ?)",
            (belief_id, uri, uri.partition("#")[2], now),
        )
    for name, first, count in [("notes.md", "v5-ops", 2), ("runbook.txt", "v5-pager", 1)]:
        data = (root / name).read_bytes()
        conn.execute(
            "INSERT INTO ingested_files VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, sha256(data).hexdigest(), len(data), now, now, count, first),
        )
    columns = [r[1] for r in conn.execute("PRAGMA table_info(beliefs)")]
    assert "context" not in columns
    conn.close()


def _found(memory: Memory, query: str) -> set[str]:
    return {b.id for b in memory.retrieve(query).beliefs}


def _contexts(memory: Memory) -> dict[str, str]:
    rows = memory.store.conn.execute("SELECT id, context FROM beliefs WHERE deleted_at IS NULL")
    return {str(r[0]): str(r[1]) for r in rows}


def test_a_v5_file_migrates_to_the_context_column_and_stays_searchable(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    _v5_store(path, tmp_path)

    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION == 20
        memory.store.fts_integrity_check()
        assert memory.store.integrity_check() == []
        # Every live belief is found by its own words, the cited one by its anchor text
        # alone; the forgotten one stays out of the rebuilt index.
        assert "v5-deploy" in _found(memory, "blue green script")
        assert "v5-rollback" in _found(memory, "previous release tag")
        assert "v5-rollback" in _found(memory, "quokka")
        assert "v5-staging" in _found(memory, "staging database Monday")
        assert "v5-pager" in _found(memory, "pager oncall")
        assert "v5-gone" not in _found(memory, "zebra crossings")
        assert set(_contexts(memory).values()) == {""}  # old beliefs have no context yet

        # Re-ingesting the changed files fills contexts: a belief whose text stayed keeps
        # its id and gets its context; a heading and its paragraph become one passage.
        (tmp_path / "runbook.txt").write_text(RUNBOOK + "\nEscalate after an hour.\n")
        (tmp_path / "notes.md").write_text(NOTES + "\nIt takes ten minutes.\n")
        report = memory.ingest(tmp_path / "runbook.txt", tmp_path / "notes.md")
        assert report.files_ingested == 2 and report.beliefs_kept == 1
        contexts = _contexts(memory)
        assert trail_of(contexts["v5-pager"]) == "runbook.txt L1-L1"
        passage = memory.retrieve("staging database Monday").beliefs[0]
        assert passage.content == (
            "Ops\nThe staging database is rebuilt every Monday.\nIt takes ten minutes."
        )
        assert trail_of(contexts[passage.id]) == "notes.md › Ops L1-L5"
        assert memory.get("v5-ops").deleted_at is not None
        assert memory.get("v5-staging").deleted_at is not None
        assert contexts["v5-deploy"] == contexts["v5-rollback"] == ""  # not ingested
        # The context column is searched: "notes" is only in the passage's path.
        assert passage.id in _found(memory, "notes")
        assert memory.store.integrity_check() == []


def test_an_unchanged_file_of_a_v5_store_is_read_again_as_passages(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    _v5_store(path, tmp_path)
    with Memory(path, root=tmp_path) as memory:
        report = memory.ingest(tmp_path / "notes.md", tmp_path / "runbook.txt")
        assert trail_of(_contexts(memory).get("v5-pager", "")) == "runbook.txt L1-L1"
        assert memory.get("v5-ops").deleted_at is not None  # "Ops" alone is no passage
        assert report.files_ingested == 2


def _dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    register(conn)  # the dump reads beliefs_fts, whose view calls credo_index_text (m013)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_a_current_file_opened_again_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    _v5_store(path, tmp_path)
    with Memory(path, root=tmp_path) as memory:
        memory.ingest(tmp_path)
        assert memory.stats().schema_version == LATEST_VERSION
    before = _dump(path)
    assert any("CREATE VIRTUAL TABLE beliefs_fts" in line and "context" in line for line in before)
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        applied = memory.store.conn.execute("SELECT version FROM _migrations ORDER BY version")
        assert [r[0] for r in applied] == list(range(1, LATEST_VERSION + 1))
        memory.store.fts_integrity_check()
    assert _dump(path) == before


def test_a_v6_file_gains_the_agent_day_tables_and_keeps_its_beliefs(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    _v5_store(path, tmp_path)
    with Memory(path, root=tmp_path) as memory:
        before = sorted(_contexts(memory))
        tables = {
            str(r[0])
            for r in memory.store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        assert {"injections", "captures", "feedback_events"} <= tables
        assert sorted(_contexts(memory)) == before
        assert memory.store.integrity_check() == []


def test_a_v7_journal_is_counted_by_m008(tmp_path: Path) -> None:
    """m008 backfills the use counts from the journal a v7 store wrote: SessionStart's own
    rows, ids the store does not hold and malformed rows count nothing; a block naming a
    belief twice counts once."""
    path = tmp_path / "v7.db"
    store = Store(path, migrations=MIGRATIONS[:7])
    rows = [
        ("a", "b"),
        ("a", "a"),
        ("b", "ghost"),
    ]
    with store.transaction():
        for n in ("a", "b", "c"):
            store.conn.execute(
                "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, "
                "updated_at) VALUES (?, ?, ?, 'note', 'import', 1, 1)",
                (n, f"text {n}", f"h{n}"),
            )
        for at, ids in enumerate(rows):
            store.conn.execute(
                "INSERT INTO injections(at, session, event, belief_ids, tokens, chars) "
                "VALUES (?, 's', 'prompt', ?, 1, 1)",
                (at, '["' + '","'.join(ids) + '"]'),
            )
        store.conn.execute(
            "INSERT INTO injections(at, session, event, belief_ids, tokens, chars) "
            "VALUES (9, 's', 'session_start', '[\"c\"]', 1, 1)"
        )
        store.conn.execute(
            "INSERT INTO injections(at, session, event, belief_ids, tokens, chars) "
            "VALUES (9, 's', 'prompt', 'not json', 1, 1)"
        )
    assert store.schema_version == 7
    store.close()
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION == 20
        counts = dict(memory.store.conn.execute("SELECT belief_id, times FROM injection_counts"))
        assert counts == {"a": 2, "b": 2}
        indexes = {str(r[0]) for r in memory.store.conn.execute("SELECT name FROM sqlite_master")}
        assert {"injection_counts_by_times", "beliefs_with_evidence"} <= indexes
        assert memory.store.integrity_check() == []
