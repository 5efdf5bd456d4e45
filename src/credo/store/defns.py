"""The SQLite side of the definition statistics (store/defn_stats.py): written by ingest,
read by the definition lane (retrieval/lanes/defn.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from credo.store.db import json_array
from credo.store.defn_stats import HEAD_SQL, TOTALS, DefnRow, DefnWrites, Span
from credo.store.lines import add_to_df

if TYPE_CHECKING:
    from credo.store.warm import WarmIndex

DefnHit = tuple[str, int, int, str, int, bool]
"""(file, first line, last line, terms, length, head): a definition a passage sits in, and
whether the passage is the definition's own (its head: the signature and doc, anchored at
exactly the definition's lines) rather than a docstring or comment passage inside it."""


def read_passage_definitions(
    conn: sqlite3.Connection, ids: Iterable[str]
) -> dict[str, list[DefnHit]]:
    """``DefnTable.passage_definitions`` read from SQL."""
    out: dict[str, list[DefnHit]] = {}
    for r in conn.execute(
        "SELECT p.belief_id, d.file, d.start_line, d.end_line, d.terms, d.length, "
        f"{HEAD_SQL} FROM passage_definitions p JOIN definitions d ON d.file = p.file "
        "AND d.start_line = p.start_line AND d.end_line = p.end_line "
        "JOIN beliefs b ON b.id = p.belief_id "
        "WHERE p.belief_id IN (SELECT value FROM json_each(?)) AND b.deleted_at IS NULL "
        "ORDER BY p.belief_id, p.file",
        (json_array(ids),),
    ):
        out.setdefault(r[0], []).append((r[1], r[2], r[3], r[4], r[5], bool(r[6])))
    return out


class DefnTable(DefnWrites):
    conn: sqlite3.Connection
    _has_definitions: Callable[[], bool]  # GraphQueries': known per store version
    _warm_now: Callable[[], WarmIndex | None]  # GraphQueries'

    def defn_counts(self, stems: Iterable[str]) -> dict[str, int]:
        """``defn_df``'s counts for ``stems`` and the totals (defn_stats.TOTALS); a store
        without definitions (known per store version) is not asked."""
        if not self._has_definitions():
            return {}
        return dict(
            self.conn.execute(
                "SELECT stem, df FROM defn_df WHERE stem IN (SELECT value FROM json_each(?))",
                (json_array([*TOTALS, *stems]),),
            ).fetchall()
        )

    def passage_definitions(self, ids: Iterable[str]) -> dict[str, list[DefnHit]]:
        """id -> the definitions the live beliefs among ``ids`` sit in (one per file), each
        with whether the belief is that definition's head (in id order; from the warm
        index's cache when it holds this version)."""
        warm = self._warm_now()
        if warm is not None:
            return warm.passage_definitions(self.conn, ids)
        return read_passage_definitions(self.conn, ids)

    def definition_files(self) -> list[str]:
        """The files that have definitions, sorted."""
        rows = self.conn.execute("SELECT DISTINCT file FROM definitions").fetchall()
        return sorted(str(r[0]) for r in rows)

    def _defn_places(self, ids: list[str]) -> list[tuple[str, Span]]:
        return [
            (r[0], (r[1], r[2]))
            for r in self.conn.execute(
                "SELECT file, start_line, end_line FROM passage_definitions "
                "WHERE belief_id IN (SELECT value FROM json_each(?)) ORDER BY file",
                (json_array(ids),),
            )
        ]

    def _defn_file_rows(self, file: str) -> tuple[dict[Span, DefnRow], dict[str, Span]]:
        defs = {
            (r[0], r[1]): (r[2], r[3], bool(r[4]))
            for r in self.conn.execute(
                "SELECT start_line, end_line, terms, length, value FROM definitions WHERE file = ?",
                (file,),
            )
        }
        if not defs:  # (a passage row always points at a stored definition)
            return {}, {}
        passages = {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "SELECT belief_id, start_line, end_line FROM passage_definitions WHERE file = ?",
                (file,),
            )
        }
        return defs, passages

    def _defn_write_definitions(
        self, file: str, gone: list[Span], rows: dict[Span, DefnRow]
    ) -> None:
        self.conn.executemany(
            "DELETE FROM definitions WHERE file = ? AND start_line = ? AND end_line = ?",
            [(file, a, b) for a, b in gone],
        )
        self.conn.executemany(
            "INSERT OR REPLACE INTO definitions(file, start_line, end_line, terms, length, value) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(file, a, b, *row) for (a, b), row in rows.items()],
        )

    def _defn_write_passages(self, file: str, gone: list[str], rows: dict[str, Span]) -> None:
        self.conn.executemany(
            "DELETE FROM passage_definitions WHERE belief_id = ? AND file = ?",
            [(b, file) for b in gone],
        )
        self.conn.executemany(
            "INSERT OR REPLACE INTO passage_definitions(belief_id, file, start_line, end_line) "
            "VALUES (?, ?, ?, ?)",
            [(b, file, a, e) for b, (a, e) in rows.items()],
        )

    def _defn_apply(self, change: dict[str, int]) -> None:
        add_to_df(self.conn, "defn_df", change)
