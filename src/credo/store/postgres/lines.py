"""The PostgreSQL side of the line statistics (store/line_stats.py): the same rows and
counts as store/lines.py, in PostgreSQL's SQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from credo.store.line_stats import TOTALS, LinesRow, LineWrites

if TYPE_CHECKING:
    import psycopg


class LineTable(LineWrites):
    conn: psycopg.Connection

    def _write_rows(self, rows: dict[str, LinesRow]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO passage_lines(belief_id, lines, context) VALUES (%s, %s, %s) "
                "ON CONFLICT (belief_id) DO UPDATE SET lines = excluded.lines, "
                "context = excluded.context",
                [(belief_id, *row) for belief_id, row in rows.items()],
            )

    def _delete_rows(self, ids: list[str]) -> None:
        self.conn.execute("DELETE FROM passage_lines WHERE belief_id = ANY(%s)", (ids,))

    def passage_lines(self, ids: Iterable[str]) -> dict[str, LinesRow]:
        rows = self.conn.execute(
            "SELECT p.belief_id, p.lines, p.context FROM passage_lines p "
            "JOIN beliefs b ON b.id = p.belief_id "
            "WHERE p.belief_id = ANY(%s) AND b.deleted_at IS NULL",
            (sorted(set(ids)),),
        )
        return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}

    def iter_passage_lines(self) -> list[tuple[str, str, str]]:
        """Every (belief id, lines, context) row, forgotten beliefs' too, by belief id."""
        rows = self.conn.execute("SELECT belief_id, lines, context FROM passage_lines")
        return sorted((str(r[0]), str(r[1]), str(r[2])) for r in rows.fetchall())

    def line_counts(self, stems: Iterable[str]) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT stem, df FROM line_df WHERE stem = ANY(%s)", (sorted({*TOTALS, *stems}),)
        )
        return {str(r[0]): int(r[1]) for r in rows}

    def _lines_rows(self, ids: list[str]) -> dict[str, LinesRow]:
        rows = self.conn.execute(
            "SELECT belief_id, lines, context FROM passage_lines WHERE belief_id = ANY(%s)",
            (sorted(set(ids)),),
        )
        return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}

    def _apply(self, change: dict[str, int]) -> None:
        add_to_df(self.conn, "line_df", change)


def add_to_df(conn: psycopg.Connection, table: str, change: dict[str, int]) -> None:
    """Move a df table (``line_df``, ``defn_df``: stem -> count) by ``change``; a stem whose
    count reaches 0 leaves the table."""
    if not change:
        return
    with conn.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {table}(stem, df) VALUES (%s, %s) "
            f"ON CONFLICT (stem) DO UPDATE SET df = {table}.df + excluded.df",
            list(change.items()),
        )
        gone = [(k,) for k, v in change.items() if v < 0]
        if gone:
            cur.executemany(f"DELETE FROM {table} WHERE stem = %s AND df = 0", gone)
