"""``credo setup claude``: wire credo into Claude Code, and unwire it exactly.

Two kinds of entries are written, in Claude Code's own formats:

- four hooks, in ``settings.json``, each ``<python> -S <site>/credo/hookstart.py hook <event>``::

      {"hooks": {"UserPromptSubmit": [{"hooks": [
          {"type": "command", "command": "/py -S /site/credo/hookstart.py hook prompt",
           "timeout": 10}]}],
                 "SessionStart": [...hook session-start...],   (no matcher: every source)
                 "Stop": [...hook stop...],
                 "PreToolUse": [{"matcher": "Task|Agent", "hooks": [...hook subagent...]}]}}

  (``.claude/settings.json`` in the git work tree for ``--project``; ``~/.claude/settings.json``
  for ``--user``);
- the MCP server ``credo`` under ``mcpServers``, in ``.mcp.json`` at the project root
  (``--project``) or in ``~/.claude.json`` (``--user``; where ``claude mcp add -s user``
  writes). ``CLAUDE_CONFIG_DIR`` moves both user files, as it does for Claude Code.

Before anything is written the server is started and must answer ``tools/list``
(``install.check_server``), and credo's package is byte-compiled (``install.compile_package``).
Install is idempotent (a second run changes nothing; an older install is brought up to date
in place); a file is backed up with a timestamp before it is first changed, written
atomically, and never rewritten when it cannot be parsed. ``--remove`` takes out only
credo's hooks and server, and drops the containers (``hooks``, an event's list, a matcher
group, ``mcpServers``, a file) only when credo's removal left them empty, so other hooks and
servers stay as they were.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from credo.errors import InvalidInputError
from credo.surfaces.install import (
    JSON,
    Edit,
    SetupReport,
    add_json_server,
    apply,
    prepare,
    project_root,
    remove_json_server,
    server_command,
    server_env,
)

Scope = Literal["project", "user"]


@dataclass(frozen=True)
class Hook:
    """One hook credo installs: Claude Code's event, its matcher, credo's ``hook`` command."""

    event: str
    name: str  # the word after ``hook``: what hookstart.py runs
    matcher: str | None = None  # None: every occurrence (SessionStart: startup, resume, compact)
    timeout: int = 10  # Claude Code kills a slower hook; credo's take well under a second


HOOKS = (
    Hook("UserPromptSubmit", "prompt"),
    Hook("SessionStart", "session-start"),
    Hook("Stop", "stop", timeout=30),  # reads the transcript, which can be long
    Hook("PreToolUse", "subagent", matcher="Task|Agent"),  # the tools that start subagents
)
HOOK_EVENT = HOOKS[0].event
HOOK_NAMES = frozenset(h.name for h in HOOKS)


@dataclass(frozen=True)
class Targets:
    """The two files one scope writes."""

    settings: Path
    mcp: Path


def hook_argv() -> list[str]:
    """The fast hook command: this interpreter without ``site`` running ``hookstart.py``
    (see there; ``site`` alone costs a third of the hook's time budget)."""
    start = Path(__file__).resolve().parents[1] / "hookstart.py"  # credo/, above surfaces/
    return [str(Path(sys.executable).absolute()), "-S", str(start)]


def hook_command(argv: list[str] | None = None, name: str = "prompt") -> str:
    return shlex.join([*(argv or hook_argv()), "hook", name])


def server_entry(argv: list[str] | None = None) -> dict[str, Any]:
    command, args = server_command(argv)
    return {"type": "stdio", "command": command, "args": args, "env": server_env(argv)}


def claude_config_dir() -> Path:
    explicit = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    return Path(explicit).expanduser() if explicit else Path.home() / ".claude"


def targets(scope: Scope, cwd: Path | None = None) -> Targets:
    if scope == "project":
        root = project_root(cwd)
        return Targets(root / ".claude" / "settings.json", root / ".mcp.json")
    config = claude_config_dir()
    user_json = (
        config / ".claude.json"
        if os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
        else Path.home() / ".claude.json"
    )
    return Targets(config / "settings.json", user_json)


# -- recognising credo's own entries ---------------------------------------------------------
def is_credo_hook(entry: object) -> bool:
    """A hook entry credo wrote: a command ending in ``credo ... hook <event>`` for one of
    credo's events (any install path, so a reinstall from another environment replaces the
    old one)."""
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return (
        len(words) > 2
        and words[-2] == "hook"
        and words[-1] in HOOK_NAMES
        and any("credo" in Path(w).name or Path(w).parent.name == "credo" for w in words[:-2])
    )


# -- the edits ----------------------------------------------------------------------------------
def _groups(hooks: dict[str, Any], event: str) -> list[Any]:
    groups = hooks.get(event, [])
    if not isinstance(groups, list):
        raise InvalidInputError(f"'hooks.{event}' in Claude Code settings is not a list")
    return groups


def _take_out(hooks: dict[str, Any], event: str) -> list[str]:
    """Remove credo's entries from one event's groups; drop what that leaves empty."""
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return []
    changes: list[str] = []
    kept_groups = []
    for group in groups:
        entries = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(entries, list) or not any(is_credo_hook(e) for e in entries):
            kept_groups.append(group)
            continue
        kept = [e for e in entries if not is_credo_hook(e)]
        changes += [f"removed {event} hook `{e['command']}`" for e in entries if e not in kept]
        if kept:
            kept_groups.append({**group, "hooks": kept})
    if changes:
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    return changes


def add_hooks(argv: list[str] | None = None) -> Edit:
    """Each of ``HOOKS`` exactly once, in its own group; credo entries that differ (another
    environment's path, an older form, a stale timeout or matcher) are replaced."""

    def edit(data: dict[str, Any]) -> list[str]:
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise InvalidInputError("'hooks' in Claude Code settings is not an object")
        changes: list[str] = []
        for hook in HOOKS:
            entry: dict[str, Any] = {
                "type": "command",
                "command": hook_command(argv, hook.name),
                "timeout": hook.timeout,
            }
            ours = [
                (group.get("matcher"), e)
                for group in _groups(hooks, hook.event)
                if isinstance(group, dict)
                for e in group.get("hooks") or []
                if is_credo_hook(e)
            ]
            if ours == [(hook.matcher, entry)]:
                continue
            changes += _take_out(hooks, hook.event)
            matcher = {} if hook.matcher is None else {"matcher": hook.matcher}
            hooks.setdefault(hook.event, []).append({**matcher, "hooks": [entry]})
            changes.append(f"added {hook.event} hook `{entry['command']}`")
        return changes

    return edit


def remove_hooks() -> Edit:
    """credo's entries under every event (not only its four: an entry a user moved counts)."""

    def edit(data: dict[str, Any]) -> list[str]:
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return []
        changes = [c for event in list(hooks) for c in _take_out(hooks, event)]
        if changes and not hooks:
            del data["hooks"]
        return changes

    return edit


def setup_claude(
    scope: Scope = "project",
    *,
    remove: bool = False,
    cwd: Path | None = None,
    argv: list[str] | None = None,
    check: bool = True,
) -> SetupReport:
    """Install (or with ``remove`` uninstall) credo's hooks and MCP server for one scope.

    Install first checks that the server answers ``tools/list`` (unless ``check`` is false;
    ``SetupError`` otherwise, with nothing written) and byte-compiles credo's package."""
    where = targets(scope, cwd)
    report = SetupReport(client="claude", scope=scope, removed=remove)
    if remove:
        apply(
            [(where.settings, remove_hooks(), JSON), (where.mcp, remove_json_server(), JSON)],
            report,
        )
        return report
    entry = server_entry(argv)
    workdir = project_root(cwd) if scope == "project" else (cwd or Path.cwd())
    prepare(report, [entry["command"], *entry["args"]], cwd=workdir, check=check, env=entry["env"])
    apply(
        [(where.settings, add_hooks(argv), JSON), (where.mcp, add_json_server(entry), JSON)], report
    )
    return report
