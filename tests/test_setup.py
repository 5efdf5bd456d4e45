"""``credo setup claude``: idempotent install, backups, and a remove that restores exactly."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.memory import Memory
from credo.surfaces import claude_setup
from credo.surfaces.claude_setup import (
    HOOK_EVENT,
    HOOKS,
    add_hooks,
    hook_command,
    is_credo_hook,
    remove_hooks,
    server_entry,
    setup_claude,
    targets,
)
from credo.surfaces.install import credo_argv, is_credo_server

ARGV = ["/opt/venv/bin/credo"]
HOOK = "/opt/venv/bin/credo hook prompt"


def dump(path: Path, data: dict[str, Any]) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path.read_bytes()


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


OTHER_SETTINGS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "echo branch: main"}]},
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]},
        ],
    },
}
OTHER_MCP: dict[str, Any] = {
    "mcpServers": {"github": {"type": "stdio", "command": "gh-mcp", "args": [], "env": {}}}
}


def test_project_install_writes_claude_codes_formats(project: Path) -> None:
    report = setup_claude("project", cwd=project / "src", argv=ARGV, check=False)
    settings = load(project / ".claude" / "settings.json")

    def command(name: str, timeout: int = 10) -> dict[str, Any]:
        entry = {"type": "command", "command": f"{ARGV[0]} hook {name}", "timeout": timeout}
        return {"hooks": [entry]}

    assert settings == {
        "hooks": {
            "UserPromptSubmit": [command("prompt")],
            "SessionStart": [command("session-start")],  # no matcher: startup, resume, compact
            "Stop": [command("stop", 30)],
            "PreToolUse": [{"matcher": "Task|Agent", **command("subagent")}],
        }
    }
    # The exact entry `claude mcp add -s project credo -- /opt/venv/bin/credo mcp` writes.
    assert load(project / ".mcp.json") == {
        "mcpServers": {"credo": {"type": "stdio", "command": ARGV[0], "args": ["mcp"], "env": {}}}
    }
    assert report.backups == [] and len(report.changes) == 5


def test_install_is_idempotent(project: Path) -> None:
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    before = {p: p.read_bytes() for p in targets("project", project).__dict__.values()}
    again = setup_claude("project", cwd=project, argv=ARGV, check=False)
    assert again.changes == [] and again.backups == []
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in (project / ".claude").iterdir()) == ["settings.json"]


def test_install_backs_up_and_remove_restores_exactly(project: Path) -> None:
    settings_path = project / ".claude" / "settings.json"
    mcp_path = project / ".mcp.json"
    original_settings = dump(settings_path, OTHER_SETTINGS)
    original_mcp = dump(mcp_path, OTHER_MCP)

    report = setup_claude("project", cwd=project, argv=ARGV, check=False)
    assert sorted(b.read_bytes() for b in report.backups) == sorted(
        [original_settings, original_mcp]
    )
    assert all(".credo-backup-" in b.name for b in report.backups)
    installed = load(settings_path)
    assert (
        installed["hooks"]["UserPromptSubmit"][0] == OTHER_SETTINGS["hooks"]["UserPromptSubmit"][0]
    )
    # The user's PreToolUse group stays first and as it was; credo's comes after it.
    assert installed["hooks"]["PreToolUse"][0] == OTHER_SETTINGS["hooks"]["PreToolUse"][0]
    assert installed["hooks"]["PreToolUse"][1]["matcher"] == "Task|Agent"
    assert set(load(mcp_path)["mcpServers"]) == {"github", "credo"}

    removed = setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert len(removed.changes) == 5
    assert settings_path.read_bytes() == original_settings
    assert mcp_path.read_bytes() == original_mcp


def test_remove_of_a_fresh_install_leaves_no_files(project: Path) -> None:
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    report = setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.json").exists()
    assert report.backups == []  # nothing of the user's was in them


def test_remove_when_not_installed_changes_nothing(project: Path) -> None:
    original = dump(project / ".claude" / "settings.json", OTHER_SETTINGS)
    report = setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert report.changes == [] and report.backups == []
    assert (project / ".claude" / "settings.json").read_bytes() == original
    assert not (project / ".mcp.json").exists()


def test_remove_keeps_other_hooks_in_the_same_group(project: Path) -> None:
    settings_path = project / ".claude" / "settings.json"
    shared = {
        "hooks": {
            HOOK_EVENT: [
                {
                    "hooks": [
                        {"type": "command", "command": "echo hi"},
                        {"type": "command", "command": "/old/env/bin/credo hook prompt"},
                    ]
                }
            ]
        }
    }
    dump(settings_path, shared)
    setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert load(settings_path) == {
        "hooks": {HOOK_EVENT: [{"hooks": [{"type": "command", "command": "echo hi"}]}]}
    }


def test_reinstall_from_another_environment_replaces_the_old_entries(project: Path) -> None:
    setup_claude("project", cwd=project, argv=["/old/env/bin/credo"], check=False)
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    groups = load(project / ".claude" / "settings.json")["hooks"][HOOK_EVENT]
    commands = [h["command"] for g in groups for h in g["hooks"]]
    assert commands == [HOOK]
    assert load(project / ".mcp.json")["mcpServers"]["credo"]["command"] == ARGV[0]


def test_reinstall_rewrites_an_older_installs_hook_command(project: Path) -> None:
    """Every form setup ever wrote (console script, ``python -m credo``, ``hookstart.py`` of
    another environment) is replaced by the current command, once."""
    older = [
        "/old/env/bin/credo hook prompt",
        "/old/env/bin/python3 -m credo hook prompt",
        "/old/env/bin/python3 -S /old/env/lib/site-packages/credo/hookstart.py hook prompt",
    ]
    hooks = [{"type": "command", "command": c} for c in older]
    dump(project / ".claude" / "settings.json", {"hooks": {HOOK_EVENT: [{"hooks": hooks}]}})
    setup_claude("project", cwd=project, check=False)
    groups = load(project / ".claude" / "settings.json")["hooks"][HOOK_EVENT]
    assert [h["command"] for g in groups for h in g["hooks"]] == [hook_command()]


def test_an_old_install_is_upgraded_in_place(project: Path) -> None:
    """An install from before SessionStart/Stop/subagent (UserPromptSubmit only, the same
    command) keeps its entry where it is, gains the three others, and then stays put."""
    path = project / ".claude" / "settings.json"
    ours = {"type": "command", "command": HOOK, "timeout": 10}
    old = {
        "hooks": {
            HOOK_EVENT: [
                {"hooks": [{"type": "command", "command": "echo hi"}]},
                {"hooks": [ours]},
            ],
            "PreToolUse": OTHER_SETTINGS["hooks"]["PreToolUse"],
        }
    }
    dump(path, old)
    report = setup_claude("project", cwd=project, argv=ARGV, check=False)
    added = [c.split(": ", 1)[1] for c in report.changes if "settings.json" in c]
    assert [c.split(" hook ")[0] for c in added] == [
        "added SessionStart",
        "added Stop",
        "added PreToolUse",
    ]
    hooks = load(path)["hooks"]
    assert hooks[HOOK_EVENT] == old["hooks"][HOOK_EVENT]
    assert hooks["PreToolUse"][0] == old["hooks"]["PreToolUse"][0]
    assert {e for e in hooks} == {h.event for h in HOOKS}
    assert setup_claude("project", cwd=project, argv=ARGV, check=False).changes == []


def test_a_stale_matcher_or_timeout_is_replaced(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    data = load(path)
    data["hooks"]["PreToolUse"][0]["matcher"] = "Task"
    data["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 5
    dump(path, data)
    report = setup_claude("project", cwd=project, argv=ARGV, check=False)
    assert len(report.changes) == 4  # removed + added, for each of the two
    fresh = load(path)["hooks"]
    assert fresh["PreToolUse"] == [
        {
            "matcher": "Task|Agent",
            "hooks": [{"type": "command", "command": f"{ARGV[0]} hook subagent", "timeout": 10}],
        }
    ]
    assert fresh["Stop"][0]["hooks"][0]["timeout"] == 30


def test_remove_takes_credo_out_of_every_event(project: Path) -> None:
    """Even an entry the user moved to another event or group is credo's and goes."""
    path = project / ".claude" / "settings.json"
    original = dump(path, OTHER_SETTINGS)
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    data = load(path)
    data["hooks"]["PreToolUse"][0]["hooks"].append(
        {"type": "command", "command": f"{ARGV[0]} hook stop"}
    )
    dump(path, data)
    report = setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert sum("hook" in c for c in report.changes) == 5
    assert json.loads(path.read_bytes()) == json.loads(original)


# Claude Code settings a user might have: other events, matchers and commands (never credo's).
USER_COMMANDS = st.sampled_from(["echo hi", "./guard.sh", "npx lint", "credo-notes sync"])
USER_GROUP = st.fixed_dictionaries(
    {
        "hooks": st.lists(
            st.builds(lambda c: {"type": "command", "command": c}, USER_COMMANDS),
            min_size=1,
            max_size=2,
        )
    },
    optional={"matcher": st.sampled_from(["Bash", "Task|Agent", "*"])},
)
USER_SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "model": st.just("opus"),
        "hooks": st.dictionaries(
            st.sampled_from(
                ["UserPromptSubmit", "SessionStart", "Stop", "PreToolUse", "Notification"]
            ),
            st.lists(USER_GROUP, min_size=1, max_size=3),
            min_size=1,
        ),
    },
)


@settings(max_examples=150, deadline=None)
@given(USER_SETTINGS, st.sampled_from([ARGV, ["/old/env/bin/credo"]]))
def test_install_is_idempotent_and_remove_restores_the_users_settings(
    user: dict[str, Any], argv: list[str]
) -> None:
    data = json.loads(json.dumps(user))
    assert add_hooks(argv)(data)
    once = json.loads(json.dumps(data))
    assert add_hooks(argv)(data) == [] and data == once
    ours = [
        h["command"]
        for groups in data["hooks"].values()
        for g in groups
        for h in g["hooks"]
        if is_credo_hook(h)
    ]
    assert sorted(ours) == sorted(hook_command(argv, h.name) for h in HOOKS)
    assert len(remove_hooks()(data)) == len(HOOKS)
    assert data == user


def test_a_users_own_server_named_credo_is_not_removed(project: Path) -> None:
    mine = {"mcpServers": {"credo": {"command": "my-notes-server", "args": []}}}
    original = dump(project / ".mcp.json", mine)
    setup_claude("project", cwd=project, remove=True, argv=ARGV, check=False)
    assert (project / ".mcp.json").read_bytes() == original


def test_user_scope_uses_home_files(project: Path, home: Path) -> None:
    user_json = dump(home / ".claude.json", {"numStartups": 3, "projects": {"/x": {}}})
    setup_claude("user", cwd=project, argv=ARGV, check=False)
    assert (
        load(home / ".claude" / "settings.json")["hooks"][HOOK_EVENT][0]["hooks"][0]["command"]
        == HOOK
    )
    data = load(home / ".claude.json")
    assert data["numStartups"] == 3 and data["mcpServers"]["credo"]["args"] == ["mcp"]
    assert not (project / ".mcp.json").exists()
    setup_claude("user", cwd=project, remove=True, argv=ARGV, check=False)
    assert (home / ".claude.json").read_bytes() == user_json


def test_claude_config_dir_moves_the_user_files(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "cfg"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    where = targets("user", project)
    assert (where.settings, where.mcp) == (config / "settings.json", config / ".claude.json")


def test_file_mode_is_kept(project: Path) -> None:
    path = project / ".mcp.json"
    dump(path, OTHER_MCP)
    path.chmod(0o600)
    setup_claude("project", cwd=project, argv=ARGV, check=False)
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "text", ["{not json", "[1, 2]", '{"hooks": []}', '{"hooks": {"UserPromptSubmit": {}}}']
)
def test_unusable_settings_are_refused_and_left_alone(project: Path, text: str) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(InvalidInputError):
        setup_claude("project", cwd=project, argv=ARGV, check=False)
    assert path.read_text() == text
    assert not (project / ".mcp.json").exists()


@pytest.mark.parametrize(
    ("entry", "ours"),
    [
        ({"type": "command", "command": HOOK}, True),
        ({"type": "command", "command": "'/a b/credo' hook prompt"}, True),
        ({"type": "command", "command": "/usr/bin/python3 -m credo hook prompt"}, True),
        (
            {
                "type": "command",
                "command": "/old/bin/python3 -S /old/site-packages/credo/hookstart.py hook prompt",
            },
            True,
        ),
        ({"type": "command", "command": "/v/bin/credo hook session-start"}, True),
        ({"type": "command", "command": "/v/bin/credo hook stop"}, True),
        ({"type": "command", "command": "/p -S /v/site/credo/hookstart.py hook subagent"}, True),
        ({"type": "command", "command": "/v/bin/credo hook session-end"}, False),
        ({"type": "command", "command": "/v/bin/credo hook"}, False),
        ({"type": "command", "command": "other hook prompt"}, False),
        ({"type": "command", "command": "./my-script stop hook stop"}, False),
        ({"type": "command", "command": "credo hook"}, False),
        ({"type": "command", "command": "'unbalanced"}, False),
        ({"type": "prompt", "prompt": "credo hook prompt"}, False),
        ("credo hook prompt", False),
    ],
)
def test_recognises_only_credo_hooks(entry: object, ours: bool) -> None:
    assert is_credo_hook(entry) is ours


def test_recognises_credo_servers() -> None:
    assert is_credo_server(server_entry(ARGV))
    assert is_credo_server(server_entry(["/usr/bin/python3", "-m", "credo"]))
    assert not is_credo_server({"command": "credo", "args": ["serve"]})
    assert not is_credo_server({"command": 3})


def test_default_command_is_an_absolute_path_to_this_credo() -> None:
    argv = credo_argv()
    assert Path(argv[0]).is_absolute()
    assert hook_command().endswith(" hook prompt")


def test_the_hook_skips_site_and_starts_from_the_package() -> None:
    # site's .pth processing costs a third of the hook's budget; the read path needs none.
    words = shlex.split(hook_command())
    assert words[1] == "-S" and Path(words[2]).name == "hookstart.py"
    # hookstart.py stays at the package's top: settings written by older versions name it there.
    package = Path(claude_setup.__file__).resolve().parents[1]
    assert Path(words[2]).parent == package
    assert is_credo_hook({"type": "command", "command": hook_command()})


# -- through the real entry point ----------------------------------------------------------------
def credo(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CLAUDE_"))}
    env["HOME"] = str(home)
    env["CREDO_GLOBAL_DB"] = os.environ["CREDO_GLOBAL_DB"]  # never the user's own
    return subprocess.run(
        [sys.executable, "-m", "credo", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_install_then_the_installed_hook_command_runs(project: Path, home: Path) -> None:
    done = credo(["setup", "claude", "--project"], project / "src", home)
    assert done.returncode == 0, done.stderr
    assert "added UserPromptSubmit hook" in done.stdout
    again = credo(["setup", "claude"], project, home)
    assert "already set up" in again.stdout

    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember("Run the linter before every commit", lock=True, id="lint")
    command = load(project / ".claude" / "settings.json")["hooks"][HOOK_EVENT][0]["hooks"][0][
        "command"
    ]
    # What Claude Code does: run the command through a shell, payload on stdin.
    hook = subprocess.run(
        shlex.split(command),
        input=json.dumps({"prompt": "commit checklist", "cwd": str(project)}),
        capture_output=True,
        text=True,
        cwd=project,
        env={**os.environ, "HOME": str(home), "CREDO_HOOK_LOG": str(home / "hook.log")},
        timeout=60,
    )
    assert "[lint locked] Run the linter before every commit" in hook.stdout

    removed = credo(["setup", "claude", "--remove", "--json"], project, home)
    assert json.loads(removed.stdout)["removed"] is True
    assert not (project / ".mcp.json").exists()
    assert "not set up" in credo(["setup", "claude", "--remove"], project, home).stdout


def test_cli_reports_a_broken_settings_file_in_one_line(project: Path, home: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{oops")
    done = credo(["setup", "claude", "--skip-check"], project, home)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
    assert "not valid JSON" in done.stderr
