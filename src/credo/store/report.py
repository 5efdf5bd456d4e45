"""What both backends tell their caller in the same words: a store's counts (``stats``)
the error for text that cannot be stored (a lone surrogate), and for a store migrated
past this code while it was open."""

from __future__ import annotations

from typing import Any

from credo.errors import InvalidInputError, SchemaVersionError
from credo.types import StoreStats


def store_stats(conn: Any, *, path: str, schema_version: int, size_bytes: int) -> StoreStats:
    """The counts of beliefs, edges by type, anchors and log entries, read on ``conn`` (a
    sqlite3 or psycopg connection: the statements are the same on both)."""
    one = conn.execute
    beliefs, locked, deleted = one(
        "SELECT count(*) FILTER (WHERE deleted_at IS NULL), "
        "count(*) FILTER (WHERE locked = 1 AND deleted_at IS NULL), "
        "count(*) FILTER (WHERE deleted_at IS NOT NULL) FROM beliefs"
    ).fetchone() or (0, 0, 0)
    by_type = {
        str(t): int(n)
        for t, n in one("SELECT type, count(*) FROM edges GROUP BY type ORDER BY type")
    }
    (anchors,) = one("SELECT count(*) FROM belief_documents").fetchone() or (0,)
    (log_entries,) = one("SELECT count(*) FROM ingest_log").fetchone() or (0,)
    return StoreStats(
        beliefs=int(beliefs),
        locked=int(locked),
        deleted=int(deleted),
        edges=sum(by_type.values()),
        anchors=int(anchors),
        log_entries=int(log_entries),
        schema_version=schema_version,
        path=path,
        size_bytes=size_bytes,
        edges_by_type=by_type,
    )


def unencodable(exc: UnicodeEncodeError) -> InvalidInputError:
    """The error for a write whose text holds a lone surrogate, quoting where."""
    around = exc.object[max(0, exc.start - 20) : exc.end + 20]
    return InvalidInputError(
        f"text {around!r} holds a lone surrogate (not valid Unicode); fix its encoding"
    )


def refuse_moved(where: str, version: int, latest: int) -> None:
    """Refuse to go on with a store another process migrated past this code while this one
    kept it open (a newer credo's CLI beside an older ``credo serve`` or ``credo mcp``): its
    writes would skip what the newer schema keeps (m013's index rule) and its reads would
    ask an index in a shape it does not know. Both backends; nothing is written."""
    if version > latest:
        raise SchemaVersionError(
            f"{where} was migrated to schema version {version} by a newer credo while this "
            f"process had it open (this credo knows up to {latest}); run the command again, "
            "or restart the process that holds the store (credo serve, or the MCP client's "
            "credo mcp) with the newer credo"
        )
