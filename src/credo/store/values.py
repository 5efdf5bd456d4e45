"""The value index: module-level constants scored by the passage index's statistics.

A constant's definition (``DEFAULT_POOLSIZE = 10``, a JS ``const`` of data: chunk/code.py,
``Chunk.value``) is a belief of its own, and a short one. In the passage index
(``beliefs_fts``) a few dozen such rows lowered the mean row length that bm25 normalises
by (b = 0.75) and added rows to its N, so every long passage lost a little to every short
one in questions that were not about constants (day-const79: ws nDCG 0.902 -> 0.864). So
these beliefs are indexed apart (``values_fts``: m015), and the passage index holds exactly
the rows it held without them.

A query's constants are scored as the passage index would score them if they were rows of
it that its statistics did not count: fts5Bm25Function's arithmetic
(store/bm25_mirror.py), with the passage index's row count, mean row length and each
term's row count, and the constant's own term counts (per column, weighted) and length.
``with_values`` then ranks them among the keyword hits, which are otherwise unchanged.
A query term that is several index tokens (a phrase to FTS5) adds nothing to a constant's
score.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
from typing import TYPE_CHECKING

from credo.store.bm25_mirror import B, K1, _idf, _varint_sum, averages
from credo.store.fts import match_expression
from credo.store.index_text import SQL_FUNCTION

if TYPE_CHECKING:
    from credo.store.fts import CandidateRow, KeywordWeights
    from credo.store.tokenizer import Tokenizer

VALUE_KIND = "value"  # (``beliefs.kind`` of a constant's belief: what the triggers test)

_F = SQL_FUNCTION
_LIVE = f"""SELECT rid, {_F}(content) AS content, {_F}(anchor_text) AS anchor_text,
        {_F}(context) AS context
    FROM beliefs WHERE deleted_at IS NULL"""
_FIELDS = f"{_F}(R.content), {_F}(R.anchor_text), {_F}(R.context)"


def _triggers(table: str, test: str) -> str:
    """The three triggers that keep ``table`` in step with the beliefs that pass ``test``
    (R: the row; as m013's, with the row's kind tested)."""
    new, old = test.replace("R.", "NEW."), test.replace("R.", "OLD.")
    fields_new, fields_old = _FIELDS.replace("R.", "NEW."), _FIELDS.replace("R.", "OLD.")
    return f"""
CREATE TRIGGER {table}_insert AFTER INSERT ON beliefs
WHEN NEW.deleted_at IS NULL AND {new} AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    INSERT INTO {table}(rowid, content, anchor_text, context)
    VALUES (NEW.rid, {fields_new});
END;
CREATE TRIGGER {table}_delete AFTER DELETE ON beliefs WHEN OLD.deleted_at IS NULL AND {old}
BEGIN
    INSERT INTO {table}({table}, rowid, content, anchor_text, context)
    VALUES ('delete', OLD.rid, {fields_old});
END;
CREATE TRIGGER {table}_update
AFTER UPDATE OF content, anchor_text, context, deleted_at, kind ON beliefs
BEGIN
    INSERT INTO {table}({table}, rowid, content, anchor_text, context)
    SELECT 'delete', OLD.rid, {fields_old}
    WHERE OLD.deleted_at IS NULL AND {old};
    INSERT INTO {table}(rowid, content, anchor_text, context)
    SELECT NEW.rid, {fields_new}
    WHERE NEW.deleted_at IS NULL AND {new};
END;
"""


_PASSAGE = f"R.kind <> '{VALUE_KIND}'"
_VALUE = f"R.kind = '{VALUE_KIND}'"
M015_VALUE_INDEX = (
    f"""
DROP TRIGGER beliefs_fts_insert;
DROP TRIGGER beliefs_fts_delete;
DROP TRIGGER beliefs_fts_update;
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    {_LIVE} AND kind <> '{VALUE_KIND}';
CREATE VIEW values_live AS
    {_LIVE} AND kind = '{VALUE_KIND}';
CREATE VIRTUAL TABLE values_fts USING fts5(
    content, anchor_text, context,
    content='values_live', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
"""
    + _triggers("beliefs_fts", _PASSAGE)
    + _triggers("values_fts", _VALUE)
)


def apply_m015(conn: sqlite3.Connection, statements: list[str]) -> None:
    """Run m015's ``statements``, then move a store's constants (none before this
    reading) from the passage index to the value index."""
    for statement in statements:
        conn.execute(statement)
    moved = conn.execute(
        "SELECT rid FROM beliefs WHERE kind = ? AND deleted_at IS NULL", (VALUE_KIND,)
    ).fetchall()
    if moved:  # (a store read by this reading before m015 existed: none shipped)
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild')")
        conn.execute("INSERT INTO values_fts(values_fts) VALUES ('rebuild')")


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
        term_rows: dict[str, int],
    ) -> tuple[dict[str, float], dict[str, "CandidateRow"]]:
        """The ``limit`` best live, unlocked constants for ``terms`` (id -> score, best
        first, ties by id) and their ``CandidateRow``s. ``term_rows``: each term's rows in
        the passage index (``FtsIndex.term_rows``), the n of its IDF there."""
        conn = self._conn
        expression = match_expression(terms)
        if expression is None:
            return {}, {}
        try:
            matched = [
                r for (r,) in conn.execute("SELECT rowid FROM values_fts WHERE values_fts MATCH ?",
                                           (expression,))
            ]
        except sqlite3.OperationalError:  # as fts._keyword_rows: no hits
            return {}, {}
        if not matched:
            return {}, {}
        rows, totals = averages(conn)
        avgdl = float(sum(totals)) / float(rows) if rows else 0.0
        if not rows or avgdl <= 0.0:
            return {}, {}
        wanted = set(matched)
        sizes = {
            rowid: _varint_sum(blob)
            for rowid, blob in conn.execute(
                "SELECT id, sz FROM values_fts_docsize WHERE id IN "
                f"({', '.join('?' * len(wanted))})",
                sorted(wanted),
            )
        }
        columns = len(totals)
        scores = dict.fromkeys(sorted(wanted), 0.0)
        for term in dict.fromkeys(terms):
            stems = self._tokenizer.stems([term])
            if stems is None:
                continue  # (a phrase: see the module's doc)
            freq: dict[int, float] = {}
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
            idf = _idf(rows, term_rows.get(term, 0))
            for doc, by_column in counts.items():
                total = 0.0
                for column, count in enumerate(by_column):
                    for _ in range(count):
                        total += weights[column]
                freq[doc] = total
                length = K1 * ((1 - B) + (B * sizes.get(doc, 0)) / avgdl)
                scores[doc] += idf * ((total * (K1 + 1.0)) / (total + length))
        found = conn.execute(
            "SELECT rid, id, content, alpha, beta, session, created_at FROM beliefs "
            f"WHERE rid IN ({', '.join('?' * len(scores))}) AND locked = 0 "
            "AND deleted_at IS NULL",
            list(scores),
        ).fetchall()
        ranked = sorted(((scores[r[0]], r) for r in found), key=lambda p: (-p[0], p[1][1]))
        ranked = [(score, row) for score, row in ranked if score > 0.0][:limit]
        hits = {row[1]: score for score, row in ranked}
        beliefs = {row[1]: (row[2], row[3], row[4], row[5], row[6]) for _, row in ranked}
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
