"""The SQLite side of the line statistics (store/line_stats.py): written by ingest, read by
the line lane (retrieval/lanes/line.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from credo.store.db import Transactions, json_array
from credo.store.line_stats import TOTALS, LinesRow, LineWrites


class LineTable(LineWrites):
    """``line_df`` moves once per transaction: each file of an ingest changes the counts
    of its few hundred stems, and a commit group of 64 files repeats most of them (black's
    docs: 9,027 upserts for 3,350 stems). The changes of the open transaction are summed
    here and written before it commits (``flush_line_df``, a ``before_commit`` callback);
    those of a transaction that rolled back are dropped by the next one (``serial``)."""

    conn: sqlite3.Connection
    _tx: Transactions
    _df_pending: tuple[int, dict[str, int]] | None = None  # (transaction serial, changes)

    def _has_lines(self) -> bool:  # per store version (store/graph.py)
        raise NotImplementedError

    def _write_rows(self, rows: dict[str, LinesRow]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO passage_lines(belief_id, lines, context) VALUES (?, ?, ?)",
            [(belief_id, *row) for belief_id, row in rows.items()],
        )

    def _delete_rows(self, ids: list[str]) -> None:
        self.conn.executemany("DELETE FROM passage_lines WHERE belief_id = ?", [(k,) for k in ids])

    def passage_lines(self, ids: Iterable[str]) -> dict[str, LinesRow]:
        """id -> stored row of the live beliefs among ``ids`` that have one."""
        return dict(
            (r[0], (r[1], r[2]))
            for r in self.conn.execute(
                "SELECT p.belief_id, p.lines, p.context FROM passage_lines p "
                "JOIN beliefs b ON b.id = p.belief_id "
                "WHERE p.belief_id IN (SELECT value FROM json_each(?)) AND b.deleted_at IS NULL",
                (json_array(ids),),
            )
        )

    def iter_passage_lines(self) -> list[tuple[str, str, str]]:
        """Every (belief id, lines, context) row, forgotten beliefs' too, by belief id."""
        rows = self.conn.execute("SELECT belief_id, lines, context FROM passage_lines")
        return sorted((str(r[0]), str(r[1]), str(r[2])) for r in rows)

    def line_counts(self, stems: Iterable[str]) -> dict[str, int]:
        """``line_df``'s counts for ``stems`` and the totals (line_stats.TOTALS); a store
        without line statistics (known per store version) is not asked."""
        if not self._has_lines():
            return {}
        self.flush_line_df()  # a read inside the writing transaction sees its counts
        keys = [*TOTALS, *stems]
        return dict(
            self.conn.execute(
                "SELECT stem, df FROM line_df WHERE stem IN (SELECT value FROM json_each(?))",
                (json_array(keys),),
            ).fetchall()
        )

    def _lines_rows(self, ids: list[str]) -> dict[str, LinesRow]:
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "SELECT belief_id, lines, context FROM passage_lines "
                "WHERE belief_id IN (SELECT value FROM json_each(?))",
                (json_array(ids),),
            )
        }

    def _apply(self, change: dict[str, int]) -> None:
        tx = self._tx
        if not tx.active:
            add_to_df(self.conn, "line_df", change)
            return
        pending = self._df_pending
        if pending is None or pending[0] != tx.serial:  # none yet, or a rolled-back one's
            pending = self._df_pending = (tx.serial, {})
        summed = pending[1]
        for stem, count in change.items():
            summed[stem] = summed.get(stem, 0) + count

    def flush_line_df(self) -> None:
        """Write the open transaction's summed ``line_df`` changes (before it commits)."""
        pending, self._df_pending = self._df_pending, None
        if pending is None or pending[0] != self._tx.serial or not self._tx.active:
            return
        add_to_df(self.conn, "line_df", {k: v for k, v in sorted(pending[1].items()) if v})


def add_to_df(conn: sqlite3.Connection, table: str, change: dict[str, int]) -> None:
    """Move a df table (``line_df``, ``defn_df``: stem -> count) by ``change``; a stem whose
    count reaches 0 leaves the table."""
    if not change:
        return
    conn.executemany(
        f"INSERT INTO {table}(stem, df) VALUES (?, ?) "
        "ON CONFLICT(stem) DO UPDATE SET df = df + excluded.df",
        list(change.items()),
    )
    gone = [(k,) for k, v in change.items() if v < 0]
    conn.executemany(f"DELETE FROM {table} WHERE stem = ? AND df = 0", gone)
