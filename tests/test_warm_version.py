"""A hook never takes the answer of a warm server that runs other credo code (issue #17;
docs/AGENT.md § Upgrades).

Before, after an upgrade that left the schema alone, a ``credo serve`` or ``credo mcp``
started by the previous credo kept answering the new hook with the old code's block until
someone restarted it. An upgrade is made here as pip, uv or git make one: a file of an
installed copy of the package is replaced (written beside, renamed over), and the new code
prints another block header, so an answer of the old server would show.
"""

# ruff: noqa: F811  (test_warm's fixtures, imported, are parameters here)
from __future__ import annotations

import compileall
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import credo
from credo.memory import Memory
from credo.surfaces import warm
from tests.test_hook_events import base
from tests.test_warm import (  # noqa: F401 (fixtures)
    Server,
    _deploy_request,
    _raw_exchange,
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

PACKAGE = Path(credo.__file__).parent
OLD_HEADER = b"credo: local memory store"
NEW_HEADER = b"credo 0.2: local memory store"


def installed_copy(tmp_path: Path) -> Path:
    """The package as an install leaves it: its files, byte-compiled (pip, `credo setup`)."""
    target = tmp_path / "inst" / "credo"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    assert compileall.compile_dir(target, quiet=2)
    return target


def upgrade(package: Path) -> None:
    """A newer credo over ``package``, written as pip and git write: a new file renamed over."""
    render = package / "surfaces" / "render.py"
    text = render.read_bytes().replace(OLD_HEADER, NEW_HEADER)
    assert text != render.read_bytes()
    fresh = render.with_name("render.py.new")
    fresh.write_bytes(text)
    os.replace(fresh, render)


def hook_of(
    package: Path, payload: dict[str, Any], project: Path, env: dict[str, str], **extra: str
) -> bytes:
    return run_hook("prompt", payload, project, env, package / "hookstart.py", **extra)[0]


def exchange_as(
    package: Path | None, project: Path, server: Server
) -> tuple[dict[str, Any], float]:
    """The request a prompt hook of ``package`` sends (None: an older hook, protocol 1),
    its reply and how long that took."""
    request = json.loads(_deploy_request(project))
    if package is None:
        request = {k: v for k, v in request.items() if k != "code"} | {"v": 1}
    else:
        request["code"] = warm.code_id(str(package))
    began = time.monotonic()
    reply = json.loads(_raw_exchange(server.path, json.dumps(request).encode()))
    return reply, time.monotonic() - began


def test_the_code_folders_are_the_packages_folders() -> None:
    found = {
        "" if folder == PACKAGE else folder.relative_to(PACKAGE).as_posix()
        for folder in [PACKAGE, *PACKAGE.rglob("*")]
        if folder.is_dir() and "__pycache__" not in folder.parts and any(folder.glob("*.py"))
    }
    assert found == set(warm.CODE_FOLDERS)


def test_the_code_id_moves_with_every_file_an_upgrade_writes_and_no_pyc(tmp_path: Path) -> None:
    package = installed_copy(tmp_path)
    first = warm.code_id(str(package))
    assert first == warm.code_id(str(package)) and first.startswith(credo.__version__ + "+")
    assert first != warm.code_id()  # another install of the same version
    (package / "retrieval" / "lanes" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    assert warm.code_id(str(package)) == first  # bytecode written by a later import
    lane = next((package / "retrieval" / "lanes").glob("*.py"))
    text = lane.read_bytes()
    lane.unlink()  # git checks a changed file out so: unlink, then create
    time.sleep(0.01)
    lane.write_bytes(text)
    second = warm.code_id(str(package))
    assert second != first
    upgrade(package)
    assert warm.code_id(str(package)) not in (first, second)
    shutil.rmtree(package / "store" / "postgres")
    with pytest.raises(OSError):
        warm.code_id(str(package))  # half replaced: the hook takes the direct path


def test_a_server_identifies_its_code_after_the_bytecode_folders_its_imports_make(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module a server first imports later writes its bytecode beside it; the folder's
    first ``__pycache__`` would move the folder, and retire the server for nothing."""
    package = tmp_path / "inst" / "credo"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = warm.code_id(str(package))
    (package / "store" / "postgres" / "__pycache__").mkdir()
    assert warm.code_id(str(package)) != before  # what a later import would do
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    settled = warm.settled_code_id(str(package))
    assert compileall.compile_dir(package, quiet=2)  # every later import's bytecode
    assert warm.code_id(str(package)) == settled


def test_a_server_that_writes_no_bytecode_is_not_moved_by_a_hook_that_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, a server run with PYTHONDONTWRITEBYTECODE over an install without bytecode
    took the first ``__pycache__`` a hook's process wrote for an upgrade: its MCP tools
    refused every call and its socket retired."""
    package = tmp_path / "inst" / "credo"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    settled = warm.settled_code_id(str(package))
    assert compileall.compile_dir(package, quiet=2)  # a hook's process, writing bytecode
    assert warm.code_id(str(package)) == settled


def test_an_older_server_never_answers_a_newer_hook_and_retires(
    project: Path, env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    """``credo serve`` of an installed credo, which is then upgraded in place: the new hook
    is refused at once and prints its own direct path's block; the old server retires."""
    package = installed_copy(tmp_path)
    old = {**env, "PYTHONPATH": str(package.parent)}
    server = Server(store_of(project), old)
    servers.append(server)
    deadline = time.monotonic() + 60
    while not server.path.exists():
        assert server.process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    reply, _ = exchange_as(package, project, server)  # the same code: answered as today
    assert reply["ok"] is True and OLD_HEADER.decode() in reply["output"]
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy?")
    assert hook_of(package, payload, project, old) == hook_of(
        package, payload, project, old, CREDO_WARM="off"
    )
    assert any("warm ok prompt" in line for line in log_lines(env))

    upgrade(package)
    reply, took = exchange_as(package, project, server)
    assert reply["ok"] is False and "the hook runs credo" in reply["error"]
    assert took < warm.REPLY_SECONDS / 2  # refused at once, not after the hook's timeout
    output = hook_of(package, payload, project, old)
    assert output == hook_of(package, payload, project, old, CREDO_WARM="off")
    assert NEW_HEADER in output and b"[deploy]" in output
    deadline = time.monotonic() + 30
    while server.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.process.poll() == 1 and not server.path.exists()  # retired, says restart
    said = server.stop()
    assert "code changed on disk" in said and "restart" in said, said
    assert any("stops serving: credo's code changed" in line for line in log_lines(env))


def test_a_newer_server_refuses_an_older_hook_at_once_and_goes_on(
    project: Path,
    env: dict[str, str],
    servers: list[Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A downgrade, or a hook of another install: refused, the hook's direct path prints;
    the server's own code did not change, so it goes on serving its own hooks."""
    server = start(servers, store_of(project), env)
    reply, took = exchange_as(None, project, server)  # a hook from before protocol 2
    assert reply["ok"] is False and "protocol version '1', not 2" in reply["error"]
    assert took < warm.REPLY_SECONDS / 2
    older = installed_copy(tmp_path)
    payload = base(project, "UserPromptSubmit", prompt="how do we deploy?")
    output = hook_of(older, payload, project, env)
    assert output == direct("prompt", payload, project, env) and b"[deploy]" in output
    with monkeypatch.context() as patch:
        patch.setattr(warm, "code_id", lambda: "0.0.9+older")
        began = time.monotonic()
        assert warm.ask("prompt", json.dumps(payload).encode()) is None
        assert time.monotonic() - began < warm.REPLY_SECONDS / 2
    refused = [line for line in log_lines(env) if "warm: refused: the hook runs credo" in line]
    assert len(refused) == 2  # the older install's hook and the patched one
    assert answers(store_of(project)) and server.process.poll() is None
    assert run_hook("prompt", payload, project, env)[0] == output  # warm again, same bytes
    assert not any("stops serving" in line for line in log_lines(env))


def test_mcp_tools_refuse_once_credos_code_changed_under_the_server(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Before, after an upgrade the MCP server's tools went on answering with the old code
    (and imported new modules beside the old ones at a call's first use of them)."""
    import anyio
    from mcp import Client, StdioServerParameters

    from tests.test_mcp import data, error

    package = installed_copy(tmp_path)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "credo", "--db", str(store_of(project)), "mcp"],
        cwd=str(project),
        env={**env, "PYTHONPATH": str(package.parent), "CREDO_WARM": "off"},
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            found = data(await client.call_tool("search_memory", {"query": "deploy"}))
            assert any(b["id"] == "deploy" for b in found["beliefs"])
            upgrade(package)
            for tool, arguments in [
                ("search_memory", {"query": "deploy"}),
                ("remember_belief", {"text": "Written by the old server"}),
            ]:
                said = error(await client.call_tool(tool, arguments))
                assert "code changed on disk" in said and "restart" in said, said

    with Memory(store_of(project)) as memory:
        before = memory.stats().beliefs
    anyio.run(main)
    with Memory(store_of(project)) as memory:
        assert memory.stats().beliefs == before  # nothing written by the old code
