"""The PostgreSQL side of the definition statistics (store/defn_stats.py): the same rows
and counts as store/defns.py, in PostgreSQL's SQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from credo.store.defn_stats import HEAD_SQL, TOTALS, DefnRow, DefnWrites, Span
from credo.store.postgres.lines import add_to_df

if TYPE_CHECKING:
    import psycopg

    from credo.store.defns import DefnHit


class DefnTable(DefnWrites):
    conn: psycopg.Connection

    def defn_counts(self, stems: Iterable[str]) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT stem, df FROM defn_df WHERE stem = ANY(%s)", (sorted({*TOTALS, *stems}),)
        )
        return {str(r[0]): int(r[1]) for r in rows}

    def passage_definitions(self, ids: Iterable[str]) -> dict[str, list[DefnHit]]:
        out: dict[str, list[DefnHit]] = {}
        for r in self.conn.execute(
            "SELECT p.belief_id, d.file, d.start_line, d.end_line, d.terms, d.length, "
            f"{HEAD_SQL} FROM passage_definitions p JOIN definitions d ON d.file = p.file "
            "AND d.start_line = p.start_line AND d.end_line = p.end_line "
            "JOIN beliefs b ON b.id = p.belief_id "
            "WHERE p.belief_id = ANY(%s) AND b.deleted_at IS NULL "
            "ORDER BY p.belief_id, p.file",
            (sorted(set(ids)),),
        ):
            out.setdefault(str(r[0]), []).append(
                (str(r[1]), int(r[2]), int(r[3]), str(r[4]), int(r[5]), bool(r[6]))
            )
        return out

    def definition_files(self) -> list[str]:
        """The files that have definitions, sorted (by code point, as SQLite's)."""
        rows = self.conn.execute("SELECT DISTINCT file FROM definitions").fetchall()
        return sorted(str(r[0]) for r in rows)

    def _defn_places(self, ids: list[str]) -> list[tuple[str, Span]]:
        rows = self.conn.execute(
            "SELECT file, start_line, end_line FROM passage_definitions "
            "WHERE belief_id = ANY(%s) ORDER BY file",
            (ids,),
        )
        return [(str(r[0]), (int(r[1]), int(r[2]))) for r in rows]

    def _defn_file_rows(self, file: str) -> tuple[dict[Span, DefnRow], dict[str, Span]]:
        defs = {
            (int(r[0]), int(r[1])): (str(r[2]), int(r[3]), bool(r[4]))
            for r in self.conn.execute(
                "SELECT start_line, end_line, terms, length, value FROM definitions "
                "WHERE file = %s",
                (file,),
            )
        }
        if not defs:
            return {}, {}
        passages = {
            str(r[0]): (int(r[1]), int(r[2]))
            for r in self.conn.execute(
                "SELECT belief_id, start_line, end_line FROM passage_definitions WHERE file = %s",
                (file,),
            )
        }
        return defs, passages

    def _defn_write_definitions(
        self, file: str, gone: list[Span], rows: dict[Span, DefnRow]
    ) -> None:
        with self.conn.cursor() as cur:
            if gone:
                cur.executemany(
                    "DELETE FROM definitions WHERE file = %s AND start_line = %s AND end_line = %s",
                    [(file, a, b) for a, b in gone],
                )
            if rows:
                cur.executemany(
                    "INSERT INTO definitions(file, start_line, end_line, terms, length, value) "
                    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (file, start_line, end_line) "
                    "DO UPDATE SET terms = excluded.terms, length = excluded.length, "
                    "value = excluded.value",
                    [
                        (file, a, b, terms, length, int(value))
                        for (a, b), (terms, length, value) in rows.items()
                    ],
                )

    def _defn_write_passages(self, file: str, gone: list[str], rows: dict[str, Span]) -> None:
        with self.conn.cursor() as cur:
            if gone:
                cur.executemany(
                    "DELETE FROM passage_definitions WHERE belief_id = %s AND file = %s",
                    [(b, file) for b in gone],
                )
            if rows:
                cur.executemany(
                    "INSERT INTO passage_definitions(belief_id, file, start_line, end_line) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (belief_id, file) "
                    "DO UPDATE SET start_line = excluded.start_line, "
                    "end_line = excluded.end_line",
                    [(b, file, a, e) for b, (a, e) in rows.items()],
                )

    def _defn_apply(self, change: dict[str, int]) -> None:
        add_to_df(self.conn, "defn_df", change)
