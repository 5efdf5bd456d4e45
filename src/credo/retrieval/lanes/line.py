"""The line lane: a documentation passage scored by its best line (passage-level evidence).

A passage joins a section's paragraphs, bullets and headings up to ~800 characters
(knowledge/chunk/passage.py), and BM25 scores it as one bag of words: a question answered
by one paragraph of a long passage competes with passages that hold its words scattered.
Callan's passage-level evidence (SIGIR 1994) adds the score of the unit's best sub-passage;
here the sub-passages are the passage's lines (the chunks it joined), scored by BM25F over
the line (weight 1) and the passage's context field (``CONTEXT_WEIGHT``: trail, path words,
a code example's names), each field with its own length normalisation:

    f(t, line) = tf(t, line) / (1 - b + b * max(|line|, floor) / avg|line|)
               + CONTEXT_WEIGHT * tf(t, context) / (1 - b + b * |context| / avg|context|)
    score(line) = sum over query stems t of idf(t) * f * (k1 + 1) / (f + k1)

with idf over the store's documentation lines (FTS5's form, floored at 1e-6). The floor is
what keeps a short dense line (a heading, a one-line entry) from scoring as a unit of its
own: a line shorter than ``FLOOR_SHARE`` times the store's mean line length is normalised
as if it were that long, so its few words earn what they would in an ordinary line, and no
more (the one-liner problem issue #14 began with). The lane's value for a keyword hit is
its best line's score; ``compose`` normalises it among the candidates like every lane.

Only passages with stored line statistics take part: documentation ingested through
``credo ingest`` (store/line_stats.py). Code passages, notes and conversation turns have
none, so the lane leaves them as the other lanes rank them. All the statistics are lookups
(two queries); no text is tokenised at query time.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple

from credo.store.line_stats import CONTEXT, LENGTH, LINES, PASSAGES, LinesRow
from credo.store.stem import stem, tokens

if TYPE_CHECKING:
    from credo.store import Store

K1 = 1.2
B = 0.4
CONTEXT_WEIGHT = 0.5
# The line-length floor, as a share of the store's mean line length (docs/BENCHMARKS.md §
# Ranking, eighth pass: 1.25 to 1.75 held every corpus; 1.0 and 2.0 each lost a question).
FLOOR_SHARE = 1.5


def query_stems(terms: Iterable[str]) -> list[str]:
    """The query's stems as the index holds them, distinct, in first-seen order."""
    return list(dict.fromkeys(stem(t) for term in terms for t in tokens(term)))


class QueryStems:
    """``query_stems(terms)``, made on first use and kept: the line and definition lanes
    share one, and a store without line statistics or definitions never makes it (the
    counts are not asked for: ``line_counts``), ~55k instructions a query on a store of
    notes. Iterable, as the counts' readers take the stems."""

    __slots__ = ("_made", "_terms")

    def __init__(self, terms: Iterable[str]) -> None:
        self._terms = terms
        self._made: list[str] | None = None

    def stems(self) -> list[str]:
        if self._made is None:
            self._made = query_stems(self._terms)
        return self._made

    def __iter__(self) -> Iterator[str]:
        return iter(self.stems())


# What the lane read for its scores: the query's stems, their counts, the hits' rows.
LineReads = tuple[list[str], Mapping[str, int], Mapping[str, LinesRow]]


class LineRead(NamedTuple):
    """The lane's scores, and what it read for them: the query's stems, their
    ``line_counts`` and the hits' rows (``passage_lines``), which retrieval/own_line.py
    reads too; None for all three when nothing was scored."""

    scores: dict[str, float]
    read: LineReads | None = None


def line_scores(store: Store, terms: Iterable[str], hits: Collection[str]) -> LineRead:
    """Each keyword hit with line statistics -> its best line's score (positive only), and
    what was read for them. ``terms``: the query's, or a ``QueryStems`` of them (the
    caller's, shared)."""
    if not hits:
        return LineRead({})
    asked = terms if isinstance(terms, QueryStems) else QueryStems(terms)
    # (first: a store of notes has no lines to read, and its stems are never made; with
    # none, the totals alone are read and nothing is scored, as before)
    counts = store.line_counts(asked)
    if not counts.get(LINES):
        return LineRead({})
    query = asked.stems()
    if not query:
        return LineRead({})
    rows = store.passage_lines(hits)
    scores = best_lines(rows, query, counts) if rows else {}
    return LineRead(scores, (query, counts, rows) if scores else None)


def best_lines(
    rows: Mapping[str, tuple[str, str]], query: list[str], counts: Mapping[str, int]
) -> dict[str, float]:
    """The lane over stored rows (id -> (lines, context)) with ``line_df``'s ``counts``:
    pure, so its invariants are tested without a store."""
    lines_total = counts.get(LINES, 0)
    if not query:
        return {}
    passages = counts.get(PASSAGES, 0)
    if lines_total <= 0 or passages <= 0:
        return {}
    mean_line = max(counts.get(LENGTH, 0) / lines_total, 1.0)
    mean_context = max(counts.get(CONTEXT, 0) / passages, 1.0)
    floor = FLOOR_SHARE * mean_line
    idf = {t: fts5_idf(lines_total, counts.get(t, 0)) for t in query}
    wanted = set(query)
    out: dict[str, float] = {}
    for belief_id, (lines, context) in rows.items():
        if not lines:
            continue
        words = context.split()
        weight = CONTEXT_WEIGHT / (1 - B + B * len(words) / mean_context)
        in_context = {t: words.count(t) * weight for t in wanted.intersection(words)}
        alone = {t: _term(idf[t], f) for t, f in in_context.items()}
        # A line without a query stem scores the context's part alone, whatever its
        # length, and a line with one never scores less: only those lines are scored.
        base = sum(alone[t] for t in sorted(alone))
        best = base
        for line in lines.split("\n"):
            words = line.split()
            found = wanted.intersection(words)
            if not found:
                continue
            norm = 1 - B + B * max(len(words), floor) / mean_line
            score = base
            for t in sorted(found):
                f = words.count(t) / norm + in_context.get(t, 0.0)
                score += _term(idf[t], f) - alone.get(t, 0.0)
            best = max(best, score)
        if best > 0:
            out[belief_id] = best
    return out


def _term(idf: float, f: float) -> float:
    """One stem's part of a line's BM25F: its weighted frequency ``f``, saturated."""
    return idf * f * (K1 + 1) / (f + K1)


def fts5_idf(total: int, df: int) -> float:
    """FTS5's idf form over ``total`` units, ``df`` of them holding the stem, floored."""
    return max(1e-6, math.log((total - df + 0.5) / (df + 0.5)))
