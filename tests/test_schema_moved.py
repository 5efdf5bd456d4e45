"""A long-lived process (``credo serve``, ``credo mcp``, a Memory in a service) whose store
a newer credo migrates under it: it must stop using the store, say so, and lose nothing.

Before, a server from before m013 kept answering after a newer CLI had migrated its store:
its writes failed with "no such function: credo_index_text" (a capture after the hook's
reply was lost, logged only), and its reads queried an index it no longer understood.
A newer credo's migration is made here as one would land: a row in ``_migrations`` from
another process.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from credo.errors import SchemaVersionError, StoreError
from credo.memory import Memory
from credo.store import SqliteStore
from credo.store.migrations import LATEST_VERSION, MIGRATIONS
from tests.test_hook_events import base
from tests.test_mcp import error, in_process
from tests.test_warm import (  # noqa: F401 (fixtures)
    Server,
    answers,
    direct,
    env,
    log_lines,
    project,
    run_dir,
    run_hook,
    servers,
    start,
    store_of,
)

FUTURE = LATEST_VERSION + 1


def migrate_by_a_newer_credo(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO _migrations VALUES (?, 'm999_future', 0)", (FUTURE,))
    raw.commit()
    raw.close()


def ids(path: Path) -> set[str]:
    raw = sqlite3.connect(path)
    try:
        return {row[0] for row in raw.execute("SELECT id FROM beliefs")}
    finally:
        raw.close()


def test_an_open_memory_stops_reading_and_writing_once_a_newer_credo_migrated_its_store(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        assert [b.id for b in memory.retrieve("deploy kubectl").beliefs] == ["deploy"]
        migrate_by_a_newer_credo(path)
        said = rf"schema version {FUTURE}.*knows up to {LATEST_VERSION}.*restart"
        with pytest.raises(SchemaVersionError, match=said):
            memory.remember("Written by the old process", id="late")
        with pytest.raises(SchemaVersionError, match=said):
            memory.retrieve("deploy kubectl")
    assert ids(path) == {"deploy"}


def test_mcp_tools_answer_a_clear_error_once_a_newer_credo_migrated_the_store(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    memory = Memory(path, root=tmp_path)
    memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
    migrate_by_a_newer_credo(path)

    async def session(client) -> None:  # type: ignore[no-untyped-def]
        for tool, arguments in [
            ("search_memory", {"query": "deploy"}),
            ("remember_belief", {"text": "Written by the old server"}),
            ("get_belief", {"id": "deploy"}),
        ]:
            said = error(await client.call_tool(tool, arguments))
            assert f"schema version {FUTURE}" in said and "restart" in said, said

    try:
        in_process(memory, session)
    finally:
        memory.close()
    assert ids(path) == {"deploy"}


def _ends_saying_restart(server: Server) -> None:
    deadline = time.monotonic() + 30
    while server.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.process.poll() == 1  # the server ended: a restart is what it needs
    said = server.stop()
    assert f"schema version {FUTURE}" in said and "restart" in said, said


def test_servers_whose_store_a_newer_credo_migrated_stop_serving_and_say_why(
    project: Path,  # noqa: F811 (test_warm's fixtures)
    env: dict[str, str],  # noqa: F811
    servers: list[Server],  # noqa: F811
) -> None:
    """The owner of the socket and a second server standing by (two sessions): each stops
    at its first request after the move; every hook gets the direct path's answer."""
    store = store_of(project)
    first = start(servers, store, env)
    second = Server(store, env)
    servers.append(second)
    deadline = time.monotonic() + 30
    while not any("standing by" in line for line in log_lines(env)):
        assert time.monotonic() < deadline, "the second server did not stand by"
        time.sleep(0.05)
    ask = base(project, "UserPromptSubmit", prompt="how do we deploy?")
    assert b"[deploy]" in run_hook("prompt", ask, project, env)[0]
    migrate_by_a_newer_credo(store)
    for server in (first, second):
        if server is second:  # it takes the socket over once the first let its lock go
            second.wait_listening()
        assert run_hook("prompt", ask, project, env)[0] == direct("prompt", ask, project, env)
        _ends_saying_restart(server)
    assert not answers(store) and not first.path.exists()
    assert any(f"stops serving: {store}" in line for line in log_lines(env))


def test_a_backup_from_an_older_credo_is_restored_at_this_schema_under_an_open_memory(
    tmp_path: Path,
) -> None:
    """Before, ``credo restore`` of a version 12 backup left the live store at version 12
    until some process opened it afresh: a process that had it open went on querying the
    old index with m013's terms and found no CJK word of three characters."""
    backup = tmp_path / "v12.db"
    old = SqliteStore(backup, migrations=MIGRATIONS[:12])
    now = 1_700_000_000.0
    old.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, updated_at) "
        "VALUES ('tokyo', '東京都 office opens at nine', 'tokyo', 'factual', 'user_stated', ?, ?)",
        (now, now),
    )
    old.close()
    path = tmp_path / "memory.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("Straße belief of the store before the restore", id="before")
        done = subprocess.run(
            [sys.executable, "-m", "credo", "--db", str(path), "restore", str(backup)],
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert b"schema v12" in done.stdout
        assert f"migrated to v{LATEST_VERSION}".encode() in done.stdout
        assert [b.id for b in memory.retrieve("東京都").beliefs] == ["tokyo"]
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT max(version) FROM _migrations").fetchone() == (LATEST_VERSION,)
    raw.close()


def _delete(path: Path) -> None:
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        (path.parent / name).unlink(missing_ok=True)


def test_an_open_memory_refuses_a_store_file_deleted_or_replaced_under_it(
    tmp_path: Path,
) -> None:
    """Before, a process that had the store open (the MCP server's tools) went on writing to
    the deleted file's inode: remember answered an id, and the belief was gone with it."""
    path = tmp_path / "memory.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        _delete(path)
        # (a one-off command meets it too: it is told to run again, not only to restart)
        with pytest.raises(StoreError, match=r"deleted or moved.*run the command again.*restart"):
            memory.remember("The release train leaves on Thursdays", id="train")
        with pytest.raises(StoreError, match=r"deleted or moved.*restart"):
            memory.retrieve("deploy")
        with Memory(path, root=tmp_path) as other:  # a new store where it was
            other.remember("A new store after the delete", id="fresh")
        with pytest.raises(StoreError, match=r"replaced.*restart"):
            memory.remember("The release train leaves on Thursdays", id="train")
    assert ids(path) == {"fresh"}


def test_mcp_tools_say_the_store_file_was_deleted_instead_of_writing_into_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    memory = Memory(path, root=tmp_path)
    _delete(path)

    async def session(client) -> None:  # type: ignore[no-untyped-def]
        said = error(await client.call_tool("remember_belief", {"text": "Lost otherwise"}))
        assert "deleted or moved" in said and "restart" in said, said

    try:
        in_process(memory, session)
    finally:
        memory.close()


def test_an_open_memorys_reads_refuse_a_store_deleted_or_migrated_under_it(
    tmp_path: Path,
) -> None:
    """Before, ``get``, ``edges``, ``history``, ``stats`` and ``conflicts`` went on reading
    a deleted file's inode, or a store a newer credo had migrated, as if nothing happened."""
    path = tmp_path / "memory.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        migrate_by_a_newer_credo(path)
        reads = (
            lambda: memory.get("deploy"),
            lambda: memory.edges("deploy"),
            lambda: memory.history("deploy"),
            memory.stats,
            memory.conflicts,
        )
        for read in reads:
            with pytest.raises(SchemaVersionError, match="restart"):
                read()
    gone = tmp_path / "gone.db"
    with Memory(gone, root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        _delete(gone)
        for read in (lambda: memory.get("deploy"), memory.stats, memory.conflicts):
            with pytest.raises(StoreError, match=r"deleted or moved.*restart"):
                read()


def test_an_open_memorys_writes_leave_the_check_to_their_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reads' check went into ``full_id``, which the writes use too: on PostgreSQL a round
    trip each (its store leaves writes unchecked on purpose), two more for ``relate``,
    ``lock``, ``resolve`` and ``feedback``. SQLite's write transactions check on their own."""
    (tmp_path / "README.md").write_text("# x\n")
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        memory.remember("We deploy with helm from the main branch", id="helm")
        memory.relate("deploy", "helm", "contradicts")
        calls: list[object] = []
        check = memory.store.check_current
        monkeypatch.setattr(memory.store, "check_current", lambda *a: calls.append(a) or check())
        memory.lock("deploy")
        memory.unlock("deploy")
        memory.feedback("deploy", "used")
        memory.link("deploy", "README.md")
        memory.resolve("deploy", "helm")
        memory.forget("helm")
        assert calls == []
        memory.get("deploy")
        memory.stats()
        assert len(calls) == 2
    gone = tmp_path / "gone.db"
    with Memory(gone, root=tmp_path) as memory:
        memory.remember("We deploy with kubectl from the deploy branch", id="deploy")
        _delete(gone)
        with pytest.raises(StoreError, match=r"deleted or moved.*restart"):
            memory.lock("deploy")  # (its transaction checks)
