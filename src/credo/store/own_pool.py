"""The user's own beliefs among the keyword hits, wherever BM25F ranks them.

A store holds a project's documents (thousands of passages) and the notes its user adds
(``credo remember``, captured statements and corrections, imports, conversation turns:
every origin but ``document``). The keyword lane takes the ``limit`` best rows of one index;
beside a docs tree a note that matches a question's words often ranks past that cut (on
scrapy's docs six notes ranked 55th-109th, two of them in no result at all), and the
user's own word is what a memory engine must not lose. So ``keyword_beliefs`` also takes
the ``own`` best live, unlocked beliefs whose origin is not ``document``, ranked by the same
index with the same statistics (their scores are the doubles the passage query gives them,
so the two lists merge as one ranking), and adds those the cut left out: a union, never a
cut, so every passage hit stays.

By construction two kinds of store answer as before: one without such beliefs (a docs
store: the pool is empty), and one of such beliefs alone (a conversation: the pool's ``own``
best are among the ``limit`` best already, for ``own <= limit``). So a backend reads the
pool only when the store holds such beliefs (the partial index ``beliefs_own``, m020) and
passages (a belief with a context), and only when the hits filled the limit: fewer, and
every matching row is a hit already. The pool's query reads no passage row.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
from typing import TYPE_CHECKING

from credo.store.db import int_array

if TYPE_CHECKING:
    from credo.store.fts import CandidateRow, KeywordWeights

# The pool's rows: live, unlocked, not read from a document.
OWN = "origin <> 'document' AND locked = 0 AND deleted_at IS NULL"

# Whether a store holds any is one probe of this index (none in a docs store).
M020_OWN_BELIEFS = f"CREATE INDEX IF NOT EXISTS beliefs_own ON beliefs(rid) WHERE {OWN};"

# Whether a store holds passages beside them: any belief with a context (the index m006 made),
# which every ingested passage has. (Read exactly, "a live, unlocked document belief", it cost
# either a read through a store of notes, 1.3 ms a one-shot query at 10k, or a second partial
# index, +0.7% of an ingest's instructions; a store of imported documents without their
# context and notes beside them is the one this leaves as before.)
PASSAGES = "context <> ''"

# The pool's rows matching the query, scored by FTS5's bm25() over the whole index. The
# unary plus keeps the rowid test out of FTS5's plan: as a rowid constraint FTS5 would run
# the match once per listed row (and read each term's whole doclist for its IDF each
# time); as a filter, FTS5 walks the matches once and scores only the rows that pass it.
# The range of their rowids it does take (notes are mostly written after the docs they sit
# beside: FTS5 then seeks to them; 0.90 -> 0.34 ms on an 8.6k-passage store).
_OWN_SCORED = (
    "SELECT rowid, -bm25(beliefs_fts, ?, ?, ?) FROM beliefs_fts WHERE beliefs_fts MATCH ? "
    f"AND +rowid IN (SELECT rid FROM beliefs WHERE {OWN}) "
    f"AND rowid >= (SELECT min(rid) FROM beliefs WHERE {OWN}) "
    f"AND rowid <= (SELECT max(rid) FROM beliefs WHERE {OWN})"
)
_OWN_ROWS = (
    "SELECT rid, id, content, alpha, beta, session, created_at FROM beliefs "
    f"WHERE rid IN (SELECT value FROM json_each(?)) AND {OWN}"
)


def sqlite_own_hits(
    conn: sqlite3.Connection, expression: str, weights: "KeywordWeights", limit: int
) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
    """The ``limit`` best pool rows for the FTS5 ``expression`` (id -> score, best first,
    ties by id) and their ``CandidateRow``s."""
    try:
        scored = conn.execute(_OWN_SCORED, (*weights, expression)).fetchall()
    except sqlite3.OperationalError:  # as fts._keyword_rows: no hits
        return {}, {}
    if not scored:
        return {}, {}
    kept = _through_cut(scored, limit)
    rows = conn.execute(_OWN_ROWS, (int_array(r for r, _ in kept),))
    scores = dict(kept)
    return best_own(
        [(scores[r[0]], str(r[1]), (r[2], r[3], r[4], r[5], r[6])) for r in rows], limit
    )


def _through_cut(scored: list[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
    """The rows scoring at least the ``limit``-th best (ties with it too: the id decides
    among them, once read)."""
    if len(scored) <= limit:
        return scored
    cut = sorted((s for _, s in scored), reverse=True)[limit - 1]
    return [(r, s) for r, s in scored if s >= cut]


def best_own(
    found: "list[tuple[float, str, CandidateRow]]", limit: int
) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
    """The ``limit`` best of ``found`` ((score, id, row) of pool rows) by score, ties by id:
    id -> score and id -> ``CandidateRow``."""
    found.sort(key=lambda f: (-f[0], f[1]))
    del found[limit:]
    return {i: s for s, i, _ in found}, {i: row for _, i, row in found}


def with_own(
    hits: dict[str, float],
    rows: dict[str, "CandidateRow"],
    own: tuple[dict[str, float], dict[str, "CandidateRow"]],
) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
    """The keyword hits and the pool's rows the cut left out, by score then id (as one
    index ranks them: each of those scores at most the last hit, so they follow the hits).
    The same objects when the pool adds nothing."""
    own_hits, own_rows = own
    added = {i: s for i, s in own_hits.items() if i not in hits}
    if not added:
        return hits, rows
    merged = sorted([*hits.items(), *added.items()], key=lambda p: (-p[1], p[0]))
    return dict(merged), {**rows, **{i: own_rows[i] for i in added}}
