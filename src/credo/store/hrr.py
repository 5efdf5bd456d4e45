"""SQL over ``hrr_traces`` and ``_meta`` (the persisted HRR lane state)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping

from credo.store.db import json_array

# The triggers fire only while the lane is on for this store (another process may turn it
# on after this connection opened): a store without HRR pays one index probe per edge.
_ENABLED = "EXISTS (SELECT 1 FROM main._meta WHERE key = 'hrr_dim')"


class HrrTraces:
    conn: sqlite3.Connection
    _version_now: Callable[[], tuple[int, int]]  # GraphQueries': one_version's, or read now
    # (store version, key -> value) as read at that version: every retrieve asks whether
    # the HRR lane is on, which a warm query would otherwise answer with SQL.
    _meta_seen: tuple[tuple[int, int], dict[str, str | None]] | None = None

    def meta_get(self, key: str) -> str | None:
        if self.conn.in_transaction:  # what it sees may yet be rolled back: keep nothing
            return self._meta_read(key)
        version = self._version_now()
        seen = self._meta_seen
        if seen is None or seen[0] != version:
            seen = self._meta_seen = (version, {})
        values = seen[1]
        if key not in values:
            values[key] = self._meta_read(key)
        return values[key]

    def _meta_read(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM _meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def meta_set(self, key: str, value: str | None) -> None:
        if value is None:
            self.conn.execute("DELETE FROM _meta WHERE key = ?", (key,))
        else:
            self.conn.execute(
                "INSERT INTO _meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def load_traces(self, ids: Iterable[str]) -> dict[str, bytes]:
        rows = self.conn.execute(
            "SELECT belief_id, trace FROM hrr_traces "
            "WHERE belief_id IN (SELECT value FROM json_each(?))",
            (json_array(sorted(set(ids))),),
        )
        return {str(r[0]): bytes(r[1]) for r in rows}

    def save_traces(self, traces: Mapping[str, bytes | None]) -> None:
        """Write traces; ``None`` (an all-zero trace) deletes the row."""
        gone = [(k,) for k, v in traces.items() if v is None]
        kept = [(k, v) for k, v in traces.items() if v is not None]
        self.conn.executemany("DELETE FROM hrr_traces WHERE belief_id = ?", gone)
        self.conn.executemany(
            "INSERT INTO hrr_traces(belief_id, trace) VALUES (?, ?) "
            "ON CONFLICT(belief_id) DO UPDATE SET trace = excluded.trace",
            kept,
        )

    def watch_edges(self, callback: Callable[[str, str, str, int], None]) -> None:
        """Call ``callback(src, dst, type, +1 | -1)`` for every edge this connection inserts
        or deletes (cascades included), through temporary triggers: derived state such as
        HRR traces cannot miss a write path."""
        self.conn.create_function("credo_hrr_edge", 4, callback, deterministic=False)
        self.conn.execute(
            "CREATE TEMP TRIGGER IF NOT EXISTS credo_hrr_insert AFTER INSERT ON main.edges "
            f"WHEN {_ENABLED} BEGIN SELECT credo_hrr_edge(NEW.src, NEW.dst, NEW.type, 1); END"
        )
        self.conn.execute(
            "CREATE TEMP TRIGGER IF NOT EXISTS credo_hrr_delete AFTER DELETE ON main.edges "
            f"WHEN {_ENABLED} BEGIN SELECT credo_hrr_edge(OLD.src, OLD.dst, OLD.type, -1); END"
        )

    def clear_traces(self) -> None:
        self.conn.execute("DELETE FROM hrr_traces")
