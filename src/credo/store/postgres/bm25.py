"""BM25F as FTS5's ``bm25()`` computes it, over credo's own postings (pure functions).

``fts5Bm25Function`` (sqlite/ext/fts5/fts5_aux.c), operation by operation, so the scores
are the very doubles SQLite returns (tests/test_pg_bm25.py checks it against FTS5):

    idf(phrase)  = log((N - n + 0.5) / (n + 0.5)), at least 1e-6   (n: rows holding it)
    freq(phrase) = sum of the column weight over the phrase's instances in the row,
                   added in (column, offset) order
    score(row)   = sum over phrases, in query order, of
                   idf * (freq * (k1 + 1)) / (freq + k1 * (1 - b + b * D / avgdl))

with D the row's tokens in all columns and avgdl all columns' tokens over N. FTS5 returns
the negated sum; credo ranks by the sum itself, as ``-bm25(...)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

K1 = 1.2
B = 0.75

# A phrase's instances in one row: the column of each, in (column, offset) order.
Instances = Mapping[int, Sequence[int]]


def idf(rows: int, hits: int) -> float:
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else 1e-6


def phrase_instances(
    tokens: Sequence[str], positions: Mapping[tuple[str, int, int], Sequence[int]]
) -> dict[int, list[int]]:
    """rid -> the columns of the phrase's instances (one per match, in (column, offset)
    order) from ``positions``: (token, rid, column) -> ascending offsets. A phrase of one
    token is each of its offsets; of several, each offset where they follow one another."""
    found: dict[int, list[int]] = {}
    if not tokens:
        return found
    first, rest = tokens[0], tokens[1:]
    for (token, rid, column), offsets in sorted(positions.items(), key=_row_column):
        if token != first:
            continue
        if rest:
            follow = [set(positions.get((t, rid, column), ())) for t in rest]
            count = sum(
                1
                for offset in offsets
                if all(offset + i + 1 in later for i, later in enumerate(follow))
            )
        else:
            count = len(offsets)
        if count:
            found.setdefault(rid, []).extend([column] * count)
    return found


def _row_column(item: tuple[tuple[str, int, int], Sequence[int]]) -> tuple[int, int]:
    return item[0][1], item[0][2]


def scores(
    phrases: Sequence[Instances],
    sizes: Mapping[int, int],
    rows: int,
    total_tokens: int,
    weights: Sequence[float],
) -> dict[int, float]:
    """rid -> BM25F (higher is better) of every row holding at least one phrase.

    ``phrases``: per phrase of the query, in its order, rid -> instance columns;
    ``sizes``: rid -> D; ``rows``, ``total_tokens``: N and all columns' tokens."""
    if rows == 0:
        return {}
    avgdl = float(total_tokens) / float(rows)
    idfs = [idf(rows, len(p)) for p in phrases]
    freqs: list[dict[int, float]] = []
    for found in phrases:
        freq: dict[int, float] = {}
        for rid, columns in found.items():
            total = 0.0
            for column in columns:
                total += weights[column] if column < len(weights) else 1.0
            freq[rid] = total
        freqs.append(freq)
    out: dict[int, float] = {}
    for rid in {r for p in phrases for r in p}:
        length = K1 * (1 - B + B * float(sizes[rid]) / avgdl)
        score = 0.0
        for weight, freq in zip(idfs, freqs, strict=True):
            f = freq.get(rid, 0.0)
            score += weight * ((f * (K1 + 1.0)) / (f + length))
        out[rid] = score
    return out
