"""The agent-facing commands, loaded lazily by ``credo.surfaces.cli.commands`` (``LAZY_COMMANDS``):
``credo mcp``, ``credo hook prompt`` and ``credo setup claude``.

Each imports its real module only when it runs: ``credo hook prompt`` must not pay for the
MCP SDK, and ``credo mcp`` must not pay for setup.
"""

from __future__ import annotations

import click

from credo.surfaces.cli.commands import selected_db as _db


@click.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve the store to an agent over MCP on stdio (stdout is the protocol)."""
    try:
        from credo.surfaces import mcp_server
    except ImportError as exc:
        raise click.ClickException(
            f"the MCP SDK is not installed ({exc}); run: pip install 'credo[mcp]'"
        ) from None
    mcp_server.serve(_db(ctx))


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
    """Wire credo into an agent."""


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def claude(scope: str, remove: bool, as_json: bool) -> None:
    """Install the UserPromptSubmit hook and the MCP server into Claude Code (idempotent,
    with a timestamped backup of every file it changes)."""
    from credo.surfaces.claude_setup import setup_claude
    from credo.surfaces.render import json_text

    report = setup_claude("user" if scope == "user" else "project", remove=remove)
    if as_json:
        click.echo(json_text(report))
        return
    if not report.changes:
        click.echo(
            f"nothing to {'remove' if remove else 'change'}: Claude Code ({report.scope}) is "
            f"{'not set up' if remove else 'already set up'} for credo"
        )
        return
    for line in report.changes:
        click.echo(line)
    for path in report.backups:
        click.echo(f"backup: {path}")
    if not remove and report.scope == "project":
        from credo.config import resolve_db_path

        store = resolve_db_path(None)
        if not store.exists():  # the hook reads a store, it never creates one
            click.echo(
                f"no store yet at {store}: `credo init` creates it, "
                "`credo ingest docs/` or `credo remember ...` fills it"
            )
