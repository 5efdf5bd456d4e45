"""The value index on PostgreSQL: store/values.py's constants, the same scores.

Module-level constants (beliefs of kind ``value``) sit in ``value_docs`` and
``value_postings`` (schema.py, m016), counted in none of ``fts_totals``. A query's
constants are scored as store/values.py scores them on SQLite, by its ``term_score`` with
the passage index's row count, mean row length and each term's row count there, and the
constant's own term counts and length; a term of several tokens (a phrase) adds nothing.
A passage index holding no token lends none: the constants' own index's statistics, as there.
Each term is counted once, in query order, as there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from credo.store.postgres import bm25
from credo.store.values import best_hits, term_score

if TYPE_CHECKING:
    import psycopg

    from credo.store.fts import CandidateRow, KeywordWeights
    from credo.store.postgres.tokenizer import Tokenizer


def value_hits(
    conn: psycopg.Connection,
    tokenizer: Tokenizer,
    terms: Sequence[str],
    weights: KeywordWeights,
    limit: int,
) -> tuple[dict[str, float], dict[str, CandidateRow]]:
    """The ``limit`` best live, unlocked constants for ``terms`` (id -> score, best first,
    ties by id) and their ``CandidateRow``s: ``ValueIndex.hits``' answer."""
    tokens: dict[str, str] = {}  # each distinct term of one token -> that token
    for term, phrase in zip(terms, tokenizer.phrases(terms), strict=True):
        if len(phrase) == 1 and term not in tokens:
            tokens[term] = phrase[0]
    if not tokens:
        return {}, {}
    wanted = sorted(set(tokens.values()))
    postings = conn.execute(
        "SELECT term, rid, col, n, dl FROM value_postings WHERE term = ANY(%s)", (wanted,)
    ).fetchall()
    if not postings:
        return {}, {}
    # The passage index's N, total tokens and each token's rows: its statistics.
    found = conn.execute(
        "SELECT t.nrows, t.sizes, p.term, p.rows FROM fts_totals AS t LEFT JOIN "
        "(SELECT term, count(DISTINCT rid) AS rows FROM fts_postings WHERE term = ANY(%s) "
        "GROUP BY term) AS p ON true",
        (wanted,),
    ).fetchall()
    rows, total = (int(found[0][0]), sum(int(s) for s in found[0][1])) if found else (0, 0)
    held = {str(r[2]): int(r[3]) for r in found if r[2] is not None}
    counts: dict[str, dict[int, list[int]]] = {}  # token -> rid -> instances per column
    sizes: dict[int, int] = {}
    for token, rid, column, n, length in postings:
        counts.setdefault(token, {}).setdefault(rid, [0, 0, 0])[column] += n
        sizes[rid] = length
    if not rows or total <= 0:
        # A passage index holding no token lends no statistics: the constants' own index's
        # (values.py), each token's rows those its postings name.
        rows, total = conn.execute(
            "SELECT count(*), coalesce(sum(sizes[1] + sizes[2] + sizes[3]), 0) FROM value_docs"
        ).fetchone()
        rows, total = int(rows), int(total)
        held = {token: len(by_row) for token, by_row in counts.items()}
    if not rows or total <= 0:
        return {}, {}
    avgdl = float(total) / float(rows)
    scores = dict.fromkeys(sorted(sizes), 0.0)
    for token in tokens.values():
        by_row = counts.get(token)
        if not by_row:
            continue
        idf = bm25.idf(rows, held.get(token, 0))
        for rid, by_column in by_row.items():
            scores[rid] += term_score(idf, by_column, weights, sizes[rid], avgdl)
    live = conn.execute(
        "SELECT rid, id, content, alpha, beta, session, created_at FROM beliefs "
        "WHERE rid = ANY(%s) AND locked = 0 AND deleted_at IS NULL",
        (list(scores),),
    ).fetchall()
    return best_hits(scores, live, limit)
