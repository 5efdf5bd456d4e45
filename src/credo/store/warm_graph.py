"""The graph reads of ``GraphQueries`` answered from memory, for one store version.

A long-lived process (the warm server) keeps every live belief's locked flag and every
edge as adjacency lists, read once per store version on a connection of its own
(``store/warm.py``). The answers are those of the SQL in ``graph.py``, row for row and in
the same order, so retrieval gives byte-identical results either way (tests/test_warm_index.py):
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

from credo.store.fts import CandidateRow

# (other end, type, weight) of an edge as seen from one of its ends.
_Adjacent = tuple[str, str, float]
# (src, dst, type, weight, the end the SQL checks is live) of one link.
_LinkRow = tuple[str, str, str, float, str]


def _by_src_dst_type(row: _LinkRow) -> tuple[str, str, str]:
    return row[0], row[1], row[2]


class WarmGraph:
    """Live beliefs (id -> locked) and edges (out and in lists), of one store version."""

    __slots__ = ("into", "live", "out")

    def __init__(self, conn: sqlite3.Connection) -> None:
        """Read on ``conn`` inside the caller's read transaction (one snapshot)."""
        self.live: dict[str, bool] = {
            belief_id: bool(locked)
            for belief_id, locked in conn.execute(
                "SELECT id, locked FROM beliefs WHERE deleted_at IS NULL"
            )
        }
        self.out: dict[str, list[_Adjacent]] = {}
        self.into: dict[str, list[_Adjacent]] = {}
        # One object per distinct weight, type and id (the live beliefs' own strings): a
        # million beliefs' four million edge ends would otherwise each hold a copy.
        weights: dict[float, float] = {}
        types: dict[str, str] = {}
        ids: dict[str, str] = {i: i for i in self.live}
        out, into = self.out, self.into
        # Primary-key order: each out list is in (dst, type) order, each in list in
        # (src, type) order, as the sorted reads below need them.
        for src, dst, kind, weight in conn.execute(
            "SELECT src, dst, type, weight FROM edges ORDER BY src, dst, type"
        ):
            weight = weights.setdefault(weight, weight)
            kind = types.setdefault(kind, kind)
            src = ids.setdefault(src, src)
            dst = ids.setdefault(dst, dst)
            found = out.get(src)
            if found is None:
                found = out[src] = []
            found.append((dst, kind, weight))
            found = into.get(dst)
            if found is None:
                found = into[dst] = []
            found.append((src, kind, weight))

    def links_with_ends(
        self,
        ids: Iterable[str],
        limit: int,
        rows_of: Callable[[list[str]], dict[str, CandidateRow]],
    ) -> tuple[list[tuple[str, str, str, float]], dict[str, CandidateRow | None]]:
        """``GraphQueries.links_with_ends`` as (src, dst, type, weight) tuples and the ends;
        ``rows_of`` gives the rows of live unlocked ids."""
        asked = set(ids)
        live = self.live
        found: list[_LinkRow] = []
        for src in asked:
            for dst, kind, weight in self.out.get(src, ()):
                if dst in live:
                    found.append((src, dst, kind, weight, dst))
        for dst in asked:
            for src, kind, weight in self.into.get(dst, ()):
                if src not in asked and src in live:
                    found.append((src, dst, kind, weight, src))
        found.sort(key=_by_src_dst_type)
        if limit >= 0:
            del found[limit:]
        ends = dict.fromkeys(row[4] for row in found)
        rows = rows_of([end for end in ends if not live[end]])
        return [row[:4] for row in found], {end: rows.get(end) for end in ends}

    def pairs_among(self, ids: Iterable[str], min_weight: float) -> list[tuple[str, str]]:
        """``GraphQueries.pairs_among``: (src, dst) of the edges inside ``ids`` weighing at
        least ``min_weight``."""
        members = sorted(set(ids))
        inside = set(members)
        out = self.out
        return [
            (src, dst)
            for src in members
            for dst, _kind, weight in out.get(src, ())
            if weight >= min_weight and dst in inside
        ]

    def live_unlocked(self, ids: Iterable[str]) -> list[str]:
        """The live, unlocked ids among ``ids``, sorted (as the id index gives them)."""
        live = self.live
        return sorted({i for i in ids if live.get(i) is False})
