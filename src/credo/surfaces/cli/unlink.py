"""``credo unlink``: drop a belief's anchor to a document, the way back from ``credo link``
(and from ``remember --doc``) when the file is gone or was the wrong one; ``credo doctor``
names it for every anchor whose file is missing.

Loaded lazily by ``credo.surfaces.cli.commands`` (LAZY_COMMANDS). Like every command it
only picks the store and the output format; ``Memory.unlink`` does the work.
"""

from __future__ import annotations

import click

from credo.surfaces.cli.commands import emit, json_option, open_memory


@click.command()
@click.argument("belief_id")
@click.argument("uri")
@click.option("--lines", help="Line range in the document, like 12-30.")
@json_option
@click.pass_context
def unlink(ctx: click.Context, belief_id: str, uri: str, lines: str | None, as_json: bool) -> None:
    """Drop a belief's anchors to a document (undoes link; the belief stays).

    URI with a line range (path#L12-L30, or --lines) drops that one anchor; without one,
    every anchor of the belief to that document. `credo doctor` names it for a file gone."""
    from credo.surfaces.cli.paths import from_here

    dropped = open_memory(ctx).unlink(belief_id, from_here(uri), lines=lines)
    emit(
        as_json,
        {"unlinked": dropped},
        lambda: "\n".join(f"{a.belief_id} -x- {a.doc_uri}" for a in dropped),
    )
