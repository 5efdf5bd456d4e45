"""Module-level constants sit in an index of their own (store/values.py, m016): the passage
index holds, and ranks, exactly what it did without them (day-const81)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.chunk import code_python
from credo.store.bm25_mirror import averages
from credo.store.index_text import register
from credo.store.values import with_values

pytestmark = pytest.mark.sqlite_only

MODULE = '''"""Pool settings and the connection that uses them."""

# How many connections a pool keeps when none is asked for.
DEFAULT_POOLSIZE = 10
DEFAULT_RETRIES = 0
SCHEMES = ("http", "https")


def connect(host, retries=DEFAULT_RETRIES):
    """Open a connection to the host, taking one from the pool when one is free.

    The pool is made on first use and keeps its connections between requests.
    """
    return host
'''

SCRIPT = """const EventEmitter = require('events');

// How long a handshake may take before the socket is closed.
const HANDSHAKE_MS = 10 * 1000;

/** Close the socket after the handshake timeout. */
function close(socket) {
  return socket;
}
module.exports = close;
"""


def _store(root: Path, name: str) -> Path:
    (root / "pool.py").write_text(MODULE)
    (root / "ws.js").write_text(SCRIPT)
    db = root / name
    with Memory(db, root=root) as memory:
        memory.ingest(root / "pool.py", root / "ws.js")
    return db


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db)
    register(conn)  # (the views and triggers call it: m013)
    return conn


def _index(db: Path, table: str) -> tuple[tuple[int, list[int]], list[str]]:
    conn = _connect(db)
    try:
        stats = averages(conn) if table == "beliefs_fts" else (0, [])
        texts = sorted(
            row[0]
            for row in conn.execute(
                f"SELECT b.content FROM {table} JOIN beliefs b ON b.rid = {table}.rowid"
            )
        )
    finally:
        conn.close()
    return stats, texts


def test_the_passage_index_is_as_without_constants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before day-const81: each constant was a row of the passage index, and took its
    line and comment from the module's code, so the index's row count, mean row length
    and rows all changed."""
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    found = _store(tmp_path / "with", "m.db")
    monkeypatch.setattr(code_python, "_constants", lambda *_: [])
    monkeypatch.setattr("credo.knowledge.chunk.code_treesitter.declared_values", lambda *_: [])
    plain = _store(tmp_path / "without", "m.db")
    assert _index(found, "beliefs_fts") == _index(plain, "beliefs_fts")
    _, values = _index(found, "values_fts")
    assert values == sorted(
        [
            "How long a handshake may take before the socket is closed. const HANDSHAKE_MS "
            "= 10 * 1000",
            "How many connections a pool keeps when none is asked for. DEFAULT_POOLSIZE = 10",
            "DEFAULT_RETRIES = 0",
            'SCHEMES = ("http", "https")',
        ]
    )


@pytest.mark.parametrize("warm", [False, True])
def test_a_constant_is_found_warm_and_cold(tmp_path: Path, warm: bool) -> None:
    db = _store(tmp_path, "m.db")
    with Memory(db, root=tmp_path) as memory:
        if warm:
            assert memory.store.build_warm()
        first = memory.retrieve("default poolsize", token_budget=2_000).beliefs[0]
        assert first.content.endswith("DEFAULT_POOLSIZE = 10")
        first = memory.retrieve("handshake ms", token_budget=2_000).beliefs[0]
        assert first.content.endswith("const HANDSHAKE_MS = 10 * 1000")


def _warm_and_cold(tmp_path: Path, queries: list[str]) -> tuple[list[str], list[str]]:
    """Each query's answer read warm and read cold, on one store of MODULE and SCRIPT."""
    db = _store(tmp_path, "m.db")
    with Memory(db, root=tmp_path) as memory:
        cold = [repr(memory.retrieve(q, token_budget=2_000)) for q in queries]
    with Memory(db, root=tmp_path) as memory:
        assert memory.store.build_warm()
        warm = [repr(memory.retrieve(q, token_budget=2_000)) for q in queries]
    return warm, cold


def test_warm_answers_as_cold(tmp_path: Path) -> None:
    queries = ["default poolsize", "retries", "close the socket", "schemes http", "pool"]
    warm, cold = _warm_and_cold(tmp_path, queries)
    assert warm == cold


def test_a_constant_named_as_written_is_found_warm_as_cold(tmp_path: Path) -> None:
    """review84: a question naming a constant as written ("DEFAULT_POOLSIZE") brought its
    passage in warm (the names map made at index read, ``named.names_ahead``, held every
    trail) and not cold (the context index the cold read asks holds no constant)."""
    queries = ["DEFAULT_POOLSIZE", "what is HANDSHAKE_MS", "where is DEFAULT_RETRIES used"]
    warm, cold = _warm_and_cold(tmp_path, queries)
    assert warm == cold


def test_a_forgotten_constant_leaves_the_value_index(tmp_path: Path) -> None:
    db = _store(tmp_path, "m.db")
    with Memory(db, root=tmp_path) as memory:
        hit = memory.retrieve("default poolsize", token_budget=2_000).beliefs[0]
        memory.forget(hit.id)
        assert all(
            b.id != hit.id for b in memory.retrieve("default poolsize", token_budget=2_000).beliefs
        )
        memory.forget(hit.id, hard=True)
    conn = _connect(db)
    try:
        conn.execute("INSERT INTO values_fts(values_fts, rank) VALUES ('integrity-check', 1)")
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('integrity-check', 1)")
        assert not any("DEFAULT_POOLSIZE" in t for t in _index(db, "values_fts")[1])
    finally:
        conn.close()


_SCORES = st.dictionaries(
    st.text("abcdef", min_size=1, max_size=3), st.floats(0.0, 20.0, allow_nan=False), max_size=8
)


@given(_SCORES, _SCORES, st.integers(1, 10))
def test_constants_are_ranked_among_the_hits_without_moving_them(
    hits: dict[str, float], values: dict[str, float], limit: int
) -> None:
    """The passage hits keep their order and scores; the constants go where their scores
    put them, and the ``limit`` best of both are kept (ties by id)."""
    values = {f"v{k}": s for k, s in values.items()}
    ranked = dict(sorted(hits.items(), key=lambda p: (-p[1], p[0]))[:limit])
    rows = {i: ("text", 1.0, 1.0, None, 0.0) for i in [*ranked, *values]}
    merged, kept_rows = with_values(ranked, rows, (values, rows), limit)
    assert len(merged) == min(limit, len(ranked) + len(values))
    order = list(merged.items())
    assert order == sorted(order, key=lambda p: (-p[1], p[0]))
    assert [i for i in merged if i in ranked] == list(ranked)[
        : len([i for i in merged if i in ranked])
    ]
    assert all(merged[i] == ranked.get(i, values.get(i)) for i in merged)
    assert set(kept_rows) == set(merged)


def test_an_export_carries_its_constants_back_to_their_index(tmp_path: Path) -> None:
    """Fails before this change's importer: the kind ``value`` was refused."""
    db = _store(tmp_path, "m.db")
    with Memory(db, root=tmp_path) as memory:
        memory.export_records(tmp_path / "a.jsonl")
    with Memory(tmp_path / "copy.db", root=tmp_path) as copy:
        copy.import_records(tmp_path / "a.jsonl")
        first = copy.retrieve("default poolsize", token_budget=2_000).beliefs[0]
        assert first.content.endswith("DEFAULT_POOLSIZE = 10")
    assert _index(tmp_path / "copy.db", "beliefs_fts") == _index(db, "beliefs_fts")
    assert _index(tmp_path / "copy.db", "values_fts") == _index(db, "values_fts")
    # A constant's definition row travels flagged (a fifth item, true), so the copy's
    # definition statistics leave it out as the original's do.
    items = [
        item
        for line in (tmp_path / "a.jsonl").read_text().splitlines()
        if '"kind":"definitions"' in line
        for item in json.loads(line)["definitions"]
    ]
    assert sum(len(item) == 5 and item[4] is True for item in items) == 4
    assert all(len(item) == 4 for item in items if len(item) != 5)
    assert _definitions(tmp_path / "copy.db") == _definitions(db)


def _definitions(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = _connect(db)
    try:
        return (
            sorted(
                conn.execute(
                    "SELECT file, start_line, end_line, terms, length, value FROM definitions"
                )
            ),
            sorted(conn.execute("SELECT stem, df FROM defn_df")),
        )
    finally:
        conn.close()


def test_the_definition_statistics_are_as_without_constants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before day-const81's last step: a constant's definition row counted in
    ``defn_df`` and its totals, so every other definition's lane score moved. Its row is
    kept (the lane scores the constant's passage) but counted in no statistic."""
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    found = _store(tmp_path / "with", "m.db")
    monkeypatch.setattr(code_python, "_constants", lambda *_: [])
    monkeypatch.setattr("credo.knowledge.chunk.code_treesitter.declared_values", lambda *_: [])
    plain = _store(tmp_path / "without", "m.db")
    tables = []
    for db in (found, plain):
        conn = _connect(db)
        try:
            tables.append(sorted(conn.execute("SELECT stem, df FROM defn_df")))
            tables.append(
                sorted(conn.execute("SELECT start_line, end_line, length, value FROM definitions"))
            )
        finally:
            conn.close()
    assert tables[0] == tables[2]
    assert [row for row in tables[1] if not row[3]] == tables[3]
    constants = [row for row in tables[1] if row[3]]
    assert len(constants) == 4 and all(row[2] > 0 for row in constants)  # no length negated


def test_a_store_without_constants_then_with_one(tmp_path: Path) -> None:
    """A store version with no constant asks the value index nothing more; the next
    version, holding one, finds it."""
    (tmp_path / "notes.md").write_text("# Pools\n\nA pool keeps its connections.\n")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "notes.md")
        assert memory.retrieve("default poolsize", token_budget=2_000).beliefs == ()
        (tmp_path / "pool.py").write_text(MODULE)
        memory.ingest(tmp_path / "pool.py")
        first = memory.retrieve("default poolsize", token_budget=2_000).beliefs[0]
        assert first.content.endswith("DEFAULT_POOLSIZE = 10")


def test_more_matched_constants_than_sqlite_binds_variables(tmp_path: Path) -> None:
    """review84: the constants a query matches were read back with a bound variable each; a
    store whose constants outnumber SQLite's limit (32766 in most builds; set lower here) on
    one term made every such query raise "too many SQL variables"."""
    db = _store(tmp_path, "m.db")
    with Memory(db, root=tmp_path) as memory:
        memory.import_records(
            json.dumps(
                {
                    "kind": "belief",
                    "id": f"v{i:03d}",
                    "content": f"DEFAULT_POOL_{i} = {i}",
                    "belief_kind": "value",
                    "origin": "document",
                }
            )
            for i in range(40)
        )
        expected = [b.id for b in memory.retrieve("default pool", token_budget=2_000).beliefs]
    with Memory(db, root=tmp_path) as memory:
        memory.store.conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 20)
        found = [b.id for b in memory.retrieve("default pool", token_budget=2_000).beliefs]
    assert found == expected and any(i.startswith("v0") for i in found)
