"""The import's speed-ups store what the plain path stores (issue #17, import at 1M):
constant columns written as SQL literals instead of bound parameters, and FTS5 merges
deferred to one 'optimize' during a load into an empty store. Every table is compared, row
by row with each value's SQLite type; the keyword index by its content (term, belief,
column, offset), since its segment layout is what the deferral changes."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from credo import Memory
from credo.errors import RecordsError
from credo.knowledge import importer, records
from credo.store import bulk
from tests.test_import_bulk import _rows, _write

# FTS5's segment pages and their index: the layout, not the content (compared apart).
_LAYOUT = ("beliefs_fts_data", "beliefs_fts_idx")


def _dump(conn: sqlite3.Connection) -> dict[str, Any]:
    """Every table's rows, each value beside its SQLite type, in a fixed order; the FTS
    index as (term, belief rowid, column, offset) rows."""
    tables = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE "
            "'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    dump: dict[str, Any] = {}
    for table in tables:
        if table in _LAYOUT:
            continue
        columns = [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")')]
        typed = ", ".join(f'"{c}", typeof("{c}")' for c in columns)
        order = ", ".join(f'"{c}"' for c in columns)
        dump[table] = conn.execute(f'SELECT {typed} FROM "{table}" ORDER BY {order}').fetchall()
    conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, beliefs_fts, instance)")
    dump["fts instances"] = conn.execute(
        "SELECT term, doc, col, offset FROM temp.vocab ORDER BY term, doc, col, offset"
    ).fetchall()
    conn.execute("DROP TABLE temp.vocab")
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('integrity-check')")
    return dump


def _segments(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(DISTINCT segid) FROM beliefs_fts_idx").fetchone()[0])


@pytest.fixture(autouse=True)
def _defer_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Merges deferred from the load's first batch on (from 250k beliefs otherwise), and
    the file read in small chunks, so that the writer takes the beliefs in many batches."""
    monkeypatch.setattr(bulk, "FTS_DEFER_MERGES_AT", 0)
    monkeypatch.setattr(records, "CHUNK_BYTES", 2048)


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The path before the speed-ups: every value bound, FTS5 merging as it goes."""
    monkeypatch.setattr(bulk, "_slots", lambda rows, width: ("?",) * width)
    monkeypatch.setattr(bulk.BulkLoad, "_defer_fts_merges", lambda self: None)


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "inline"])
def test_import_stores_what_the_plain_path_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    monkeypatch.setattr(importer.time, "time", lambda: 1_700_000_000.5)  # same created_at
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 40 if streamed else 10**9)
    monkeypatch.setattr(bulk, "ROWS_PER_STATEMENT", 50)  # many statements, mixed columns
    rows = _rows()
    rows[7]["session"] = "s7"  # a column constant in some statements, mixed in others
    path = _write(tmp_path / "r.jsonl", rows)
    dumps = []
    for name in ("new", "plain"):
        with Memory(tmp_path / f"{name}.db", root=tmp_path) as memory:
            memory.import_records(path)
            dumps.append(_dump(memory.store.conn))
        _plain(monkeypatch)
    new, plain = dumps
    assert new.keys() == plain.keys()
    for table in new:
        assert new[table] == plain[table], table
    assert len(new["beliefs"]) == 601 and len(new["edges"]) == 1200
    assert len(new["fts instances"]) > 3 * 600  # every belief's words indexed
    locked = [r for r in new["beliefs"] if r[12] == 1]
    assert locked and all(r[13] == "integer" for r in new["beliefs"])


def test_constant_columns_are_stored_as_bound_values() -> None:
    rows = [
        ("a", None, False, True, 1.5, None),
        ("b", None, False, True, 2.5, "x"),
        ("c", None, False, True, None, None),
    ]
    stored = []
    for slots in (bulk._slots, lambda rows, width: ("?",) * width):
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE TABLE t(k, n, f, tr, r, s)")
        bulk._slots, original = slots, bulk._slots  # type: ignore[assignment]
        try:
            bulk.insert_rows(conn, "t", "k, n, f, tr, r, s", rows)
        finally:
            bulk._slots = original  # type: ignore[assignment]
        stored.append(
            conn.execute(
                "SELECT k, n, typeof(n), f, typeof(f), tr, typeof(tr), r, typeof(r), s, "
                "typeof(s) FROM t ORDER BY rowid"
            ).fetchall()
        )
    assert stored[0] == stored[1]
    assert stored[0][0] == (
        "a",
        None,
        "null",
        0,
        "integer",
        1,
        "integer",
        1.5,
        "real",
        None,
        "null",
    )
    assert bulk._slots(rows, 6) == ("?", "NULL", "0", "1", "?", "?")
    assert bulk._slots(rows[:1], 6) == ("?", "NULL", "0", "1", "?", "NULL")


def test_a_load_into_an_empty_store_leaves_one_segment_and_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 40)
    rows = [r for r in _rows() if "anchor_text" not in r]  # anchor text adds segments after
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        conn = memory.store.conn
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('automerge', 8)")
        # A small in-memory term table: FTS5 writes a segment every few beliefs.
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('hashsize', 2048)")
        memory.import_records(_write(tmp_path / "r.jsonl", rows))
        assert _segments(conn) == 1
        config = conn.execute("SELECT k, v FROM beliefs_fts_config ORDER BY k").fetchall()
        assert config == [("automerge", 8), ("hashsize", 2048), ("version", 4)]
        memory.remember("one more note after the import")  # FTS5 takes writes as before
        assert memory.store.keyword_search(["import"], limit=5)


def test_a_failed_load_leaves_the_fts_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 40)
    rows = _rows()
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        conn = memory.store.conn
        before = conn.execute("SELECT k, v FROM beliefs_fts_config ORDER BY k").fetchall()
        with pytest.raises(RecordsError):
            memory.import_records(_write(tmp_path / "r.jsonl", rows, ('{"kind": "edge"}',)))
        assert conn.execute("SELECT k, v FROM beliefs_fts_config ORDER BY k").fetchall() == before
        memory.import_records(_write(tmp_path / "ok.jsonl", rows))
        assert memory.store.integrity_check() == []
