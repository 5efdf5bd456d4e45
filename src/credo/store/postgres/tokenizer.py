"""The keyword index's tokens on the client: the same FTS5 tokenizer SQLite's index uses.

PostgreSQL's own text search is not used: its english stemmer differs from porter on some
words, its parser keeps paths and URLs whole, and ts_rank is not BM25. Instead a private
in-memory SQLite FTS5 table with the index's ``tokenize`` option cuts the text, and its
``fts5vocab`` instance view lists each token with its column and offset: exactly the
tokens, positions and column sizes FTS5 itself would store for the same row.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence

from credo.store.compound_words import index_context
from credo.store.index_text import index_text

# The SQLite index's tokenizer (store/migrations.py, M006); a test keeps the two equal.
TOKENIZE = "porter unicode61 remove_diacritics 2"
COLUMNS = ("content", "anchor_text", "context")  # the index's columns, in BM25F order
_MAX_CACHED_TERMS = 50_000

# One document's index entries: {(token, column): [offsets]}, and its size per column.
Postings = dict[tuple[str, int], list[int]]


def _stored_context(content: str, context: str) -> str:
    """A row's context as the index reads it when compound names are not added."""
    return index_text(context)


class Tokenizer:
    """FTS5's tokens of documents (three columns) and of query terms."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._conn.execute(
            f"CREATE VIRTUAL TABLE d USING fts5({', '.join(COLUMNS)}, tokenize='{TOKENIZE}')"
        )
        self._conn.execute("CREATE VIRTUAL TABLE dv USING fts5vocab(d, instance)")
        self._column = {name: i for i, name in enumerate(COLUMNS)}
        self._terms: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()  # one scratch table: one caller at a time

    def close(self) -> None:
        self._conn.close()

    def documents(
        self, rows: Sequence[tuple[int, str, str, str]], compound: bool = True
    ) -> dict[int, tuple[Postings, tuple[int, int, int]]]:
        """rid -> (its postings, its token count per column) for (rid, content,
        anchor_text, context) rows; ``compound=False`` for the constants' index, whose
        context is read as stored (m016's triggers on SQLite; m017 left them so)."""
        out: dict[int, tuple[Postings, tuple[int, int, int]]] = {}
        if not rows:
            return out
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN")
            try:
                conn.execute("DELETE FROM d")
                # The fields as the index reads them (store/index_text.py; a context-less
                # row's context its compound names' words: store/compound_words.py), as
                # SQLite's triggers do (m013, m017); query terms come from ``query_terms``
                # already so.
                context = index_context if compound else _stored_context
                conn.executemany(
                    f"INSERT INTO d(rowid, {', '.join(COLUMNS)}) VALUES (?,?,?,?)",
                    [(r, index_text(a), index_text(b), context(a, c)) for r, a, b, c in rows],
                )
                sizes: dict[int, list[int]] = {}
                column = self._column
                for doc, col, offset, term in conn.execute(
                    "SELECT doc, col, offset, term FROM dv ORDER BY doc, col, offset"
                ):
                    number = column[col]
                    entry = out.get(doc)
                    if entry is None:
                        entry = out[doc] = ({}, (0, 0, 0))
                        sizes[doc] = [0, 0, 0]
                    entry[0].setdefault((term, number), []).append(offset)
                    sizes[doc][number] += 1
                conn.execute("DELETE FROM d")
            finally:
                conn.execute("COMMIT")
        for rid, _, _, _ in rows:
            found = out.get(rid)
            out[rid] = (found[0], tuple(sizes[rid])) if found else ({}, (0, 0, 0))  # type: ignore[assignment]
        return out

    def phrases(self, terms: Iterable[str]) -> list[tuple[str, ...]]:
        """Each query term's tokens in order: the phrase FTS5 makes of it when quoted (one
        token for most words; none for a term that holds no token character)."""
        terms = list(terms)
        missing = [t for t in dict.fromkeys(terms) if t not in self._terms]
        if missing:
            with self._lock:
                if len(self._terms) > _MAX_CACHED_TERMS:
                    self._terms.clear()
                conn = self._conn
                conn.execute("BEGIN")
                try:
                    conn.execute("DELETE FROM d")
                    # Each term as the index reads it (index_text: a CJK word is the
                    # phrase of its bigrams, as SQLite's capture candidates quote it).
                    conn.executemany(
                        "INSERT INTO d(rowid, content) VALUES (?, ?)",
                        [(i, index_text(t)) for i, t in enumerate(missing)],
                    )
                    found: dict[int, list[str]] = {}
                    for doc, term in conn.execute("SELECT doc, term FROM dv ORDER BY doc, offset"):
                        found.setdefault(doc, []).append(term)
                    conn.execute("DELETE FROM d")
                finally:
                    conn.execute("COMMIT")
                for i, term in enumerate(missing):
                    self._terms[term] = tuple(found.get(i, ()))
        return [self._terms[t] for t in terms]
