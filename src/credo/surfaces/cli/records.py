"""``credo import`` and ``credo export``, loaded lazily by ``credo.surfaces.cli.commands``
(``LAZY_COMMANDS``). Both take ``-`` for the standard stream, so ``credo export - | credo
--db copy.db import -`` copies a store; an export to stdout prints its report on stderr,
where it cannot mix with the records."""

from __future__ import annotations

import io
import os
import sys
from typing import Any

import click

from credo.surfaces.cli.commands import emit, json_option, open_memory


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@json_option
@click.pass_context
def import_(ctx: click.Context, file: str, as_json: bool) -> None:
    """Import JSONL records (beliefs, edges, anchors...) in one transaction; '-' reads stdin."""
    memory = open_memory(ctx, create=True)
    source: Any = file
    if file == "-":
        source = (line.decode("utf-8", errors="strict") for line in sys.stdin.buffer)
    try:
        report = memory.import_records(source)
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"stdin is not valid UTF-8: {exc}") from None
    from credo.surfaces.render import import_text

    emit(as_json, report, lambda: import_text(report))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@json_option
@click.pass_context
def export(ctx: click.Context, file: str, as_json: bool) -> None:
    """Export every belief, edge, anchor and ingest's state as JSONL records (byte-stable);
    '-' writes them to stdout (the report goes to stderr)."""
    from credo.surfaces.render import export_text

    memory = open_memory(ctx)
    if file != "-":
        report = memory.export_records(file)
        emit(as_json, report, lambda: export_text(report))
        return
    # UTF-8 and "\n" whatever the locale: the bytes match an export to a file.
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    try:
        report = memory.export_records(out)
    except BrokenPipeError:
        # The reader stopped (`| head`): as any Unix filter, stop quietly with SIGPIPE's code.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        ctx.exit(141)
    finally:
        out.detach()  # stdout stays open for click
    if as_json:
        from credo.surfaces.render import json_text

        click.echo(json_text(report), err=True)
    else:
        click.echo(export_text(report), err=True)
