"""``credo migrate --to``: copy a whole store into an empty one, SQLite and PostgreSQL in
either direction, row for row.

Why rows and not records: the records format (export/import) carries beliefs, edges and
anchors, but not the journal (injections, feedback, captures, the injection counts), the
ledger of ingested files, the log or the HRR lane's traces. A copy of every table keeps
all of it, ids included (``rid``, the log's ``seq``, the journal's ids), so the target
answers exactly as the source did.

What is not copied is derived and rebuilt by the target itself: the keyword index (FTS5 on
SQLite, credo's own tables on PostgreSQL), the schema's ``_migrations`` (the target runs
its own, with the same numbers) and transient queues.

The source is read in one snapshot (writers may go on meanwhile); the target is written in
one transaction under its write lock, after checking it is empty: a failure leaves no row
in it. Both are brought to the latest schema first, so their columns are the same.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from credo.errors import InvalidInputError, NotFoundError
from credo.store.kept_root import beside, holds_ledger

if TYPE_CHECKING:
    from credo.config import PostgresUrl
    from credo.store.protocol import Store

BATCH_ROWS = 5_000


class Table(NamedTuple):
    """One copied table: its columns, the order rows are read in (a unique key where the
    table has one, so two stores' rows compare in the same order) and the column a
    server-side counter numbers (continued past the copied rows on the target)."""

    name: str
    columns: tuple[str, ...]
    order: str
    counter: str | None = None


def _table(name: str, columns: str, order: str, counter: str | None = None) -> Table:
    return Table(name, tuple(columns.split()), order, counter)


# Parents before the rows that reference them; _meta after the edges, so that a target
# with the HRR lane on does not queue the copied edges for its traces (they are copied).
TABLES: tuple[Table, ...] = (
    _table(
        "beliefs",
        "rid id content content_hash kind origin locked alpha beta session created_at "
        "updated_at deleted_at anchor_text context retention",
        "rid",
        "rid",
    ),
    _table("edges", "src dst type weight anchor_text created_at", "src, dst, type"),
    _table("edge_files", "file src dst type cited_file", "file, src, dst, type, cited_file"),
    _table("pending_cites", "file src cited_file", "file, src, cited_file"),
    _table(
        "belief_corroborations",
        "belief_id source session created_at",
        "belief_id, created_at, source NULLS FIRST, session NULLS FIRST",
    ),
    _table("ingest_log", "seq at op belief_id source_path payload", "seq", "seq"),
    _table(
        "belief_documents",
        "belief_id doc_uri anchor_type position_hint created_at",
        "belief_id, doc_uri",
    ),
    _table(
        "ingested_files",
        "path content_hash size mtime ingested_at beliefs first_belief",
        "path",
    ),
    _table(
        "injections",
        "id at session event prompt_hash belief_ids tokens chars reason",
        "id",
        "id",
    ),
    _table("captures", "belief_id session at kind transcript turn listed_at", "belief_id"),
    _table(
        "feedback_events",
        "id at session belief_id signal alpha_delta beta_delta undone_at",
        "id",
        "id",
    ),
    _table("injection_counts", "belief_id times last_at", "belief_id"),
    _table("_meta", "key value", "key"),
    _table("hrr_traces", "belief_id trace", "belief_id"),
    _table("passage_lines", "belief_id lines context", "belief_id"),
    _table("line_df", "stem df", "stem"),
    _table(
        "definitions", "file start_line end_line terms length value", "file, start_line, end_line"
    ),
    _table("passage_definitions", "belief_id file start_line end_line", "belief_id, file"),
    _table("defn_df", "stem df", "stem"),
    _table("acronyms", "file short long", "file, short, long"),
    _table("anchor_contexts", "belief_id file context", "belief_id, file"),
)

# Tables of either schema that are derived, bookkeeping or transient: never copied
# (tests/test_migrate.py checks that every table is in TABLES or here).
NOT_COPIED = frozenset(
    {
        "_migrations",  # the target's own
        "_bulk_load",  # SQLite: a flag only a bulk import's transaction ever sets
        "beliefs_fts",  # SQLite: the FTS5 index, rebuilt from beliefs
        "values_fts",  # SQLite: the constants' FTS5 index (m016), rebuilt from beliefs
        "fts_docs",  # PostgreSQL: the keyword index, rebuilt from beliefs
        "fts_postings",
        "fts_totals",
        "fts_dirty",
        "value_docs",  # PostgreSQL: the constants' keyword index (m016), rebuilt from beliefs
        "value_postings",
        "_edge_changes",  # PostgreSQL: emptied by every write transaction
    }
)


@dataclass(slots=True)
class MigrateReport:
    """What ``migrate_store`` copied: rows per table, from where to where."""

    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict[str, int])
    seconds: float = 0.0

    @property
    def beliefs(self) -> int:
        return self.rows.get("beliefs", 0)


def _same(a: Path | PostgresUrl, b: Path | PostgresUrl) -> bool:
    from credo.config import PostgresUrl

    if isinstance(a, PostgresUrl) or isinstance(b, PostgresUrl):
        return str(a) == str(b)
    return a.resolve() == b.resolve()


def migrate_store(
    source: Path | PostgresUrl,
    target: Path | PostgresUrl,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> MigrateReport:
    """Copy every row of the store at ``source`` into the empty store at ``target``
    (created when missing). ``progress(table, rows)`` hears of each batch.

    Raises:
        InvalidInputError: ``target`` is ``source``, or holds data already.
        NotFoundError: ``source`` is a file that does not exist.
        StoreError: either store cannot be opened (a server's password is never shown),
            or the write fails; the target holds no row (a SQLite file this call
            created is removed; a database keeps the empty schema its opening created).
    """
    from credo.config import PostgresUrl
    from credo.store import open_store

    if _same(source, target):
        raise InvalidInputError(f"credo migrate --to names the store itself ({_shown(source)})")
    if not isinstance(source, PostgresUrl) and not source.is_file():
        raise NotFoundError(f"no store at {source}: nothing to migrate")
    started = time.perf_counter()
    created = not isinstance(target, PostgresUrl) and not target.exists()
    with contextlib.ExitStack() as stack:
        src = open_store(source)
        stack.callback(src.close)
        try:
            dst = open_store(target)
        except BaseException:
            if created:
                _remove_file(Path(target))
            raise
        stack.callback(dst.close)
        report = MigrateReport(source=src.path, target=dst.path)
        try:
            _copy(src, dst, report, progress, (source, target))
        except BaseException:
            if created:
                dst.close()
                _remove_file(Path(target))
            raise
    report.seconds = time.perf_counter() - started
    return report


def _copy(
    src: Store,
    dst: Store,
    report: MigrateReport,
    progress: Callable[[str, int], None] | None,
    where: tuple[Path | PostgresUrl, Path | PostgresUrl],
) -> None:
    with src.read_snapshot(), dst.load_rows() as load:
        held = {t.name: n for t in TABLES if (n := load.count(t.name))}
        if held:
            what = ", ".join(f"{n} {name}" for name, n in held.items())
            raise InvalidInputError(
                f"cannot migrate into {dst.path}: it is not empty ({what}); "
                "give a new file or an empty database"
            )
        for table in TABLES:
            copied = 0
            with dst.write_errors():
                for batch in src.read_rows(table, BATCH_ROWS):
                    if table.name == "_meta":
                        rooted = (_rooted(row, *where, src) for row in batch)
                        batch = [row for row in rooted if row is not None]
                    load.add(table, batch)
                    copied += len(batch)
                    if progress is not None:
                        progress(table.name, len(batch))
            report.rows[table.name] = copied


def _rooted(
    row: tuple[object, ...],
    source: Path | PostgresUrl,
    target: Path | PostgresUrl,
    src: Store,
) -> tuple[object, ...] | None:
    """A ``_meta`` row, with a root kept relative to the source file (knowledge/root.py)
    made to name the same folder from the target: relative again when the target file lies
    in it, else absolute. Copied as it was, ``..`` named the target's parent folder.
    None (not copied) when that folder holds none of the ledger's files: the source file
    was moved out of its project, and root.py does not use such a root, but would trust
    it made absolute (each passage anchored again at the copy's next ingest)."""
    key, value = row
    if key != "root" or not isinstance(value, str) or not value or Path(value).is_absolute():
        return row
    if not isinstance(source, Path):
        return row  # (a PostgreSQL store keeps no relative root: root.py replaces one)
    folder = beside(source, value)
    if not holds_ledger(src, folder):
        return None
    if isinstance(target, Path) and folder in target.resolve().parents:
        return (key, Path(os.path.relpath(folder, target.resolve().parent)).as_posix())
    return (key, folder.as_posix())


def _shown(location: Path | PostgresUrl) -> str:
    from credo.config import PostgresUrl

    return location.redacted if isinstance(location, PostgresUrl) else str(location)


def _remove_file(path: Path) -> None:
    """A SQLite target this run created, with its WAL files, after a failed copy."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink()
