"""The value index: module-level constants scored by the passage index's statistics.

A constant's definition (``DEFAULT_POOLSIZE = 10``, a JS ``const`` of data:
``Chunk.value``) is a belief of its own, and a short one. Put in the passage index
(``beliefs_fts``), a few dozen such rows lowered the mean row length that bm25 normalises
by (b = 0.75) and added to its N, so every long passage lost a little to every short one
in questions about anything else (day-const79: ws nDCG 0.902 -> 0.864). So a constant
takes nothing from its file's passages (ingest/split.py: the module code and comments
around it are read as without it) and its belief sits in an index of its own
(``values_fts``: store/value_migration.py): the passage index holds exactly the rows it
held without constants, and ranks them exactly as it did.

A query's constants are scored as the passage index would score them if they were rows of
it that its statistics did not count: fts5Bm25Function's arithmetic (store/bm25_mirror.py)
with the passage index's row count, mean row length and each term's row count, and the
constant's own term counts (per column, weighted) and length. ``with_values`` ranks them
among the keyword hits. A query term that is several index tokens (a phrase to FTS5) adds
nothing to a constant's score.

A passage index that holds no token (a store of constants alone, an imported one or a file
of nothing else) has no statistics to lend: its N is 0 and its mean row length 0/0. The
constants are then scored by their own index's statistics, as FTS5's ``bm25()`` on
``values_fts`` would score them; with one passage indexed the passage index's apply again.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
from typing import TYPE_CHECKING

from credo.store.bm25_mirror import K1, B, _idf, _varint_sum, averages
from credo.store.db import int_array
from credo.store.fts import match_expression

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from credo.store.fts import CandidateRow, KeywordWeights
    from credo.store.tokenizer import Tokenizer


class ValueIndex:
    """One connection's reads of ``values_fts``, scored by ``beliefs_fts``' statistics."""

    def __init__(self, conn: sqlite3.Connection, tokenizer: "Tokenizer") -> None:
        self._conn = conn
        self._tokenizer = tokenizer
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.credo_values_instances "
            "USING fts5vocab(main, values_fts, instance)"
        )

    def hits(
        self,
        terms: list[str],
        weights: "KeywordWeights",
        limit: int,
        term_rows: "Callable[[list[str]], dict[str, int]]",
    ) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
        """The ``limit`` best live, unlocked constants for ``terms`` (id -> score, best
        first, ties by id) and their ``CandidateRow``s. ``term_rows``: each term's rows in
        the passage index (``FtsIndex.term_rows``), the n of its IDF there (asked only
        when a constant matches)."""
        conn = self._conn
        expression = match_expression(terms)
        if expression is None:
            return {}, {}
        try:
            matched = [
                r
                for (r,) in conn.execute(
                    "SELECT rowid FROM values_fts WHERE values_fts MATCH ?", (expression,)
                )
            ]
        except sqlite3.OperationalError:  # as fts._keyword_rows: no hits
            return {}, {}
        if not matched:
            return {}, {}
        rows, totals = averages(conn)
        # A passage index holding no token has no statistics to lend (N = 0, no mean
        # length: every constant scored 0 and none was found): the constants' own index's.
        own = not rows or sum(totals) <= 0
        if own:
            rows, totals = averages(conn, "values_fts")
        avgdl = float(sum(totals)) / float(rows) if rows else 0.0
        if not rows or avgdl <= 0.0:
            return {}, {}
        wanted = set(matched)
        # (ids as one JSON array: a bound variable each would pass SQLite's limit, 32766 in
        # most builds, on a query a store's many constants all match)
        sizes = {
            rowid: _varint_sum(blob)
            for rowid, blob in conn.execute(
                "SELECT id, sz FROM values_fts_docsize WHERE id IN "
                "(SELECT value FROM json_each(?))",
                (int_array(sorted(wanted)),),
            )
        }
        columns = len(totals)
        held = {} if own else term_rows(terms)
        scores = dict.fromkeys(sorted(wanted), 0.0)
        for term in dict.fromkeys(terms):
            stems = self._tokenizer.stems([term])
            if stems is None:
                continue  # (a phrase: see the module's doc)
            counts: dict[int, list[int]] = {}
            for doc, column in conn.execute(
                "SELECT doc, CASE col WHEN 'content' THEN 0 WHEN 'anchor_text' THEN 1 "
                "ELSE 2 END FROM temp.credo_values_instances WHERE term = ?",
                (stems[0],),
            ):
                if doc in wanted:
                    counts.setdefault(doc, [0] * columns)[column] += 1
            if not counts:
                continue
            # (own: every row holding the term matched, so ``counts`` holds them all)
            idf = _idf(rows, len(counts) if own else held.get(term, 0))
            for doc, by_column in counts.items():
                scores[doc] += term_score(idf, by_column, weights, sizes.get(doc, 0), avgdl)
        found = conn.execute(
            "SELECT rid, id, content, alpha, beta, session, created_at FROM beliefs "
            "WHERE rid IN (SELECT value FROM json_each(?)) AND locked = 0 "
            "AND deleted_at IS NULL",
            (int_array(scores),),
        ).fetchall()
        return best_hits(scores, found, limit)


def term_score(
    idf: float, by_column: "list[int]", weights: "KeywordWeights", size: int, avgdl: float
) -> float:
    """One query term's bm25 score in one constant (FTS5's arithmetic, fts5Bm25Function):
    ``by_column`` its instances per column, each counted at its column's weight, one by one
    (FTS5's order of additions); ``size`` the constant's tokens. Both backends score by it,
    so their doubles are the same."""
    total = 0.0
    for column, count in enumerate(by_column):
        for _ in range(count):
            total += weights[column]
    length = K1 * ((1 - B) + (B * size) / avgdl)
    return idf * ((total * (K1 + 1.0)) / (total + length))


def best_hits(
    scores: "dict[int, float]", found: "Sequence[Sequence[Any]]", limit: int
) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
    """The ``limit`` best of ``found`` (rows of rid, id, content, alpha, beta, session,
    created_at: the live, unlocked constants scored) with a score above 0, best first, ties
    by id: id -> score and id -> ``CandidateRow``."""
    ranked = sorted(((scores[r[0]], r) for r in found), key=lambda p: (-p[0], p[1][1]))
    ranked = [(score, row) for score, row in ranked if score > 0.0][:limit]
    hits = {str(row[1]): score for score, row in ranked}
    beliefs = {str(row[1]): (row[2], row[3], row[4], row[5], row[6]) for _, row in ranked}
    return hits, beliefs


def with_values(
    hits: dict[str, float],
    rows: dict[str, "CandidateRow"],
    values: tuple[dict[str, float], dict[str, "CandidateRow"]],
    limit: int,
) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
    """The keyword hits with the constants among them: the ``limit`` best of both by
    score, ties by id (as one index would rank them)."""
    value_hits, value_rows = values
    if not value_hits:
        return hits, rows
    merged = sorted([*hits.items(), *value_hits.items()], key=lambda p: (-p[1], p[0]))[:limit]
    kept = dict(merged)
    every = {**rows, **value_rows}
    return kept, {i: every[i] for i in kept if i in every}
