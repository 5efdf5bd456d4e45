"""The hook's warm path on a PostgreSQL store (credo.surfaces.warm, credo.surfaces.serve):
``credo serve`` keeps one connection to the server, the installed hook finds its socket
from ``CREDO_DB`` or ``[store] location`` without importing psycopg, and every event
prints the same bytes and writes the same rows as the direct path. The socket is keyed by
the URL without its password, with the libpq variables that pick the server. Skipped where
CREDO_TEST_POSTGRES is unset (.ci/run sets it)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from credo.config import PostgresUrl, resolve_db_path
from credo.store.transfer import TABLES, migrate_store
from credo.surfaces import serve, warm
from tests.conftest import postgres_store
from tests.test_hook_events import base, modules_probe
from tests.test_migrate import _rows
from tests.test_warm import day, direct, log_lines, project, run_dir, run_hook, store_of

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets")
__all__ = ["project", "run_dir"]  # fixtures of test_warm, used here


@pytest.fixture
def stores(project: Path) -> Iterator[tuple[PostgresUrl, PostgresUrl]]:
    """Two PostgreSQL stores holding test_warm's project store, row for row."""
    with postgres_store() as first, postgres_store() as second:
        for url in (first, second):
            migrate_store(store_of(project), PostgresUrl(url))
        yield PostgresUrl(first), PostgresUrl(second)


@pytest.fixture
def env(tmp_path: Path, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """test_warm's environment, CREDO_DB left to each test."""
    from tests.test_hook import hook_env

    environment = {
        **hook_env(tmp_path),
        "XDG_RUNTIME_DIR": str(run_dir),
        "CREDO_HOOK_TRACE": "1",
        "CREDO_HOOK_INLINE": "1",
    }
    for name in [n for n in os.environ if n.startswith("CREDO_")]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return environment


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _serve(
    servers: list[subprocess.Popen[bytes]], url: str, env: dict[str, str], project: Path
) -> None:
    """``credo serve --db URL``, waited for until it answers a hook in ``project``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "credo", "--db", url, "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    servers.append(process)
    raw = json.dumps({"cwd": str(project), "hook_event_name": "Elsewhere"}).encode()
    deadline = time.monotonic() + 30
    while warm.ask("prompt", raw, url) is None:
        assert process.poll() is None, "credo serve exited"
        assert time.monotonic() < deadline, "the server did not start listening"
        time.sleep(0.05)


TIMES = {"at", "mtime"}


def _without_times(rows: dict[str, list[tuple[object, ...]]]) -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for table in TABLES:
        kept = [i for i, c in enumerate(table.columns) if c not in TIMES and not c.endswith("_at")]
        out[table.name] = sorted(repr(tuple(r[i] for i in kept)) for r in rows[table.name])
    return out


def test_every_event_prints_the_same_bytes_and_writes_the_same_rows_warm_and_direct(
    project: Path,
    stores: tuple[PostgresUrl, PostgresUrl],
    env: dict[str, str],
    servers: list[subprocess.Popen[bytes]],
) -> None:
    first, second = stores
    by_direct = [
        direct(event, payload, project, {**env, "CREDO_DB": first})
        for event, payload in day(project)
    ]
    assert all(by_direct[:3]) and all(by_direct[4:6])  # each event printed something
    assert b"pnpm" in by_direct[5]  # Stop listed the captured correction
    _serve(servers, second, env, project)
    before = len(log_lines(env))
    by_warm = [
        run_hook(event, payload, project, {**env, "CREDO_DB": second})[0]
        for event, payload in day(project)
    ]
    assert by_warm == by_direct
    assert _without_times(_rows(second)) == _without_times(_rows(first))
    answered = [line for line in log_lines(env)[before:] if " warm ok " in line]
    assert len(answered) == len(day(project))  # every one was the server's answer
    assert all("error" not in line for line in log_lines(env)), log_lines(env)


def test_a_hook_on_a_store_named_by_credo_toml_imports_neither_the_engine_nor_psycopg(
    project: Path,
    stores: tuple[PostgresUrl, PostgresUrl],
    env: dict[str, str],
    servers: list[subprocess.Popen[bytes]],
) -> None:
    url = stores[0]
    (project / ".credo.toml").write_text(
        f'# the team\'s store\n[store]\nlocation = "{url}"  # on the shared server\n',
        encoding="utf-8",
    )
    _serve(servers, url, env, project)
    probe = modules_probe(("credo", "psycopg"), ("sqlite3", "json", "pathlib", "tomllib", "re"))
    ask = base(project, "UserPromptSubmit", prompt="how is the deploy done")
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        input=json.dumps(ask).encode(),
        cwd=project,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert b"[deploy]" in done.stdout
    loaded = done.stderr.decode().strip().splitlines()[-1]
    assert loaded == repr(["credo", "credo.surfaces", "credo.surfaces.warm"])
    # And with nobody answering, the same bytes from the direct path (which loads psycopg
    # into a `python -S` interpreter itself).
    assert direct("prompt", ask, project, env) == done.stdout


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ('[store]\nlocation = "postgresql://u@/team?host=/run/pg"\n', "url"),
        ("[store]\nlocation = 'postgresql://u@/team'  # literal\n", "url"),
        ('[retrieval]\ntoken_budget = 900\n\n[store]\n"location" = "db/m.db"\n', "path"),
        ('[store]\nlocation = "~/m.db"\n[hook]\ncapture = false\n', "path"),
        ('[store]\nlocation = "caf\\u00e9.db"\n', "path"),
        ("[retrieval]\ntoken_budget = 900\n", None),
        ('store = { location = "x.db" }\n', ValueError),
        ('store.location = "x.db"\n', ValueError),
        ('[store]\nlocation = """x.db"""\n', ValueError),
        ('[store]\nlocation = "x.db" junk\n', ValueError),
        ('[store]\nlocation = "\\U0001F600.db"\n', ValueError),
        ('[store]\nlocation = "x.db\n', ValueError),
    ],
)
def test_the_client_finds_the_store_as_the_engine_does(
    written: str, expected: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[store] location`` read without tomllib: the engine's answer, or ``ValueError``
    (the hook then asks nobody) for what only the engine reads."""
    monkeypatch.delenv("CREDO_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "proj" / "sub"
    folder.mkdir(parents=True)
    (tmp_path / "proj" / ".git").mkdir()
    (tmp_path / "proj" / ".credo.toml").write_text(written, encoding="utf-8")
    if expected is ValueError:
        with pytest.raises(ValueError):
            warm.store_for(str(folder), None)
        return
    engine = resolve_db_path(None, cwd=folder)
    found = warm.store_for(str(folder), None)
    assert found == str(engine)
    assert warm.is_postgres(found) == (expected == "url")


def test_the_socket_key_leaves_the_password_out_and_the_server_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PGHOST", raising=False)
    plain = "postgresql://bob@db.example/team?sslmode=require"
    keys = {
        warm.store_key(u)
        for u in (
            plain,
            "postgresql://bob:s3cret@db.example/team?sslmode=require",
            "postgresql://bob@db.example/team?password=s3cret&sslmode=require",
            "POSTGRESQL://bob:s3cret@db.example/team?sslmode=require&password=x",
        )
    }
    assert keys == {warm.store_key(plain)}
    assert "s3cret" not in warm.key_text("postgresql://bob:s3cret@db.example/team?password=s3cret")
    assert warm.store_key("postgresql://bob@db.example/other") not in keys
    monkeypatch.setenv("PGHOST", "elsewhere")  # libpq's own choice of server
    assert warm.store_key(plain) not in keys
    monkeypatch.delenv("PGHOST")
    monkeypatch.setenv("PGPASSWORD", "s3cret")  # a password never changes the key
    assert warm.store_key(plain) in keys


def test_a_server_refuses_a_hook_that_reads_another_database(
    project: Path, stores: tuple[PostgresUrl, PostgresUrl], env: dict[str, str]
) -> None:
    first, second = stores
    listener = serve.start(first)
    try:
        assert listener.owner and listener.engine.keeper is None  # no warm index on PG
        request: dict[str, Any] = {
            "v": warm.PROTOCOL,
            "code": warm.code_id(),
            "event": "prompt",
            "cwd": str(project),
            "db": second,
            "env": warm.env_fingerprint(os.environ),
            "payload": base(project, "UserPromptSubmit", prompt="how is the deploy done"),
        }
        with pytest.raises(serve.Refused, match="this server serves postgresql://"):
            listener.engine.answer(request)
        output, _ = listener.engine.answer({**request, "db": first})
        assert "[deploy]" in output
        with_password = first.replace("postgresql://postgres@", "postgresql://postgres:pw@")
        assert listener.engine.answer({**request, "db": with_password})[0] == output
    finally:
        listener.stop()


def test_the_mcp_server_serves_the_hook_socket_of_a_postgres_store(
    project: Path, stores: tuple[PostgresUrl, PostgresUrl], env: dict[str, str]
) -> None:
    url = stores[0]
    server = subprocess.Popen(
        [sys.executable, "-m", "credo", "--db", url, "mcp"],
        env=env,
        stdin=subprocess.PIPE,  # held open: the MCP server waits on it
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        ask = json.dumps(base(project, "UserPromptSubmit", prompt="how is the deploy done"))
        deadline = time.monotonic() + 30
        while (answer := warm.ask("prompt", ask.encode(), url)) is None:
            assert server.poll() is None, "credo mcp exited"
            assert time.monotonic() < deadline, "credo mcp served no hook socket"
            time.sleep(0.05)
        assert b"[deploy]" in answer
    finally:
        assert server.stdin is not None
        server.stdin.close()  # the client closes the pipe: the MCP server ends
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
