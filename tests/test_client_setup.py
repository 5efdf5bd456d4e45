"""``credo setup codex`` and ``credo setup cursor``: each file parsed the way its client reads
it (tomllib for Codex CLI's config.toml, json for Cursor's mcp.json); idempotent; a remove
that leaves the user's entries and comments as they were."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from credo.errors import InvalidInputError
from credo.surfaces.client_setup import codex_config, cursor_config, setup_codex, setup_cursor
from credo.surfaces.install import credo_argv, server_env

ARGV = ["/opt/venv/bin/credo"]


def codex_reads(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


USER_TOML = """\
# My Codex settings (kept by hand)
model = "o3"  # the default
approval_policy = "on-request"

[mcp_servers.github]
command = "gh-mcp"  # GitHub's server
args = ["--readonly"]

# profiles for work
[profiles.work]
model = "gpt-5"
"""


# -- Codex -----------------------------------------------------------------------------------------
def test_codex_default_path_and_codex_home(home: Path, tmp_path: Path) -> None:
    assert codex_config({}) == home / ".codex" / "config.toml"
    assert codex_config({"CODEX_HOME": str(tmp_path / "cx")}) == tmp_path / "cx" / "config.toml"


def test_codex_fresh_install_is_what_codex_reads(home: Path) -> None:
    report = setup_codex(argv=ARGV, check=False)
    path = home / ".codex" / "config.toml"
    assert codex_reads(path) == {"mcp_servers": {"credo": {"command": ARGV[0], "args": ["mcp"]}}}
    assert report.files == [path] and report.backups == []
    assert setup_codex(remove=True, argv=ARGV, check=False).changes
    assert not path.exists()  # it held nothing of the user's


def test_codex_keeps_comments_and_tables_and_remove_restores_exactly(home: Path) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(USER_TOML)
    report = setup_codex(argv=ARGV, check=False)
    written = path.read_text()
    assert written.startswith(USER_TOML)  # every byte of the user's, then credo's table
    config = codex_reads(path)
    assert config["mcp_servers"]["credo"] == {"command": ARGV[0], "args": ["mcp"]}
    assert config["mcp_servers"]["github"] == {"command": "gh-mcp", "args": ["--readonly"]}
    assert config["profiles"] == {"work": {"model": "gpt-5"}}
    assert [b.read_text() for b in report.backups] == [USER_TOML]

    again = setup_codex(argv=ARGV, check=False)
    assert again.changes == [] and path.read_text() == written

    removed = setup_codex(remove=True, argv=ARGV, check=False)
    assert removed.changes and path.read_text() == USER_TOML


def test_codex_updates_an_older_entry_in_place(home: Path) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    old = (
        "[mcp_servers.credo]\n"
        'command = "/old/env/bin/credo"\n'
        'args = ["mcp"]\n'
        "startup_timeout_sec = 30  # slow disk\n"
        "\n[profiles.work]\nmodel = 'x'\n"
    )
    path.write_text(old)
    report = setup_codex(argv=ARGV, check=False)
    assert any("replaced" in c for c in report.changes)
    text = path.read_text()
    assert text.index("[mcp_servers.credo]") < text.index("[profiles.work]")  # same place
    assert "# slow disk" in text
    assert codex_reads(path)["mcp_servers"]["credo"] == {
        "command": ARGV[0],
        "args": ["mcp"],
        "startup_timeout_sec": 30,
    }


def test_codex_remove_keeps_a_users_own_server_named_credo(home: Path) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    mine = '[mcp_servers.credo]\ncommand = "my-notes"\nargs = []\n'
    path.write_text(mine)
    assert setup_codex(remove=True, argv=ARGV, check=False).changes == []
    assert path.read_text() == mine


def test_codex_remove_keeps_an_explicit_mcp_servers_table(home: Path) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    mine = "[mcp_servers]\n# servers go here\n\n[tui]\nnotifications = true\n"
    path.write_text(mine)
    setup_codex(argv=ARGV, check=False)
    assert codex_reads(path)["mcp_servers"]["credo"]["command"] == ARGV[0]
    setup_codex(remove=True, argv=ARGV, check=False)
    assert path.read_text() == mine


@pytest.mark.parametrize(
    "text",
    [
        "model = \n",
        "[a]\nx = 1\n[a]\nx = 2\n",  # a table defined twice: tomllib (and Codex) refuse it
        "mcp_servers = 3\n",
        "[mcp_servers]\ncredo = 'not a table'\n",
    ],
)
def test_codex_refuses_a_file_it_cannot_use_and_leaves_it(home: Path, text: str) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(InvalidInputError, match=r"TOML|table"):
        setup_codex(argv=ARGV, check=False)
    assert path.read_text() == text
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no backup either


# -- Cursor ---------------------------------------------------------------------------------------
def test_cursor_paths(project: Path, home: Path) -> None:
    assert cursor_config("project", project / "src") == project / ".cursor" / "mcp.json"
    assert cursor_config("user", project) == home / ".cursor" / "mcp.json"


@pytest.mark.parametrize("scope", ["project", "user"])
def test_cursor_install_is_what_cursor_reads_and_remove_restores(
    project: Path, home: Path, scope: Any
) -> None:
    path = cursor_config(scope, project)
    path.parent.mkdir(parents=True)
    user = {"mcpServers": {"github": {"command": "gh-mcp", "args": []}}, "other": [1, 2]}
    original = json.dumps(user, indent=2) + "\n"
    path.write_text(original)

    report = setup_cursor(scope, cwd=project / "src", argv=ARGV, check=False)
    assert json.loads(path.read_text())["mcpServers"] == {
        "github": {"command": "gh-mcp", "args": []},
        "credo": {"command": ARGV[0], "args": ["mcp"]},
    }
    assert [b.read_text() for b in report.backups] == [original]
    assert setup_cursor(scope, cwd=project, argv=ARGV, check=False).changes == []
    setup_cursor(scope, cwd=project, remove=True, argv=ARGV, check=False)
    assert path.read_text() == original


def test_cursor_fresh_install_then_remove_leaves_no_file(project: Path) -> None:
    setup_cursor("project", cwd=project, argv=ARGV, check=False)
    path = project / ".cursor" / "mcp.json"
    assert json.loads(path.read_text()) == {
        "mcpServers": {"credo": {"command": ARGV[0], "args": ["mcp"]}}
    }
    setup_cursor("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert not path.exists()


def test_cursor_refuses_broken_json(project: Path) -> None:
    path = project / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{"mcpServers": ')
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        setup_cursor("project", cwd=project, argv=ARGV, check=False)
    assert path.read_text() == '{"mcpServers": '


# -- through the real entry point ----------------------------------------------------------------
def credo(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "credo", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CODEX_"))}
    return clean | {"HOME": str(home)}


def test_cli_codex_checks_the_server_then_writes(
    project: Path, home: Path, env: dict[str, str]
) -> None:
    done = credo(["setup", "codex"], project, env)
    assert done.returncode == 0, done.stderr
    assert "answers tools/list" in done.stdout and "added MCP server 'credo'" in done.stdout
    entry = codex_reads(home / ".codex" / "config.toml")["mcp_servers"]["credo"]
    assert [entry["command"], *entry["args"]] == [*credo_argv(), "mcp"]
    assert entry.get("env", {}) == server_env()  # (run from a source tree: its PYTHONPATH)
    again = credo(["setup", "codex", "--skip-check"], project, env)
    assert "already set up" in again.stdout and "answers" not in again.stdout
    removed = credo(["setup", "codex", "--remove", "--json"], project, env)
    assert json.loads(removed.stdout)["removed"] is True
    assert not (home / ".codex" / "config.toml").exists()


def test_cli_cursor_project_and_a_broken_file(project: Path, env: dict[str, str]) -> None:
    done = credo(["setup", "cursor", "--skip-check", "--json"], project / "src", env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["client"] == "cursor" and report["checked"] is None
    entry = json.loads((project / ".cursor" / "mcp.json").read_text())["mcpServers"]["credo"]
    env = server_env()  # (run from a source tree: its PYTHONPATH)
    expected = {"command": credo_argv()[0], "args": [*credo_argv()[1:], "mcp"]}
    assert entry == (expected | {"env": env} if env else expected)

    (project / ".cursor" / "mcp.json").write_text("[]")
    broken = credo(["setup", "cursor", "--skip-check"], project, env)
    assert broken.returncode == 1
    assert broken.stderr.startswith("Error: ") and broken.stderr.count("\n") == 1


def test_cli_refuses_a_server_that_does_not_start_and_writes_nothing(
    project: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    """The SDK missing from the environment (shadowed here by a package that fails to
    import): one `Error:` line with the pip fix, exit 1, no file written."""
    shadow = tmp_path / "shadow" / "mcp"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'mcp'\")\n")
    path = os.pathsep.join([str(shadow.parent), env.get("PYTHONPATH", "")])
    for client in (["claude"], ["cursor"], ["codex"]):
        done = credo(["setup", *client], project, env | {"PYTHONPATH": path})
        assert done.returncode == 1, done.stdout
        assert done.stderr.startswith("Error: the MCP server `") and done.stderr.count("\n") == 1
        assert "No module named 'mcp'" in done.stderr
        assert done.stderr.rstrip().endswith("-m pip install 'mcp>=2,<3'")
    assert sorted(p.name for p in project.iterdir()) == [".git", "src"]
    assert not (Path(env["HOME"]) / ".codex").exists()
