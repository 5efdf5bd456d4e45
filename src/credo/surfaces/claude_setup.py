"""``credo setup claude``: wire credo into Claude Code, and unwire it exactly.

Two entries are written, in Claude Code's own formats:

- the ``UserPromptSubmit`` hook, in ``settings.json``::

      {"hooks": {"UserPromptSubmit": [{"hooks": [
          {"type": "command", "command": "/py -S /site/credo/hookstart.py hook prompt"}]}]}}

  (``.claude/settings.json`` in the git work tree for ``--project``; ``~/.claude/settings.json``
  for ``--user``);
- the MCP server ``credo`` under ``mcpServers``, in ``.mcp.json`` at the project root
  (``--project``) or in ``~/.claude.json`` (``--user``; where ``claude mcp add -s user``
  writes). ``CLAUDE_CONFIG_DIR`` moves both user files, as it does for Claude Code.

Install is idempotent (a second run changes nothing); a file is backed up with a timestamp
before it is first changed, written atomically, and never rewritten when it cannot be parsed.
``--remove`` takes out only credo's hook and server, and drops the containers (``hooks``,
``UserPromptSubmit``, a matcher group, ``mcpServers``, a file) only when credo's removal left
them empty, so other hooks and servers stay as they were.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from credo.config import git_root
from credo.errors import InvalidInputError, StoreError

Scope = Literal["project", "user"]
HOOK_EVENT = "UserPromptSubmit"
SERVER_NAME = "credo"
HOOK_TIMEOUT_S = 10  # Claude Code kills a slower hook; credo's takes well under a second


@dataclass(frozen=True)
class Targets:
    """The two files one scope writes."""

    settings: Path
    mcp: Path


@dataclass
class SetupReport:
    """What install / remove did, file by file (``changes`` is human-readable)."""

    scope: Scope
    removed: bool
    changes: list[str] = field(default_factory=list)
    backups: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)


def credo_argv() -> list[str]:
    """How Claude Code should start credo: the console script beside this interpreter (an
    absolute path, so no PATH lookup or version-manager shim per prompt), else
    ``python -m credo``."""
    bindir = Path(sys.executable).parent
    for name in ("credo", "credo.exe"):
        script = bindir / name
        if script.is_file():
            return [str(script.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "credo"]


def hook_argv() -> list[str]:
    """The fast hook command: this interpreter without ``site`` running ``hookstart.py``
    (see there; ``site`` alone costs a third of the hook's time budget)."""
    start = Path(__file__).resolve().parents[1] / "hookstart.py"  # credo/, above surfaces/
    return [str(Path(sys.executable).absolute()), "-S", str(start)]


def hook_command(argv: list[str] | None = None) -> str:
    return shlex.join([*(argv or hook_argv()), "hook", "prompt"])


def server_entry(argv: list[str] | None = None) -> dict[str, Any]:
    parts = argv or credo_argv()
    return {"type": "stdio", "command": parts[0], "args": [*parts[1:], "mcp"], "env": {}}


def claude_config_dir() -> Path:
    explicit = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    return Path(explicit).expanduser() if explicit else Path.home() / ".claude"


def targets(scope: Scope, cwd: Path | None = None) -> Targets:
    if scope == "project":
        here = (cwd or Path.cwd()).resolve()
        root = git_root(here) or here
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
    """A hook entry credo wrote: a command ending in ``credo ... hook prompt`` (any install
    path, so a reinstall from another environment replaces the old one)."""
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return words[-2:] == ["hook", "prompt"] and any(
        "credo" in Path(w).name or Path(w).parent.name == "credo" for w in words[:-2]
    )


def is_credo_server(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    words = [entry.get("command"), *(entry.get("args") or [])]
    return (
        all(isinstance(w, str) for w in words)
        and words[-1:] == ["mcp"]
        and any("credo" in Path(str(w)).name for w in words[:-1])
    )


# -- JSON files ---------------------------------------------------------------------------------
def read_json(path: Path) -> dict[str, Any] | None:
    """The object in ``path`` (``None`` if the file does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(
            f"{path} is not valid JSON ({exc}); fix it or move it away, then rerun"
        ) from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} holds a JSON {type(data).__name__}, not an object")
    return data


def backup(path: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.credo-backup-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.credo-backup-{stamp}-{counter}")
    target.write_bytes(path.read_bytes())
    return target


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write beside the target and rename, so Claude Code never reads half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(tmp, mode)  # mkstemp makes 0600; keep the file's mode, or the usual one
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


Edit = Callable[[dict[str, Any]], list[str]]


def apply(path: Path, edit: Edit, report: SetupReport) -> None:
    """Run ``edit`` on the file's data; write (after a backup) only if something changed.
    On ``--remove``, a file that held nothing but credo's entries is deleted."""
    before = read_json(path)
    data = json.loads(json.dumps(before)) if before is not None else {}
    changes = edit(data)
    if not changes:
        return
    report.changes += [f"{path}: {c}" for c in changes]
    report.files.append(path)
    if report.removed and not data:
        # credo's entries were all the file held: nothing of the user's to back up.
        path.unlink()
        report.changes.append(f"{path}: removed (nothing else was in it)")
        return
    if before is not None and path.stat().st_size:
        report.backups.append(backup(path))
    write_json(path, data)


# -- the edits ----------------------------------------------------------------------------------
def add_hook(command: str) -> Edit:
    def edit(data: dict[str, Any]) -> list[str]:
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise InvalidInputError("'hooks' in Claude Code settings is not an object")
        groups = hooks.setdefault(HOOK_EVENT, [])
        if not isinstance(groups, list):
            raise InvalidInputError(f"'hooks.{HOOK_EVENT}' in Claude Code settings is not a list")
        ours = [
            entry
            for group in groups
            if isinstance(group, dict)
            for entry in group.get("hooks") or []
            if is_credo_hook(entry)
        ]
        if [e.get("command") for e in ours] == [command]:
            return []
        changes = remove_hook()(data) if ours else []
        hooks = data.setdefault("hooks", {})
        hooks.setdefault(HOOK_EVENT, []).append(
            {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}
        )
        return [*changes, f"added {HOOK_EVENT} hook `{command}`"]

    return edit


def remove_hook() -> Edit:
    def edit(data: dict[str, Any]) -> list[str]:
        hooks = data.get("hooks")
        groups = hooks.get(HOOK_EVENT) if isinstance(hooks, dict) else None
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
            changes += [
                f"removed {HOOK_EVENT} hook `{e['command']}`" for e in entries if e not in kept
            ]
            if kept:
                kept_groups.append({**group, "hooks": kept})
        if not changes:
            return []
        assert isinstance(hooks, dict)
        if kept_groups:
            hooks[HOOK_EVENT] = kept_groups
        else:
            del hooks[HOOK_EVENT]
            if not hooks:
                del data["hooks"]
        return changes

    return edit


def add_server(entry: dict[str, Any]) -> Edit:
    def edit(data: dict[str, Any]) -> list[str]:
        servers = data.setdefault("mcpServers", {})
        if not isinstance(servers, dict):
            raise InvalidInputError("'mcpServers' is not an object")
        if servers.get(SERVER_NAME) == entry:
            return []
        verb = "replaced" if SERVER_NAME in servers else "added"
        servers[SERVER_NAME] = entry
        return [
            f"{verb} MCP server {SERVER_NAME!r} `{shlex.join([entry['command'], *entry['args']])}`"
        ]

    return edit


def remove_server() -> Edit:
    def edit(data: dict[str, Any]) -> list[str]:
        servers = data.get("mcpServers")
        if not isinstance(servers, dict) or not is_credo_server(servers.get(SERVER_NAME)):
            return []  # absent, or a server the user named 'credo' themselves: not ours
        del servers[SERVER_NAME]
        if not servers:
            del data["mcpServers"]
        return [f"removed MCP server {SERVER_NAME!r}"]

    return edit


def setup_claude(
    scope: Scope = "project",
    *,
    remove: bool = False,
    cwd: Path | None = None,
    argv: list[str] | None = None,
) -> SetupReport:
    """Install (or with ``remove`` uninstall) credo's hook and MCP server for one scope."""
    where = targets(scope, cwd)
    report = SetupReport(scope=scope, removed=remove)
    if remove:
        apply(where.settings, remove_hook(), report)
        apply(where.mcp, remove_server(), report)
    else:
        apply(where.settings, add_hook(hook_command(argv)), report)
        apply(where.mcp, add_server(server_entry(argv)), report)
    return report
