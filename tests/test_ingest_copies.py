"""One text in several files is one belief whose context is the union of its files' own
(m019 ``anchor_contexts``, knowledge/ingest/copies.py): every copy is found by its own
file's words, a file's words leave with the file, and a belief held by one file is indexed
exactly as before."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import RecordsError
from credo.knowledge.identity import MAX_CONTEXT_CHARS
from credo.knowledge.ingest.copies import union
from credo.store.index_text import register
from credo.store.migrations import MIGRATIONS, migrate
from credo.surfaces.render import memory_block
from credo.types import LENGTH_FILLER
from tests.conftest import POSTGRES, exported_records, postgres_store

BOTH_BACKENDS = True

_POOL = "package logrus\n\nfunc init() {\n\tSetBufferPool(newDefaultPool())\n}\n"
_FORMATTER = "package logrus\n\nfunc init() {\n\tbaseTimestamp = time.Now()\n}\n"
_TERMINAL = "package logrus\n\nfunc init() {\n\tcheckIfTerminal(os.Stderr)\n}\n"


def _write(root: Path) -> list[Path]:
    files = {"buffer_pool.go": _POOL, "text_formatter.go": _FORMATTER}
    for name, text in files.items():
        (root / name).write_text(text)
    return [root / name for name in files]


def _context(memory: Memory, text: str = "func init()") -> str:
    found = [b for b in memory.store.iter_beliefs() if b.content == text and not b.deleted_at]
    assert len(found) == 1
    return found[0].context


def _first_uris(memory: Memory, query: str) -> list[str]:
    result = memory.retrieve(query, with_doc_anchors=True)
    assert result.doc_anchors
    return [a.doc_uri for a in result.doc_anchors[0] if a.anchor_type == "ingest"]


# -- the union -------------------------------------------------------------------------------
def test_one_file_s_context_is_the_belief_s() -> None:
    assert union([("a.py", "a.py › f L1-L2\nf x")]) == "a.py › f L1-L2\nf x"


def test_the_other_files_add_their_new_words_once_in_order() -> None:
    rows = [("a.py", "a.py › f L1-L2\nf alpha"), ("b.py", "b.py › f L7-L9\nf omega omega alpha")]
    assert union(rows) == "a.py › f L1-L2\nf alpha\nb omega"
    assert union(rows[::-1]) == "b.py › f L7-L9\nf omega omega alpha\na"


def test_the_filler_shrinks_by_the_words_added() -> None:
    filler = " ".join([LENGTH_FILLER] * 5)
    rows = [("a.py", f"a.py L1-L2\nf\n{filler}"), ("b.py", f"b.py L1-L2\nf two\n{filler}")]
    assert union(rows) == f"a.py L1-L2\nf\nb two\n{' '.join([LENGTH_FILLER] * 3)}"


def test_the_union_keeps_a_record_s_limit() -> None:
    rows = [(f"f{i:03}.py", f"f{i:03}.py L1-L2\nword{i:03}x") for i in range(400)]
    text = union(rows)
    assert len(text) <= MAX_CONTEXT_CHARS
    assert text.startswith("f000.py L1-L2\nword000x\n")
    assert not text.endswith(" ")


# -- ingest and retrieve -------------------------------------------------------------------
def test_each_copy_is_found_by_its_own_file_s_words_and_shown_first(
    memory: Memory, tmp_path: Path
) -> None:
    memory.ingest(*_write(tmp_path))
    assert "base timestamp" in _context(memory)
    assert _first_uris(memory, "where is baseTimestamp set") == [
        "text_formatter.go#L3-L5",
        "buffer_pool.go#L3-L5",
    ]
    assert _first_uris(memory, "where is SetBufferPool called")[0] == "buffer_pool.go#L3-L5"
    assert _first_uris(memory, "text formatter init")[0] == "text_formatter.go#L3-L5"


def test_the_memory_block_names_the_copy_that_answered(memory: Memory, tmp_path: Path) -> None:
    memory.ingest(*_write(tmp_path))
    asked = memory_block(memory.retrieve("where is baseTimestamp set", with_doc_anchors=True))
    assert "in buffer_pool.go" in asked  # (the trail: the file read first)
    assert "(from text_formatter.go#L3-L5)" in asked  # (free metadata, as every anchor)
    pool = memory_block(memory.retrieve("where is SetBufferPool called", with_doc_anchors=True))
    assert "(from " not in pool


def test_a_file_s_words_leave_with_the_file(memory: Memory, tmp_path: Path) -> None:
    files = _write(tmp_path)
    memory.ingest(tmp_path)
    (tmp_path / "text_formatter.go").unlink()
    memory.ingest(tmp_path)
    with Memory(tmp_path / "alone.db", root=tmp_path) as alone:  # (one file: as before)
        alone.ingest(files[0])
        assert _context(memory) == _context(alone)
        ids = [b.id for b in alone.store.iter_beliefs()]
        assert alone.store.file_contexts(ids) == {}  # (a text in one file keeps no row)
    assert not memory.retrieve("baseTimestamp").beliefs


def test_a_copy_edited_away_takes_its_words_and_a_new_one_brings_its_own(
    memory: Memory, tmp_path: Path
) -> None:
    memory.ingest(*_write(tmp_path))
    (tmp_path / "text_formatter.go").write_text("package logrus\n\nfunc setup() {\n}\n")
    (tmp_path / "terminal.go").write_text(_TERMINAL)
    memory.ingest(tmp_path)
    context = _context(memory).lower()
    assert "timestamp" not in context
    assert "terminal check if" in context
    assert _first_uris(memory, "where is checkIfTerminal called")[0] == "terminal.go#L3-L5"


def test_the_file_read_first_leads_and_a_later_copy_only_adds(tmp_path: Path) -> None:
    files = _write(tmp_path)
    for name, order in (("a.db", files), ("b.db", files[::-1])):
        with Memory(tmp_path / name, root=tmp_path) as memory:
            for path in order:
                memory.ingest(path)
            with Memory(tmp_path / f"one-{name}", root=tmp_path) as one:
                one.ingest(order[0])
                alone = _context(one)
            context = _context(memory)
            body = alone.split("\ncredolengthfiller")[0]
            assert context.startswith(body + "\n")  # (its trail: what a hit shows)
            memory.ingest(order[0])  # (read again, unchanged or not: nothing moves)
            assert _context(memory) == context


@pytest.mark.sqlite_only
def test_both_backends_answer_a_copy_alike(tmp_path: Path) -> None:
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")

    def answers(location: str | Path) -> list[list[tuple[str, float]]]:
        with Memory(location, root=tmp_path) as memory:
            memory.ingest(*_write(tmp_path))
            queries = ("where is baseTimestamp set", "buffer pool init", "text formatter")
            return [
                [(b.id, b.score) for b in memory.retrieve(q, with_doc_anchors=True).beliefs]
                for q in queries
            ]

    lite = answers(tmp_path / "m.db")
    with postgres_store() as url:
        assert answers(url) == lite
    assert all(lite)


# -- records export and import --------------------------------------------------------------
def _ingested_and_exported(memory: Memory, tmp_path: Path) -> list[dict[str, object]]:
    memory.ingest(*_write(tmp_path))
    return exported_records(memory, tmp_path / "records.jsonl")


def _answers(memory: Memory) -> list[tuple[str, float, list[str]]]:
    result = memory.retrieve("where is baseTimestamp set", with_doc_anchors=True)
    uris = [[a.doc_uri for a in anchors] for anchors in result.doc_anchors]
    return [(b.id, b.score, u) for b, u in zip(result.beliefs, uris, strict=True)]


def test_an_export_carries_each_file_s_context_and_the_import_answers_alike(
    memory: Memory, tmp_path: Path
) -> None:
    records = _ingested_and_exported(memory, tmp_path)
    with Memory(tmp_path / "copy.db", root=tmp_path) as copy:
        copy.import_records(records)
        assert copy.store.iter_anchor_contexts() == memory.store.iter_anchor_contexts()
        assert len(copy.store.iter_anchor_contexts()) == 2
        assert _answers(copy) == _answers(memory)
        assert _answers(copy)[0][2][0] == "text_formatter.go#L3-L5"
        (tmp_path / "text_formatter.go").unlink()
        copy.ingest(tmp_path)  # (the imported rows say which words leave with the file)
        assert not copy.retrieve("baseTimestamp").beliefs


def test_an_anchor_context_of_a_file_that_holds_no_anchor_of_it_is_refused(
    memory: Memory, tmp_path: Path
) -> None:
    records = _ingested_and_exported(memory, tmp_path)
    at = next(i for i, r in enumerate(records) if r["kind"] == "anchor_context")
    records[at] = {**records[at], "file": "zzz.go"}
    with Memory(tmp_path / "copy.db", root=tmp_path) as copy:
        with pytest.raises(RecordsError, match=f":{at + 1}: .*has no ingest anchor in 'zzz.go'"):
            copy.import_records(records)
        assert copy.stats().beliefs == 0


def test_an_anchor_context_of_no_known_belief_is_refused_and_nothing_imported(
    memory: Memory, tmp_path: Path
) -> None:
    records = tmp_path / "bad.jsonl"
    row = {"kind": "anchor_context", "belief_id": "ffffffffffffffff", "file": "a.py"}
    records.write_text(json.dumps({**row, "context": "a.py L1-L2"}) + "\n")
    with pytest.raises(RecordsError, match=r"bad.jsonl:1: belief 'ffffffffffffffff'"):
        memory.import_records(records)
    assert memory.store.iter_anchor_contexts() == []
    records.write_text(json.dumps({**row, "context": "x" * (MAX_CONTEXT_CHARS + 1)}) + "\n")
    with pytest.raises(RecordsError, match="over the limit"):
        memory.import_records(records)


# -- m019 ------------------------------------------------------------------------------------
def test_a_v18_store_keeps_its_contexts_and_gains_the_other_files_at_the_next_ingest(
    tmp_path: Path,
) -> None:
    """A v18 store as credo wrote it: one belief for both files' ``func init()``, its
    context the first file's (made here by this code, then the m019 table dropped and the
    context set back to the one file's; a real v18 file by 050421d2's code is checked the
    same way in the report of stop 65, ctx14)."""
    files = _write(tmp_path)
    path = tmp_path / "v18.db"
    with Memory(tmp_path / "one.db", root=tmp_path) as one:
        one.ingest(files[0])
        first_only = _context(one)
    with Memory(path, root=tmp_path) as memory:
        memory.ingest(*files)
    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)  # (the index's functions, which the triggers call)
    conn.execute("BEGIN")
    conn.execute("DROP TABLE anchor_contexts")
    conn.execute("DELETE FROM _migrations WHERE version >= 19")
    conn.execute("UPDATE beliefs SET context = ? WHERE content = 'func init()'", (first_only,))
    conn.execute("COMMIT")
    assert migrate(conn, str(path), MIGRATIONS) == MIGRATIONS[-1].version
    rows = conn.execute("SELECT file, context FROM anchor_contexts ORDER BY file").fetchall()
    assert ("buffer_pool.go", first_only) in rows
    assert {r[0] for r in conn.execute("SELECT content_hash FROM ingested_files")} == {""}
    conn.close()
    with Memory(path, root=tmp_path) as memory:
        assert _context(memory) == first_only  # (nothing lost before the next ingest)
        memory.ingest(tmp_path)
        assert "base timestamp" in _context(memory)
        assert _first_uris(memory, "where is baseTimestamp set")[0] == "text_formatter.go#L3-L5"
