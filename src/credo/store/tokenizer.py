"""The keyword index's tokenizer, asked through FTS5 itself: query terms become the tokens
the index holds (``bm25_mirror`` reads their postings), and the index's ``tokenize`` option
read from its schema.
"""

from __future__ import annotations

import re
import sqlite3

from credo.store.index_text import index_text

# Past this many terms learnt, the tokenizer's cache starts over.
MAX_CACHED_TERMS = 50_000

_TOKENIZE = r"tokenize\s*=\s*'((?:[^']|'')*)'"  # compiled when a mirror is built
# The index's tokenize option (store/migrations.py), whose tokens of ASCII text store/stem.py
# gives in Python (tested against FTS5 itself, tests/test_compress.py).
PYTHON_TOKENIZER = "porter unicode61 remove_diacritics 2"


class Tokenizer:
    """The index's tokenizer, asked through a private in-memory FTS5 table with the same
    ``tokenize`` option: query terms become the tokens the index holds (porter stems)."""

    def __init__(self, option: str) -> None:
        self.option = option
        self._conn = sqlite3.connect(":memory:", check_same_thread=False)
        quoted = option.replace("'", "''")
        try:
            self._conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{quoted}')")
            self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        except sqlite3.Error:
            self._conn.close()
            raise
        self._stems: dict[str, str | None] = {}
        # ASCII terms stemmed in Python (~2 us a term) rather than through the table (~35).
        self._in_python = option == PYTHON_TOKENIZER
        import threading  # here: the read path of a one-shot process never needs it

        self._lock = threading.Lock()  # one table: two threads must not fill it at once

    def close(self) -> None:
        self._in_python = False  # a closed tokenizer learns nothing more (its table raises)
        self._conn.close()

    def stems(self, terms: list[str]) -> list[str] | None:
        """The single index token of each term, or None if any term is not exactly one."""
        missing = [t for t in terms if t not in self._stems]
        if missing and len(self._stems) > MAX_CACHED_TERMS:
            self._stems.clear()  # (before any is learnt: all of ``terms`` are read below)
            missing = list(terms)
        if missing and self._in_python:
            missing = self._learn_ascii(missing)
        if missing:
            with self._lock:
                self._learn(missing)
        out = [self._stems.get(t) for t in terms]
        return None if any(s is None for s in out) else out  # type: ignore[return-value]

    def _learn_ascii(self, terms: list[str]) -> list[str]:
        """Learn the ASCII ones of ``terms`` by store/stem.py (unicode61 folds ASCII by
        lower-casing and cuts at every other byte; porter stems); the others are left."""
        from credo.store.stem import stem, tokens

        left = []
        for term in terms:
            if term.isascii():
                found = tokens(term)
                self._stems[term] = stem(found[0]) if len(found) == 1 else None
            else:
                left.append(term)
        return left

    def _learn(self, terms: list[str]) -> None:
        conn = self._conn
        # The rows are read back inside the insert's transaction (fts5vocab sees FTS5's
        # pending terms) and rolled back: the table stays empty, with no delete (which
        # tokenizes each old row again) and no segment written at a commit. Half the time.
        tokens: dict[int, list[str]] = {}
        try:
            read = [(i, index_text(t)) for i, t in enumerate(terms)]  # as fts.quote reads them
            conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", read)
            # (no ORDER BY: only a term with one token is kept, so their order is not needed)
            for doc, term in conn.execute("SELECT doc, term FROM v"):
                tokens.setdefault(doc, []).append(term)
        finally:
            conn.rollback()
        for i, term in enumerate(terms):
            found = tokens.get(i, [])
            self._stems[term] = found[0] if len(found) == 1 else None


def tokenize_option(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'beliefs_fts'").fetchone()
    match = re.search(_TOKENIZE, row[0], re.IGNORECASE) if row and row[0] else None
    return match.group(1).replace("''", "'") if match else None
