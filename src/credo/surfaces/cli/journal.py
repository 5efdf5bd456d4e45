"""The journal's commands, loaded lazily by ``credo.surfaces.cli.commands``
(``LAZY_COMMANDS``): ``credo log``, and the ``--undo-session`` half of ``credo feedback``.
"""

from __future__ import annotations

import click

from credo.surfaces.cli.commands import emit, json_option, open_memory


@click.command(name="log")
@click.option("--session", metavar="ID", help="Only this session's injections.")
@click.option(
    "--limit",
    type=int,
    default=50,
    show_default=True,
    help="Most injections shown (newest first).",
)
@json_option
@click.pass_context
def log(ctx: click.Context, session: str | None, limit: int, as_json: bool) -> None:
    """Show what the hooks injected, newest first: time, session, event, tokens,
    characters, belief ids and why (the prompt itself is never kept, only its sha256)."""
    from credo.agent.journal import injections
    from credo.surfaces.render import injections_text

    rows = injections(open_memory(ctx), session=session, limit=limit)
    emit(as_json, rows, lambda: injections_text(rows, session=session))


def undo(ctx: click.Context, session: str, as_json: bool) -> None:
    """``credo feedback --undo-session ID``: take back a session's automatic feedback.

    A session with nothing to undo (unknown, or undone already) is not an error: it says
    so and exits 0, as undoing twice is a no-op."""
    from credo.agent.feedback import undo_session

    memory = open_memory(ctx)
    undone = undo_session(memory, session)
    if undone:
        text = f"undid {undone} automatic feedback events of session {session}"
    elif memory.store.feedback_events(session):
        text = f"nothing to undo: session {session}'s automatic feedback is undone already"
    else:
        text = f"nothing to undo: no automatic feedback recorded for session {session}"
    emit(as_json, {"session": session, "undone": undone}, text)
