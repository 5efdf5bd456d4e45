"""The bulk paths of the records import: the writer thread that inserts beliefs while the
file is parsed (into a fresh store), and the schema shortcuts of ``store/bulk.py``
(triggers and indexes suspended, CHECK and foreign-key checks skipped). Whatever path runs,
the store ends up the same, and an error leaves it, its schema and its connection as they
were."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from credo import Memory
from credo.errors import InvalidInputError, RecordsError
from credo.knowledge import importer, records
from credo.store.bulk import BULK_DDL_ROWS
from credo.types import EdgeType

HRR = {"hrr": True, "bm25f": False, "heat": False, "bfs": False, "doc": False}


def _rows(beliefs: int = 600) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i in range(beliefs):
        row: dict[str, Any] = {"kind": "belief", "id": f"n{i}", "content": f"note {i} topic{i % 7}"}
        if i % 5 == 0:
            row["session"] = f"s{i % 3}"
        if i % 11 == 0:
            row["doc"] = f"docs/page{i % 4}.md#L{i % 9 + 1}-L{i % 9 + 3}"
        if i % 13 == 0:
            row.update(locked=True, created_at=1_700_000_000.25 + i, belief_kind="preference")
        if i % 17 == 0:
            row["content"] = f"Café naïve {i} ünïcode"
        rows.append(row)
    rows.append({"kind": "belief", "content": "no id, derived from the text"})
    rows.append({"kind": "belief", "content": "note 3 topic3"})  # corroborates n3
    types = [t.value for t in EdgeType]
    for i in range(beliefs):
        for step, type_name in ((1, types[i % len(types)]), (7, "CITES")):
            edge: dict[str, Any] = {
                "kind": "edge",
                "src": f"n{i}",
                "dst": f"n{(i + step) % beliefs}",
                "type": type_name,
            }
            if i % 19 == 0 and step == 7:
                edge["anchor_text"] = f"anchorword{i}"
            if i % 23 == 0:
                edge["weight"] = 0.123456789012345
            rows.append(edge)
    rows.append({"kind": "anchor", "belief_id": "n1", "doc_uri": "docs/extra.md"})
    return rows


def _write(path: Path, rows: list[dict[str, Any]], extra: tuple[str, ...] = ()) -> Path:
    lines = [json.dumps(r) for r in rows] + list(extra)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class _CountingWriter(importer._Writer):
    started = 0

    def __init__(self) -> None:
        type(self).started += 1
        super().__init__()


@pytest.fixture
def streaming(monkeypatch: pytest.MonkeyPatch) -> type[_CountingWriter]:
    """Small chunks and batches, so a few hundred records take the streamed path."""
    monkeypatch.setattr(records, "CHUNK_BYTES", 2048)
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 40)
    _CountingWriter.started = 0
    monkeypatch.setattr(importer, "_Writer", _CountingWriter)
    return _CountingWriter


@pytest.fixture(params=[True, False], ids=["streamed", "plain"])
def stream(
    request: pytest.FixtureRequest,
    streaming: type[_CountingWriter],
    monkeypatch: pytest.MonkeyPatch,
) -> bool:
    """Each import test twice: through the writer thread, and with streaming out of reach."""
    if not request.param:
        monkeypatch.setattr(importer, "STREAM_BELIEFS", 10**9)
    return bool(request.param)


def _snapshot(memory: Memory, folder: Path, name: str) -> tuple[bytes, list[Any], list[str]]:
    memory.export_records(folder / f"{name}.jsonl")
    log = [(e.op, e.belief_id, e.source_path, e.payload) for e in memory.store.log_entries()]
    hits = [
        h.belief_id for h in memory.store.keyword_search(["topic3", "anchorword38"], limit=5000)
    ]
    assert memory.store.integrity_check() == []
    return (folder / f"{name}.jsonl").read_bytes(), log, hits


def _schema(memory: Memory) -> list[tuple[str, ...]]:
    """The store's schema, temporary triggers included (made before the first write: one
    empty write transaction runs that set-up, so "before" and "after" compare alike)."""
    with memory.store.transaction():
        pass
    conn = memory.store.conn
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    temp = conn.execute("SELECT type, name, sql FROM sqlite_temp_master ORDER BY type, name")
    return [tuple(map(str, r)) for r in [*rows, *temp]]


def _pragmas(memory: Memory) -> tuple[int, int]:
    conn = memory.store.conn
    return (
        conn.execute("PRAGMA foreign_keys").fetchone()[0],
        conn.execute("PRAGMA ignore_check_constraints").fetchone()[0],
    )


def test_streamed_import_equals_the_plain_one(
    tmp_path: Path, streaming: type[_CountingWriter], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer.time, "time", lambda: 1_700_000_000.5)  # same created_at
    path = _write(tmp_path / "r.jsonl", _rows())
    with Memory(tmp_path / "a.db", root=tmp_path) as memory:
        schema = _schema(memory)
        report = memory.import_records(path)
        assert streaming.started == 1
        assert (report.beliefs_added, report.beliefs_corroborated) == (601, 1)
        assert (report.edges_added, report.anchors_added) == (1200, 56)
        assert _schema(memory) == schema and _pragmas(memory) == (1, 0)
        streamed = _snapshot(memory, tmp_path, "a")
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 10**9)
    with Memory(tmp_path / "b.db", root=tmp_path) as memory:
        memory.import_records(path)
        assert streaming.started == 1  # no writer this time
        plain = _snapshot(memory, tmp_path, "b")
    assert streamed == plain
    assert len(plain[2]) > 70 and "n45" in plain[2]  # streamed beliefs, their anchor text


def test_logged_belief_payload_is_the_sorted_json(memory: Memory) -> None:
    rows = [{"kind": "belief", "id": f"n{i}", "content": f"text {i}"} for i in range(1200)]
    rows[5] = {"kind": "belief", "id": "n5", "content": 'q " b \\ t\tn\nc\x01', "session": "s"}
    rows[6] = {"kind": "belief", "id": "n6", "content": "Grüße \u2028 \U0001f600"}
    memory.import_records(rows)
    logged = {e.belief_id: e for e in memory.store.log_entries() if e.op == "import"}
    assert len(logged) == 1200
    for row in rows:
        assert logged[row["id"]].payload == {
            "content": row["content"].strip(),
            "session": row.get("session"),
        }
    raw = dict(
        memory.store.conn.execute("SELECT belief_id, payload FROM ingest_log WHERE op = 'import'")
    )
    expected = json.dumps({"content": 'q " b \\ t\tn\nc\x01', "session": "s"}, sort_keys=True)
    assert raw["n5"] == expected  # ASCII text: the very bytes json.dumps writes


def test_a_late_bad_line_leaves_store_schema_and_connection_unchanged(
    tmp_path: Path, streaming: type[_CountingWriter], stream: bool
) -> None:
    rows = _rows()
    path = _write(tmp_path / "r.jsonl", rows, ('{"kind": "edge", "src": "n1"}',))
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        schema = _schema(memory)
        with pytest.raises(RecordsError, match=rf":{len(rows) + 1}: missing required field"):
            memory.import_records(path)
        assert streaming.started == int(stream)
        assert memory.stats().beliefs == 0 and memory.stats().log_entries == 0
        assert _schema(memory) == schema and _pragmas(memory) == (1, 0)
        memory.import_records(_write(tmp_path / "ok.jsonl", rows))  # the store still works
        assert memory.stats().beliefs == 601 and memory.store.integrity_check() == []


def test_an_error_of_the_writer_comes_after_the_files_own(
    tmp_path: Path, streaming: type[_CountingWriter], stream: bool
) -> None:
    rows = _rows()
    rows[3]["session"] = "\ud800"  # a lone surrogate: only the insert itself finds it
    path = tmp_path / "r.jsonl"
    _write(path, rows)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        schema = _schema(memory)
        with pytest.raises(InvalidInputError, match="surrogate"):
            memory.import_records(path)
        edge = {"kind": "edge", "src": "n1", "dst": "ghost", "type": "CITES"}
        _write(path, [*rows, edge])
        with pytest.raises(RecordsError, match=rf":{len(rows) + 1}: edge end 'ghost'"):
            memory.import_records(path)  # the check of the ends comes first, as without it
        assert streaming.started == 2 * int(stream)
        assert memory.stats().beliefs == 0
        assert _schema(memory) == schema and _pragmas(memory) == (1, 0)


def test_big_import_into_a_filled_store_keeps_its_schema(memory: Memory, tmp_path: Path) -> None:
    memory.remember("stored before", id="old")
    schema = _schema(memory)
    rows = _rows()
    rows.append({"kind": "edge", "src": "n1", "dst": "old", "type": "CITES", "anchor_text": "zz"})
    report = memory.import_records(_write(tmp_path / "r.jsonl", rows))
    assert report.beliefs_added == 601 and report.edges_added == 1201
    assert _schema(memory) == schema and _pragmas(memory) == (1, 0)
    assert [h.belief_id for h in memory.store.keyword_search(["zz"], limit=5)] == ["old"]
    assert memory.store.integrity_check() == []
    with pytest.raises(sqlite3.IntegrityError):  # CHECK and foreign keys are enforced again
        memory.store.conn.execute("INSERT INTO edges VALUES ('n1', 'n2', 'LIKES', 0.5, NULL, 0.0)")
    with pytest.raises(sqlite3.IntegrityError):
        memory.store.conn.execute(
            "INSERT INTO edges VALUES ('n1', 'ghost', 'CITES', 0.5, NULL, 0.0)"
        )


@pytest.mark.parametrize("fresh", [True, False])
def test_big_import_keeps_hrr_traces_true(
    tmp_path: Path, streaming: type[_CountingWriter], fresh: bool
) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        if not fresh:
            memory.remember("stored before", id="old")
        memory.enable_hrr(dim=256)
        schema = _schema(memory)
        memory.import_records(_rows(beliefs=500))
        assert streaming.started == int(fresh)
        assert _schema(memory) == schema
        queries = [f"what cites n{i}" for i in range(0, 500, 25)] + ["n6 TEMPORAL_NEXT ?"]
        answers = [_hrr_ids(memory, q) for q in queries]
        assert "n493" in answers[0] and answers[-1] == ["n7"]  # n493 -CITES-> n0 (wraps)
        memory.enable_hrr(dim=256)  # rebuilt from the stored edges: the same traces
        assert [_hrr_ids(memory, q) for q in queries] == answers


def _hrr_ids(memory: Memory, query: str) -> list[str]:
    result = memory.retrieve(query, lanes=HRR, token_budget=100_000)
    return [b.id for b in result.beliefs if "hrr" in b.lanes]  # locked ones come regardless


@pytest.mark.parametrize(
    "bad",
    [
        '{"kind": "belief", "id": "n9", "content": "x", "locked": "yes"}',  # detailed check
        '{"kind": "belief", "id": "n9", "content": "x"',  # the chunk is read line by line
    ],
)
def test_an_earlier_lines_problem_wins_within_a_chunk(
    memory: Memory, tmp_path: Path, bad: str
) -> None:
    rows = [{"kind": "belief", "id": f"n{i}", "content": f"c{i}"} for i in range(3)]
    rows.append({"kind": "edge", "src": "n0", "dst": "n0", "type": "CITES"})  # line 4
    path = _write(tmp_path / "r.jsonl", rows, (bad,))  # line 5, same chunk
    with pytest.raises(RecordsError, match=r":4: self-edge"):
        memory.import_records(path)
    with pytest.raises(RecordsError, match=r":4: "):  # the same line alone: its own error
        memory.import_records(_write(tmp_path / "r.jsonl", rows[:3], (bad,)))
    assert memory.stats().beliefs == 0


def test_rowids_near_the_top_take_the_id_list_path(memory: Memory, tmp_path: Path) -> None:
    memory.store.conn.execute(  # the FTS trigger indexes it under this rowid
        "INSERT INTO beliefs(rid, id, content, content_hash, kind, origin, created_at, "
        "updated_at) VALUES (?, 'first', 'a first belief', 'h', 'factual', 'import', 0, 0)",
        (2**62,),
    )
    memory.relate("first", memory.remember("a second belief"), "CITES")  # edges not empty
    schema = _schema(memory)
    rows = _rows(beliefs=600)
    report = memory.import_records(_write(tmp_path / "r.jsonl", rows))
    assert report.beliefs_added == 601
    assert _schema(memory) == schema
    assert len(memory.store.keyword_search(["topic3"], limit=5000)) > 70
    logged = {e.belief_id: e.payload for e in memory.store.log_entries() if e.op == "import"}
    assert logged["n5"] == {"content": "note 5 topic5", "session": "s2"}
    assert memory.store.integrity_check() == []


def test_import_inside_an_outer_transaction_keeps_foreign_keys_on(
    tmp_path: Path, streaming: type[_CountingWriter]
) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        with memory.store.transaction():
            report = memory.import_records(_rows())
            assert memory.store.conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert streaming.started == 1 and report.edges_added == 1200
        assert _pragmas(memory) == (1, 0) and memory.store.integrity_check() == []


@pytest.mark.parametrize("fillers", [20, BULK_DDL_ROWS + 200], ids=["small", "big"])
def test_a_forgotten_importers_anchor_text_does_not_index_its_target(
    memory: Memory, fillers: int
) -> None:
    """The bulk loader builds anchor text by m005's rule: from live citing beliefs only."""
    rows: list[dict[str, object]] = [
        {"kind": "belief", "id": "wrong", "content": "We run Oracle", "deleted_at": 1.0},
        {"kind": "belief", "id": "target", "content": "Schema changes use a runner"},
        {"kind": "edge", "src": "wrong", "dst": "target", "type": "CITES", "anchor_text": "zz"},
        {"kind": "edge", "src": "n0", "dst": "target", "type": "CITES", "anchor_text": "yy"},
    ]
    rows += [{"kind": "belief", "id": f"n{i}", "content": f"filler {i}"} for i in range(fillers)]
    memory.import_records(rows)
    row = memory.store.conn.execute("SELECT anchor_text FROM beliefs WHERE id = 'target'")
    assert row.fetchone() == ("yy",)
    assert memory.retrieve("zz").ids == []
    assert memory.store.integrity_check() == []
