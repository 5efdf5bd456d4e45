"""The agent-facing commands, loaded lazily by ``credo.surfaces.cli.commands`` (``LAZY_COMMANDS``):
``credo mcp``, ``credo serve``, ``credo hook prompt`` and ``credo setup claude|codex|cursor``.

Each imports its real module only when it runs: ``credo hook prompt`` must not pay for the
MCP SDK, and ``credo mcp`` must not pay for setup.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from credo.surfaces.cli.commands import selected_db as _db

if TYPE_CHECKING:
    from credo.surfaces.install import SetupReport


@click.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the store to an agent over MCP on stdio (stdout is the protocol)."""
    try:
        from credo.surfaces import mcp_server
    except ImportError as exc:  # a core dependency, so only a broken environment gets here
        python = shlex.quote(sys.executable)
        raise click.ClickException(
            f"the MCP SDK does not import ({exc}); fix: {python} -m pip install 'mcp>=2,<3'"
        ) from None
    mcp_server.serve(_db(ctx))


@click.command()
@click.pass_context
def serve(ctx: click.Context) -> None:
    """Keep the store open and answer the hooks over a local socket (Ctrl-C stops).

    The installed hook asks this process first and reads the store itself when nobody
    answers; the output is the same. `credo mcp` serves the same socket in the background.
    One server per store: a second one stands by and takes over when the first exits."""
    import socket

    from credo.config import resolve_db_path
    from credo.errors import NotFoundError

    location = resolve_db_path(_db(ctx))
    store = location if not isinstance(location, Path) else location.expanduser().absolute()
    if isinstance(store, Path) and not store.is_file():
        raise NotFoundError(f"no store at {store}; `credo init` creates it")
    if not hasattr(socket, "AF_UNIX"):
        raise click.ClickException("this system has no Unix sockets; the hook reads the store")
    from credo.surfaces import serve as server

    try:
        server.serve_forever(store, lambda line: click.echo(line, err=True))
    except OSError as exc:
        shown = store if isinstance(store, Path) else store.redacted
        raise click.ClickException(f"cannot serve {shown}: {exc}") from None


@click.group()
def hook() -> None:
    """Claude Code's hooks: each reads the event's JSON on stdin and always exits 0 (problems
    go to the hook log, ~/.cache/credo/hook.log, never to the agent)."""


def _run_hook(ctx: click.Context, event: str) -> None:
    from credo.surfaces import hook as hooks

    ctx.exit(hooks.main(_db(ctx), event=event))


@hook.command()
@click.pass_context
def prompt(ctx: click.Context) -> None:
    """UserPromptSubmit: capture what the user states or corrects, print the memory block."""
    _run_hook(ctx, "prompt")


@hook.command("session-start")
@click.pass_context
def session_start(ctx: click.Context) -> None:
    """SessionStart: the locks and the project's most useful beliefs."""
    _run_hook(ctx, "session-start")


@hook.command()
@click.pass_context
def stop(ctx: click.Context) -> None:
    """Stop: capture from the transcript, credit used beliefs, list what was captured."""
    _run_hook(ctx, "stop")


@hook.command()
@click.pass_context
def subagent(ctx: click.Context) -> None:
    """PreToolUse on Task/Agent: the memory block in front of the subagent's prompt."""
    _run_hook(ctx, "subagent")


@click.group()
def setup() -> None:
    """Wire credo into an agent (Claude Code, Codex CLI, Cursor)."""


def _show(report: SetupReport, client: str, as_json: bool) -> None:
    from credo.surfaces.render import json_text

    if as_json:
        click.echo(json_text(report))
        return
    if report.checked:
        click.echo(f"checked: MCP server {report.checked}")
    for note in report.notes:
        click.echo(note)
    if not report.changes:
        click.echo(
            f"nothing to {'remove' if report.removed else 'change'}: {client} ({report.scope}) "
            f"is {'not set up' if report.removed else 'already set up'} for credo"
        )
        return
    for line in report.changes:
        click.echo(line)
    for path in report.backups:
        click.echo(f"backup: {path}")


@setup.command()
@click.option(
    "--project",
    "scope",
    flag_value="project",
    default=True,
    help="This git work tree: .claude/settings.json and .mcp.json (default).",
)
@click.option(
    "--user",
    "scope",
    flag_value="user",
    help="Every project: ~/.claude/settings.json and ~/.claude.json.",
)
@click.option("--remove", is_flag=True, help="Take out exactly what setup added.")
@click.option(
    "--skip-check", is_flag=True, help="Do not start the MCP server first (offline or CI)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def claude(scope: str, remove: bool, skip_check: bool, as_json: bool) -> None:
    """Install the hooks (UserPromptSubmit, SessionStart, Stop, PreToolUse on Task|Agent) and
    the MCP server into Claude Code. The server must answer tools/list first; idempotent,
    with a timestamped backup of every file it changes."""
    from credo.surfaces.claude_setup import setup_claude

    report = setup_claude(
        "user" if scope == "user" else "project", remove=remove, check=not skip_check
    )
    _show(report, "Claude Code", as_json)
    if not as_json and report.changes and not remove and report.scope == "project":
        from credo.config import resolve_db_path

        store = resolve_db_path(None)
        # The hook reads a store, it never creates one (a PostgreSQL one is the server's).
        if isinstance(store, Path) and not store.exists():
            click.echo(
                f"no store yet at {store}: `credo init` creates it, "
                "`credo ingest docs/` or `credo remember ...` fills it"
            )


@setup.command()
@click.option("--remove", is_flag=True, help="Take out exactly what setup added.")
@click.option(
    "--skip-check", is_flag=True, help="Do not start the MCP server first (offline or CI)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def codex(remove: bool, skip_check: bool, as_json: bool) -> None:
    """Register the MCP server with Codex CLI: [mcp_servers.credo] in $CODEX_HOME/config.toml
    (default ~/.codex/config.toml), keeping the file's comments and other tables."""
    from credo.surfaces.client_setup import setup_codex

    _show(setup_codex(remove=remove, check=not skip_check), "Codex", as_json)


@setup.command()
@click.option(
    "--project",
    "scope",
    flag_value="project",
    default=True,
    help="This git work tree: .cursor/mcp.json (default).",
)
@click.option("--user", "scope", flag_value="user", help="Every project: ~/.cursor/mcp.json.")
@click.option("--remove", is_flag=True, help="Take out exactly what setup added.")
@click.option(
    "--skip-check", is_flag=True, help="Do not start the MCP server first (offline or CI)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def cursor(scope: str, remove: bool, skip_check: bool, as_json: bool) -> None:
    """Register the MCP server with Cursor (mcpServers.credo in .cursor/mcp.json)."""
    from credo.surfaces.client_setup import setup_cursor

    report = setup_cursor(
        "user" if scope == "user" else "project", remove=remove, check=not skip_check
    )
    _show(report, "Cursor", as_json)
