"""A store on a read-only mount is read, never written: search, show, export, doctor, the
hook and the warm index answer as on the writable file; every write is a one-line error;
the file's bytes stay as they were and no ``-wal`` or ``-shm`` file appears.

The mount is real (``mount --bind`` then a read-only remount: root in a container may, a
user may not); without it the tests are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from credo.errors import StoreError
from credo.memory import Memory
from credo.store import SqliteStore
from credo.store.migrations import MIGRATIONS
from tests.conftest import CliRun

DOCS = {
    "deploy.md": "# Deploys\n\nDeploys go through ops/deploy.sh. See [rollback](rollback.md).\n\n"
    "## Staging\n\nStaging mirrors production and runs the smoke tests first.\n",
    "rollback.md": "# Rollback\n\nA rollback re-runs the previous release's deploy script.\n",
}


def _mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(the writable folder, the same folder mounted read-only)."""
    source, view = tmp_path / "rw", tmp_path / "ro"
    source.mkdir()
    view.mkdir()
    bound = _mount("--bind", str(source), str(view))
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bound.stderr.strip()}")
    try:
        remount = _mount("-o", "remount,ro,bind", str(view))
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remount.stderr.strip()}")
        yield source, view
    finally:
        subprocess.run(["umount", str(view)], capture_output=True, check=False)


def _store(folder: Path, docs: Path) -> str:
    docs.mkdir(exist_ok=True)
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    with Memory(folder / "s.db", root=docs) as memory:
        memory.ingest(docs)
        return memory.remember("Deploys need a green CI run first", kind="requirement")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _without_path(text: str) -> str:
    return text.replace("/ro/", "/X/").replace("/rw/", "/X/")


def test_reads_answer_as_on_the_writable_file(mounted: tuple[Path, Path], tmp_path: Path) -> None:
    source, view = mounted
    docs = tmp_path / "docs"
    belief_id = _store(source, docs)
    before = _digest(source / "s.db")
    writable, read_only = CliRun(source / "s.db", docs), CliRun(view / "s.db", docs)
    assert not os.access(view, os.W_OK)
    for args in [
        ("search", "how do deploys work", "--json"),
        ("search", "rollback", "--explain"),
        ("show", belief_id, "--json"),
        ("stats", "--json"),
        ("conflicts",),
    ]:
        done = read_only(*args)
        assert done.returncode == 0, (args, done.stderr)
        expected = writable(*args, check=True).stdout
        assert _without_path(done.stdout) == _without_path(expected), args
    assert read_only("export", str(tmp_path / "out.jsonl"), check=True)
    exported = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum(json.loads(line)["kind"] == "belief" for line in exported) >= 3
    doctor = read_only("doctor", check=True).stdout
    assert doctor.startswith("integrity: ok (FTS index not checked: read-only here)")
    report = json.loads(read_only("doctor", "--json", check=True).stdout)
    assert report["fts_checked"] is False and report["integrity"] == ["ok"]
    assert json.loads(writable("doctor", "--json", check=True).stdout)["fts_checked"] is True
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]
    assert _digest(view / "s.db") == before


def test_every_write_is_a_one_line_error(mounted: tuple[Path, Path], tmp_path: Path) -> None:
    source, view = mounted
    docs = tmp_path / "docs"
    belief_id = _store(source, docs)
    before = _digest(source / "s.db")
    run = CliRun(view / "s.db", docs)
    for args in [
        ("remember", "a new note"),
        ("ingest", str(docs)),
        ("forget", belief_id),
        ("lock", belief_id),
        ("feedback", belief_id, "used"),
        ("import", str(tmp_path / "none.jsonl")),
    ]:
        if args[0] == "import":
            (tmp_path / "none.jsonl").write_text(
                '{"kind":"belief","content":"x"}\n', encoding="utf-8"
            )
        done = run(*args)
        assert done.returncode == 1, args
        assert done.stderr == (
            f"Error: cannot write to {view / 's.db'}: it is read-only here "
            "(its folder cannot be written)\n"
        ), args
    assert _digest(view / "s.db") == before
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]


def test_the_hook_and_the_warm_index_read_it(mounted: tuple[Path, Path], tmp_path: Path) -> None:
    source, view = mounted
    docs = tmp_path / "docs"
    _store(source, docs)
    with Memory(source / "s.db", root=docs) as memory:
        expected = memory.retrieve("how do deploys work")
    with Memory(view / "s.db", root=docs) as memory:
        assert memory.store.build_warm()
        warm = memory.retrieve("how do deploys work")
    assert [b.id for b in warm.beliefs] == [b.id for b in expected.beliefs]
    assert [b.score for b in warm.beliefs] == [b.score for b in expected.beliefs]
    event = {"prompt": "how do deploys work", "session_id": "s1", "cwd": str(docs)}
    inline = {"CREDO_HOOK_INLINE": "1"}  # its writes in this process: none outlives the test
    hook = CliRun(view / "s.db", docs)
    done = hook("hook", "prompt", stdin=json.dumps(event), env=inline, check=True)
    assert "Deploys go through ops/deploy.sh" in done.stdout
    stated = {**event, "prompt": "From now on, always run the smoke tests before deploying."}
    captured = hook("hook", "prompt", stdin=json.dumps(stated), env=inline, check=True)
    assert "Deploys go through ops/deploy.sh" in captured.stdout and captured.stderr == ""
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]


def test_an_old_schema_is_refused_untouched(mounted: tuple[Path, Path]) -> None:
    source, view = mounted
    SqliteStore(source / "old.db", migrations=MIGRATIONS[:1]).close()
    before = _digest(source / "old.db")
    with pytest.raises(StoreError, match="read-only here and at schema version 1: open it once"):
        SqliteStore(view / "old.db")
    assert _digest(view / "old.db") == before


def test_the_mcp_server_reads_it_and_refuses_writes(
    mounted: tuple[Path, Path], tmp_path: Path
) -> None:
    import anyio
    from mcp import Client

    from credo.surfaces.mcp_server import build_server

    source, view = mounted
    docs = tmp_path / "docs"
    belief_id = _store(source, docs)

    async def session(client: Client) -> None:
        found = await client.call_tool("search_memory", {"query": "how do deploys work"})
        assert not found.is_error and found.structured_content is not None
        assert belief_id in {b["id"] for b in found.structured_content["beliefs"]}
        for tool, arguments in [
            ("remember_belief", {"text": "a new note"}),
            ("lock_belief", {"id": belief_id}),
        ]:
            refused = await client.call_tool(tool, arguments)
            assert refused.is_error
            assert "read-only here" in refused.content[0].text  # type: ignore[union-attr]

    async def main() -> None:
        with Memory(view / "s.db", root=docs) as memory:
            async with Client(build_server(memory), raise_exceptions=False) as client:
                await session(client)

    anyio.run(main)
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]


def test_a_backup_on_a_read_only_mount_is_read(mounted: tuple[Path, Path], tmp_path: Path) -> None:
    """``credo backup`` writes a file in rollback-journal mode (it stands alone): one on a
    read-only mount (shipped in an image, say) is read like any other store there."""
    from credo.store.backup import backup

    source, view = mounted
    docs = tmp_path / "docs"
    belief_id = _store(tmp_path, docs)
    backup(tmp_path / "s.db", source / "s.db")
    before = _digest(source / "s.db")
    with Memory(view / "s.db", root=docs, create=False) as memory:
        assert memory.store.read_only
        assert memory.get(belief_id).content == "Deploys need a green CI run first"
    assert _digest(view / "s.db") == before
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]


def test_a_store_written_elsewhere_is_read_only_here(
    mounted: tuple[Path, Path], tmp_path: Path
) -> None:
    """With a writer open on the writable side (its -wal and -shm files there), SQLite opens
    the file on the read-only mount without complaint: it is still read-only here, and a
    write says so, as on a store no one has open."""
    source, view = mounted
    docs = tmp_path / "docs"
    _store(source, docs)
    with Memory(source / "s.db", root=docs) as writer:
        writer.remember("Staging deploys run at noon")
        assert (view / "s.db-wal").exists() and (view / "s.db-shm").exists()
        with Memory(view / "s.db", root=docs, create=False) as memory:
            assert memory.store.read_only
            assert memory.retrieve("staging deploys noon").beliefs
            with pytest.raises(StoreError, match="it is read-only here"):
                memory.remember("a new note")


def test_a_wal_left_without_its_shm_names_the_way_out(
    mounted: tuple[Path, Path], tmp_path: Path
) -> None:
    """A writer killed mid-session leaves its -wal; without the -shm beside it SQLite cannot
    read the file on a read-only mount (it would have to make one). The error says why and
    what to do, and nothing is written."""
    source, view = mounted
    docs = tmp_path / "docs"
    _store(source, docs)
    killed = (
        "import os, sys\n"
        "from credo.memory import Memory\n"
        "memory = Memory(sys.argv[1], root=sys.argv[2])\n"
        "memory.store.conn.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "memory.remember('Staging deploys run at noon')\n"
        "os.kill(os.getpid(), 9)\n"
    )
    subprocess.run([sys.executable, "-c", killed, str(source / "s.db"), str(docs)], check=False)
    (source / "s.db-shm").unlink()
    assert sorted(p.name for p in view.iterdir()) == ["s.db", "s.db-wal"]
    before = _digest(source / "s.db-wal")
    with pytest.raises(StoreError) as refused:
        Memory(view / "s.db", root=docs, create=False)
    assert str(refused.value) == (
        f"cannot open store {view / 's.db'}: unable to open database file; it is read-only "
        "here and a writer's -wal file is left without its -shm (a crash): open it once "
        "where it can be written"
    )
    assert _digest(source / "s.db-wal") == before


def test_it_can_be_backed_up_and_restored_from(mounted: tuple[Path, Path], tmp_path: Path) -> None:
    """A backup reads: one of a store on a read-only mount is made, and a live store copied
    onto one (WAL mode, no -wal left) can be restored from."""
    source, view = mounted
    docs = tmp_path / "docs"
    belief_id = _store(source, docs)
    before = _digest(source / "s.db")
    run = CliRun(view / "s.db", docs)
    done = run("backup", str(tmp_path / "bk.db"))
    assert done.returncode == 0, done.stderr
    restored = CliRun(tmp_path / "restored.db", docs)
    restored("init", check=True)
    done = restored("restore", str(view / "s.db"), "--no-keep")
    assert done.returncode == 0, done.stderr
    for store in ("bk.db", "restored.db"):
        with Memory(tmp_path / store, root=docs, create=False) as memory:
            assert memory.get(belief_id).content == "Deploys need a green CI run first"
    assert _digest(view / "s.db") == before
    assert sorted(p.name for p in view.iterdir()) == ["s.db"]


@pytest.mark.parametrize("name", ["sp ace", "q?mark", "ha#sh", "pc%20t", "ünï😀", "a:b&x=1"])
def test_a_path_with_uri_characters_is_read_only_opened(tmp_path: Path, name: str) -> None:
    """(No mount needed.) A read-only open goes through a ``file:`` URI, which quotes the
    path: a folder named with ``?``, ``#``, ``%``, a space or non-ASCII letters opens the
    same file (the global store's lock reader, the warm index), and so does a path spelled
    with a leading ``//`` (it would otherwise read as a URI authority)."""
    from credo.store.db import connect
    from credo.store.locks import LockReader

    folder = tmp_path / name
    folder.mkdir()
    with Memory(folder / "s.db", root=tmp_path) as memory:
        belief_id = memory.remember("Deploys go through ops/deploy.sh", lock=True)
    for path in (folder / "s.db", Path("/" + str(folder / "s.db"))):
        reader = LockReader(path)
        try:
            assert [b.id for b in reader.locks()] == [belief_id], path
        finally:
            reader.close()
        conn = connect(path, read_only=True)
        try:
            assert conn.execute("SELECT id FROM beliefs").fetchall() == [(belief_id,)]
        finally:
            conn.close()


@contextlib.contextmanager
def _read_only_file(path: Path) -> Iterator[None]:
    """``path`` made read-only in its writable folder: a mode of 0o444, or for root (whom
    modes do not stop) the file alone bind-mounted read-only."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    bound = _mount("--bind", str(path), str(path))
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bound.stderr.strip()}")
    try:
        remount = _mount("-o", "remount,ro,bind", str(path))
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remount.stderr.strip()}")
        yield
    finally:
        subprocess.run(["umount", str(path)], capture_output=True, check=False)


@pytest.mark.parametrize("journal", ["wal", "backup"])
def test_a_read_only_file_in_a_writable_folder_opens_read_only(
    tmp_path: Path, journal: str
) -> None:
    """A store file that cannot be written, in a folder that can: a backup (rollback
    journal) was a StoreError at open ("attempt to write a readonly database"); a WAL file
    opened, left -wal and -shm files beside it and failed at the first write with SQLite's
    words. Now it opens for reads, as on a read-only folder."""
    from credo.store.backup import backup

    docs, folder = tmp_path / "docs", tmp_path / "store"
    folder.mkdir()
    belief_id = _store(tmp_path, docs)
    if journal == "backup":
        backup(tmp_path / "s.db", folder / "s.db")
    else:
        shutil.copyfile(tmp_path / "s.db", folder / "s.db")  # closed: in WAL mode, no -wal
    writable, read_only = CliRun(tmp_path / "s.db", docs), CliRun(folder / "s.db", docs)
    before = _digest(folder / "s.db")
    with _read_only_file(folder / "s.db"):
        assert os.access(folder, os.W_OK) and not os.access(folder / "s.db", os.W_OK)
        for args in [("search", "how do deploys work", "--json"), ("show", belief_id, "--json")]:
            done = read_only(*args)
            assert done.returncode == 0, (args, done.stderr)
            assert done.stdout == writable(*args, check=True).stdout, args
        doctor = read_only("doctor", check=True).stdout
        assert doctor.startswith("integrity: ok (FTS index not checked: read-only here)")
        assert json.loads(read_only("doctor", "--json", check=True).stdout)["fts_checked"] is False
        for args in [("remember", "a new note"), ("lock", belief_id)]:
            done = read_only(*args)
            assert (done.returncode, done.stderr) == (
                1,
                f"Error: cannot write to {folder / 's.db'}: it is read-only here (the file "
                "cannot be written)\n",
            ), args
        with Memory(folder / "s.db", root=docs, create=False) as memory:
            assert memory.store.read_only
        assert sorted(p.name for p in folder.iterdir()) == ["s.db"]
    assert _digest(folder / "s.db") == before
