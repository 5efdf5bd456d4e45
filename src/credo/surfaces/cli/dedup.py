"""``credo dedup``: the near-duplicate audit on the command line.

Loaded lazily by ``credo.surfaces.cli.commands`` (LAZY_COMMANDS), so ``credo search`` and the
hook never pay for it. Like every command it only picks the store and the output format;
``credo.knowledge.dedup`` does the work.
"""

from __future__ import annotations

from typing import Any

import click

from credo.errors import InvalidInputError
from credo.knowledge import dedup as audit

_TEXT_CLUSTERS = 20  # clusters listed in text output; --json always lists all


@click.command()
@click.option(
    "--threshold",
    type=float,
    default=audit.DEFAULT_THRESHOLD,
    show_default=True,
    help="Jaccard similarity of word shingles at or above which two beliefs are duplicates.",
)
@click.option(
    "--shingle-size",
    type=int,
    default=audit.SHINGLE_SIZE,
    show_default=True,
    help="Words per shingle.",
)
@click.option("--apply", "do_apply", is_flag=True, help="Write SUPERSEDES newest -> others.")
@click.option("--undo", "do_undo", is_flag=True, help="Remove the SUPERSEDES edges dedup wrote.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def dedup(
    ctx: click.Context,
    threshold: float,
    shingle_size: int,
    do_apply: bool,
    do_undo: bool,
    as_json: bool,
) -> None:
    """Find near-duplicate beliefs and report them as clusters (--apply to mark them)."""
    from credo.surfaces.cli.commands import open_memory
    from credo.surfaces.render import json_text

    if do_apply and do_undo:
        raise InvalidInputError("--apply and --undo exclude each other; pass one of them")
    memory = open_memory(ctx)
    if do_undo:
        removed = audit.undo(memory)
        data: Any = {"removed": [{"src": s, "dst": d} for s, d in removed]}
        text = f"removed {len(removed)} SUPERSEDES edges written by dedup"
    else:
        report = audit.scan(memory, threshold=threshold, shingle_size=shingle_size)
        data = {"report": report}
        text = _report_text(report)
        if do_apply:
            applied = audit.apply(memory, report)
            data["applied"] = applied
            text += (
                f"\nwrote {len(applied.written)} SUPERSEDES edges "
                f"({len(applied.skipped_existing)} already there, "
                f"{len(applied.skipped_locked)} locked members left alone"
                + (
                    f", {len(applied.skipped_cycle)} that would close a cycle"
                    if applied.skipped_cycle
                    else ""
                )
                + "); "
                "undo with `credo dedup --undo`"
            )
    click.echo(json_text(data) if as_json else text)


def _report_text(report: audit.DedupReport) -> str:
    lines = [
        f"{report.beliefs} beliefs, {report.pairs_checked} candidate pairs checked, "
        f"{len(report.pairs)} near-duplicate pairs in {len(report.clusters)} clusters "
        f"(Jaccard >= {report.threshold:g} on {report.shingle_size}-word shingles)"
    ]
    for cluster in report.clusters[:_TEXT_CLUSTERS]:
        others = ", ".join(cluster.member_ids[1:])
        lines.append(
            f"  keep {cluster.keep_id}  supersedes {others}  (max J {cluster.max_similarity:.2f})"
        )
    if len(report.clusters) > _TEXT_CLUSTERS:
        lines.append(f"  ... {len(report.clusters) - _TEXT_CLUSTERS} more (use --json)")
    return "\n".join(lines)
