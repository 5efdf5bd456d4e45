"""The PostgreSQL side of store/acronyms.py: the same rows, in PostgreSQL's SQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from credo.store.acronyms import by_file

if TYPE_CHECKING:
    import psycopg

    from credo.store.acronyms import Acronyms


class AcronymTable:
    conn: psycopg.Connection

    def set_file_acronyms(self, file: str, pairs: Iterable[tuple[str, str]]) -> None:
        self.conn.execute("DELETE FROM acronyms WHERE file = %s", (file,))
        rows = [(file, short, long) for short, long in dict.fromkeys(pairs)]
        if rows:
            with self.conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO acronyms(file, short, long) VALUES (%s, %s, %s)", rows
                )

    def file_acronyms(self) -> list[tuple[str, Acronyms]]:
        rows = self.conn.execute("SELECT file, short, long FROM acronyms").fetchall()
        return by_file(sorted((str(f), str(s), str(lg)) for f, s, lg in rows))  # (code points)

    def acronyms(self) -> Acronyms:
        # (no read here is kept by version: see reads.one_version; sorted in Python, by code
        # point, as SQLite's)
        rows = self.conn.execute("SELECT DISTINCT short, long FROM acronyms").fetchall()
        return tuple(sorted((str(short), str(long)) for short, long in rows))
