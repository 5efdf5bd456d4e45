"""Operations commands, loaded lazily by ``credo.surfaces.cli.commands`` (``LAZY_COMMANDS``):
``credo backup`` and ``credo restore``, and ``credo migrate``. Backup and restore work on the
store file through ``credo.store.backup``, never through ``Memory``: a backup must not migrate
the store it copies, and a restore must validate its source before anything opens the store.
``credo migrate --to`` copies a store's rows into another store (``credo.store.transfer``).
"""

from __future__ import annotations

import click

from credo.config import resolve_db_path
from credo.surfaces.cli.commands import emit, selected_db


def _store_path(ctx: click.Context) -> str:
    """The ``--db`` / ``CREDO_DB`` store the root group took, else the default one: a
    file. A PostgreSQL store is refused (the server's own tools back it up)."""
    from credo.config import PostgresUrl
    from credo.errors import InvalidInputError

    location = resolve_db_path(selected_db(ctx))
    if isinstance(location, PostgresUrl):
        raise InvalidInputError(
            f"{ctx.info_name} works on a SQLite file, and {location.redacted} is a PostgreSQL "
            "server: use pg_dump and pg_restore, or `credo export` and `credo import`"
        )
    return str(location)


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def backup(ctx: click.Context, path: str, as_json: bool) -> None:
    """Copy the store to PATH with SQLite's online backup (safe while others write)."""
    from credo.store import backup as ops

    report = ops.backup(_store_path(ctx), path)
    emit(
        as_json,
        report,
        f"backed up {report.beliefs} beliefs (schema v{report.schema_version}, "
        f"{report.size_bytes / 1_048_576:.2f} MiB) to {report.path}",
    )


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--no-keep",
    is_flag=True,
    help="Do not keep the current store as a .before-restore-<time> copy.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def restore(ctx: click.Context, path: str, no_keep: bool, as_json: bool) -> None:
    """Replace the store's content with the backup PATH (validated first; atomic)."""
    from credo.store import backup as ops

    report = ops.restore(path, _store_path(ctx), keep_old=not no_keep)
    kept = f"; previous store kept at {report.previous_copy}" if report.previous_copy else ""
    migrated = f", migrated to v{report.migrated_to}" if report.migrated_to else ""
    emit(
        as_json,
        report,
        f"restored {report.beliefs} beliefs (schema v{report.schema_version}{migrated}) "
        f"into {report.path}{kept}",
    )


@click.command()
@click.option(
    "--to",
    "to",
    required=True,
    metavar="LOCATION",
    help="The new store: a file path (SQLite) or a postgresql:// URL; it must be empty.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def migrate(ctx: click.Context, to: str, as_json: bool) -> None:
    """Copy the whole store (beliefs, edges, anchors, log, journal, captures, ledger, HRR
    traces) into the empty store LOCATION, SQLite or PostgreSQL, either way."""
    import sys

    from credo.config import parse_location
    from credo.store.transfer import migrate_store

    source = resolve_db_path(selected_db(ctx))
    target = parse_location(to)
    if as_json or not sys.stderr.isatty():
        report = migrate_store(source, target)  # nobody would see a bar: rich stays unloaded
    else:
        from credo.surfaces.cli.progress import migrate_with_bar

        report = migrate_with_bar(source, target)
    rows = report.rows
    emit(
        as_json,
        report,
        f"copied {rows['beliefs']} beliefs, {rows['edges']} edges, "
        f"{rows['belief_documents']} anchors, {rows['ingest_log']} log entries, "
        f"{rows['injections']} injections and {rows['captures']} captures from "
        f"{report.source} to {report.target} in {report.seconds:.1f} s; point --db, "
        "CREDO_DB or [store] location at it to use it",
    )
