"""``credo migrate --to``: a store copied SQLite -> PostgreSQL -> SQLite keeps every row of
every table (beliefs, edges, anchors, log, journal, captures, ledger, HRR traces) and
answers every query the same; a non-empty target, an unreachable server or a value the
target cannot hold fail clearly and leave the target as it was. Skipped where
CREDO_TEST_POSTGRES is unset (.ci/run sets it)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from credo import Memory
from credo.agent.capture import capture_prompt
from credo.agent.feedback import feedback_from_reply
from credo.agent.journal import log_injection
from credo.config import PostgresUrl
from credo.errors import InvalidInputError, NotFoundError, StoreError
from credo.store import open_store
from credo.store.index_text import register
from credo.store.transfer import NOT_COPIED, TABLES, migrate_store
from credo.surfaces.render import result_json
from tests.conftest import credo_command, postgres_store

DOCS = Path(__file__).resolve().parent / "corpus" / "doc_linker"
CODE = Path(__file__).resolve().parents[1] / "src" / "credo" / "unionfind.py"  # definitions
QUERIES = (
    "how do I hash an instance",
    "we use pnpm",
    "deploy script migrations",
    "docs/api.rst validators",
    "slots and frozen classes",
    "what CITES the overview",
)
Rows = dict[str, list[tuple[object, ...]]]


@pytest.fixture
def url() -> Iterator[PostgresUrl]:
    with postgres_store() as location:
        yield PostgresUrl(location)


def _rich_store(path: Path) -> None:
    """A store holding a row in every copied table: ingested files (anchors, contexts,
    CITES, an acronym, a text in two files), beliefs of every sort (locked, corroborated,
    soft- and hard-forgotten, superseded, contradicted), feedback, the HRR lane, a capture
    and the journal."""
    with Memory(path, root=DOCS) as memory:
        memory.ingest(DOCS / "docs" / "overview.md", DOCS / "docs" / "api.rst")
        memory.ingest(DOCS / "docs" / "hashing.md")
        memory.ingest(CODE)
        for name, body in (("pool.go", "SetBufferPool(nil)"), ("fmt.go", "baseTimestamp = 0")):
            (path.parent / name).write_text(f"package x\n\nfunc init() {{\n\t{body}\n}}\n")
            memory.ingest(path.parent / name)  # one text in two files: a row per file
        with memory.store.transaction():  # as if overview.md spelt out an acronym
            memory.store.set_file_acronyms("docs/overview.md", [("cli", "command line interface")])
        memory.enable_hrr()
        npm = memory.remember("We deploy with npm", session="s0")
        pnpm = memory.remember("We deploy with pnpm, never npm", lock=True, session="s1")
        memory.relate(pnpm, npm, "SUPERSEDES")
        script = memory.remember("The deploy script runs migrations first", doc="ops/deploy.sh")
        memory.remember("The deploy script runs migrations first")  # corroborated
        other = memory.remember("Migrations run after the deploy script")
        memory.relate(other, script, "CONTRADICTS")
        memory.relate(script, pnpm, "CITES", anchor_text="the pnpm rule")
        memory.feedback(script, "used")
        memory.feedback(other, "harmful")
        gone = memory.remember("A belief forgotten softly")
        memory.forget(gone)
        secret = memory.remember("A belief forgotten for good")
        memory.forget(secret, hard=True)
        capture_prompt(
            memory, "no, we use uv, never pip install", session="s2", transcript=None, turn=1
        )
        log_injection(
            memory,
            event="prompt",
            session="s2",
            prompt="how do we deploy",
            belief_ids=[pnpm, script],
            tokens=40,
            chars=160,
        )
        feedback_from_reply(
            memory, session="s2", reply="The deploy script runs migrations first, then pnpm."
        )


def _rows(location: Path | PostgresUrl) -> Rows:
    store = open_store(location)
    try:
        with store.read_snapshot():
            return {t.name: [r for b in store.read_rows(t, 100) for r in b] for t in TABLES}
    finally:
        store.close()


def _answers(location: Path | PostgresUrl) -> list[str]:
    with Memory(location, root=DOCS) as memory:
        assert memory.store.integrity_check() == []
        return [json.dumps(result_json(memory.retrieve(q, with_doc_anchors=True))) for q in QUERIES]


def test_sqlite_to_postgres_to_sqlite_keeps_every_row_and_every_answer(
    url: PostgresUrl, tmp_path: Path
) -> None:
    first, last = tmp_path / "first.db", tmp_path / "last.db"
    _rich_store(first)
    there = migrate_store(first, url)
    back = migrate_store(url, last)

    rows = _rows(first)
    for table in TABLES:  # the fixture exercised every table
        assert rows[table.name], table.name
    assert _rows(url) == rows
    assert _rows(last) == rows
    assert there.rows == back.rows == {t: len(r) for t, r in rows.items()}
    answers = _answers(first)
    assert any('"bm25f"' in a for a in answers)
    assert _answers(url) == answers
    assert _answers(last) == answers

    # The server's counters go on past the copied ids: new rows get new ones.
    with Memory(url, root=DOCS) as memory:
        fresh = memory.remember("A belief written after the migration")
        rid, seq = memory.store.conn.execute(  # type: ignore[attr-defined]
            "SELECT (SELECT rid FROM beliefs WHERE id = %s), (SELECT max(seq) FROM ingest_log)",
            (fresh,),
        ).fetchone()
    assert rid > max(int(r[0]) for r in rows["beliefs"])  # type: ignore[call-overload]
    assert seq > max(int(r[0]) for r in rows["ingest_log"])  # type: ignore[call-overload]


def _tables_of(location: Path | PostgresUrl) -> dict[str, list[str]]:
    store = open_store(location)
    try:
        if isinstance(location, PostgresUrl):
            found = store.conn.execute(  # type: ignore[attr-defined]
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
            ).fetchall()
        else:
            names = store.conn.execute(  # type: ignore[attr-defined]
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'beliefs_fts_%' "
                "AND name NOT LIKE 'values_fts_%'"
            ).fetchall()
            found = [
                (n, c[1])
                for (n,) in names
                for c in store.conn.execute(f"PRAGMA table_info({n})")  # type: ignore[attr-defined]
            ]
    finally:
        store.close()
    tables: dict[str, list[str]] = {}
    for name, column in found:
        tables.setdefault(str(name), []).append(str(column))
    return tables


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_table_is_copied_or_named_derived(backend: str, tmp_path: Path) -> None:
    """A migration that adds a table or a column must add it to the copy (or say why not)."""
    if backend == "sqlite":
        tables = _tables_of(tmp_path / "schema.db")
    else:
        with postgres_store() as location:
            tables = _tables_of(PostgresUrl(location))
    copied = {t.name: sorted(t.columns) for t in TABLES}
    assert {n: sorted(c) for n, c in tables.items() if n not in NOT_COPIED} == copied
    assert set(tables) - set(copied) <= NOT_COPIED


def test_a_target_that_holds_data_is_refused_and_left_alone(
    url: PostgresUrl, tmp_path: Path
) -> None:
    source, full = tmp_path / "source.db", tmp_path / "full.db"
    with Memory(source) as memory:
        memory.remember("Deploys go through ops/deploy.sh")
    with Memory(full) as memory:
        memory.remember("Something already here")
    with Memory(url) as memory:
        memory.remember("Something already on the server")
    for target in (full, url):
        before = _rows(target)
        with pytest.raises(InvalidInputError, match=r"not empty \(1 beliefs, .*1 ingest_log"):
            migrate_store(source, target)
        assert _rows(target) == before
    with pytest.raises(InvalidInputError, match="names the store itself"):
        migrate_store(source, tmp_path / "." / "source.db")
    with pytest.raises(NotFoundError, match="no store at"):
        migrate_store(tmp_path / "missing.db", tmp_path / "new.db")
    assert not (tmp_path / "new.db").exists()


def test_a_value_the_server_cannot_hold_fails_typed_and_writes_nothing(
    url: PostgresUrl, tmp_path: Path
) -> None:
    source = tmp_path / "source.db"
    with Memory(source) as memory:
        memory.remember("A good belief")
        bad = memory.remember("A belief with a NUL to come")
    with sqlite3.connect(source) as conn:  # SQLite holds a NUL in text, PostgreSQL cannot
        register(conn)  # the index's triggers call credo's rule (m013)
        conn.execute("UPDATE beliefs SET context = 'a' || char(0) || 'b' WHERE id = ?", (bad,))
    with pytest.raises(InvalidInputError, match="refused a value"):
        migrate_store(source, url)
    assert not any(_rows(url).values())


def test_an_unreachable_server_fails_without_showing_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "source.db"
    with Memory(source) as memory:
        memory.remember("Deploys go through ops/deploy.sh")
    monkeypatch.setenv("PGPASSWORD", "env-s3cret")
    target = f"postgresql://bob:url-s3cret@/credo?host={tmp_path}/nowhere&password=q-s3cret"
    done = subprocess.run(
        [*credo_command(), "--db", str(source), "migrate", "--to", target],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("Error: cannot open store postgresql://bob:***@/credo")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "s3cret" not in done.stderr + done.stdout
    with pytest.raises(StoreError):
        migrate_store(source, PostgresUrl(target))


def test_the_cli_migrates_both_ways(url: PostgresUrl, tmp_path: Path) -> None:
    first, last = tmp_path / "first.db", tmp_path / "last.db"
    _rich_store(first)
    env = {**os.environ}
    env.pop("CREDO_DB", None)

    def credo(db: str | Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*credo_command(), "--db", str(db), *args],
            cwd=DOCS,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    there = credo(first, "migrate", "--to", url, "--json")
    assert there.returncode == 0, there.stderr
    report = json.loads(there.stdout)
    assert report["rows"]["beliefs"] == len(_rows(first)["beliefs"])
    assert report["target"] == url.redacted
    back = credo(url, "migrate", "--to", str(last))
    assert back.returncode == 0, back.stderr
    assert back.stdout.startswith(f"copied {report['rows']['beliefs']} beliefs")
    searches = [credo(db, "search", "deploy migrations", "--json") for db in (first, url, last)]
    assert all(s.returncode == 0 for s in searches)
    assert len({s.stdout for s in searches}) == 1
    again = credo(first, "migrate", "--to", str(last))
    assert again.returncode == 1 and again.stderr.startswith("Error: cannot migrate into")
