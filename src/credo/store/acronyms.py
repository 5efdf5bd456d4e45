"""The acronyms the ingested files define ("version control systems (VCS)"), by file:
what ingest learns for the query side (retrieval/acronym_terms.py; the finder is
knowledge/chunk/acronym.py).

One row per (file, short form, long form), written by a file's ingest in place of the
file's old rows and dropped with the file, so a definition lives exactly as long as a file
that states it. The table is small (a handful of rows a project: docs define few
acronyms), so a retrieve reads it whole, once per store version.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

# m015 (store/migrations.py; PostgreSQL's store/postgres/schema.py without WITHOUT ROWID).
# No backfill: the reader's version moved with it (knowledge/ingest/walk.py), so the next
# ingest reads every file again and writes its rows.
M015_ACRONYMS = """
CREATE TABLE IF NOT EXISTS acronyms (
    file  TEXT NOT NULL,
    short TEXT NOT NULL,
    long  TEXT NOT NULL,
    PRIMARY KEY (file, short, long)
) WITHOUT ROWID;"""

# short form -> long form, each pair once
Acronyms = tuple[tuple[str, str], ...]


class AcronymTable:
    conn: "sqlite3.Connection"
    # The pairs as read at a store version (GraphQueries' ``one_version``): one read a
    # version, none for the queries after it.
    _acronyms_seen: tuple[tuple[int, int], Acronyms] | None = None
    _version_pinned: Callable[[], tuple[int, int] | None]  # GraphQueries'
    _has_acronyms: Callable[[], bool]  # GraphQueries': known per store version

    def set_file_acronyms(self, file: str, pairs: Iterable[tuple[str, str]]) -> None:
        """``file``'s acronyms are ``pairs`` (short, long) from now on: none for []."""
        self.conn.execute("DELETE FROM acronyms WHERE file = ?", (file,))
        rows = [(file, short, long) for short, long in dict.fromkeys(pairs)]
        if rows:
            self.conn.executemany("INSERT INTO acronyms(file, short, long) VALUES (?, ?, ?)", rows)

    def file_acronyms(self) -> list[tuple[str, Acronyms]]:
        """Each file that spells out acronyms, with its pairs; by file, then pair (what an
        export writes: knowledge/derived_records.py)."""
        rows = self.conn.execute(
            "SELECT file, short, long FROM acronyms ORDER BY file, short, long"
        )
        return by_file(rows)

    def acronyms(self) -> Acronyms:
        """Every (short, long) pair some file defines, each once, sorted."""
        if not self._has_acronyms():  # (most stores: no statement of its own)
            return ()
        version = None if self.conn.in_transaction else self._version_pinned()
        seen = self._acronyms_seen
        if version is not None and seen is not None and seen[0] == version:
            return seen[1]
        pairs = tuple(
            (str(short), str(long))
            for short, long in self.conn.execute(
                "SELECT DISTINCT short, long FROM acronyms ORDER BY short, long"
            )
        )
        if version is not None:
            self._acronyms_seen = (version, pairs)
        return pairs


def by_file(rows: Iterable[tuple[str, str, str]]) -> list[tuple[str, Acronyms]]:
    """(file, short, long) rows, sorted, as each file with its pairs."""
    files: dict[str, list[tuple[str, str]]] = {}
    for file, short, long in rows:
        files.setdefault(str(file), []).append((str(short), str(long)))
    return [(file, tuple(pairs)) for file, pairs in files.items()]
