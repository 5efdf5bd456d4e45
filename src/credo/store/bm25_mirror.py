"""An in-memory mirror of FTS5's ``bm25()`` over the keyword index, for long-lived stores.

FTS5 spends most of a keyword query in ``bm25()`` itself: per matching row it reads the
row's size from the docsize table and walks its instances, ~2 us a row (6 of the ~10 ms of
a query at 100k beliefs). The mirror keeps every row's size in memory, reads each query
term's postings once (``fts5vocab``, cached per term) and scores them in numpy with the
arithmetic of ``fts5Bm25Function`` (sqlite/ext/fts5/fts5_aux.c) operation by operation, so
its scores are the same doubles FTS5 returns. ``keyword_beliefs`` then joins the best rows
to ``beliefs`` exactly as it does with FTS5's own ranking: results are byte-identical.

When a store builds, keeps and drops its mirror is ``bm25_policy``'s job. A query the
mirror cannot answer exactly (a term that is several tokens, a phrase in FTS5) goes to FTS5.

Like ``fts.py``, this module speaks FTS5: besides the documented ``fts5vocab`` table it
reads two of FTS5's shadow tables, whose layout is FTS5's file format (stable since 3.9):
the averages record (``beliefs_fts_data`` row 1: row count, then tokens per column) and the
row sizes (``beliefs_fts_docsize``: tokens per column), both as SQLite varints. If either
ever changed, the mirror's first answer would differ from FTS5's, and the check in
``fts.py`` would turn it off.
"""

from __future__ import annotations

import json
import math
import sqlite3
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    import numpy.typing as npt

    from credo.store.tokenizer import Tokenizer
    from credo.store.warm_keyword import KeywordRanks

# fts5_aux.c's constants.
K1 = 1.2
B = 0.75
# What one store's mirror may hold; past a cap that cache starts over. A term's postings kept
# cost 8 bytes each (their parts of the score) in a warm index, whose postings are views of
# its flat arrays, ~24 read from SQL (a 100k-belief index holds ~1.6M), a belief row ~200:
# ~32 MB and ~100 MB at most, beside 8 bytes per index row for the row sizes. At a million
# beliefs a common term has ~50k postings: a smaller cap started over every ~50 queries.
MAX_CACHED_POSTINGS = 4_000_000
MAX_CACHED_TERMS = 50_000
MAX_CACHED_BELIEFS = 100_000
# Posting strings shorter than this (~150 instances) are parsed in Python, longer in numpy.
SMALL_POSTINGS_CHARS = 1_500
# Postings whose score parts (8 bytes each) a warm index makes for the default column
# weights when it reads every term (``read_all_terms``), in one whole-array pass: 16 MB at
# most (a 100k-belief index holds ~1.6M postings, a million-belief one ~15M: there the parts
# stay lazy, per term, as before).
MAX_EAGER_PARTS = 2_000_000
# Instances parsed at once when every term is read (``read_all_terms``): ~100 MB at most of
# text and arrays in flight, whatever the index's size.
ALL_TERMS_CHUNK = 2_000_000
_NO_BELIEF: tuple[object, ...] = ("no belief",)  # a marker compared by identity
NO_ENTRY: tuple[object, ...] = (None, 1, None, None)  # ``entries`` of a rowid without a belief
_ROW = itemgetter(2, 3, 4, 6, 7)  # a ``beliefs`` row's ``CandidateRow``, for its entry
_INT32 = 2**31


class Postings:
    """One index token's rows: their rowids (ascending), instance counts per column, and
    each row's part of the score under the column weights asked for (kept)."""

    __slots__ = ("counts", "docs", "parts")

    def __init__(self, docs: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> None:
        # Held as 32-bit integers when they fit (always, but for rowids past 2**31): a warm
        # index holds every term's postings, ~15M of them at a million beliefs.
        small = len(docs) and docs[-1] < _INT32
        self.docs = docs.astype("int32", copy=False) if small else docs
        self.counts = (  # shape (rows, columns)
            counts.astype("int32", copy=False) if small and counts.max() < _INT32 else counts
        )
        # Each row's part of the score, by column weights (``Bm25Mirror._parts``).
        self.parts: dict[tuple[float, ...], npt.NDArray[np.float64]] = {}

    @classmethod
    def held(cls, docs: npt.NDArray[Any], counts: npt.NDArray[np.int32]) -> Postings:
        """Postings of slices of a warm index's flat arrays, narrowed already when read
        (``Bm25Mirror._term_range``): kept as they are, no check per term (~5 us)."""
        postings = cls.__new__(cls)
        postings.docs, postings.counts, postings.parts = docs, counts, {}
        return postings

    def frequencies(self, weights: tuple[float, ...]) -> npt.NDArray[np.float64]:
        """Each row's phrase frequency as fts5Bm25Function sums it: the weight of a column
        added once per instance, instances in (column, offset) order. Repeated addition and
        count x weight can round differently, so each distinct count vector is summed the
        C way. (Not kept: ``Bm25Mirror._parts`` keeps what is made of it.)"""
        if _exact_products(weights) and self.counts.max(initial=0) < _EXACT:
            # Every partial sum is then exactly representable: count x weight is the sum.
            return self.counts @ _column_weights(weights, self.counts.shape[1])
        import numpy

        # Each count vector as one integer (mixed radix): a 1-D unique, ~10x faster.
        radix = int(self.counts.max()) + 1 if len(self.counts) else 1
        keys = self.counts @ (radix ** numpy.arange(self.counts.shape[1] - 1, -1, -1))
        _, first, where = numpy.unique(keys, return_index=True, return_inverse=True)
        sums = [_repeated_sum(c, weights) for c in self.counts[first].tolist()]
        return numpy.array(sums, dtype=numpy.float64)[where.reshape(-1)]


def _distinct(np: Any, rows: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[np.intp]]:
    """``np.unique(rows, return_inverse=True)`` for rows that are sorted runs (one per
    term): a stable sort finds the runs and merges them (timsort), where ``unique``'s
    quicksort sorts from scratch; a third less time at a million beliefs."""
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    first = np.empty(len(ordered), dtype=np.bool_)
    first[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    where = np.empty(len(rows), dtype=np.intp)
    where[order] = np.cumsum(first) - 1
    return ordered[first], where


# Counts below 2**16 and weights whose numerator and (power-of-two) denominator are below
# 2**16, such as 1.0 or 0.5: every partial sum is a multiple of 2**-16 below 2**32, which a
# double holds exactly (48 bits), so repeated addition equals count x weight summed.
_EXACT = 1 << 16


def _exact_products(weights: tuple[float, ...]) -> bool:
    for weight in weights:
        numerator, denominator = float(weight).as_integer_ratio()
        if abs(numerator) >= _EXACT or denominator >= _EXACT:
            return False
    return True


def _column_weights(weights: tuple[float, ...], columns: int) -> npt.NDArray[np.float64]:
    """One weight per column; FTS5 weighs a column given none 1.0."""
    import numpy

    padded = [weights[i] if i < len(weights) else 1.0 for i in range(columns)]
    return numpy.array(padded, dtype=numpy.float64)


def _repeated_sum(counts: list[int], weights: tuple[float, ...]) -> float:
    total = 0.0
    for column, count in enumerate(counts):
        weight = weights[column] if column < len(weights) else 1.0
        for _ in range(count):
            total += weight
    return total


def parse_postings(listed: str, columns: int) -> Postings:
    """A term's postings from its instances listed as "key,key,..." with key = rowid x
    columns + column, in any order: rows ascending, instances counted per column."""
    import numpy as np

    if not listed:
        return Postings(np.zeros(0, np.int64), np.zeros((0, columns), np.int64))
    if len(listed) < SMALL_POSTINGS_CHARS:
        # A short list: a dozen numpy calls would cost more than the loop.
        by_row: dict[int, list[int]] = {}
        for key in map(int, listed.split(",")):
            row, column = divmod(key, columns)
            counts = by_row.get(row)
            if counts is None:
                counts = by_row[row] = [0] * columns
            counts[column] += 1
        rows = sorted(by_row)
        return Postings(
            np.array(rows, dtype=np.int64),
            np.array([by_row[r] for r in rows], dtype=np.int64).reshape(len(rows), columns),
        )
    keys = np.fromstring(listed, dtype=np.int64, sep=",")
    docs, cols = np.divmod(keys, columns)
    if not (docs[1:] >= docs[:-1]).all():  # fts5vocab lists by row; nothing promises it
        order = np.argsort(docs, kind="stable")
        docs, cols = docs[order], cols[order]
    changes = docs[1:] != docs[:-1]
    starts = np.flatnonzero(np.concatenate(([True], changes)))
    where = np.concatenate(([0], np.cumsum(changes)))
    counts = np.zeros((len(starts), columns), dtype=np.int64)
    np.add.at(counts, (where, cols), 1)
    return Postings(docs[starts], counts)


class Bm25Mirror:
    """Row sizes and per-term postings of one version of ``beliefs_fts``."""

    def __init__(
        self, conn: sqlite3.Connection, tokenizer: Tokenizer, version: tuple[int, int]
    ) -> None:
        import numpy as np

        self.version = version  # the store version it was read at
        self.checked = False  # whether an answer of it was found equal to FTS5's
        self._np = np
        self._conn = conn
        self._tokenizer = tokenizer
        # Each instance of a term in the index: what a term's postings are read from.
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.credo_fts_instances "
            "USING fts5vocab(main, beliefs_fts, instance)"
        )
        self.rows, totals = averages(conn)
        self.columns = len(totals)
        # avgdl as fts5Bm25GetData computes it: all columns' tokens over the row count.
        self.avgdl = float(sum(totals)) / float(self.rows) if self.rows else 0.0
        sizes: dict[int, int] = {}
        for rowid, blob in conn.execute("SELECT id, sz FROM beliefs_fts_docsize"):
            sizes[rowid] = _varint_sum(blob)
        top = max(sizes, default=-1) + 1
        self._sizes = np.zeros(top, dtype=np.float64)
        if sizes:
            self._sizes[np.fromiter(sizes, np.int64, len(sizes))] = np.fromiter(
                sizes.values(), np.float64, len(sizes)
            )
        names = [row[1] for row in conn.execute("PRAGMA table_info(beliefs_fts)")]
        # The column of an instance as its number (fts5vocab names it).
        self._column_number = (
            "CASE col "
            + " ".join(f"WHEN '{name}' THEN {i}" for i, name in enumerate(names))
            + " END"
        )
        self._postings: dict[str, Postings] = {}
        self._cached = 0
        self._beliefs: dict[int, tuple[object, ...]] = {}
        self._entries: dict[int, tuple[Any, ...]] = {}  # ``entries``' memo
        # Where rows are read before SQL (the warm index's row table), or None.
        self.source: Callable[[list[int]], dict[int, tuple[object, ...]]] | None = None
        self.reads = 0  # statements run after the build: none means nothing could move
        # Every term's postings are held (``read_all_terms``): a term not held is in no row.
        self.complete = False
        # (weights, every posting's part under them) made by ``read_all_terms``, or None.
        self._eager: tuple[tuple[float, ...], npt.NDArray[np.float64]] | None = None
        self._bounds: list[int] = []  # ``_starts`` as Python ints, when ``_eager`` is made
        self.ranks: KeywordRanks | None = None  # a warm index's (store/warm_keyword.py)

    def read_all_terms(self, weights: tuple[float, ...] | None = None) -> None:
        """Hold every term's postings from now on (the warm index: ``store/warm.py``), so no
        query reads ``fts5vocab`` again. First the instance count of each term (the index's
        term order), then the instances of a range of terms at a time as one string, which
        numpy parses at once (``ALL_TERMS_CHUNK`` instances: a bounded peak). The postings
        sit in three flat arrays, a term's rows a slice, ~16 bytes a posting; the terms
        queries ask for are cached as ``Postings`` as before. If a range's count does not
        match, or a term's rows are out of order, nothing changes: terms are read one by
        one, as without. With ``weights``, every posting's part of the score under them is
        made too (``_all_parts``), when there are at most ``MAX_EAGER_PARTS``."""
        np = self._np
        conn = self._conn
        terms: list[str] = []
        sizes: list[int] = []
        for stem, count in conn.execute(
            "SELECT term, count(*) FROM temp.credo_fts_instances GROUP BY term"
        ):
            terms.append(stem)
            sizes.append(count)
        parts = []
        lo = 0
        while lo < len(terms):
            hi, held = lo, 0
            while hi < len(terms) and (hi == lo or held + sizes[hi] <= ALL_TERMS_CHUNK):
                held += sizes[hi]
                hi += 1
            part = self._term_range(terms, sizes, lo, hi)
            if part is None:
                return
            parts.append(part)
            lo = hi
        if parts:
            docs, counts, term_of = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
        else:
            docs = np.zeros(0, np.int64)
            counts = np.zeros((0, self.columns), np.int32)
            term_of = np.zeros(0, np.int64)
        self._all_docs, self._all_counts = docs, counts
        self._starts = np.searchsorted(term_of, np.arange(len(terms) + 1))
        self._term_index = {stem: i for i, stem in enumerate(terms)}
        self._postings.clear()
        self._cached = 0
        self.complete = True
        if weights is not None and len(docs) <= MAX_EAGER_PARTS:
            parts = self._all_parts(weights)
            self._eager = None if parts is None else (weights, parts)
            # (the terms' bounds as Python ints, for ``_slices``: ~36 bytes a term, and
            # only for an index small enough to be eager)
            self._bounds = [] if parts is None else self._starts.tolist()

    def _all_parts(self, weights: tuple[float, ...]) -> npt.NDArray[np.float64] | None:
        """``_parts`` of every term at once, over the flat arrays: the same doubles element
        by element (each operation is IEEE-rounded per element, whatever the array; the
        idf a Python ``math.log`` per distinct row count, as per term), or None when a
        count or weight leaves ``Postings.frequencies`` to its exact repeated sums, or a
        row is past the sizes read."""
        np = self._np
        docs, counts, starts = self._all_docs, self._all_counts, self._starts
        if not _exact_products(weights) or counts.max(initial=0) >= _EXACT:
            return None
        if len(docs) and int(docs.max()) >= len(self._sizes):
            return None
        # Every partial sum is exact (``Postings.frequencies``): count x weight is the sum.
        freq = counts @ _column_weights(weights, counts.shape[1])
        length = K1 * ((1 - B) + (B * self._sizes[docs]) / self.avgdl)
        hits = np.diff(starts)
        distinct, where = np.unique(hits, return_inverse=True)
        idfs = np.array([_idf(self.rows, h) for h in distinct.tolist()], dtype=np.float64)
        idf = np.repeat(idfs[where.reshape(-1)], hits)
        return idf * ((freq * (K1 + 1.0)) / (freq + length))

    def _term_range(
        self, terms: list[str], sizes: list[int], lo: int, hi: int
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int64]] | None:
        """(row, instance counts per column, term number) of each posting of ``terms[lo:hi]``,
        or None when the index does not list them as ``read_all_terms`` expects."""
        np, columns = self._np, self.columns
        (listed,) = self._conn.execute(
            f"SELECT group_concat(doc * {columns} + {self._column_number}, ',') "
            "FROM temp.credo_fts_instances WHERE term >= ? AND term <= ?",
            (terms[lo], terms[hi - 1]),
        ).fetchone()
        keys = np.fromstring(listed or "", dtype=np.int64, sep=",")
        del listed
        if len(keys) != sum(sizes[lo:hi]):
            return None
        docs, cols = np.divmod(keys, columns)
        del keys
        term_of = np.repeat(np.arange(lo, hi, dtype=np.int64), sizes[lo:hi])
        same_term = term_of[1:] == term_of[:-1]
        if (same_term & (docs[1:] < docs[:-1])).any():
            return None  # a term's rows out of order: not the order assumed
        first = np.concatenate(([True], ~same_term | (docs[1:] != docs[:-1])))
        starts = np.flatnonzero(first)
        where = np.cumsum(first) - 1
        counts = np.bincount(where * columns + cols, minlength=len(starts) * columns)
        wide = len(docs) and docs.max() >= _INT32
        return (
            docs[starts].astype(np.int64 if wide else np.int32),
            counts.reshape(len(starts), columns).astype(np.int32),
            term_of[starts],
        )

    def term_rows(self, terms: list[str]) -> dict[str, int] | None:
        """``FtsIndex.term_rows`` from a mirror that holds every term (``complete``: a
        warm index's), no statement run; None when it cannot answer (FTS5 must)."""
        stems = self._tokenizer.stems(terms) if self.complete else None
        if stems is None:
            return None
        at, starts = self._term_index.get, self._starts
        counted = {}
        for term, stem in zip(terms, stems, strict=True):
            i = at(stem)
            if i is not None and (rows := int(starts[i + 1] - starts[i])):
                counted[term] = rows  # (a term's rows are distinct: one posting a row)
        return counted

    def indexed_rows(self) -> npt.NDArray[np.intp]:
        """The rowids of the index's rows that hold a token (any other matches no term)."""
        return self._np.flatnonzero(self._sizes)

    def rebind(self, conn: sqlite3.Connection) -> None:
        """Read beliefs on ``conn`` from now on: a mirror read on a connection of its own
        (the warm index) answers on the store's, at the same version."""
        self._conn = conn

    def top(
        self,
        terms: list[str],
        weights: tuple[float, ...],
        limit: int,
        *,
        through_ties: bool = False,
    ) -> list[tuple[int, float]] | None:
        """(rowid, -bm25) of the ``limit`` best rows matching any of ``terms``, best first
        (ties in no particular order, as FTS5's ``ORDER BY rank LIMIT``), or None when a
        term is not a single index token (FTS5 must answer that query). With
        ``through_ties``, every row tied with the last of those comes too: the caller can
        then break ties by id itself instead of asking FTS5 for every match."""
        np = self._np
        found = self.matches(terms, weights)
        if found is None:
            return None
        docs, scores = found
        if len(docs) > limit:
            if through_ties:
                cut = np.partition(scores, len(scores) - limit)[len(scores) - limit]
                best = np.flatnonzero(scores >= cut)
            else:
                best = np.argpartition(-scores, limit - 1)[:limit]
            docs, scores = docs[best], scores[best]
        order = np.argsort(-scores, kind="stable")
        return list(zip(docs[order].tolist(), scores[order].tolist(), strict=True))

    def matches(
        self, terms: list[str], weights: tuple[float, ...]
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64]] | None:
        """The rows matching any of ``terms`` (rowids, ascending) and their -bm25 under
        ``weights``, or None when a term is not a single index token (or a row is newer
        than the sizes read: not this version after all). Not to be written to."""
        np = self._np
        stems = self._tokenizer.stems(terms)
        if stems is None or self.rows == 0:
            return None
        eager = self._eager
        if eager is not None and eager[0] == weights:
            # (a warm index's default weights: each term's rows and parts are slices of
            # the flat arrays, taken as they are; no ``Postings`` made a term, ~7 us each)
            doc_list, parts = self._slices(stems, eager[1])
        else:
            found = [p for p in map(self._term_postings, stems) if len(p.docs)]
            doc_list = [p.docs for p in found]
            parts = [self._parts(postings, weights) for postings in found]
        if not doc_list:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        if len(doc_list) == 1:  # its rows distinct and ascending: its parts are the scores
            docs = doc_list[0]
        else:
            docs, where = _distinct(np, np.concatenate(doc_list))
        if docs[-1] >= len(self._sizes):
            return None
        # Each row's parts added from 0.0 in term order (a phrase no row holds adds 0.0 to
        # every row: nothing): ``bincount`` adds its weights one by one in index order, and
        # ``where`` runs term by term, so one call gives the floats that a scatter-add per
        # term gave (three numpy calls a term). One term's rows need no sum: 0.0 + each part
        # is the very float ``bincount`` gives (a -0.0 made 0.0, as it makes it).
        if len(parts) == 1:
            return docs, parts[0] + 0.0
        return docs, np.bincount(where, weights=np.concatenate(parts))

    def _slices(
        self, stems: list[str], parts: npt.NDArray[np.float64]
    ) -> tuple[list[npt.NDArray[Any]], list[npt.NDArray[np.float64]]]:
        """The rows and ``parts`` of each of ``stems`` that some row holds, in order: the
        slices of the flat arrays a complete mirror's ``Postings`` would hold."""
        bounds, at = self._bounds, self._term_index.get
        spans = [
            (bounds[i], bounds[i + 1])
            for i in map(at, stems)
            if i is not None and bounds[i] < bounds[i + 1]
        ]
        docs = self._all_docs
        return [docs[lo:hi] for lo, hi in spans], [parts[lo:hi] for lo, hi in spans]

    def _parts(self, postings: Postings, weights: tuple[float, ...]) -> npt.NDArray[np.float64]:
        """Each of the term's rows' part of the bm25 sum, as fts5Bm25Function computes it:
        fixed for a version and ``weights``, so computed once per term (the same doubles,
        element by element, as computed per query)."""
        found = postings.parts.get(weights)
        if found is None:
            freq = postings.frequencies(weights)
            # k1 * (1 - b + b * D / avgdl), per row, as fts5Bm25Function groups it.
            length = K1 * ((1 - B) + (B * self._sizes[postings.docs]) / self.avgdl)
            idf = _idf(self.rows, len(postings.docs))
            found = postings.parts[weights] = idf * ((freq * (K1 + 1.0)) / (freq + length))
        return found

    def beliefs(self, rowids: list[int]) -> dict[int, tuple[object, ...]]:
        """rowid -> (id, locked, content, alpha, beta, deleted_at, session, created_at) of
        the beliefs with these rowids (absent: none has it), read once per version."""
        known = self._beliefs
        rows = dict(zip(rowids, map(known.get, rowids), strict=True))  # (C-level: most held)
        if None in rows.values():
            missing = [rowid for rowid, row in rows.items() if row is None]
            rows = {rowid: row for rowid, row in rows.items() if row is not None}
            news = {} if self.source is None else self.source(missing)
            unread = [rowid for rowid in missing if rowid not in news]
            if unread:
                self.reads += 1
                fetched = {
                    row[0]: row[1:]
                    for row in self._conn.execute(
                        "SELECT rid, id, locked, content, alpha, beta, deleted_at, session, "
                        "created_at FROM beliefs WHERE rid IN (SELECT value FROM json_each(?))",
                        (json.dumps(unread),),
                    )
                }
                news.update((rowid, fetched.get(rowid, _NO_BELIEF)) for rowid in unread)
            rows.update(news)
            if len(known) + len(news) > MAX_CACHED_BELIEFS:
                known.clear()
            known.update(news)
        if _NO_BELIEF not in rows.values():  # (a row unlike the marker: compared by length)
            return rows
        return {rowid: row for rowid, row in rows.items() if row is not _NO_BELIEF}

    def entries(self, rowids: list[int]) -> list[tuple[Any, ...]]:
        """(id, locked, deleted_at, ``CandidateRow``) of each rowid's belief (``NO_ENTRY``:
        none), in order: ``FtsIndex._mirrored_hits``' rows, made once per row and version."""
        known = self._entries
        out = list(map(known.get, rowids))
        if None in out:
            new = [rowid for rowid, entry in zip(rowids, out, strict=True) if entry is None]
            got = self.beliefs(new).get
            made = {r: NO_ENTRY if (b := got(r)) is None else (*b[:2], b[5], _ROW(b)) for r in new}
            if len(known) + len(made) > MAX_CACHED_BELIEFS:
                known.clear()  # (the answer is read from ``made``: nothing lost here)
            known.update(made)
            out = [made[r] if e is None else e for r, e in zip(rowids, out, strict=True)]
        return out

    def hold(self, rows: dict[int, tuple[object, ...]], entries: dict[int, Any]) -> None:
        """Keep ``rows`` (``beliefs``' rows, by rowid, of this version) as if read and their
        ``entries`` as if made, when they fit ``MAX_CACHED_BELIEFS`` (warm ``prepare``)."""
        if len(self._beliefs) + len(rows) <= MAX_CACHED_BELIEFS:
            self._beliefs.update(rows)
            self._entries.update(entries)

    def _term_postings(self, stem: str) -> Postings:
        found = self._postings.get(stem)
        if found is not None:
            return found
        if self.complete:
            at = self._term_index.get(stem)
            if at is None:
                return parse_postings("", self.columns)  # a term no row holds
            start, end = int(self._starts[at]), int(self._starts[at + 1])
            postings = Postings.held(self._all_docs[start:end], self._all_counts[start:end])
            if self._eager is not None:
                postings.parts[self._eager[0]] = self._eager[1][start:end]
            return self._keep(stem, postings, end - start)
        self.reads += 1
        # One string of (rowid x columns + column) per instance: SQLite builds it in C and
        # numpy parses it, ~4x faster than a Python tuple per instance.
        (listed,) = self._conn.execute(
            f"SELECT group_concat(doc * {self.columns} + {self._column_number}, ',') "
            "FROM temp.credo_fts_instances WHERE term = ?",
            (stem,),
        ).fetchone()
        postings = parse_postings(listed or "", self.columns)
        return self._keep(stem, postings, int(postings.counts.sum()))

    def _keep(self, stem: str, postings: Postings, size: int) -> Postings:
        if self._cached + size > MAX_CACHED_POSTINGS or len(self._postings) > MAX_CACHED_TERMS:
            self._postings.clear()
            self._cached = 0
        self._postings[stem] = postings
        self._cached += size
        return postings


def _idf(rows: int, hits: int) -> float:
    """IDF as fts5Bm25GetData: log((N - n + 0.5) / (n + 0.5)), at least 1e-6."""

    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6


def averages(conn: sqlite3.Connection, index: str = "beliefs_fts") -> tuple[int, list[int]]:
    """FTS5's averages record of ``index`` (row count, tokens per column), what xRowCount
    and xColumnTotalSize read."""
    row = conn.execute(f"SELECT block FROM {index}_data WHERE id = 1").fetchone()
    values = _varints(bytes(row[0])) if row and row[0] else [0, 0, 0]
    return values[0], values[1:]


def _varints(blob: bytes) -> list[int]:
    """SQLite varints (big-endian 7-bit groups; a ninth byte holds 8 bits)."""
    out: list[int] = []
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        out.append(value)
    return out


def _varint_sum(blob: bytes) -> int:
    if len(blob) == 2 and blob[0] < 0x80 and blob[1] < 0x80:
        return blob[0] + blob[1]  # two short columns: nearly every row
    return sum(_varints(blob))
