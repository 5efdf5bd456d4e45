"""When a store builds, keeps and drops its in-memory bm25 mirror (``bm25_mirror``).

A mirror belongs to one store version (``PRAGMA data_version`` and the connection's
``total_changes``) and is dropped when that moves: a write by any connection. Building one
reads every index row's size (~15 ms at 10k rows, ~0.1-0.3 s at 100k), so it is built by the
ski-rental rule: once the FTS5 keyword queries answered at one version have cost what a
build costs (estimated at first, then the last build's measured time). A one-shot process
(the hook, ``credo search``) never builds one, a store written between reads never does,
and a store read many times spends at most about twice the ideal. An index under
``MIN_ROWS`` never gets one.
"""

from __future__ import annotations

import math
import sqlite3
import time
from typing import TYPE_CHECKING

from credo.store.db import store_version

if TYPE_CHECKING:  # loaded by the first build: a one-shot process never needs it
    from credo.store.bm25_mirror import Bm25Mirror
    from credo.store.tokenizer import Tokenizer

# Below this many index rows the mirror is never built: a query whose terms it has not yet
# read costs it more than FTS5 (one fts5vocab read per term, ~0.1 ms), and the queries it
# has read gain little (at 10k rows: +0.2 ms for unseen terms, -0.5 ms for seen ones, of
# ~3.5 ms; at 100k: -3.4 and -5.5 ms of ~10; bench/latency.py --mirror-side-by-side).
MIN_ROWS = 25_000
# A build's time, as measured here (a fixed part, then the docsize read and decode per index
# row), before a store has measured its own: the first build's price in the ski-rental rule.
ESTIMATED_BUILD_SECONDS = 0.002
ESTIMATED_BUILD_SECONDS_PER_ROW = 3e-6
# numpy's import, paid by the first build of a process that has not loaded it.
ESTIMATED_NUMPY_IMPORT_SECONDS = 0.08


class MirrorPolicy:
    """When a store builds, keeps and drops its mirror (the ski-rental rule above).

    A mirror carries the store version it was read at, checked before a build and after it,
    so a commit by another connection (or another thread's write) during a build or a query
    can never leave a stale mirror answering: ``current`` and ``at_version`` compare the
    store with the mirror's own version, not with the accounting's.
    """

    def __init__(self) -> None:
        self.version: tuple[int, int] | None = None  # the version ``spent`` is counted at
        self.mirror: Bm25Mirror | None = None
        self.spent = 0.0  # seconds of FTS5 keyword queries at this version
        self.build_seconds: float | None = None  # the last build's measured cost
        self.tokenizer: Tokenizer | None = None
        self.disabled = False
        self._estimate: float | None = None  # the first build's price at this version
        self._forced = False

    def close(self) -> None:
        """Let go of the mirror and close the tokenizer's own connection. (The temporary
        fts5vocab table goes with the store's connection.)"""
        self.mirror = None
        if self.tokenizer is not None:
            self.tokenizer.close()
            self.tokenizer = None

    def disable(self) -> None:
        """FTS5 answers from now on: a mirror differed from it (this platform's C
        arithmetic is not numpy's) or could not be built or read."""
        self.disabled = True
        self.close()

    def build_now(self) -> None:
        """Build at the next keyword query, whatever the price or the index size (tests and
        the latency bench's side-by-side pass)."""
        self._forced = True

    def current(
        self, conn: sqlite3.Connection, seen: tuple[int, int] | None = None
    ) -> Bm25Mirror | None:
        """The mirror of the store as it is now, or None (FTS5 answers). ``seen`` is the
        store's version if the caller has read it (the retrieve under way's, read once at
        its start: ``GraphQueries.one_version``): it stands in for a read of its own."""
        if self.disabled or conn.in_transaction:
            return None
        mirror = self.mirror
        if mirror is not None:
            now = seen if seen is not None else store_version(conn)
            if now == mirror.version:
                return mirror
            self.mirror, seen = None, now  # the store moved: drop it
        version = seen if seen is not None else store_version(conn)
        if version != self.version:
            self.version, self.spent, self._estimate = version, 0.0, None
            return None
        if not self._forced and self.spent < self._price(conn):
            return None
        return self._build(conn)

    def adopt(self, mirror: Bm25Mirror) -> None:
        """Answer from ``mirror``, read elsewhere at the store's current version (the warm
        index): kept, and dropped, like one built here."""
        if self.disabled:
            return
        self.mirror, self.version, self.spent, self._estimate = mirror, mirror.version, 0.0, None

    def charge(self, seconds: float) -> None:
        """Record what an FTS5 keyword query cost at this version."""
        self.spent += seconds

    def at_version(self, conn: sqlite3.Connection, mirror: Bm25Mirror) -> bool:
        """Whether the store is still at ``mirror``'s version (no commit since it read)."""
        return store_version(conn) == mirror.version

    def _price(self, conn: sqlite3.Connection) -> float:
        """What a build costs, in seconds; infinite for an index too small to gain."""
        if self.spent < ESTIMATED_BUILD_SECONDS:
            return ESTIMATED_BUILD_SECONDS  # not worth a read of the row count yet
        if self._estimate is None:  # once per version
            import sys

            from credo.store.bm25_mirror import averages

            rows = averages(conn)[0]
            numpy = 0.0 if "numpy" in sys.modules else ESTIMATED_NUMPY_IMPORT_SECONDS
            if rows < MIN_ROWS:
                self._estimate = math.inf
            elif self.build_seconds is not None:
                self._estimate = self.build_seconds
            else:
                self._estimate = (
                    ESTIMATED_BUILD_SECONDS + rows * ESTIMATED_BUILD_SECONDS_PER_ROW + numpy
                )
        return self._estimate

    def _build(self, conn: sqlite3.Connection) -> Bm25Mirror | None:
        from credo.store.bm25_mirror import Bm25Mirror
        from credo.store.tokenizer import Tokenizer, tokenize_option

        started = time.perf_counter()
        before = store_version(conn)
        if before != self.version:
            self.version = None  # ``seen`` was stale: count again from the next query
            return None
        try:
            option = tokenize_option(conn)
            if option is None:
                self.disable()  # not an FTS5 table this code knows
                return None
            if self.tokenizer is None or self.tokenizer.option != option:
                if self.tokenizer is not None:
                    self.tokenizer.close()
                self.tokenizer = Tokenizer(option)
            mirror = Bm25Mirror(conn, self.tokenizer, before)
        except sqlite3.Error:
            self.disable()
            return None
        self.build_seconds = time.perf_counter() - started
        self._forced = False
        if store_version(conn) != before:
            return None  # a commit landed while it read: this version is gone
        self.mirror = mirror
        return mirror
