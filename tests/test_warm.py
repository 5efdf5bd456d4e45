"""The hook's warm path (credo.surfaces.warm, credo.surfaces.serve; docs/AGENT.md § Warm
engine): a real ``credo serve`` in its own process, the installed hook command, and the bad
conditions of issue #17: a server killed mid-request or hung, a stale socket, a socket or
folder the hook must not trust, a store replaced under the server, concurrent hooks, two
servers for one store."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.memory import Memory
from credo.surfaces import serve, warm
from tests.test_hook import DEPLOY, LOCKED, hook_env
from tests.test_hook_events import (
    CORRECTION,
    HOOKSTART,
    base,
    modules_probe,
    write_transcript,
)

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets")


@pytest.fixture
def run_dir() -> Iterator[Path]:
    """A short folder for the sockets (a Unix socket path holds ~104 bytes; tmp_path is
    long), standing in for $XDG_RUNTIME_DIR."""
    folder = Path(tempfile.mkdtemp(prefix="cw-", dir="/tmp"))
    folder.chmod(0o700)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        memory.remember(LOCKED, lock=True, id="rule-main")
        memory.remember(DEPLOY, doc="docs/deploy.md#L1-L9", id="deploy")
        memory.remember("We use npm for installing packages in this repository", id="old-npm")
        memory.remember("The cache is warmed by a cron job at 04:00", id="cache")
    write_transcript(
        root / "transcript.jsonl",
        [
            ("How do we deploy?", "Deploys go through staging first."),
            (CORRECTION, "Understood: pnpm, never npm. Deploys go through staging first."),
        ],
    )
    return root


@pytest.fixture
def env(tmp_path: Path, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of the hooks and the server; this test process gets the same, so
    ``warm.ask`` here finds and may use the server."""
    environment = {
        **hook_env(tmp_path),
        "XDG_RUNTIME_DIR": str(run_dir),
        "CREDO_HOOK_TRACE": "1",
        "CREDO_HOOK_INLINE": "1",  # capture before the answer: journals compare at once
    }
    for name in [n for n in os.environ if n.startswith("CREDO_")]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return environment


def store_of(project: Path) -> Path:
    return project / ".credo" / "memory.db"


class Server:
    """``credo serve`` in a process of its own."""

    def __init__(self, store: Path, env: dict[str, str], *argv: str) -> None:
        self.store = store
        command = argv or ("serve",)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "credo", "--db", str(store), *command],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.path = Path(warm.socket_path(str(store)))

    def wait_listening(self, seconds: float = 30.0) -> Server:
        deadline = time.monotonic() + seconds
        while not answers(self.store):
            assert self.process.poll() is None, self.process.stderr.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server did not start listening"
            time.sleep(0.05)
        return self

    def stop(self) -> str:
        if self.process.stderr is None or self.process.stderr.closed:
            return ""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        said = self.process.stderr.read().decode() if self.process.stderr else ""
        for pipe in (self.process.stdin, self.process.stderr):
            if pipe is not None:
                pipe.close()
        return said


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def start(servers: list[Server], store: Path, env: dict[str, str], *argv: str) -> Server:
    server = Server(store, env, *argv)
    servers.append(server)
    return server.wait_listening()


def answers(store: Path) -> bool:
    """Whether a server answers for ``store`` now (an event that prints nothing)."""
    raw = json.dumps({"cwd": str(store.parents[1]), "hook_event_name": "Elsewhere"}).encode()
    return warm.ask("prompt", raw) is not None


def run_hook(
    event: str,
    payload: dict[str, Any],
    project: Path,
    env: dict[str, str],
    hookstart: Path = HOOKSTART,
    **extra: str,
) -> tuple[bytes, float]:
    """The installed hook command's output for ``event`` (``hookstart``: another install's)
    and its wall time."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-S", str(hookstart), "hook", event],
        input=json.dumps(payload).encode(),
        cwd=project,
        env={**env, **extra},
        capture_output=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    return done.stdout, time.monotonic() - started


def direct(event: str, payload: dict[str, Any], project: Path, env: dict[str, str]) -> bytes:
    return run_hook(event, payload, project, env, CREDO_WARM="off")[0]


def log_lines(env: dict[str, str]) -> list[str]:
    """The hook log, without the warm index's lines: its thread writes them whenever it has
    read an index, between any two requests."""
    path = Path(env["CREDO_HOOK_LOG"])
    lines = path.read_text().splitlines() if path.exists() else []
    return [line for line in lines if ": warm index of " not in line]


TIMES = {"at", "mtime", "applied_at"}


def dump(store: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, times left out (they differ between any two runs)."""
    conn = sqlite3.connect(store)
    try:
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%'"
            )
        ]
        out: dict[str, list[tuple[object, ...]]] = {}
        for table in tables:
            columns = [str(r[1]) for r in conn.execute(f"PRAGMA table_info('{table}')")]
            kept = [c for c in columns if c not in TIMES and not c.endswith("_at")]
            if kept:
                listed = ", ".join(f'"{c}"' for c in kept)
                rows = conn.execute(f'SELECT {listed} FROM "{table}" ORDER BY {listed}')
                out[table] = [tuple(r) for r in rows]
        return out
    finally:
        conn.close()


def day(project: Path) -> list[tuple[str, dict[str, Any]]]:
    """One of each event, as a day with Claude Code sends them."""
    task = {"prompt": "Check how the deploy to staging works", "subagent_type": "general"}
    return [
        ("session-start", base(project, "SessionStart", source="startup")),
        ("prompt", base(project, "UserPromptSubmit", prompt="how do we deploy to production?")),
        ("prompt", base(project, "UserPromptSubmit", prompt=CORRECTION)),
        ("prompt", base(project, "UserPromptSubmit", prompt="yes")),
        ("subagent", base(project, "PreToolUse", tool_name="Task", tool_input=task)),
        (
            "stop",
            base(
                project,
                "Stop",
                last_assistant_message="Deploys go through staging first, then production.",
            ),
        ),
        ("session-start", base(project, "SessionStart", source="compact")),
    ]


# -- the same bytes either way -------------------------------------------------------------------
def test_every_event_prints_the_same_bytes_and_writes_the_same_rows_warm_and_direct(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    store = store_of(project)
    snapshot = project.parent / "snapshot.db"
    shutil.copy(store, snapshot)
    by_direct = [direct(event, payload, project, env) for event, payload in day(project)]
    rows_direct = dump(store)
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    shutil.copy(snapshot, store)
    start(servers, store, env)
    before = len(log_lines(env))
    by_warm = [run_hook(event, payload, project, env)[0] for event, payload in day(project)]
    assert by_warm == by_direct
    assert all(by_direct[:3]) and all(by_direct[4:6])  # each event printed something
    assert b"pnpm" in by_direct[5]  # Stop listed the captured correction
    assert dump(store) == rows_direct
    answered = [line for line in log_lines(env)[before:] if " warm ok " in line]
    assert len(answered) == len(day(project))  # every one was the server's answer


def test_the_warm_path_imports_none_of_the_engine(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    start(servers, store_of(project), env)
    probe = modules_probe(
        ("credo",), ("sqlite3", "json", "pathlib", "typing", "threading", "socket", "re")
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],
        input=json.dumps(
            base(project, "UserPromptSubmit", prompt="how is the deploy done")
        ).encode(),
        cwd=project,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert b"[deploy]" in done.stdout
    loaded = done.stderr.decode().strip().splitlines()[-1]
    assert loaded == repr(["credo", "credo.surfaces", "credo.surfaces.warm"])


# -- the store moves under the server ----------------------------------------------------------
def _until_warm(listener: serve.Listener, installed: int) -> None:
    deadline = time.monotonic() + 20
    while True:  # the keeper's thread reads it, and installs it under the engine's lock
        keeper = listener.engine.keeper
        if keeper is not None and keeper.installed >= installed:
            with listener.engine.lock:
                if listener.engine.memory().store.warm:
                    return
        assert time.monotonic() < deadline, f"no warm index number {installed}"
        time.sleep(0.01)


def test_a_server_reads_its_warm_index_and_again_after_another_process_writes(
    project: Path, env: dict[str, str]
) -> None:
    listener = serve.start(store_of(project))
    try:
        assert listener.owner
        _until_warm(listener, 1)
        with Memory(store_of(project), root=project) as other:
            other.remember("The staging database is db-staging-7", id="stagingdb")
        ask = base(project, "UserPromptSubmit", prompt="which staging database do we use?")
        request = {"v": warm.PROTOCOL, "code": warm.code_id(), "event": "prompt",
                   "cwd": str(project), "db": None,
                   "env": warm.env_fingerprint(os.environ), "payload": ask}  # fmt: skip
        output, _ = listener.engine.answer(request)
        assert "[stagingdb] The staging database is db-staging-7" in output  # from SQL
        listener.engine.poke()  # as after every request
        _until_warm(listener, 2)
        again, _ = listener.engine.answer(request)
        assert again == output  # and the same from the new index
    finally:
        listener.stop()


def test_the_server_journals_after_its_reply(project: Path, env: dict[str, str]) -> None:
    """The journal's commit (an fsync) is not on the prompt's path: the reply comes first,
    the row with the work after it, and it is the row the direct path writes."""
    from credo.agent.journal import injections

    engine = serve.Engine(store_of(project))
    try:
        ask = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
        request = {"v": warm.PROTOCOL, "code": warm.code_id(), "event": "prompt",
                   "cwd": str(project), "db": None,
                   "env": warm.env_fingerprint(os.environ), "payload": ask}  # fmt: skip
        output, later = engine.answer(request)
        assert "[deploy]" in output and later is not None
        with engine.lock:
            assert injections(engine.memory()) == []
        later()
        with engine.lock:
            (row,) = injections(engine.memory())
            assert row.event == "prompt" and row.session == ask["session_id"]
            assert engine.memory().deferred_writes is None
    finally:
        engine.close()


def test_a_write_by_another_process_is_in_the_next_answer(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    """The server's one Memory follows other connections' commits (SQLite data_version)."""
    start(servers, store_of(project), env)
    ask = base(project, "UserPromptSubmit", prompt="which staging database do we use?")
    first = run_hook("prompt", ask, project, env)[0]
    assert b"db-staging-7" not in first
    with Memory(store_of(project), root=project) as other:
        other.remember("The staging database is db-staging-7", id="stagingdb")
    again = run_hook("prompt", ask, project, env)[0]
    assert b"[stagingdb] The staging database is db-staging-7" in again


def _other_store(path: Path, root: Path, text: str) -> None:
    with Memory(path, root=root) as memory:
        memory.remember(LOCKED, lock=True, id="rule-main")
        memory.remember(text, id="restored")


def test_credo_restore_under_a_running_server_is_in_the_next_answer(
    project: Path, env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    start(servers, store_of(project), env)
    ask = base(project, "UserPromptSubmit", prompt="where do the restored deploy notes live?")
    backup = tmp_path / "backup.db"
    _other_store(backup, project, "The restored deploy notes live in the ops wiki")
    assert b"ops wiki" not in run_hook("prompt", ask, project, env)[0]
    done = subprocess.run(
        [sys.executable, "-m", "credo", "--db", str(store_of(project)), "restore", str(backup)],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    warm_answer = run_hook("prompt", ask, project, env)[0]
    assert b"[restored] The restored deploy notes live in the ops wiki" in warm_answer
    assert b"[deploy]" not in warm_answer
    assert warm_answer == direct("prompt", ask, project, env)


def test_a_store_file_replaced_under_the_server_is_opened_again(
    project: Path, env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    store = store_of(project)
    start(servers, store, env)
    ask = base(project, "UserPromptSubmit", prompt="where do the restored deploy notes live?")
    assert b"ops wiki" not in run_hook("prompt", ask, project, env)[0]
    other = tmp_path / "other.db"
    _other_store(other, project, "The restored deploy notes live in the ops wiki")
    os.replace(other, store)  # a new inode at the same path
    warm_answer = run_hook("prompt", ask, project, env)[0]
    assert b"[restored] The restored deploy notes live in the ops wiki" in warm_answer
    assert any("was replaced; opened again" in line for line in log_lines(env))
    assert any(" warm ok prompt" in line for line in log_lines(env)[-3:])


# -- a server that dies, hangs or was left behind ----------------------------------------------
def test_a_server_killed_mid_request_costs_the_hook_nothing_but_the_fallback(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    """SIGSTOP holds the server with the hook's request accepted by the kernel; SIGKILL
    then ends it mid-request: the hook falls back at once, with the direct path's bytes."""
    server = start(servers, store_of(project), env)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    raw = json.dumps(payload).encode()
    server.process.send_signal(signal.SIGSTOP)
    result: list[object] = []

    def ask() -> None:
        began = time.monotonic()
        result.append(warm.ask("prompt", raw))
        result.append(time.monotonic() - began)

    thread = threading.Thread(target=ask)
    thread.start()
    time.sleep(0.3)
    server.process.kill()
    thread.join(10)
    assert result[0] is None
    assert isinstance(result[1], float) and result[1] < warm.REPLY_SECONDS
    # The socket file stays behind (nobody removed it): the next hook falls back quickly.
    assert server.path.exists()
    output, _ = run_hook("prompt", payload, project, env)
    assert output == direct("prompt", payload, project, env) and b"[deploy]" in output


def test_a_hung_server_is_waited_for_no_longer_than_the_timeout(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    server = start(servers, store_of(project), env)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    server.process.send_signal(signal.SIGSTOP)
    began = time.monotonic()
    assert warm.ask("prompt", json.dumps(payload).encode()) is None
    assert warm.REPLY_SECONDS - 0.1 < time.monotonic() - began < warm.REPLY_SECONDS + 1.0
    output, _ = run_hook("prompt", payload, project, env)
    assert b"[deploy]" in output  # the direct path's answer
    server.process.send_signal(signal.SIGCONT)


def _stale_socket(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    path.chmod(0o600)
    sock.close()  # left behind, as by a crash: connecting is refused


def test_a_stale_socket_is_passed_over_then_removed_and_bound_again(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    store = store_of(project)
    path = Path(warm.socket_path(str(store)))
    _stale_socket(path)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    began = time.monotonic()
    assert warm.ask("prompt", json.dumps(payload).encode()) is None
    assert time.monotonic() - began < 0.5  # refused at once, not a timeout
    start(servers, store, env)
    output, _ = run_hook("prompt", payload, project, env)
    assert " warm ok prompt" in log_lines(env)[-1] and b"[deploy]" in output


# -- never trusted -------------------------------------------------------------------------------
def test_a_socket_or_folder_others_may_use_is_never_trusted(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    server = start(servers, store_of(project), env)
    folder = server.path.parent
    assert answers(server.store)
    folder.chmod(0o755)
    assert not answers(server.store)
    folder.chmod(0o700)
    server.path.chmod(0o666)
    assert not answers(server.store)
    server.path.chmod(0o600)
    assert answers(server.store)


def test_a_socket_of_another_user_is_never_trusted(
    project: Path, env: dict[str, str], servers: list[Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the uid seam (this user stands in as another one) and, as root, for real."""
    server = start(servers, store_of(project), env)
    me = os.getuid()
    with monkeypatch.context() as seam:
        seam.setattr(warm, "current_uid", lambda: me + 1)
        assert not answers(server.store)
        # The files pass, the process at the other end does not (SO_PEERCRED).
        seam.setattr(warm, "untrusted", lambda path: None)
        assert not answers(server.store)
    assert answers(server.store)
    if me == 0 and sys.platform.startswith("linux"):
        os.chown(server.path, 65534, -1)
        assert not answers(server.store)
        os.chown(server.path, 0, -1)
        assert answers(server.store)


def test_a_folder_of_another_user_is_not_served_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "run"
    folder.mkdir(mode=0o755)
    with monkeypatch.context() as seam, pytest.raises(OSError, match="owned by uid"):
        seam.setattr(warm, "current_uid", lambda: os.getuid() + 1)
        serve.private_folder(str(folder))
    assert serve.private_folder(str(folder)) == str(folder)
    assert folder.stat().st_mode & 0o777 == 0o700  # this user's own: narrowed


def test_a_symlinked_socket_is_never_followed(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    server = start(servers, store_of(project), env)
    real = server.path.with_name("real.sock")
    server.path.rename(real)
    server.path.symlink_to(real)
    assert warm.untrusted(str(server.path)) == f"socket {server.path}: not a socket"
    assert not answers(server.store)


# -- many at once, and bad requests ------------------------------------------------------------
def test_concurrent_hooks_against_one_server_all_get_their_answer(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    start(servers, store_of(project), env)
    prompts = [f"how do we deploy, question {i}?" for i in range(16)]
    answers_by_prompt: dict[str, bytes | None] = {}

    def ask(prompt: str) -> None:
        raw = json.dumps(base(project, "UserPromptSubmit", prompt=prompt)).encode()
        answers_by_prompt[prompt] = warm.ask("prompt", raw)

    threads = [threading.Thread(target=ask, args=(p,)) for p in prompts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(answers_by_prompt[p] is not None for p in prompts)
    assert all(b"[deploy]" in (answers_by_prompt[p] or b"") for p in prompts)
    conn = sqlite3.connect(store_of(project))
    hashes = conn.execute("SELECT count(DISTINCT prompt_hash) FROM injections").fetchone()[0]
    conn.close()
    assert hashes == len(prompts)


def _raw_exchange(path: Path, message: bytes, *, close_early: bool = False) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        if close_early:
            return b""
        sock.sendall(message)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def _deploy_request(project: Path) -> bytes:
    """The bytes a prompt hook sends for "how do we deploy?" in ``project``."""
    return warm.request(
        "prompt",
        json.dumps(base(project, "UserPromptSubmit", prompt="how do we deploy?")),
        str(project),
        None,
        warm.env_fingerprint(os.environ),
        False,
        warm.code_id(),
    )


def test_a_request_still_on_its_way_does_not_hold_up_a_whole_one(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    """Each connection is served on a thread of its own: a request still on its way does not
    keep the hooks behind it waiting."""
    server = start(servers, store_of(project), env)
    message = _deploy_request(project)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as slow:
        slow.settimeout(10)
        slow.connect(str(server.path))
        slow.sendall(message[:40])  # the rest after another hook's whole exchange
        time.sleep(0.3)
        whole = json.loads(_raw_exchange(server.path, message))
        assert whole["ok"] is True and "[deploy]" in whole["output"]
        slow.sendall(message[40:])
        slow.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := slow.recv(65536):
            chunks.append(chunk)
    assert json.loads(b"".join(chunks)) == whole


def test_bad_requests_are_refused_and_logged_and_the_server_goes_on(
    project: Path, env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    server = start(servers, store_of(project), env)
    good = json.loads(_deploy_request(project))
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    _other_store(store_of(other), other, "Another project's note")
    bad: list[bytes] = [
        b"",
        b"\xff\xfe garbage",
        b"[1, 2]",
        json.dumps({**good, "v": 1}).encode(),
        json.dumps({**good, "code": "0.0.9+another"}).encode(),
        json.dumps({**good, "event": "rm -rf"}).encode(),
        json.dumps({**good, "payload": "text"}).encode(),
        json.dumps({**good, "cwd": "relative/path"}).encode(),
        json.dumps({**good, "env": {**good["env"], "CREDO_HOOK_TOKEN_BUDGET": "50"}}).encode(),
        json.dumps({**good, "payload": {**good["payload"], "cwd": str(other)}}).encode(),
        b"{" * 100_000,
        b"x" * (warm.MAX_REQUEST_BYTES + 10),
    ]
    for message in bad:
        reply = json.loads(_raw_exchange(server.path, message))
        assert reply["ok"] is False, message[:80]
    _raw_exchange(server.path, b"", close_early=True)
    refused = [line for line in log_lines(env) if "warm: refused:" in line]
    assert len(refused) >= len(bad)
    assert any("environment differs in CREDO_HOOK_TOKEN_BUDGET" in line for line in refused)
    assert any("this server serves" in line for line in refused)
    assert any("the hook runs credo 0.0.9+another" in line for line in refused)
    reply = json.loads(_raw_exchange(server.path, json.dumps(good).encode()))
    assert reply["ok"] is True and "[deploy]" in reply["output"]
    assert server.process.poll() is None


def test_a_hook_with_other_settings_falls_back_to_its_own(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    start(servers, store_of(project), env)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    small = {"CREDO_HOOK_TOKEN_BUDGET": "12"}
    output, _ = run_hook("prompt", payload, project, env, **small)
    assert output == run_hook("prompt", payload, project, env, CREDO_WARM="off", **small)[0]
    assert b'tokens="' in output and b"/12" in output


def test_a_project_settings_file_is_read_by_the_server_as_by_the_hook(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    start(servers, store_of(project), env)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    (project / ".credo.toml").write_text("[hook]\ntoken_budget = 15\n")
    output, _ = run_hook("prompt", payload, project, env)
    assert b"/15" in output and " warm ok prompt" in log_lines(env)[-1]
    (project / ".credo.toml").write_text("[hook]\ntoken_budget = 900\n")
    output, _ = run_hook("prompt", payload, project, env)
    assert b"/900" in output


# -- who owns the socket -------------------------------------------------------------------------
def test_two_servers_one_owner_and_the_second_takes_over(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    store = store_of(project)
    first = start(servers, store, env)
    second = Server(store, env)
    servers.append(second)
    deadline = time.monotonic() + 30
    while "standing by" not in log_text_of(env) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "standing by" in log_text_of(env)
    first_said = first.stop()
    assert "serving" in first_said and "stopped after" in first_said
    second.wait_listening()
    assert any("took over" in line for line in log_lines(env))
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    output, _ = run_hook("prompt", payload, project, env)
    assert b"[deploy]" in output and " warm ok prompt" in log_lines(env)[-1]


def log_text_of(env: dict[str, str]) -> str:
    return "\n".join(log_lines(env))


def test_the_mcp_server_serves_the_socket_while_it_runs(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    server = start(servers, store_of(project), env, "mcp")
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy to production?")
    output, _ = run_hook("prompt", payload, project, env)
    assert b"[deploy]" in output and " warm ok prompt" in log_lines(env)[-1]
    assert server.process.stdin is not None
    server.process.stdin.close()  # the client goes: the MCP server exits, the socket too
    server.process.wait(timeout=20)
    assert not server.path.exists()
    assert not answers(server.store)


def test_capture_runs_after_the_reply_on_the_server(
    project: Path, env: dict[str, str], servers: list[Server]
) -> None:
    env = {**env, "CREDO_HOOK_INLINE": "0"}
    start(servers, store_of(project), env)
    payload = base(project, "UserPromptSubmit", prompt=CORRECTION)
    output, _ = run_hook("prompt", payload, project, env)
    assert b"[rule-main locked]" in output
    deadline = time.monotonic() + 20
    while True:
        conn = sqlite3.connect(store_of(project))
        count = conn.execute("SELECT count(*) FROM captures").fetchone()[0]
        conn.close()
        if count or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert count >= 1


# -- the client's own pieces ---------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES, st.sampled_from(["", " ", "\n\t "]), st.booleans())
def test_the_clients_json_reads_what_json_loads_reads(
    value: object, space: str, ascii_only: bool
) -> None:
    text = space + json.dumps(value, ensure_ascii=ascii_only) + space
    assert warm.loads(text) == json.loads(text)


@pytest.mark.parametrize("text", ["", "{", "[1,", '{"a": 1} x', "nul", '"open'])
def test_the_clients_json_refuses_what_json_loads_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        warm.loads(text)


def test_the_clients_json_without_the_c_scanner_is_json_loads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An interpreter without ``_json`` never asks a server, yet the direct path reads its
    payload through ``loads`` too (credo.surfaces.hook.parse_payload)."""
    monkeypatch.setattr(warm, "_json", None)
    assert warm.loads(' {"prompt": "x", "n": [1, 2.5, null]} ') == {
        "prompt": "x",
        "n": [1, 2.5, None],
    }
    with pytest.raises(ValueError):
        warm.loads('{"prompt": ')


def test_credo_serve_needs_a_store(tmp_path: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "credo", "--db", str(tmp_path / "none.db"), "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "no store at" in done.stderr
    assert not (tmp_path / "none.db").exists()


def test_the_light_clients_copies_stay_in_step_with_the_hook() -> None:
    """The stdlib-only client and the entry point keep their own copies (importing the hook
    would cost them its imports); this keeps the copies true."""
    from credo import entry
    from credo.surfaces import hook, warm

    assert warm.HOOK_EVENTS == entry.HOOK_EVENTS == tuple(hook.EVENTS)
    assert warm.MAX_PAYLOAD_BYTES == hook.MAX_PAYLOAD_BYTES
