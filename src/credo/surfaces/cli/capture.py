"""``credo captured`` and ``credo lock --captured``: what capture took from the user's words
(credo.agent.capture), and locking it all at once.

Loaded lazily by ``credo.surfaces.cli.commands`` (``LAZY_COMMANDS``, and ``lock`` when
``--captured`` is given). Like every command they only pick the store and the output
format; the agent layer does the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from credo.surfaces.cli.commands import emit, json_option, open_memory

if TYPE_CHECKING:
    from credo.agent.capture import Captured


@click.command()
@click.option("--session", help="Only the beliefs first captured in this session.")
@json_option
@click.pass_context
def captured(ctx: click.Context, session: str | None, as_json: bool) -> None:
    """List the beliefs captured from what the user stated or corrected (oldest first),
    with their session, kind, lock and where they were said."""
    from credo.agent.capture import captures

    found = captures(open_memory(ctx), session=session)
    emit(
        as_json,
        {"captures": [_json(c) for c in found]},
        lambda: _text(found, session),
    )


def lock_captured(ctx: click.Context, session: str | None, as_json: bool) -> None:
    """``credo lock --captured [--session ID]``: lock every captured belief not locked yet,
    printing each id and text."""
    from credo.agent import capture

    memory = open_memory(ctx)
    ids = capture.lock_captured(memory, session=session)
    beliefs = memory.store.get_beliefs(ids)
    locked = [{"id": i, "content": beliefs[i].content} for i in ids]
    scope = f" in session {session}" if session is not None else ""

    def text() -> str:
        if not locked:
            return f"nothing to lock: no captured belief{scope} is unlocked"
        return "\n".join(f"locked {b['id']}  {b['content']}" for b in locked)

    emit(as_json, {"locked": locked}, text)


def _json(found: Captured) -> dict[str, Any]:
    from credo.surfaces.render import to_jsonable

    data: dict[str, Any] = to_jsonable(found)
    data["anchor"] = found.anchor
    return data


def _text(found: list[Captured], session: str | None) -> str:
    if not found:
        return "no captured beliefs" + (f" in session {session}" if session is not None else "")
    lines: list[str] = []
    for c in found:
        tags = "  locked" if c.locked else ""
        lines.append(f"{c.belief_id}  {c.kind}{tags}  session {c.session or '-'}")
        lines.append(f"    {c.text}")
        if c.anchor is not None:
            lines.append(f"    said at {c.anchor}")
        if c.supersedes:
            lines.append(f"    replaces {', '.join(c.supersedes)}")
        if c.contradicts:
            lines.append(f"    contradicts {', '.join(c.contradicts)}")
    unlocked = [c for c in found if not c.locked]
    if unlocked:
        more = f" --session {session}" if session is not None else ""
        lines.append(f"lock them all: credo lock --captured{more}")
    return "\n".join(lines)
