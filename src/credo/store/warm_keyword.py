"""A warm index's keyword top, ranked on rowids (issue #17).

Without it, ``FtsIndex.keyword_beliefs`` takes the bm25 mirror's ``limit + KEYWORD_SLACK``
best rows as (rowid, score) pairs, makes each a belief entry, drops the locked ones and,
when scores tie (nearly every query: many rows share a term's count and a length), sorts
them by id in Python; ties at the cut leave the answer unproven and send it to FTS5.

A warm index holds every row of its version: each rowid's state (``WarmGraph``), and here
its rank by id, read once from SQLite's index on ``beliefs.id`` (BINARY: the bytes of
UTF-8, whose order is the code points', as Python orders ``str``). So the answer is ranked
whole on arrays: the matching rows and their scores (``Bm25Mirror.matches``, the mirror's
doubles), the locked rows dropped, the best by (score desc, id asc) in one ``lexsort`` over
those ranks, cut at ``limit``. Only those rows become Python values, and no tie is left
unsettled: the rows and scores of the exact query, as FTS5's ``bm25()`` ranks them.
"""

from __future__ import annotations

import sqlite3
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from credo.store.fts import CandidateRow
from credo.store.own_pool import OWN, PASSAGES
from credo.store.warm_graph import ABSENT, UNLOCKED

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from credo.store.bm25_mirror import Bm25Mirror
    from credo.store.warm_graph import WarmGraph

_ID = itemgetter(0)  # of a mirror entry (``Bm25Mirror.entries``): its belief's id


class KeywordRanks:
    """Each rowid's rank by its belief's id, which rowids are unlocked (None when every
    row of the keyword index is: then no row is dropped), and which are the user's own
    (store/own_pool.py; None unless the store holds them beside documents), for one warm
    index's mirror."""

    __slots__ = ("_last", "by_id", "own", "unlocked")

    def __init__(
        self,
        by_id: npt.NDArray[np.int32],
        unlocked: npt.NDArray[np.bool_] | None,
        own: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        self.by_id = by_id
        self.unlocked = unlocked
        self.own = own
        # The last query's matches (``Bm25Mirror.matches``): the pool's read takes them again.
        self._last: tuple[tuple[tuple[str, ...], tuple[float, ...]], Any] | None = None

    def best(
        self,
        mirror: Bm25Mirror,
        terms: list[str],
        weights: tuple[float, ...],
        limit: int,
        among: npt.NDArray[np.bool_] | None = None,
    ) -> tuple[list[int], list[float]] | None:
        """(rowids, scores) of the ``limit`` best unlocked rows matching any of ``terms``
        (of the rowids ``among`` marks, when given), by (score desc, id asc); None when the
        mirror cannot answer (FTS5 must)."""
        key = (tuple(terms), weights)
        last = self._last
        if last is not None and last[0] == key:
            found = last[1]
        else:
            found = mirror.matches(terms, weights)
            if found is None:
                return None
            if self.own is not None:  # (else no pool reads them again)
                self._last = (key, found)
        import numpy

        docs, scores = found
        if among is None:
            among = self.unlocked
        if among is not None:
            kept = among[docs]
            docs, scores = docs[kept], scores[kept]
        if len(docs) > limit:
            # Every row scoring at least the ``limit``-th best (ties with it too: the id
            # decides among them below). Fewer rows to sort: cheaper than sorting them all.
            negative = -scores
            cut = numpy.partition(negative, limit - 1)[limit - 1]
            kept = negative <= cut
            docs, scores = docs[kept], scores[kept]
        order = numpy.lexsort((self.by_id[docs], -scores))[:limit]
        return docs[order].tolist(), scores[order].tolist()

    def hits(
        self, mirror: Bm25Mirror, terms: list[str], weights: tuple[float, ...], limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]] | None:
        """``FtsIndex.keyword_beliefs``' answer: id -> score of the hits in rank order, and
        the row of each (its entry made once per version, ``Bm25Mirror.entries``); None when
        FTS5 must answer."""
        found = self.best(mirror, terms, weights, limit)
        if found is None:
            return None
        rids, scores = found
        entries = mirror.entries(rids)
        hits = dict(zip(map(_ID, entries), scores, strict=True))
        # (the index holds live beliefs only: a stale entry is kept out all the same; one
        # comprehension, no live-only check first: ~20k instructions less at 50 hits)
        return hits, {entry[0]: entry[3] for entry in entries if entry[2] is None}

    def own_hits(
        self, mirror: Bm25Mirror, terms: list[str], weights: tuple[float, ...], limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]] | None:
        """``FtsIndex._own_hits``' answer: the ``limit`` best of the user's own rows (none
        when the store holds them alone or none), as ``hits`` makes them; None when FTS5
        must answer."""
        if self.own is None:
            return {}, {}
        found = self.best(mirror, terms, weights, limit, self.own)
        if found is None:
            return None
        entries = mirror.entries(found[0])
        return dict(zip(map(_ID, entries), found[1], strict=True)), {
            entry[0]: entry[3] for entry in entries if entry[2] is None
        }


def read_ranks(
    conn: sqlite3.Connection, graph: WarmGraph, mirror: Bm25Mirror
) -> KeywordRanks | None:
    """The ranks of the version ``conn``'s read transaction sees (the one ``graph`` and
    ``mirror`` were read in), or None when a row of the keyword index is not a live belief
    of the graph (the index and the beliefs disagree: the mirror's ranking answers, with
    its checks, as without ranks)."""
    import numpy

    state = graph.states
    indexed = mirror.indexed_rows()
    if len(indexed) and (indexed[-1] >= len(state) or (state[indexed] == ABSENT).any()):
        return None
    by_id = numpy.zeros(len(state), dtype=numpy.int32)
    # (the covering index on id: its entries in order, no table row read)
    order = numpy.fromiter(_first(conn.execute(_BY_ID)), numpy.int64)
    by_id[order] = numpy.arange(len(order), dtype=numpy.int32)
    unlocked = None
    if (state[indexed] != UNLOCKED).any():  # a locked belief in the index
        unlocked = state == UNLOCKED
    return KeywordRanks(by_id, unlocked, _own_rows(conn, state))


def _own_rows(
    conn: sqlite3.Connection, state: npt.NDArray[np.int8]
) -> npt.NDArray[np.bool_] | None:
    """Which rowids are the user's own live, unlocked beliefs (store/own_pool.py), when the
    store holds some beside passages (``FtsIndex._own_mixed``'s rule); else None (the keyword
    top holds the pool's best already, or there is no pool)."""
    import numpy

    own = numpy.zeros(len(state), dtype=numpy.bool_)
    own[numpy.fromiter(_first(conn.execute(_OWN)), numpy.int64)] = True
    if not own.any() or not conn.execute(_PASSAGES).fetchone()[0]:
        return None
    return own


_BY_ID = "SELECT rid FROM beliefs ORDER BY id"
_OWN = f"SELECT rid FROM beliefs WHERE {OWN}"  # (the partial index beliefs_own: m020)
_PASSAGES = f"SELECT EXISTS (SELECT 1 FROM beliefs WHERE {PASSAGES})"


def _first(rows: Any) -> Any:
    return (row[0] for row in rows)
