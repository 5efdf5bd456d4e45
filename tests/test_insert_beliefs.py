"""``insert_beliefs`` of the SQLite store: rows through a staging table, one FTS5 segment."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.store import SqliteStore
from credo.store.rows import NewBelief


def _rows(words: list[str]) -> list[NewBelief]:
    return [
        NewBelief(f"b{n:03d}", f"{w} passage", f"h{n}", "factual", "document", n % 2 == 0,
                  1.0, 1.0, None, 1.5, 1.5, None, f"docs/{w}.md", "fact")
        for n, w in enumerate(words)
    ]  # fmt: skip


def _stored(store: SqliteStore) -> list[tuple[object, ...]]:
    return store.conn.execute("SELECT * FROM beliefs ORDER BY rid").fetchall()


def test_rows_keep_their_order_values_and_index(tmp_path: Path) -> None:
    staged, direct = SqliteStore(tmp_path / "a.db"), SqliteStore(tmp_path / "b.db")
    rows = _rows(["alpha", "beta", "gamma", "delta"])
    with staged.transaction():
        staged.insert_beliefs(rows)
    with direct.transaction():
        for row in rows:  # one row a call: the single-row statement
            direct.insert_beliefs([row])
    assert _stored(staged) == _stored(direct)
    assert [r[1] for r in _stored(staged)] == [r.id for r in rows]  # rowids in order
    hits = staged.conn.execute(
        "SELECT rowid FROM beliefs_fts WHERE beliefs_fts MATCH 'gamma'"
    ).fetchall()
    assert hits == [(3,)]
    assert not staged.conn.execute("SELECT * FROM temp.belief_stage").fetchall()


def test_a_rolled_back_insert_leaves_nothing_and_the_next_one_works(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "a.db")
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_beliefs(_rows(["alpha", "beta"]))
        raise RuntimeError("roll back")
    assert _stored(store) == []
    with store.transaction():  # the staging table went with the rollback: made again
        store.insert_beliefs(_rows(["alpha", "beta", "gamma"]))
    assert len(_stored(store)) == 3
    store.conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('integrity-check')")


def test_a_caught_failed_insert_stages_nothing_for_the_next_call(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "a.db")
    with store.transaction():
        store.insert_beliefs(_rows(["alpha"]))
        clash = _rows(["beta", "alpha"])[::-1]  # "b000" again: the id is taken
        with pytest.raises(Exception, match="UNIQUE"):
            store.insert_beliefs(clash)  # the transaction goes on, as after a savepoint
        store.insert_beliefs(_rows(["alpha", "gamma", "delta"])[1:])  # two rows: staged
    assert [r[1] for r in _stored(store)] == ["b000", "b001", "b002"]
