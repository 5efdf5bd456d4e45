"""The graph reads of ``GraphQueries`` answered from memory, for one store version.

A long-lived process (the warm server) keeps every belief's state (live or not, locked or
not) and every edge, read once per store version on a connection of its own
(``store/warm.py``). Beliefs are numbered by their rowid, so the edges are flat numpy
arrays (compressed rows: each belief's out-edges, and its in-edges, are one slice), ~30
bytes an edge and ~110 a belief at a million beliefs, where Python tuples and lists took
~320 an edge. The answers are those of the SQL in ``graph.py``, row for row and in the
same order, so retrieval gives byte-identical results either way
(tests/test_warm_index.py):
- ``links_with_ends``: the links sorted by (src, dst, type) and cut at the limit, as the
  ordered query does; each end's row comes from the per-version row cache;
- ``pairs_among``: the ids sorted, then each one's out-edges in primary-key order
  (dst, type), as the primary-key search of the SQL walks them.

Only the beliefs the queries meet are looked up in SQLite (``CandidateRow``), once per
version: a million beliefs' text is not held, only their ids and edges.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from credo.store.fts import CandidateRow

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# A belief's state, by rowid.
ABSENT, UNLOCKED, LOCKED = 0, 1, 2
BATCH = 65_536  # edge rows read at a time
# (src, dst, type, weight, the end the SQL checks is live) of one link.
_LinkRow = tuple[str, str, str, float, str]


def _by_src_dst_type(row: _LinkRow) -> tuple[str, str, str]:
    return row[0], row[1], row[2]


class _Slices:
    """One direction of the edges: for belief rowid r, its edges are ``[start[r],
    start[r + 1])`` of ``other`` (the far end's rowid), ``kind`` (a type number) and
    ``weight``."""

    __slots__ = ("kind", "other", "start", "weight")

    def __init__(
        self, near: npt.NDArray[np.int64], far: npt.NDArray[np.int64], kind: npt.NDArray[np.int64],
        weight: npt.NDArray[np.float64], size: int,
    ) -> None:  # fmt: skip
        import numpy

        order = numpy.argsort(near, kind="stable")
        self.other = far[order].astype(numpy.int32)
        self.kind = kind[order].astype(numpy.int8)
        self.weight = weight[order]
        self.start = numpy.searchsorted(near[order], numpy.arange(size + 1))

    def of(self, rid: int) -> tuple[list[int], list[int], list[float]]:
        start, end = self.start[rid], self.start[rid + 1]
        return (
            self.other[start:end].tolist(),
            self.kind[start:end].tolist(),
            self.weight[start:end].tolist(),
        )


class WarmGraph:
    """Beliefs (id <-> rowid, state) and edges (out and in slices), of one store version."""

    __slots__ = ("_ids", "_into", "_kinds", "_out", "_rids", "_state", "live")

    def __init__(self, conn: sqlite3.Connection) -> None:
        """Read on ``conn`` inside the caller's read transaction (one snapshot)."""
        import numpy

        size = conn.execute("SELECT coalesce(max(rid), -1) + 1 FROM beliefs").fetchone()[0]
        self._ids: list[str | None] = [None] * size
        self._rids: dict[str, int] = {}
        self._state = numpy.zeros(size, dtype=numpy.int8)
        for rid, belief_id, state in conn.execute(
            "SELECT rid, id, CASE WHEN deleted_at IS NOT NULL THEN 0 WHEN locked THEN 2 "
            "ELSE 1 END FROM beliefs"
        ):
            self._ids[rid] = belief_id
            self._rids[belief_id] = rid
            self._state[rid] = state
        self.live = int(numpy.count_nonzero(self._state))
        self._kinds: list[str] = [row[0] for row in conn.execute("SELECT DISTINCT type FROM edges")]
        code = " ".join(f"WHEN ? THEN {i}" for i in range(len(self._kinds)))
        count = conn.execute("SELECT count(*) FROM edges").fetchone()[0]
        # (src rowid, dst rowid, type number, weight) per edge, filled a batch at a time:
        # the rows as Python tuples all at once would double the peak.
        table = numpy.zeros((count, 4), dtype=numpy.float64)
        cursor = conn.execute(
            "SELECT s.rid, d.rid, "
            + (f"CASE e.type {code} END" if self._kinds else "0")
            + ", e.weight FROM edges e JOIN beliefs s ON s.id = e.src "
            "JOIN beliefs d ON d.id = e.dst",
            self._kinds,
        )
        at = 0
        while batch := cursor.fetchmany(BATCH):
            table[at : at + len(batch)] = batch
            at += len(batch)
        src, dst = table[:, 0].astype(numpy.int64), table[:, 1].astype(numpy.int64)
        kind, weight = table[:, 2].astype(numpy.int64), table[:, 3].copy()
        del table
        self._out = _Slices(src, dst, kind, weight, size)
        self._into = _Slices(dst, src, kind, weight, size)

    def _rid_list(self, ids: Iterable[str]) -> list[tuple[str, int]]:
        rids = self._rids
        return [(i, rid) for i in set(ids) if (rid := rids.get(i)) is not None]

    def links_with_ends(
        self,
        ids: Iterable[str],
        limit: int,
        rows_of: Callable[[list[str]], dict[str, CandidateRow]],
    ) -> tuple[list[tuple[str, str, str, float]], dict[str, CandidateRow | None]]:
        """``GraphQueries.links_with_ends`` as (src, dst, type, weight) tuples and the ends;
        ``rows_of`` gives the rows of live unlocked ids."""
        asked = self._rid_list(ids)
        inside = {rid for _, rid in asked}
        names, kinds, state = self._ids, self._kinds, self._state
        found: list[_LinkRow] = []
        for src, rid in asked:
            others, types, weights = self._out.of(rid)
            for other, kind, weight in zip(others, types, weights, strict=True):
                if state[other]:
                    dst = names[other]
                    found.append((src, dst, kinds[kind], weight, dst))  # type: ignore[arg-type]
        for dst, rid in asked:
            others, types, weights = self._into.of(rid)
            for other, kind, weight in zip(others, types, weights, strict=True):
                if other not in inside and state[other]:
                    src = names[other]
                    found.append((src, dst, kinds[kind], weight, src))  # type: ignore[arg-type]
        found.sort(key=_by_src_dst_type)
        if limit >= 0:
            del found[limit:]
        ends = dict.fromkeys(row[4] for row in found)
        rids = self._rids
        rows = rows_of([end for end in ends if state[rids[end]] == UNLOCKED])
        return [row[:4] for row in found], {end: rows.get(end) for end in ends}

    def pairs_among(self, ids: Iterable[str], min_weight: float) -> list[tuple[str, str]]:
        """``GraphQueries.pairs_among``: (src, dst) of the edges inside ``ids`` weighing at
        least ``min_weight``."""
        asked = sorted(self._rid_list(ids))
        inside = {rid for _, rid in asked}
        names, kinds = self._ids, self._kinds
        pairs: list[tuple[str, str]] = []
        for src, rid in asked:
            others, types, weights = self._out.of(rid)
            kept = [
                (names[other], kinds[kind])
                for other, kind, weight in zip(others, types, weights, strict=True)
                if weight >= min_weight and other in inside
            ]
            kept.sort()  # (dst, type): the primary key's order
            pairs += [(src, dst) for dst, _kind in kept]  # type: ignore[misc]
        return pairs

    def live_unlocked(self, ids: Iterable[str]) -> list[str]:
        """The live, unlocked ids among ``ids``, sorted (as the id index gives them)."""
        state = self._state
        return sorted(i for i, rid in self._rid_list(ids) if state[rid] == UNLOCKED)
