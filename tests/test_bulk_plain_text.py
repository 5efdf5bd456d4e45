"""The records import indexes a batch whose text ``index_text`` leaves as it is (all ASCII
text, most text) from the beliefs table, not through ``beliefs_live``'s SQL function
(store/bulk.py): the index it writes is the one the view would have written, term for
term and position for position, and a batch with CJK, emoji or ß still goes through the
view."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge import importer, records
from credo.store import bulk
from credo.store.bulk import BULK_DDL_ROWS, plain_text
from credo.store.index_text import SQL_FUNCTION, index_text

# One field of a row as BELIEF_COLUMNS orders them: content at 1, context at 12.
_WIDTH = len(bulk.BELIEF_COLUMNS.split(", "))


def _row(content: str, context: str | None = None) -> list[object]:
    row: list[object] = [None] * _WIDTH
    row[1], row[12] = content, context
    return row


@pytest.mark.parametrize(
    ("content", "context", "plain"),
    [
        ("plain ascii text", None, True),
        ("Café naïve “quoted” – dash", "¿qué?", True),  # non-ASCII the rule leaves alone
        ("データベース", None, False),
        ("ship it 🚀", None, False),
        ("Größe", None, False),
        ("plain", "キャッシュ", False),  # the context is indexed too
    ],
)
def test_plain_text_is_true_exactly_when_index_text_changes_nothing(
    content: str, context: str | None, plain: bool
) -> None:
    assert plain_text([_row("an ascii row"), _row(content, context)]) is plain
    unchanged = index_text(content) == content and (
        context is None or index_text(context) == context
    )
    assert unchanged is plain


def _records(path: Path, contents: list[str]) -> Path:
    lines = [
        json.dumps({"kind": "belief", "id": f"n{i}", "content": text, "context": f"ctx {i}"})
        for i, text in enumerate(contents)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _index(memory: Memory) -> list[tuple[Any, ...]]:
    """Every (term, rowid, column, offset) the keyword index holds."""
    conn = memory.store.conn
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, beliefs_fts, instance)"
    )
    return conn.execute(
        "SELECT term, doc, col, offset FROM temp.vocab ORDER BY 1, 2, 3, 4"
    ).fetchall()


def _import(
    folder: Path, contents: list[str], *, view_always: bool = False
) -> tuple[list[Any], int]:
    """The import's keyword index and how many times it called the index's SQL function."""
    folder.mkdir()
    calls = 0
    with Memory(folder / "m.db", root=folder) as memory:

        def counted(text: object) -> object:
            nonlocal calls
            calls += 1
            return index_text(text) if isinstance(text, str) else text

        memory.store.conn.create_function(SQL_FUNCTION, 1, counted, deterministic=True)
        if view_always:  # the code before: every batch through the view
            original, bulk.plain_text = bulk.plain_text, lambda rows: False
        try:
            report = memory.import_records(_records(folder / "r.jsonl", contents))
        finally:
            if view_always:
                bulk.plain_text = original
        assert report.beliefs_added == len(contents)
        made = calls  # (the integrity check reads the view: its calls are not the import's)
        assert memory.store.integrity_check() == []
        return _index(memory), made


@pytest.mark.parametrize("count", [300, BULK_DDL_ROWS + 300], ids=["small", "big"])
def test_an_ascii_import_calls_no_index_function_and_indexes_the_same(
    tmp_path: Path, count: int
) -> None:
    contents = [f"note {i} topic{i % 7} cache policy" for i in range(count)]
    index, calls = _import(tmp_path / "new", contents)
    assert calls == 0  # (3 a belief through the view)
    before, _ = _import(tmp_path / "view", contents, view_always=True)
    assert index == before


def test_a_batch_with_cjk_emoji_or_sharp_s_goes_through_the_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # small batches through the writer thread: plain ones and special ones in one import
    monkeypatch.setattr(records, "CHUNK_BYTES", 2048)
    monkeypatch.setattr(importer, "STREAM_BELIEFS", 40)
    contents = [f"note {i} plain words" for i in range(BULK_DDL_ROWS + 200)]
    contents[700] = "データベースの接続 pool"
    contents[900] = "deploy 🚀 now"
    contents[1100] = "die Größe zählt"
    index, calls = _import(tmp_path / "new", contents)
    assert calls > 0
    before, _ = _import(tmp_path / "view", contents, view_always=True)
    assert index == before
    terms = {row[0] for row in index}
    assert {"デー", "ータ", "ss", "gross"} & terms  # bigrams and ß as the rule reads them
    with Memory(tmp_path / "new" / "m.db", root=tmp_path / "new") as memory:
        hits = memory.store.keyword_search(["ベース"], limit=10)
        assert [h.belief_id for h in hits] == ["n700"]


_TEXT = st.text(
    st.sampled_from(
        [*"abc xyz", "é", "“", "ß", "デ", "ー", "タ", "🚀", "👍", "\U0001f3fd", "\u200d"]
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_TEXT, min_size=1, max_size=30))
def test_any_texts_index_as_through_the_view(
    tmp_path_factory: pytest.TempPathFactory, contents: list[str]
) -> None:
    contents = [f"{text} #{i}" for i, text in enumerate(contents)]  # no duplicates
    folder = tmp_path_factory.mktemp("hyp")
    index, _ = _import(folder / "new", contents)
    before, _ = _import(folder / "view", contents, view_always=True)
    assert index == before


def test_the_plain_select_reads_the_views_rows(tmp_path: Path) -> None:
    # _PLAIN_LIVE stands in for beliefs_live: the same columns in the same order
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        conn: sqlite3.Connection = memory.store.conn
        view = [d[0] for d in conn.execute("SELECT * FROM beliefs_live LIMIT 0").description]
        plain = [
            d[0] for d in conn.execute(f"SELECT * FROM {bulk._PLAIN_LIVE} LIMIT 0").description
        ]
        assert plain == view
