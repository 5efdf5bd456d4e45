"""A note's compound names' words (store/compound_words.py, m017) on both backends: the
index stays in step as notes naming them come, get anchor text and go (review85)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import LATEST_VERSION
from credo.store.fts import query_terms
from credo.store.index_text import register
from tests.conftest import POSTGRES, postgres_store
from tests.test_compound_words import _back_to_version_16
from tests.test_values_backends import write_passage_index

BOTH_BACKENDS = True

DECISION = "Decision: we keep jobs in the SQLAlchemyJobStore so that they survive a restart."


def _found(memory: Memory, words: str) -> list[str]:
    return [h.belief_id for h in memory.store.keyword_search(query_terms(words), limit=5)]


def _sound(memory: Memory) -> None:
    assert not memory.store.fts_integrity_check()  # (SQLite raises, PostgreSQL lists)


def test_notes_that_name_compounds_come_and_go_in_step(memory: Memory) -> None:
    memory.remember(DECISION, id="store")
    memory.remember("The HTTP2Server answers on port 8443.", id="server")
    memory.remember("Deploys go through staging first.", id="deploy")
    assert _found(memory, "job store") == ["store"]
    assert _found(memory, "http2 server") == ["server"]
    memory.relate("deploy", "store", "SUPPORTS")  # (the store's anchor text changes)
    _sound(memory)
    assert _found(memory, "job store") == ["store"]
    memory.forget("store")
    _sound(memory)
    assert _found(memory, "job store") == []
    memory.forget("server", hard=True)
    _sound(memory)
    assert _found(memory, "http2 server") == []
    memory.remember("We moved to the RedisJobStore instead.", id="redis")
    _sound(memory)
    assert _found(memory, "job store") == ["redis"]


def test_a_note_that_gains_and_loses_a_context_keeps_the_index_in_step(memory: Memory) -> None:
    # (an ingest that reads a note's text in a file gives the one belief its context)
    memory.remember(DECISION, id="store")
    with memory.store.transaction():  # (as the ingest writes it)
        memory.store.set_contexts([("store", "docs/jobs.md › Persistence")])
    _sound(memory)
    assert _found(memory, "persistence") == ["store"]
    assert _found(memory, "sql alchemy") == []  # (the words are its reader's now)
    with memory.store.transaction():
        memory.store.set_contexts([("store", "")])
    _sound(memory)
    assert _found(memory, "sql alchemy") == ["store"]


def test_m017_indexes_a_postgres_store_s_notes_again(tmp_path: Path) -> None:
    """A v16 PostgreSQL store whose notes were indexed without their words finds them
    after the migration, and its index is sound."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    from credo.store.postgres import schema
    from credo.store.postgres.store import PostgresStore
    from credo.store.postgres.tokenizer import Tokenizer

    with postgres_store() as url:
        old = PostgresStore(url, migrations=schema.MIGRATIONS[:16])
        with old.conn.transaction():
            for i, text in (("store", DECISION), ("deploy", "Deploys go through staging.")):
                old.conn.execute(
                    "INSERT INTO beliefs (id, content, content_hash, kind, origin, created_at, "
                    "updated_at) VALUES (%s, %s, %s, 'factual', 'user', 0, 0)",
                    (i, text, i),
                )
            live = old.conn.execute(
                "SELECT rid, content, anchor_text, context FROM beliefs ORDER BY rid"
            ).fetchall()
            # As v16 indexed them: the context column read as stored ("": a stand-in, dropped).
            docs = Tokenizer().documents([(int(r[0]), r[1], r[2], "x") for r in live])
            docs = {
                rid: ({k: v for k, v in postings.items() if k[1] != 2}, (*s[:2], 0))
                for rid, (postings, s) in docs.items()
            }
            write_passage_index(old.conn, docs)
        old.close()
        with Memory(url, root=tmp_path) as memory:
            assert memory.stats().schema_version == LATEST_VERSION
            assert _found(memory, "job store") == ["store"]
            _sound(memory)
            memory.forget("store")
            _sound(memory)
            assert _found(memory, "job store") == []


_WORD = st.text(alphabet="aAbBzZ19İıßé_.", min_size=1, max_size=10)


@pytest.mark.sqlite_only
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    notes=st.lists(st.lists(_WORD, min_size=1, max_size=6), min_size=1, max_size=8),
    gone=st.sets(st.integers(0, 7), max_size=3),
)
def test_m017_leaves_the_index_a_rebuild_would_make(
    tmp_path_factory: pytest.TempPathFactory, notes: list[list[str]], gone: set[int]
) -> None:
    """Any notes (some forgotten, hostile case changes and non-ASCII letters among them)
    indexed as v16 did: after m017 the index holds exactly what a rebuild from the view
    makes, and FTS5's integrity check holds."""
    root = tmp_path_factory.mktemp("m017")
    path = notes_store(root, notes, gone)
    _back_to_version_16(path)
    Memory(path, root=root).close()  # (m017)
    assert_index_is_a_rebuild(path)


def notes_store(root: Path, notes: list[list[str]], gone: set[int]) -> Path:
    """A store at ``root`` holding ``notes`` (one a list of words), the ``gone`` ones forgotten."""
    path = root / "m.db"
    with Memory(path, root=root) as memory:
        for n, words in enumerate(notes):
            memory.remember(" ".join(words) + f" note{n}", id=f"n{n}")
        for n in gone & set(range(len(notes))):
            memory.forget(f"n{n}")
    return path


def assert_index_is_a_rebuild(path: Path) -> None:
    """The keyword index of the store at ``path`` holds exactly what a rebuild from its view
    makes, and FTS5's integrity check holds."""
    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, beliefs_fts, instance)")
    migrated = sorted(conn.execute("SELECT doc, col, offset, term FROM temp.v"))
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('integrity-check', 1)")
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild')")
    assert sorted(conn.execute("SELECT doc, col, offset, term FROM temp.v")) == migrated
    conn.close()
