"""``credo setup codex`` and ``credo setup cursor``: the MCP server entry where each client
reads it, and out again exactly.

- **Codex CLI** reads ``$CODEX_HOME/config.toml`` (default ``~/.codex/config.toml``)::

      [mcp_servers.credo]
      command = "/venv/bin/credo"
      args = ["mcp"]

  The file is edited with tomlkit, so the user's comments, order and other tables stay as
  they were: a new entry is appended at the end as its own table (TOML allows a sub-table
  anywhere; tomlkit would otherwise slip it in front of the comments of the next table), an
  older credo entry is updated in place, and ``--remove`` deletes the table (and
  ``mcp_servers`` only when credo's entry made it).
- **Cursor** reads ``.cursor/mcp.json`` at the git work tree's root (``--project``) or
  ``~/.cursor/mcp.json`` (``--user``): ``{"mcpServers": {"credo": {"command": ..., "args":
  [..., "mcp"]}}}``.

Both check the server before writing and byte-compile credo like ``credo setup claude``, and
share its file rules (``surfaces.install``): idempotent, a backup before the first change, an
atomic write, a file that does not parse refused in one line with nothing written.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from credo.errors import InvalidInputError
from credo.surfaces.install import (
    JSON,
    SERVER_NAME,
    Edit,
    FileFormat,
    SetupReport,
    add_json_server,
    apply,
    is_credo_server,
    prepare,
    project_root,
    remove_json_server,
    server_command,
    server_env,
    shown_command,
)

Scope = Literal["project", "user"]


def codex_config(env: dict[str, str] | None = None) -> Path:
    explicit = (env if env is not None else os.environ).get("CODEX_HOME", "").strip()
    return (Path(explicit).expanduser() if explicit else Path.home() / ".codex") / "config.toml"


def cursor_config(scope: Scope, cwd: Path | None = None) -> Path:
    if scope == "user":
        return Path.home() / ".cursor" / "mcp.json"
    return project_root(cwd) / ".cursor" / "mcp.json"


# -- Codex: TOML ---------------------------------------------------------------------------------
@dataclass
class TomlFile:
    """A parsed config.toml, plus a table to append as text (see the module's docstring)."""

    doc: Any  # tomlkit.TOMLDocument
    tail: str = ""


def _load_toml(path: Path, text: str) -> TomlFile:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        tomllib.loads(text)  # what Codex accepts is strict TOML; tomlkit alone is lenient
        return TomlFile(tomlkit.parse(text))
    except (tomllib.TOMLDecodeError, TOMLKitError, ValueError) as exc:
        raise InvalidInputError(
            f"{path} is not valid TOML ({exc}); fix it or move it away, then rerun"
        ) from None


def _dump_toml(data: TomlFile) -> str:
    import tomlkit

    text = tomlkit.dumps(data.doc).rstrip("\n")
    if data.tail:
        text = f"{text}\n\n{data.tail}" if text else data.tail
    # A removed table leaves its blank separator behind: one final newline, as written.
    return text.rstrip("\n") + "\n" if text.strip() else ""


TOML = FileFormat(load=_load_toml, dump=_dump_toml, blank=lambda data: not _dump_toml(data))


def _servers(doc: Any) -> Any:
    servers = doc.get("mcp_servers")
    if servers is not None and not hasattr(servers, "get"):
        raise InvalidInputError("'mcp_servers' in the Codex config is not a table")
    return servers


def add_codex_server(command: str, args: list[str], env: dict[str, str] | None = None) -> Edit:
    """Put credo's server in Codex's ``mcp_servers``; ``env`` (a source tree's PYTHONPATH)
    joins the table's ``env``, whose other variables stay."""

    def edit(data: TomlFile) -> list[str]:
        import tomlkit

        shown = f"`{shown_command({'command': command, 'args': args, 'env': env})}`"
        servers = _servers(data.doc)
        current = servers.get(SERVER_NAME) if servers is not None else None
        if current is None:
            table = tomlkit.table()
            table.add("command", command)
            table.add("args", args)
            if env:
                table.add("env", env)
            outer = tomlkit.table(is_super_table=True)
            outer.add(SERVER_NAME, table)
            snippet = tomlkit.document()
            snippet.add("mcp_servers", outer)
            data.tail = tomlkit.dumps(snippet)
            return [f"added MCP server {SERVER_NAME!r} {shown}"]
        if not hasattr(current, "get"):
            raise InvalidInputError(
                f"'mcp_servers.{SERVER_NAME}' in the Codex config is not a table"
            )
        held = current.get("env") or {}
        same_env = all(held.get(name) == value for name, value in (env or {}).items())
        same_command = current.get("command") == command
        if same_command and list(current.get("args") or []) == args and same_env:
            return []
        current["command"] = command  # in place: the user's env or timeouts there stay
        current["args"] = args
        if env and not same_env:
            current["env"] = {**held, **env}
        return [f"replaced MCP server {SERVER_NAME!r} {shown}"]

    return edit


def remove_codex_server() -> Edit:
    def edit(data: TomlFile) -> list[str]:
        servers = _servers(data.doc)
        if servers is None or not is_credo_server(servers.get(SERVER_NAME)):
            return []  # absent, or a server the user named 'credo' themselves: not ours
        del servers[SERVER_NAME]
        # `[mcp_servers.credo]` alone makes an implicit `mcp_servers`: it goes with it. A
        # `[mcp_servers]` the user wrote (with its comments) stays.
        implicit = getattr(servers, "is_super_table", None)
        if not servers and implicit is not None and implicit():
            del data.doc["mcp_servers"]
        return [f"removed MCP server {SERVER_NAME!r}"]

    return edit


# -- the commands --------------------------------------------------------------------------------
def setup_codex(
    *, remove: bool = False, argv: list[str] | None = None, check: bool = True
) -> SetupReport:
    """Install (or with ``remove`` uninstall) the ``credo`` MCP server in Codex CLI's config."""
    path = codex_config()
    report = SetupReport(client="codex", scope="user", removed=remove)
    if remove:
        apply([(path, remove_codex_server(), TOML)], report)
        return report
    command, args = server_command(argv)
    env = server_env(argv)
    prepare(report, [command, *args], cwd=Path.cwd(), check=check, env=env)
    apply([(path, add_codex_server(command, args, env), TOML)], report)
    return report


def setup_cursor(
    scope: Scope = "project",
    *,
    remove: bool = False,
    cwd: Path | None = None,
    argv: list[str] | None = None,
    check: bool = True,
) -> SetupReport:
    """Install (or with ``remove`` uninstall) the ``credo`` MCP server in Cursor's mcp.json."""
    path = cursor_config(scope, cwd)
    report = SetupReport(client="cursor", scope=scope, removed=remove)
    if remove:
        apply([(path, remove_json_server(), JSON)], report)
        return report
    command, args = server_command(argv)
    env = server_env(argv)
    workdir = path.parent.parent if scope == "project" else (cwd or Path.cwd())
    prepare(report, [command, *args], cwd=workdir, check=check, env=env)
    entry = {"command": command, "args": args, **({"env": env} if env else {})}
    apply([(path, add_json_server(entry, " in the Cursor config"), JSON)], report)
    return report
