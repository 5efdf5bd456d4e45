"""The keyword index on PostgreSQL: kept in step before each COMMIT, searched by BM25F.

Writing: the triggers of schema.py queue the rows whose indexed text changed
(``fts_dirty``); ``flush_keyword_index`` tokenizes them on the client (tokenizer.py) and
rewrites their postings, sizes and the totals, inside the writer's transaction.

Searching: one statement reads the totals and the postings of the query's tokens (one
snapshot); BM25F is computed here (bm25.py, FTS5's arithmetic); the best rows are joined
to their beliefs, a few at a time, until the answer is provably the exact query's (the
``limit`` best live, unlocked rows, ties by id: what store/fts.py's SQL returns).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from credo.store.fts import (
    ANCHOR_WEIGHT,
    CONTENT_WEIGHT,
    CONTEXT_WEIGHT,
    KEYWORD_SLACK,
    CandidateRow,
    KeywordReads,
    KeywordRow,
    KeywordWeights,
)
from credo.store.postgres import bm25
from credo.store.postgres.tokenizer import Postings, Tokenizer
from credo.store.value_migration import VALUE_KIND

if TYPE_CHECKING:
    import psycopg

    from credo.store.rows import CaptureCandidate

FLUSH_CHUNK = 5_000  # rows tokenized and copied per round

Documents = dict[int, tuple[Postings, tuple[int, int, int]]]  # Tokenizer.documents' answer


def flush_keyword_index(conn: psycopg.Connection, tokenizer: Tokenizer) -> int:
    """Index the queued rows (inside the caller's transaction). Returns how many."""
    done = 0
    while True:
        dirty = [
            int(r[0])
            for r in conn.execute(
                "DELETE FROM fts_dirty WHERE rid IN (SELECT rid FROM fts_dirty LIMIT %s) "
                "RETURNING rid",
                (FLUSH_CHUNK,),
            )
        ]
        if not dirty:
            return done
        done += len(dirty)
        _reindex(conn, tokenizer, dirty)


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value: str) -> str:
    """``value`` as a field of COPY's text format."""
    return value.translate(_COPY_ESCAPES) if not value.isalnum() else value


def _reindex(conn: psycopg.Connection, tokenizer: Tokenizer, rids: list[int]) -> None:
    removed = conn.execute(
        "DELETE FROM fts_docs WHERE rid = ANY(%s) RETURNING sizes", (rids,)
    ).fetchall()
    conn.execute("DELETE FROM fts_postings WHERE rid = ANY(%s)", (rids,))
    conn.execute("DELETE FROM value_docs WHERE rid = ANY(%s)", (rids,))
    conn.execute("DELETE FROM value_postings WHERE rid = ANY(%s)", (rids,))
    live = conn.execute(
        "SELECT rid, content, anchor_text, context, kind = %s FROM beliefs "
        "WHERE rid = ANY(%s) AND deleted_at IS NULL ORDER BY rid",
        (VALUE_KIND, rids),
    ).fetchall()
    passages = tokenizer.documents([(int(r[0]), r[1], r[2], r[3]) for r in live if not r[4]])
    values = tokenizer.documents(
        [(int(r[0]), r[1], r[2], r[3]) for r in live if r[4]], compound=False
    )
    delta = [0, 0, 0]
    for (sizes,) in removed:
        for i, size in enumerate(sizes):
            delta[i] -= int(size)
    for _, sizes in passages.values():
        for i, size in enumerate(sizes):
            delta[i] += size
    _copy_rows(conn, passages, "fts_docs", "fts_postings")
    _copy_rows(conn, values, "value_docs", "value_postings")  # (in no total: the module doc)
    conn.execute(
        "UPDATE fts_totals SET nrows = nrows + %s, "
        "sizes = ARRAY[sizes[1] + %s, sizes[2] + %s, sizes[3] + %s]::bigint[]",
        (len(passages) - len(removed), *delta),
    )


def _copy_rows(conn: psycopg.Connection, docs: Documents, sizes_table: str, postings: str) -> None:
    """``docs``' sizes and postings into ``sizes_table`` and ``postings``."""
    if not docs:
        return
    # The rows go in as COPY's text format, written here: psycopg's per-value dumpers (an
    # int[] each) cost more than the rest of the indexing together. Tokens hold no tab,
    # newline or backslash, but are escaped all the same.
    lines = [f"{rid}\t{{{sizes[0]},{sizes[1]},{sizes[2]}}}\n" for rid, (_, sizes) in docs.items()]
    found_lines: list[str] = []
    for rid, (found, sizes) in docs.items():
        tail = f"\t{rid}\t"
        length = sum(sizes)
        for (term, column), offsets in found.items():
            found_lines.append(
                f"{_copy_text(term)}{tail}{column}\t{len(offsets)}\t{length}\t"
                f"{{{','.join(map(str, offsets))}}}\n"
            )
    with conn.cursor() as cur:
        with cur.copy(f"COPY {sizes_table} (rid, sizes) FROM STDIN") as copy:  # type: ignore[arg-type]
            copy.write("".join(lines))
        with cur.copy(  # type: ignore[arg-type]
            f"COPY {postings} (term, rid, col, n, dl, pos) FROM STDIN"
        ) as copy:
            for start in range(0, len(found_lines), FLUSH_CHUNK):
                copy.write("".join(found_lines[start : start + FLUSH_CHUNK]))


# A row not waiting in the queue: the next flush rewrites a queued row's postings, so until
# then they may hold its old text's, or belong to a belief since forgotten.
_NOT_QUEUED = "NOT EXISTS (SELECT 1 FROM fts_dirty q WHERE q.rid = {rid})"


def rows_unlike_their_text(
    conn: psycopg.Connection,
    tokenizer: Tokenizer,
    docs_table: str = "fts_docs",
    postings_table: str = "fts_postings",
) -> int:
    """How many indexed live beliefs hold postings or sizes other than their text's
    tokens (read again by the tokenizer, ``FLUSH_CHUNK`` rows at a time), in the passage
    index or (``value_docs``, ``value_postings``) the constants'. A row waiting to be
    indexed again (in ``fts_dirty``) holds its old text's by design: not counted."""
    differ, after = 0, -1
    while True:
        live = conn.execute(
            "SELECT b.rid, b.content, b.anchor_text, b.context, d.sizes FROM beliefs b "  # type: ignore[arg-type]
            f"JOIN {docs_table} d ON d.rid = b.rid WHERE b.deleted_at IS NULL AND b.rid > %s "
            f"AND {_NOT_QUEUED.format(rid='b.rid')} ORDER BY b.rid LIMIT %s",
            (after, FLUSH_CHUNK),
        ).fetchall()
        if not live:
            return differ
        after = int(live[-1][0])
        rids = [int(r[0]) for r in live]
        stored: dict[int, dict[tuple[str, int], tuple[int, int, list[int]]]] = {}
        for term, rid, column, n, length, offsets in conn.execute(
            f"SELECT term, rid, col, n, dl, pos FROM {postings_table} WHERE rid = ANY(%s)",  # type: ignore[arg-type]
            (rids,),
        ):
            stored.setdefault(int(rid), {})[(term, int(column))] = (n, length, list(offsets))
        docs = tokenizer.documents(
            [(int(r[0]), r[1], r[2], r[3]) for r in live],
            compound=docs_table == "fts_docs",
        )
        for r in live:
            postings, sizes = docs[int(r[0])]
            length = sum(sizes)
            expected = {k: (len(v), length, v) for k, v in postings.items()}
            if list(r[4]) != list(sizes) or stored.get(int(r[0]), {}) != expected:
                differ += 1


class KeywordIndex(KeywordReads):
    conn: psycopg.Connection
    _tokenizer: Tokenizer

    def _scored(
        self, phrases: Sequence[Sequence[str]], weights: Sequence[float]
    ) -> dict[int, float]:
        """rid -> BM25F of every row holding one of ``phrases`` (one statement)."""
        tokens = sorted({t for p in phrases for t in p})
        if not tokens:
            return {}
        multi = sorted({t for p in phrases if len(p) > 1 for t in p})
        rows = self.conn.execute(
            "SELECT t.nrows, t.sizes, p.term, p.rid, p.col, p.n, p.dl, "
            "CASE WHEN p.term = ANY(%s) THEN p.pos END "
            "FROM fts_totals AS t LEFT JOIN fts_postings AS p ON p.term = ANY(%s)",
            (multi, tokens),
        ).fetchall()
        if not rows:
            return {}
        nrows, totals = int(rows[0][0]), rows[0][1]
        sizes: dict[int, int] = {}
        counts: dict[str, dict[int, list[int]]] = {}
        positions: dict[tuple[str, int, int], list[int]] = {}
        for _, _, term, rid, column, n, length, offsets in rows:
            if term is None:
                continue
            sizes[rid] = length
            counts.setdefault(term, {}).setdefault(rid, []).extend([column] * n)
            if offsets is not None:
                positions[(term, rid, column)] = offsets
        instances: list[dict[int, list[int]]] = []
        for phrase in phrases:
            if len(phrase) == 1:
                found = counts.get(phrase[0], {})
                instances.append({rid: sorted(cols) for rid, cols in found.items()})
            else:
                instances.append(bm25.phrase_instances(phrase, positions))
        return bm25.scores(instances, sizes, nrows, sum(int(s) for s in totals), weights)

    def _value_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """store/fts.py's: the constants of ``value_docs`` and ``value_postings``."""
        if not terms:
            return {}, {}
        from credo.store.postgres.values import value_hits

        return value_hits(self.conn, self._tokenizer, terms, weights, limit)

    def _own_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """store/fts.py's: the user's own beliefs among every row holding the terms, by
        the same scores (only in a store that holds both: own_pool.py)."""
        from credo.store.own_pool import OWN, PASSAGES, best_own

        (mixed,) = self.conn.execute(
            f"SELECT EXISTS (SELECT 1 FROM beliefs WHERE {OWN}) "
            f"AND EXISTS (SELECT 1 FROM beliefs WHERE {PASSAGES})"
        ).fetchone() or (False,)
        if not mixed:
            return {}, {}
        scored = self._scored(self._tokenizer.phrases(terms), weights)
        if not scored:
            return {}, {}
        rows = self.conn.execute(
            "SELECT rid, id, content, alpha, beta, session, created_at FROM beliefs "  # type: ignore[arg-type]
            f"WHERE rid = ANY(%s) AND {OWN}",
            (sorted(scored),),
        ).fetchall()
        return best_own(
            [(scored[r[0]], str(r[1]), (r[2], r[3], r[4], r[5], r[6])) for r in rows], limit
        )

    def keyword_scores(self, terms: list[str], ids: list[str]) -> dict[str, float]:
        """store/fts.py's: the same scores, here from every row holding the terms."""
        if not terms or not ids:
            return {}
        scored = self._scored(
            self._tokenizer.phrases(terms), (CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT)
        )
        rows = self.conn.execute("SELECT rid, id FROM beliefs WHERE id = ANY(%s)", (ids,))
        return {str(i): scored[r] for r, i in rows.fetchall() if r in scored}

    def term_rows(self, terms: list[str]) -> dict[str, int]:
        """store/fts.py's: the rows of the index holding each term (a phrase's, all of its
        words in order), as bm25's IDF counts them."""
        counted: dict[str, int] = {}
        for term, phrase in zip(terms, self._tokenizer.phrases(terms), strict=True):
            if phrase and (rows := len(self._scored([phrase], (1.0, 1.0, 1.0)))):
                counted[term] = rows
        return counted

    def _keyword_rows(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> list[KeywordRow]:
        """store/fts.py's rows, the same ids and scores: BM25F over (content, anchor_text,
        context) for live, unlocked beliefs, ties by id."""
        if not terms:
            return []
        return self._best(self._scored(self._tokenizer.phrases(terms), weights), limit)

    def _best(self, scored: dict[int, float], limit: int) -> list[KeywordRow]:
        """The ``limit`` best (score, then id) unlocked beliefs among ``scored`` rows
        (all of them for a negative limit), joined a slice at a time."""
        order = sorted(scored, key=lambda rid: -scored[rid])
        unlocked: list[KeywordRow] = []
        start, step = 0, (limit + KEYWORD_SLACK if limit >= 0 else len(order))
        while start < len(order):
            part = order[start : start + step]
            start += len(part)
            for r in self.conn.execute(
                "SELECT rid, id, locked, content, alpha, beta, deleted_at, session, "
                "created_at FROM beliefs WHERE rid = ANY(%s) AND locked = 0",
                (part,),
            ):
                unlocked.append((r[1], scored[r[0]], *r[2:]))  # type: ignore[arg-type]
            if limit >= 0 and start < len(order):
                below = scored[order[start]]  # no row left to read scores above it
                if sum(1 for row in unlocked if row[1] > below) >= limit:
                    break
            step *= 2
        unlocked.sort(key=lambda row: (-row[1], row[0]))
        return unlocked if limit < 0 else unlocked[:limit]

    def capture_candidates(
        self, term_groups: Sequence[Sequence[str]], *, limit: int
    ) -> list[CaptureCandidate]:
        """store/captures.py's ``capture_candidates``: live, current, non-document beliefs
        holding two terms of one group, newest (by row) first, BM25F over content and
        context as the score."""
        from credo.store.captures import term_pairs
        from credo.store.rows import CaptureCandidate

        pairs = term_pairs(term_groups)
        if not pairs or limit <= 0:
            return []
        flat = [t for pair in pairs for t in pair]
        phrases = self._tokenizer.phrases(flat)
        weights = (CONTENT_WEIGHT, 0.0, CONTEXT_WEIGHT)
        # Rows holding both phrases of some pair.
        holding = [set(self._scored([p], weights)) for p in phrases]
        matched: set[int] = set()
        for i in range(0, len(phrases), 2):
            if phrases[i] and phrases[i + 1]:
                matched |= holding[i] & holding[i + 1]
        if not matched:
            return []
        scored = self._scored(phrases, weights)
        rows = self.conn.execute(
            "SELECT b.rid, b.id, b.content, b.kind, b.origin, b.locked FROM beliefs b "
            "WHERE b.rid = ANY(%s) AND b.deleted_at IS NULL AND b.origin <> 'document' "
            "AND NOT EXISTS (SELECT 1 FROM edges e JOIN beliefs n ON n.id = e.src "
            "AND n.deleted_at IS NULL WHERE e.dst = b.id AND e.type = 'SUPERSEDES') "
            "ORDER BY b.rid DESC LIMIT %s",
            (sorted(matched), limit),
        ).fetchall()
        return [
            CaptureCandidate(r[1], r[2], r[3], r[4], bool(r[5]), scored.get(r[0], 0.0))
            for r in rows
        ]

    def prepare_keyword_mirror(self) -> bool:
        """No mirror on PostgreSQL: every query reads its postings (one statement)."""
        return False

    def purge_deleted(self) -> None:
        """Nothing to merge: a hard forget deletes the row's postings with it."""

    def fts_integrity_check(self) -> list[str]:
        """Problems of the keyword index: rows indexed that are not live beliefs (or sit
        in the other of the two indexes), live beliefs not indexed, totals that disagree
        with the rows, rows whose postings are not their text's (what FTS5's
        ``integrity-check`` with rank 1 finds on SQLite). A row waiting in the queue
        (``fts_dirty``) is none of these: the next write indexes it (``integrity_check``
        says how many wait)."""
        problems: list[str] = []
        waiting = _NOT_QUEUED.format(rid="d.rid")
        (stale,) = self.conn.execute(
            "SELECT (SELECT count(*) FROM fts_docs d LEFT JOIN beliefs b ON b.rid = d.rid "
            f"WHERE (b.rid IS NULL OR b.deleted_at IS NOT NULL OR b.kind = %s) AND {waiting}) + "
            "(SELECT count(*) FROM value_docs d LEFT JOIN beliefs b ON b.rid = d.rid "
            f"WHERE (b.rid IS NULL OR b.deleted_at IS NOT NULL OR b.kind <> %s) AND {waiting})",
            (VALUE_KIND, VALUE_KIND),
        ).fetchone() or (0,)
        (missing,) = self.conn.execute(
            "SELECT count(*) FROM beliefs b WHERE b.deleted_at IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM fts_docs d WHERE d.rid = b.rid) "
            "AND NOT EXISTS (SELECT 1 FROM value_docs d WHERE d.rid = b.rid) "
            f"AND {_NOT_QUEUED.format(rid='b.rid')}"
        ).fetchone() or (0,)
        agree = self.conn.execute(
            "SELECT t.nrows = (SELECT count(*) FROM fts_docs) AND t.sizes = (SELECT "
            "ARRAY[coalesce(sum(sizes[1]), 0), coalesce(sum(sizes[2]), 0), "
            "coalesce(sum(sizes[3]), 0)]::bigint[] FROM fts_docs) FROM fts_totals t"
        ).fetchone()
        if stale:
            problems.append(f"fts: {stale} indexed rows are not live beliefs of their index")
        if missing:
            problems.append(f"fts: {missing} live beliefs are not indexed")
        if not agree or not agree[0]:
            problems.append("fts: the index totals disagree with its rows")
        differ = rows_unlike_their_text(self.conn, self._tokenizer)
        differ += rows_unlike_their_text(self.conn, self._tokenizer, "value_docs", "value_postings")
        if differ:
            problems.append(f"fts: {differ} indexed rows disagree with their beliefs' text")
        return problems
