"""A compound name in a note is found by its words (store/compound_words.py, m017)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import LATEST_VERSION
from credo.store.compound_words import compound_words, index_context
from credo.store.fts import query_terms
from credo.store.index_text import register
from credo.store.sql_split import split_statements
from credo.store.value_migration import _LIVE, _PASSAGE, VALUE_KIND, _triggers
from tests.conftest import CliRun

DECISION = (
    "Decision: we keep jobs in the SQLAlchemyJobStore (apscheduler.jobstores.sqlalchemy) "
    "so that they survive a restart."
)
QUESTION = "which job store do we use for persistent jobs"


def test_a_compound_name_s_words() -> None:
    assert compound_words(DECISION) == "sql alchemy job store"
    assert compound_words("ask the HTTPHeaderDict and getURLs2") == "http header dict get urls2"
    assert compound_words("plain prose, snake_case and a.dotted.path") == ""  # FTS5 cuts those
    assert compound_words("JSON iPhone") == ""  # no second word


def test_a_belief_with_a_context_is_indexed_by_it_alone() -> None:
    assert index_context("class FooBar: ...", "a.py › FooBar L1-L2") == "a.py › FooBar L1-L2"
    assert index_context("class FooBar: ...", "") == "foo bar"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="ascii"), max_size=80))
def test_the_words_are_lower_case_tokens_each_once(text: str) -> None:
    words = compound_words(text).split()
    assert len(words) == len(set(words))
    assert all(w.isalnum() and w == w.lower() and len(w) > 1 for w in words)
    assert words or not any(c.isupper() for c in text) or compound_words(text) == ""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aAbB1Zz_ .", min_size=1, max_size=8), max_size=10))
def test_the_words_are_those_of_every_word_whose_case_changes(pieces: list[str]) -> None:
    import re

    from credo.store.identifier import identifier_parts

    text = " ".join(pieces)
    words: dict[str, None] = {}
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        parts = identifier_parts(word)
        if re.search(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]", word) and len(parts) >= 2:
            words.update(dict.fromkeys(parts))
    assert compound_words(text) == " ".join(words)


def test_the_cli_finds_a_decision_by_its_compound_name_s_words(run: CliRun) -> None:
    # day-probe83: "job store" did not find the one token "sqlalchemyjobstore".
    run("remember", DECISION, check=True)
    run("remember", "Jobs that fail are retried three times by the worker.", check=True)
    run("remember", "The store room key is kept by the office manager.", check=True)
    found = json.loads(run("search", QUESTION, "--json", check=True).stdout)
    assert DECISION in [b["content"] for b in found["beliefs"]]


def test_an_edit_and_a_forget_keep_the_index_in_step(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember(DECISION, id="store")
        hits = memory.store.keyword_search(query_terms("job store"), limit=5)
        assert [h.belief_id for h in hits] == ["store"]
        memory.store.fts_integrity_check()
        memory.forget("store")
        memory.store.fts_integrity_check()
        assert memory.store.keyword_search(query_terms("job store"), limit=5) == []


def test_an_import_indexes_the_words_too(tmp_path: Path) -> None:
    records = tmp_path / "in.jsonl"
    lines = [
        {"kind": "belief", "id": f"n{i}", "content": f"Note {i} about the weather"}
        for i in range(1200)
    ]
    lines.append({"kind": "belief", "id": "store", "content": DECISION})
    records.write_text("\n".join(json.dumps(r) for r in lines) + "\n", encoding="utf-8")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.import_records(records)
        hits = memory.store.keyword_search(query_terms("job store"), limit=5)
        assert [h.belief_id for h in hits] == ["store"]
        memory.store.fts_integrity_check()


def _back_to_version_16(path: Path) -> None:
    """The passage index as m016 left it: a note's context column empty."""
    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)
    conn.execute("BEGIN")
    conn.execute("DROP VIEW beliefs_live")
    conn.execute(f"CREATE VIEW beliefs_live AS {_LIVE} AND kind <> '{VALUE_KIND}'")
    for statement in split_statements(_triggers("beliefs_fts", _PASSAGE)):
        conn.execute(statement)
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild')")
    conn.execute("DELETE FROM _migrations WHERE version >= 17")
    conn.execute("COMMIT")
    conn.close()


def test_m017_indexes_an_older_store_s_notes_again(tmp_path: Path) -> None:
    path = tmp_path / "v16.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember(DECISION, id="store")
        memory.remember("Deploys go through staging first", id="deploy")
    _back_to_version_16(path)
    conn = sqlite3.connect(path)
    register(conn)
    assert (
        conn.execute(
            "SELECT rowid FROM beliefs_fts WHERE beliefs_fts MATCH 'job AND store'"
        ).fetchall()
        == []
    )
    conn.close()
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION == 20
        hits = memory.store.keyword_search(query_terms("job store"), limit=5)
        assert [h.belief_id for h in hits] == ["store"]
        memory.store.fts_integrity_check()
        memory.forget("store")
        memory.store.fts_integrity_check()


def test_postgres_s_tokenizer_reads_a_note_as_sqlite_s_index_does(tmp_path: Path) -> None:
    from credo.store.postgres.tokenizer import COLUMNS, Tokenizer

    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember(DECISION, id="store")
        memory.remember("Deploys go through staging first", id="deploy")
        conn = memory.store.conn  # type: ignore[attr-defined]
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, beliefs_fts, instance)")
        sqlite_rows = sorted(conn.execute("SELECT doc, col, offset, term FROM temp.v"))
        rows = conn.execute("SELECT rid, content, anchor_text, context FROM beliefs").fetchall()
    tokenizer = Tokenizer()
    client = sorted(
        (rid, COLUMNS[col], offset, term)
        for rid, (postings, _) in tokenizer.documents(rows).items()
        for (term, col), offsets in postings.items()
        for offset in offsets
    )
    tokenizer.close()
    assert client == sqlite_rows
    assert any(term == "job" and col == "context" for _, col, _, term in client)


def test_warm_and_cold_rank_the_words_alike(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        memory.remember(DECISION, id="store")
        memory.remember("Jobs that fail are retried three times by the worker.", id="retry")
        memory.remember("The JobQueue drains before a deploy.", id="queue")
        for i in range(30):
            memory.remember(f"Meeting note {i}: the team agreed on item {i}.", id=f"m{i}")
    answers = []
    for warm in (False, True):
        with Memory(db, root=tmp_path) as memory:
            if warm:
                assert memory.store.build_warm()
            result = memory.retrieve(QUESTION, token_budget=2_000)
            answers.append([(b.id, b.score) for b in result.beliefs])
    assert answers[0] == answers[1]
    assert "store" in [belief_id for belief_id, _ in answers[0]]
