"""Module-level constants on both backends (store/values.py on SQLite, store/postgres/values.py
on PostgreSQL): an index of their own, scored by the passage index's statistics, so the two
backends rank the keyword hits alike (day-const82)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from credo import Memory
from credo.knowledge.chunk import code_python
from credo.store import LATEST_VERSION
from credo.store.fts import query_terms
from tests.conftest import POSTGRES, postgres_store
from tests.test_values import MODULE, SCRIPT

if TYPE_CHECKING:
    from credo.store.postgres.keyword import Documents

BOTH_BACKENDS = True

QUERIES = (
    "default poolsize",
    "handshake ms",
    "retries",
    "close the socket",
    "schemes http",
    "pool connections",
    "socket handshake timeout",
)


def _files(root: Path) -> list[Path]:
    (root / "pool.py").write_text(MODULE)
    (root / "ws.js").write_text(SCRIPT)
    return [root / "pool.py", root / "ws.js"]


def test_a_constant_is_found_and_the_index_is_sound(memory: Memory, tmp_path: Path) -> None:
    memory.ingest(*_files(tmp_path))
    first = memory.retrieve("default poolsize", token_budget=2_000).beliefs[0]
    assert first.content.endswith("DEFAULT_POOLSIZE = 10")
    memory.forget(first.id)
    assert all(b.id != first.id for b in memory.retrieve("default poolsize").beliefs)
    memory.forget(first.id, hard=True)
    assert not memory.store.fts_integrity_check()  # (SQLite raises, PostgreSQL lists)


def _keyword_answers(location: str | Path, root: Path) -> tuple[list[list[tuple[str, float]]], str]:
    """Each query's keyword hits (id -> score, in rank order), and the first query's first
    hit's text."""
    with Memory(location, root=root) as memory:
        memory.ingest(*_files(root))
        answers = [memory.store.keyword_beliefs(query_terms(q), limit=20) for q in QUERIES]
    hits = [found for found, _ in answers]
    return [list(found.items()) for found in hits], answers[0][1][next(iter(hits[0]))][0]


@pytest.mark.sqlite_only
def test_both_backends_give_the_same_keyword_hits(tmp_path: Path) -> None:
    """Fails before day-const82: on PostgreSQL the constants were rows of the one keyword
    index, counted in its statistics, so every score there differed from SQLite's."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    lite = _keyword_answers(tmp_path / "m.db", tmp_path)
    with postgres_store() as url:
        served = _keyword_answers(url, tmp_path)
    assert served == lite  # the same ids, order and scores (the same doubles)
    assert lite[1].endswith("DEFAULT_POOLSIZE = 10")  # (a constant ranks among them)


def _totals(url: str, root: Path) -> tuple[object, ...]:
    with Memory(url, root=root) as memory:
        memory.ingest(*_files(root))
        conn = memory.store.conn  # type: ignore[attr-defined]
        totals = conn.execute("SELECT nrows, sizes FROM fts_totals").fetchone()
        values = conn.execute("SELECT count(*) FROM value_docs").fetchone()
        return (*totals, *values)


@pytest.mark.sqlite_only
def test_the_passage_statistics_on_postgres_are_as_without_constants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before day-const82: each constant was counted in ``fts_totals``."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    with postgres_store() as url:
        found = _totals(url, tmp_path / "with")
    monkeypatch.setattr(code_python, "_constants", lambda *_: [])
    monkeypatch.setattr("credo.knowledge.chunk.code_treesitter.declared_values", lambda *_: [])
    with postgres_store() as url:
        plain = _totals(url, tmp_path / "without")
    assert found[:2] == plain[:2]
    assert (found[2], plain[2]) == (4, 0)  # (the four constants, in their own index)


@pytest.mark.sqlite_only
def test_m016_moves_a_postgres_stores_constants_to_their_index(tmp_path: Path) -> None:
    """A v15 store whose keyword index holds a constant (as before m016) keeps one
    passage in its totals and the constant in ``value_docs`` after the migration."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    from credo.store.postgres import schema
    from credo.store.postgres.store import PostgresStore
    from credo.store.postgres.tokenizer import Tokenizer

    rows = [
        ("p1", "A pool keeps its connections between requests.", "passage"),
        ("v1", "DEFAULT_POOLSIZE = 10", "value"),
    ]
    with postgres_store() as url:
        old = PostgresStore(url, migrations=schema.MIGRATIONS[:15])
        with old.conn.transaction():
            for i, text, kind in rows:
                old.conn.execute(
                    "INSERT INTO beliefs (id, content, content_hash, kind, origin, created_at, "
                    "updated_at) VALUES (%s, %s, %s, %s, 'document', 0, 0)",
                    (i, text, i, kind),
                )
            live = old.conn.execute(
                "SELECT rid, content, anchor_text, context FROM beliefs ORDER BY rid"
            ).fetchall()
            docs = Tokenizer().documents([(int(r[0]), r[1], r[2], r[3]) for r in live])
            write_passage_index(old.conn, docs)  # (as v15 indexed them)
        old.close()
        with Memory(url, root=tmp_path) as memory:
            conn = memory.store.conn  # type: ignore[attr-defined]
            assert memory.stats().schema_version == LATEST_VERSION
            assert conn.execute("SELECT nrows FROM fts_totals").fetchone() == (1,)
            (value_rows,) = conn.execute("SELECT count(*) FROM value_docs").fetchone()
            assert value_rows == 1
            assert memory.store.fts_integrity_check() == []
            assert "v1" in memory.store.keyword_beliefs(["poolsize"], limit=5)[0]


def _value_rows(memory: Memory) -> set[str]:
    """The ids the value index holds (its own rows, not the content view's)."""
    on_postgres = "postgres" in type(memory.store).__module__
    table, rid = ("value_docs", "rid") if on_postgres else ("values_fts_docsize", "id")
    rows = memory.store.conn.execute(
        f"SELECT b.id FROM {table} d JOIN beliefs b ON b.rid = d.{rid}"
    )
    return {str(r[0]) for r in rows}


def test_a_belief_whose_kind_changes_moves_between_the_indexes(
    memory: Memory, tmp_path: Path
) -> None:
    """No credo path changes a kind (a belief is keyed by its text and written once), but
    both backends' triggers watch it: a row whose kind changes leaves one index for the
    other, and back, and each index stays sound."""
    memory.ingest(*_files(tmp_path))
    constant = memory.retrieve("default poolsize", token_budget=2_000).beliefs[0]
    assert constant.content.endswith("DEFAULT_POOLSIZE = 10")
    held = _value_rows(memory)
    assert constant.id in held
    for kind, expected in (("fact", held - {constant.id}), ("value", held)):
        with memory.store.transaction() as conn:
            conn.execute(f"UPDATE beliefs SET kind = '{kind}' WHERE id = '{constant.id}'")
        assert _value_rows(memory) == expected
        assert not memory.store.fts_integrity_check()  # (SQLite raises, PostgreSQL lists)
        found = memory.store.keyword_beliefs(query_terms("default poolsize"), limit=5)[0]
        assert constant.id in found


def test_a_constant_imported_without_a_context_is_indexed_alike(
    memory: Memory, tmp_path: Path
) -> None:
    """Fails before: PostgreSQL gave an imported constant without a context its compound
    names' words ("max", "retries") in the context column (m017's rule for passages), while
    SQLite's value index reads the context as stored (m016), so only PostgreSQL found it by
    "max retries" (review84)."""
    records = tmp_path / "in.jsonl"
    record = {
        "kind": "belief",
        "id": "vv1",
        "content": "const maxRetries = 3",
        "belief_kind": "value",
        "origin": "document",
    }
    records.write_text(json.dumps(record) + "\n", encoding="utf-8")
    memory.remember("Deploys go through staging first", id="n1")  # (the statistics' rows)
    memory.import_records(records)
    found, _ = memory.store.keyword_beliefs(query_terms("maxretries"), limit=5)
    assert list(found) == ["vv1"]
    found, _ = memory.store.keyword_beliefs(query_terms("max retries"), limit=5)
    assert "vv1" not in found
    assert not memory.store.fts_integrity_check()


# Constants alone: three of one length (three tokens each), "limit" in two, "depth" in one.
_ALONE = (
    ("c1", "const limit = 3"),
    ("c2", "const limit = 5"),
    ("c3", "const depth = 3"),
)


def _import_constants(memory: Memory, root: Path, constants: tuple[tuple[str, str], ...]) -> None:
    records = root / "constants.jsonl"
    lines = [
        json.dumps(
            {
                "kind": "belief",
                "id": i,
                "content": text,
                "belief_kind": "value",
                "origin": "document",
            }
        )
        for i, text in constants
    ]
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    memory.import_records(records)


def test_a_constant_is_found_in_a_store_that_holds_no_passage(
    memory: Memory, tmp_path: Path
) -> None:
    """Fails before (both backends): the passage index's statistics scored a constant, and
    an empty one (N = 0, no mean length) scored none; review84's imported "maxRetries" was
    found only once a note had been remembered."""
    _import_constants(memory, tmp_path, (("vv1", "const maxRetries = 3"),))
    found, rows = memory.store.keyword_beliefs(query_terms("maxretries"), limit=5)
    assert list(found) == ["vv1"] and rows["vv1"][0] == "const maxRetries = 3"
    assert [b.id for b in memory.retrieve("maxRetries").beliefs] == ["vv1"]


def test_constants_alone_are_scored_by_their_own_index_s_statistics(
    memory: Memory, tmp_path: Path
) -> None:
    """With no passage, the value index's N, mean length and term rows: "depth" (one row of
    three) outweighs "limit" (two), so c3 ranks first, at bm25's score for one instance in a
    row of the mean length, its IDF log((3 - 1 + 0.5) / (1 + 0.5)); "limit"'s IDF is
    negative, FTS5's floor 1e-6. Fails before (nothing found)."""
    _import_constants(memory, tmp_path, _ALONE)
    found, _ = memory.store.keyword_beliefs(query_terms("limit depth"), limit=5)
    assert list(found) == ["c3", "c1", "c2"]
    assert found["c3"] == pytest.approx(math.log(2.5 / 1.5), rel=1e-12)
    assert found["c1"] == found["c2"] == pytest.approx(1e-6, rel=1e-9)


def test_a_term_in_no_passage_still_finds_a_constant(memory: Memory, tmp_path: Path) -> None:
    """The passage index holds a row, none with the term: its statistics apply (n = 0, the
    IDF of a term in no row of N = 1), as they did before; c3's score is that IDF."""
    memory.remember("Deploys go through staging first", id="n1")
    _import_constants(memory, tmp_path, _ALONE)
    found, _ = memory.store.keyword_beliefs(query_terms("depth"), limit=5)
    assert list(found) == ["c3"]
    assert found["c3"] > 0.0


@pytest.mark.sqlite_only
def test_constants_alone_score_as_fts5_s_bm25_on_their_index(tmp_path: Path) -> None:
    """SQLite: with no passage, a constant's score is the double FTS5's own ``bm25()`` on
    ``values_fts`` gives it (the same weights)."""
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        _import_constants(memory, tmp_path, (*_ALONE, ("c4", "MAX_DEPTH = 3  # a limit")))
        for query in ("limit depth", "depth", "const limit 3"):
            terms = query_terms(query)
            found, _ = memory.store.keyword_beliefs(terms, limit=10)
            fts5 = memory.store.conn.execute(  # type: ignore[attr-defined]
                "SELECT b.id, -bm25(values_fts, 1.0, 0.5, 1.0) FROM values_fts "
                "JOIN beliefs b ON b.rid = values_fts.rowid WHERE values_fts MATCH ?",
                (" OR ".join(f'"{t}"' for t in terms),),
            ).fetchall()
            assert found == dict(fts5), query


@pytest.mark.sqlite_only
def test_both_backends_score_constants_alone_alike(tmp_path: Path) -> None:
    """With no passage, the same ids, order and doubles on both backends."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    constants = (*_ALONE, ("c4", "MAX_DEPTH = 3  # a limit"))
    queries = ("limit depth", "depth", "const limit 3", "max")

    def answers(location: str | Path, root: Path) -> list[list[tuple[str, float]]]:
        root.mkdir()
        with Memory(location, root=root) as memory:
            _import_constants(memory, root, constants)
            found = [memory.store.keyword_beliefs(query_terms(q), limit=10)[0] for q in queries]
        return [list(f.items()) for f in found]

    lite = answers(tmp_path / "lite" / "m.db", tmp_path / "lite")
    with postgres_store() as url:
        served = answers(url, tmp_path / "served")
    assert served == lite
    assert all(lite)


def write_passage_index(conn: Any, docs: Documents) -> None:
    """Write `docs` (``Tokenizer.documents``' answer) as a PostgreSQL store's whole passage
    index, its totals and no row left to index: how an older schema held it."""
    from credo.store.postgres.keyword import _copy_rows

    _copy_rows(conn, docs, "fts_docs", "fts_postings")
    sizes = [sum(s[i] for _, s in docs.values()) for i in range(3)]
    conn.execute("UPDATE fts_totals SET nrows = %s, sizes = %s::bigint[]", (len(docs), sizes))
    conn.execute("DELETE FROM fts_dirty")
