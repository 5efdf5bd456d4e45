"""Every live belief's retrieval row, held compactly in memory for one store version.

A warm server at a million beliefs meets ~150 beliefs it has not seen on each new query
(the keyword hits, the graph's neighbours, the ends of truth links). Reading their rows
from SQLite, a search of the id index and a tuple built per belief, was a fifth of such a
query's time. Here every live belief's text sits in one UTF-8 buffer per range of rowids
with its byte offsets, and its numbers in numpy arrays: ~37 bytes a belief beside its
text, where a cached row as Python values takes ~300 (the row caches in ``warm.py`` stay
in front, for the beliefs queries meet again).

The values are those SQLite returns (REAL columns are doubles both ways; the text
round-trips through UTF-8 exactly), so answers from here equal the SQL reads'
(tests/test_warm_index.py).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from credo.store.fts import CandidateRow

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SPAN = 1 << 16  # rowids per text buffer: a bounded peak while the rows are read
FEW_ROWS = 32  # rows asked at once read one by one (``WarmRows._few``), past it as arrays

# The last column is ``GraphQueries.stated``'s test (NULL counts as false there too).
_ROWS = (
    "SELECT rid, content, alpha, beta, session, created_at, "
    "(origin IN ('user_stated', 'user_corrected') OR kind = 'correction') FROM beliefs "
    "WHERE rid >= ? AND rid < ? AND deleted_at IS NULL"
)


class WarmRows:
    """``CandidateRow`` of each live belief by rowid, read inside the caller's transaction."""

    __slots__ = (
        "_alpha", "_bases", "_beta", "_buffers", "_created", "_live", "_session", "_sessions",
        "_starts", "_stated", "_views",
    )  # fmt: skip

    def __init__(self, conn: sqlite3.Connection, size: int) -> None:
        """Read the live rows of rowids ``0 .. size - 1`` on ``conn`` (one snapshot)."""
        import numpy

        lengths = numpy.zeros(size, dtype=numpy.int64)
        self._live = numpy.zeros(size, dtype=numpy.bool_)
        self._alpha = numpy.zeros(size, dtype=numpy.float64)
        self._beta = numpy.zeros(size, dtype=numpy.float64)
        self._created = numpy.zeros(size, dtype=numpy.float64)
        self._session = numpy.full(size, -1, dtype=numpy.int32)  # -1: no session
        # Whether a person stated or corrected it: a search of the id index a belief
        # otherwise, the first time a query shows it (cold pages at a million beliefs).
        self._stated = numpy.zeros(size, dtype=numpy.bool_)
        self._sessions: list[str] = []
        codes: dict[str, int] = {}
        self._buffers: list[bytes] = []
        for low in range(0, size, SPAN):
            rows = conn.execute(_ROWS, (low, low + SPAN)).fetchall()
            rows.sort()  # by rowid: the buffer is laid out in rowid order
            texts = [row[1].encode() for row in rows]
            self._buffers.append(b"".join(texts))
            if not rows:
                continue
            rids = numpy.fromiter((row[0] for row in rows), numpy.int64, len(rows))
            lengths[rids] = [len(text) for text in texts]
            self._live[rids] = True
            self._alpha[rids] = [row[2] for row in rows]
            self._beta[rids] = [row[3] for row in rows]
            self._created[rids] = [row[5] for row in rows]
            self._session[rids] = [
                -1 if (name := row[4]) is None else codes.setdefault(name, len(codes))
                for row in rows
            ]
            self._stated[rids] = [bool(row[6]) for row in rows]
        self._sessions = list(codes)
        # Byte offset of each rowid's text, counted across the buffers in rowid order.
        self._starts: npt.NDArray[np.int64] = numpy.zeros(size + 1, dtype=numpy.int64)
        numpy.cumsum(lengths, out=self._starts[1:])
        self._bases: list[int] = self._starts[::SPAN][: len(self._buffers)].tolist()
        # The columns as memoryviews (no copy), read a rowid at a time for a few rows.
        columns = (
            self._live, self._starts, self._alpha, self._beta, self._session, self._created,
            self._stated,
        )  # fmt: skip
        self._views = tuple(map(memoryview, columns))

    def rows(self, rids: list[int]) -> list[CandidateRow | None]:
        """The row of each of ``rids`` (None for a rowid with no live belief)."""
        if len(rids) <= FEW_ROWS:
            return self._few(rids)
        import numpy

        at = numpy.array(rids, dtype=numpy.int64)
        starts = self._starts
        buffers, bases, sessions = self._buffers, self._bases, self._sessions
        found: list[CandidateRow | None] = []
        for rid, live, low, high, alpha, beta, session, created in zip(
            rids,
            self._live[at].tolist(),
            starts[at].tolist(),
            starts[at + 1].tolist(),
            self._alpha[at].tolist(),
            self._beta[at].tolist(),
            self._session[at].tolist(),
            self._created[at].tolist(),
            strict=True,
        ):
            if not live:
                found.append(None)
                continue
            span = rid // SPAN
            base = bases[span]
            text = buffers[span][low - base : high - base].decode()
            found.append((text, alpha, beta, None if session < 0 else sessions[session], created))
        return found

    def stated(self, rids: list[int]) -> list[bool | None]:
        """Whether each of ``rids``' belief was stated or corrected by a person (None for a
        rowid with no live belief)."""
        live, stated = self._views[0], self._views[6]  # (a few ids a call: no numpy call)
        return [stated[rid] if live[rid] else None for rid in rids]

    def _few(self, rids: list[int]) -> list[CandidateRow | None]:
        """``rows`` read a rowid at a time from the memoryviews: a query at 10k asks ~9 rows
        at a time, too few for numpy's fixed cost per gather (~13 -> ~7 us a call)."""
        live, starts, alpha, beta, session, created, _ = self._views
        buffers, bases, sessions = self._buffers, self._bases, self._sessions
        found: list[CandidateRow | None] = []
        for rid in rids:
            if not live[rid]:
                found.append(None)
                continue
            span = rid // SPAN
            base = bases[span]
            text = buffers[span][starts[rid] - base : starts[rid + 1] - base].decode()
            code = session[rid]
            name = None if code < 0 else sessions[code]
            found.append((text, alpha[rid], beta[rid], name, created[rid]))
        return found
