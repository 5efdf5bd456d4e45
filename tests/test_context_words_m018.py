"""m018 (fold86): a note's compound names read by letters of any script, an acronym's version
kept with it. v17 indexed "İstanbulCity" as "stanbul city" and "IPv6Address" as "pv6 address"
(review85); a v17 store's notes are indexed again with the words as the splitter reads them
now, on both backends, and a crash mid-migration leaves the v17 store as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import LATEST_VERSION
from credo.store.compound_words import compound_words
from credo.store.index_text import index_text, register
from credo.store.sql_split import split_statements
from credo.store.value_migration import VALUE_KIND
from tests.conftest import POSTGRES, postgres_store
from tests.test_compound_words_backends import (
    _found,
    _sound,
    assert_index_is_a_rebuild,
    notes_store,
)

NOTES = {
    "city": "We deploy the İstanbulCity service before the others.",
    "ip": "Bind the server to the host's IPv6Address, never the IPv4 one.",
    "bayes": "The naïveBayesModel is retrained every week.",
    "plain": "Deploys go through staging first.",
}


def test_the_words_a_reader_asks_by() -> None:
    from credo.store.identifier import identifier_parts

    assert identifier_parts("IPv6Address") == ("ipv6", "address")
    assert identifier_parts("PROTOCOL_TLSv1_2") == ("protocol", "tlsv1")
    assert identifier_parts("HTTP2Server") == ("http2", "server")
    assert identifier_parts("ÜberCamelCase") == ("über", "camel", "case")
    assert identifier_parts("東京TowerBridge") == ("tower", "bridge")  # (no case: no word)
    # (lower-cased "İ" is "i" and a combining dot: the index's tokenizer drops the dot)
    assert compound_words(NOTES["city"]) == "i\u0307stanbul city"
    assert compound_words(NOTES["ip"]) == "ipv6 address"
    assert compound_words(NOTES["bayes"]) == "naïve bayes model"
    assert compound_words("a StraßeName") == "strasse name"  # (as the index reads "ß")


def _back_to_version_17(path: Path) -> None:
    """The store as v17 left it: view and triggers reading by m017's function, a note's
    context column in the index with v17's words."""
    from credo.store.context_migration import M017_CONTEXT_WORDS, v17_compound_words

    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)
    conn.execute("BEGIN")
    rows = conn.execute(
        "SELECT rid, content, anchor_text FROM beliefs WHERE deleted_at IS NULL "
        f"AND context = '' AND kind <> '{VALUE_KIND}'"
    ).fetchall()
    for rid, content, anchor in rows:
        row = (rid, index_text(content), index_text(anchor))
        conn.execute(
            "INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context) "
            "VALUES ('delete', ?, ?, ?, ?)",
            (*row, compound_words(content)),
        )
        conn.execute(
            "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) VALUES (?, ?, ?, ?)",
            (*row, v17_compound_words(content)),
        )
    for statement in split_statements(M017_CONTEXT_WORDS):
        conn.execute(statement)
    conn.execute("DELETE FROM _migrations WHERE version >= 18")
    conn.execute("COMMIT")
    conn.close()


def _v17_sound(path: Path) -> None:
    """A v17 store, sound by FTS5's integrity check (its view reads by m017's function)."""
    conn = sqlite3.connect(path, isolation_level=None)
    register(conn)
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('integrity-check', 1)")
    assert conn.execute("SELECT max(version) FROM _migrations").fetchone() == (17,)
    assert "credo_index_context(" in _view(conn)
    conn.close()


def _view(conn: sqlite3.Connection) -> str:
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'beliefs_live'").fetchone()
    return str(sql)


def _v17_store(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / "m.db"
    with Memory(path, root=root) as memory:
        for name, text in NOTES.items():
            memory.remember(text, id=name)
    _back_to_version_17(path)
    _v17_sound(path)
    return path


def test_m018_indexes_a_v17_store_s_notes_again(tmp_path: Path) -> None:
    path = _v17_store(tmp_path)
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION == 20
        assert _found(memory, "istanbul city") == ["city"]
        assert _found(memory, "ipv6 address") == ["ip"]
        assert _found(memory, "naive bayes model") == ["bayes"]
        assert _found(memory, "pv6") == _found(memory, "stanbul") == []
        _sound(memory)
        memory.forget("ip")
        memory.forget("city")
        _sound(memory)


def test_a_v17_backup_restores_and_is_migrated(tmp_path: Path) -> None:
    """A v17 store's copy holding notes whose words m018 reads otherwise is a sound backup
    to this credo: its view reads by v17's function, so FTS5's check agrees with its rows."""
    from credo.store.backup import restore

    backup = _v17_store(tmp_path / "old")
    target = tmp_path / "new" / "m.db"
    target.parent.mkdir()
    Memory(target, root=target.parent).close()
    restore(backup, target, keep_old=False)
    with Memory(target, root=target.parent) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        assert _found(memory, "ipv6 address") == ["ip"]
        assert memory.store.integrity_check() == []


def test_a_crash_mid_m018_leaves_the_v17_store_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from credo.store import context_migration

    path = _v17_store(tmp_path)
    applied = context_migration.apply_m018

    def crash(conn: sqlite3.Connection) -> None:
        applied(conn)  # (every row indexed again, then the process dies)
        raise KeyboardInterrupt

    monkeypatch.setattr(context_migration, "apply_m018", crash)
    with pytest.raises(KeyboardInterrupt):
        Memory(path, root=tmp_path)
    _v17_sound(path)
    monkeypatch.setattr(context_migration, "apply_m018", applied)
    with Memory(path, root=tmp_path) as memory:
        assert _found(memory, "ipv6 address") == ["ip"]
        _sound(memory)


_WORD = st.text(alphabet="aAPIvV69İıßé東_.", min_size=1, max_size=10)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    notes=st.lists(st.lists(_WORD, min_size=1, max_size=6), min_size=1, max_size=8),
    gone=st.sets(st.integers(0, 7), max_size=3),
)
def test_m018_leaves_the_index_a_rebuild_would_make(
    tmp_path_factory: pytest.TempPathFactory, notes: list[list[str]], gone: set[int]
) -> None:
    """Any notes (some forgotten; acronyms with versions, non-ASCII letters with and
    without case among them) indexed as v17 did: after m018 the index holds exactly what a
    rebuild from the view makes, and FTS5's integrity check holds."""
    root = tmp_path_factory.mktemp("m018")
    path = notes_store(root, notes, gone)
    _back_to_version_17(path)
    _v17_sound(path)
    Memory(path, root=root).close()  # (m018)
    assert_index_is_a_rebuild(path)


def test_m018_indexes_a_postgres_store_s_notes_again(tmp_path: Path) -> None:
    """A v17 PostgreSQL store whose notes hold v17's words finds them by today's after the
    migration (rows queued and indexed again at open), and its index is sound."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    from credo.store.context_migration import v17_compound_words
    from credo.store.postgres import schema
    from credo.store.postgres.store import PostgresStore
    from credo.store.postgres.tokenizer import Tokenizer
    from tests.test_values_backends import write_passage_index

    with postgres_store() as url:
        old = PostgresStore(url, migrations=schema.MIGRATIONS[:17])
        with old.conn.transaction():
            for name, text in NOTES.items():
                old.conn.execute(
                    "INSERT INTO beliefs (id, content, content_hash, kind, origin, created_at, "
                    "updated_at) VALUES (%s, %s, %s, 'factual', 'user', 0, 0)",
                    (name, text, name),
                )
            live = old.conn.execute(
                "SELECT rid, content, anchor_text FROM beliefs ORDER BY rid"
            ).fetchall()
            # As v17 indexed them: the context column with v17's words.
            docs = Tokenizer().documents(
                [(int(r[0]), r[1], r[2], v17_compound_words(r[1])) for r in live]
            )
            write_passage_index(old.conn, docs)
        old.close()
        with Memory(url, root=tmp_path) as memory:
            assert memory.stats().schema_version == LATEST_VERSION
            assert _found(memory, "istanbul city") == ["city"]
            assert _found(memory, "ipv6 address") == ["ip"]
            assert _found(memory, "pv6") == []
            _sound(memory)
            memory.forget("ip")
            _sound(memory)


# review86: m018 read a name from a letter of any script, but looked for a case change only
# where an ASCII capital follows an ASCII letter or digit, and cut a name at a combining
# mark: "caféLatte", "ΑλφαΒήτα", "ИмяФайла" gave no words, "naïveBayes" in NFD "ve bayes".
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Order the caféLatte first.", "café latte"),
        ("Der ÜberÄnderung Job.", "über änderung"),
        ("Η συνάρτηση ΑλφαΒήτα τρέχει.", "αλφα βήτα"),
        ("Вызов ИмяФайла здесь.", "имя файла"),
        ("The nai\u0308veBayesModel runs.", "nai\u0308ve bayes model"),
        ("東京TowerBridge is caseless first", "tower bridge"),
    ],
)
def test_a_case_change_between_letters_of_any_script(text: str, words: str) -> None:
    assert compound_words(text) == index_text(words)


def test_a_v17_store_s_note_with_a_case_change_after_a_non_ascii_letter(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("We order the caféLatte before standup.", id="latte")
    _back_to_version_17(path)
    _v17_sound(path)
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        assert _found(memory, "cafe latte") == ["latte"]
        _sound(memory)
        memory.forget("latte")
        _sound(memory)
