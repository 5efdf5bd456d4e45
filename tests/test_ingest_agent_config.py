"""A coding agent's setup, which ``credo setup`` writes into a project (Claude Code's
``.claude/settings.json`` and ``settings.local.json``, an ``.mcp.json`` or Cursor's
``.cursor/mcp.json`` naming credo's server alone), is left out of a folder's walk and
reported (``agent_config``), as ``.credo.toml`` is left out: read as configuration, credo's
own hook and server lines answered every "how is X configured" question. A server list that
names other servers is the project's own and is read; a file named on the command line is
read; one read before is retired at the next walk."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from credo.knowledge.ingest import walk

from .conftest import CliRun

CREDO_ONLY = {"mcpServers": {"credo": {"command": "/venv/bin/credo", "args": ["mcp"]}}}
WITH_GITHUB = {
    "mcpServers": {
        "credo": {"command": "/venv/bin/credo", "args": ["mcp"]},
        "github": {"command": "github-mcp-server", "args": ["stdio", "--toolsets", "repos"]},
    }
}
HOOKS = {
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "/py /site/credo/hookstart.py hook prompt"}]}
        ]
    }
}


def _project(root: Path, servers: dict[str, object] = CREDO_ONLY) -> Path:
    (root / ".git").mkdir(parents=True)  # (the root: paths are relative to it)
    (root / ".claude").mkdir()
    (root / ".cursor").mkdir()
    (root / ".mcp.json").write_text(json.dumps(servers, indent=2))
    (root / ".cursor" / "mcp.json").write_text(json.dumps(CREDO_ONLY, indent=2))
    (root / ".claude" / "settings.json").write_text(json.dumps(HOOKS, indent=2))
    (root / ".claude" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash"]}}')
    (root / "config.json").write_text('{"server": {"port": 8080, "host": "0.0.0.0"}}\n')
    return root


def _ingest(run: CliRun, *paths: Path) -> dict[str, object]:
    return json.loads(run("ingest", *map(str, paths), "--json", check=True).stdout)


def _files(run: CliRun) -> list[str]:
    done = run("export", "-", check=True)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return sorted({r["doc_uri"].partition("#")[0] for r in rows if r.get("kind") == "anchor"})


def test_the_walk_leaves_credos_setup_out_and_says_why(run: CliRun, tmp_path: Path) -> None:
    root = _project(tmp_path / "repo")
    report = _ingest(run, root)
    assert report["skipped"] == {"agent_config": 4}
    assert sorted(report["skipped_files"]) == [
        [".claude/settings.json", "agent_config"],
        [".claude/settings.local.json", "agent_config"],
        [".cursor/mcp.json", "agent_config"],
        [".mcp.json", "agent_config"],
    ]
    assert _files(run) == ["config.json"]
    found = json.loads(run("search", "which command does the prompt hook run", "--json").stdout)
    assert not any("hookstart" in b["content"] for b in found["beliefs"])


def test_a_server_list_naming_other_servers_is_the_projects(run: CliRun, tmp_path: Path) -> None:
    root = _project(tmp_path / "repo", WITH_GITHUB)
    report = _ingest(run, root)
    assert report["skipped"] == {"agent_config": 3}
    assert ".mcp.json" in _files(run)
    found = json.loads(run("search", "github mcp server", "--json", check=True).stdout)
    assert any("github-mcp-server" in b["content"] for b in found["beliefs"])


def test_a_named_file_is_read_and_retired_by_the_next_walk(run: CliRun, tmp_path: Path) -> None:
    root = _project(tmp_path / "repo")
    _ingest(run, root / ".claude" / "settings.json")
    assert _files(run) == [".claude/settings.json"]
    report = _ingest(run, root)
    assert report["files_removed"] == 1  # (its beliefs stale, their anchors kept for audit)
    live = run("anchors", "--doc", str(root / ".claude" / "settings.json"), "--json", check=True)
    assert json.loads(live.stdout) == []


@pytest.mark.parametrize(
    ("relative", "text", "left_out"),
    [
        (".claude/settings.json", "{}", True),
        (".claude/settings.local.json", "{}", True),
        ("settings.json", "{}", False),  # (not Claude Code's: the project's own)
        ("app/.claude/settings.json", "{}", True),
        (".mcp.json", json.dumps(CREDO_ONLY), True),
        (".mcp.json", json.dumps(WITH_GITHUB), False),
        (".mcp.json", '{"mcpServers": {}}', False),
        (".mcp.json", '{"mcpServers": {"credo": {}}, "inputs": []}', False),
        (".mcp.json", "not json", False),
        (".cursor/mcp.json", json.dumps(CREDO_ONLY), True),
        ("mcp.json", json.dumps(CREDO_ONLY), False),  # (Cursor reads it in .cursor/ only)
    ],
)
def test_which_files_are_an_agents_setup(
    tmp_path: Path, relative: str, text: str, left_out: bool
) -> None:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    assert walk.agent_config(path) is left_out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
@pytest.mark.parametrize("name", [".mcp.json", ".cursor/mcp.json"])
def test_a_fifo_of_a_server_lists_name_does_not_hang_the_walk(tmp_path: Path, name: str) -> None:
    # read_file refuses what is not a regular file ("a FIFO would block"); the look at a
    # server list opened it first, and a cloned repository's FIFO hung `credo ingest .`.
    fifo = tmp_path / name
    fifo.parent.mkdir(exist_ok=True)
    os.mkfifo(fifo)
    walked = _walk_beside(fifo, tmp_path)
    assert fifo in walked.files  # (read_file then skips it: unreadable)
    assert not walk.agent_config(fifo)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_fifo_named_gitignore_does_not_hang_the_walk(tmp_path: Path) -> None:
    # (the same hang, older than the agent's files: a folder's .gitignore was read as found)
    fifo = tmp_path / ".gitignore"
    os.mkfifo(fifo)
    assert tmp_path / "notes.md" in _walk_beside(fifo, tmp_path).files


def _walk_beside(fifo: Path, folder: Path) -> walk.Walked:
    """The walk of ``folder`` (``fifo`` and a page in it), which must end within 5 s."""
    (folder / "notes.md").write_text("# Notes\n\nDeploys go through the staging cluster.\n")
    done: list[walk.Walked] = []
    worker = threading.Thread(target=lambda: done.append(walk.walk_files([folder], folder)))
    worker.daemon = True
    worker.start()
    worker.join(5)
    hung = worker.is_alive()
    if hung:  # let the blocked open go (a writer's open completes the reader's)
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
    assert not hung
    return done[0]
