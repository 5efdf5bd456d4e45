"""``credo history``, ``credo conflicts`` and ``credo resolve``: how beliefs changed, where
they disagree, and settling a disagreement (SYSTEM.md § Beliefs change).

Loaded lazily by ``credo.surfaces.cli.commands`` (LAZY_COMMANDS). Like every command they
only pick the store and the output format; ``Memory`` does the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from credo.surfaces.cli.commands import emit, json_option, open_memory

if TYPE_CHECKING:
    from credo.memory import Memory
    from credo.retrieval.lineage import Conflict, History
    from credo.types import Belief


@click.command()
@click.argument("belief_id")
@json_option
@click.pass_context
def history(ctx: click.Context, belief_id: str, as_json: bool) -> None:
    """Show BELIEF_ID's lineage: the beliefs it replaced and that replaced it, oldest first,
    with dates, origins and which are current."""
    found = open_memory(ctx).history(belief_id)
    emit(as_json, found, lambda: _history_text(found))


@click.command()
@json_option
@click.pass_context
def conflicts(ctx: click.Context, as_json: bool) -> None:
    """List the open contradictions: live beliefs joined by CONTRADICTS, neither superseded
    nor resolved (settle one with `credo resolve WINNER LOSER`)."""
    found = open_memory(ctx).conflicts()
    emit(as_json, {"conflicts": found}, lambda: _conflicts_text(found))


@click.command()
@click.argument("winner")
@click.argument("loser")
@click.option("--force", is_flag=True, help="Let WINNER retire a locked LOSER (the user's call).")
@json_option
@click.pass_context
def resolve(ctx: click.Context, winner: str, loser: str, force: bool, as_json: bool) -> None:
    """Settle a contradiction: WINNER SUPERSEDES and RESOLVES LOSER, in one transaction."""
    written = open_memory(ctx).resolve(winner, loser, force=force)
    emit(
        as_json,
        {"edges": written},
        "\n".join(f"{e.src} -{e.type.value}-> {e.dst}" for e in written),
    )


def lineage_standing(memory: Memory, belief_id: str) -> dict[str, Any]:
    """For ``credo show``: whether a live belief replaced ``belief_id`` (``status``: current,
    superseded or forgotten), which ones did, and which retrieval serves now (its lineage,
    as ``credo history`` prints it)."""
    found = memory.history(belief_id)
    step = next(s for s in found.steps if s.belief.id == belief_id)
    # (a forgotten belief's edges replace nothing: it is no longer what superseded this one)
    live = {s.belief.id for s in found.steps if s.status != "forgotten"}
    return {
        "status": step.status,
        "superseded_by": [i for i in step.superseded_by if i in live],
        "current": list(found.current),
    }


def _history_text(found: History) -> str:
    from credo.surfaces.render import when

    lines = [
        f"lineage of {found.id}: {len(found.steps)} beliefs, current: "
        + (", ".join(found.current) or "none")
    ]
    for step in found.steps:
        belief = step.belief
        lines.append(
            f"  {when(belief.created_at)}  {belief.id}  [{step.status}]  {belief.origin}"
            + ("  locked" if belief.locked else "")
        )
        lines.append(f"      {belief.content}")
        if step.supersedes:
            lines.append(f"      supersedes {', '.join(step.supersedes)}")
    return "\n".join(lines)


def _conflicts_text(found: list[Conflict]) -> str:
    if not found:
        return "no open contradictions"
    count = f"{len(found)} open contradiction{'s' * (len(found) > 1)}"
    lines = [f"{count} (the first of each pair outranks if locked)"]
    for conflict in found:
        lines += [_side(conflict.first), _side(conflict.second, "  vs "), ""]
    lines.append("settle one: credo resolve WINNER LOSER (ids as above)")
    return "\n".join(lines)


def _side(belief: Belief, lead: str = "  ") -> str:
    tag = " locked" if belief.locked else ""
    return f"{lead}[{belief.id}{tag}] {belief.content}"
