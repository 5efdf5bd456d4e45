"""The FTS5 keyword index: query building and BM25F search.

This module is the only place that speaks FTS5 syntax. User text never reaches MATCH raw:
it is cut into word tokens, each token is double-quoted (quotes inside doubled), and the
tokens are OR-ed, so operators such as NEAR, AND, ``-``, ``^``, ``*`` and ``:`` are plain words.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
import sqlite3
import time
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from credo.store.bm25_policy import MirrorPolicy
from credo.store.index_text import TOKEN_CHARS, index_text

if TYPE_CHECKING:
    from credo.store.bm25_mirror import Bm25Mirror
    from credo.store.values import ValueIndex

# Longest query text considered; the rest is ignored (a pasted file must not cost seconds).
MAX_QUERY_CHARS = 4_000
# Most distinct terms OR-ed into one MATCH; more terms add latency, rarely recall.
MAX_QUERY_TERMS = 48

_WORD = re.compile(r"\w+", re.UNICODE)
# Words, and the private-use characters that stand for emoji (store/index_text.py): only
# for a text the rule rewrote (a class with a range costs ~0.3% of a warm query more).
_KEYED_WORD = re.compile(f"[\\w{TOKEN_CHARS}]+")
# A word written as code: right before an opening parenthesis, or inside backticks.
# (Compiled on first use, by re's cache: only a query of stopwords alone reads it, and every
# hook process imports this module.)
_CODE_MARKED = r"(\w+)\(|`([^`\n]+)`"

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his
    how i if in into is it its itself just me more most my myself no nor not now of off
    on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through
    to too under until up very was we were what when where which while who whom why will
    with would you your yours yourself yourselves s t d ll m o re ve y did didn doesn
    don isn wasn weren won wouldn hasn haven hadn shouldn couldn mustn needn shan also
    get got really like yeah oh ok okay
    """.split()
)


def query_terms(text: str) -> list[str]:
    """Distinct, lower-cased, non-stopword word tokens of ``text``, in first-seen order, as
    the index reads them (``index_text``: CJK as bigrams, an emoji as its token, ß as ss)."""
    seen: dict[str, None] = {}
    cut = text[:MAX_QUERY_CHARS]
    keyed = index_text(cut)
    for match in (_WORD if keyed is cut else _KEYED_WORD).finditer(keyed):
        term = match.group(0).lower()
        if term in STOPWORDS or term in seen:
            continue
        seen[term] = None
        if len(seen) >= MAX_QUERY_TERMS:
            break
    if not seen and ("(" in cut or "`" in cut):
        # Nothing but stopwords: the ones written as code are names ("Is()", "`As`").
        return _code_names(cut)
    return list(seen)


def _code_names(text: str) -> list[str]:
    """The distinct lower-cased words ``text`` writes as code, in order: called (``Is()``,
    ``any(x)``) or in backticks. Such a word names a function or a value (Go's
    ``errors.Is``, Python's ``all``): a query of stopwords alone searches for these. Kept
    out of a query that has other words: measured on the docs bench, "any((x for x in
    xs))" as a term moved a question's right page from first to second (docs/BENCHMARKS.md
    § "Stop 63")."""
    names = (
        word.lower()
        for match in re.finditer(_CODE_MARKED, text)
        for word in _WORD.findall(match.group(1) or match.group(2))
    )
    return list(dict.fromkeys(names))[:MAX_QUERY_TERMS]


def quote(term: str) -> str:
    """An FTS5 string literal for ``term`` as the index reads it (``index_text``: a CJK
    word is the phrase of its bigrams; a term of ``query_terms`` is already so): safe for
    any input. Capture's candidates quote a statement's words as written."""
    return '"' + index_text(term).replace('"', '""') + '"'


def match_expression(terms: list[str]) -> str | None:
    """OR of quoted terms, or None when there is nothing to search for."""
    return " OR ".join(quote(t) for t in terms) if terms else None


class KeywordHit(NamedTuple):
    belief_id: str
    score: float  # higher is better (negated FTS5 bm25)


# BM25F column weights (FTS5 multiplies each column's term count by its weight): the text
# itself; the words other beliefs use for it (anchor text); where it sits (path words and
# section trail), which names a passage's topic without being its text. Context at 1.0
# ranked better than at 0.5 or 0.75 on the docs bench's five corpora (docs/BENCHMARKS.md).
CONTENT_WEIGHT = 1.0
ANCHOR_WEIGHT = 0.5
CONTEXT_WEIGHT = 1.0
KeywordWeights = tuple[float, float, float]  # (content, anchor_text, context)

# Rows ranked beyond the limit, so that a few locked hits or a tie at the cut rarely send
# ``keyword_beliefs`` to its exact (slower) query.
KEYWORD_SLACK = 16


# (id, score, locked, content, alpha, beta, deleted_at, session, created_at) of a keyword hit.
KeywordRow = tuple[str, float, int, str, float, float, float | None, str | None, float]

CandidateRow = tuple[str, float, float, str | None, float]
"""What the engine needs of a candidate belief: (content, alpha, beta, session, created_at).
The keyword and graph reads return it with their rows, so no lane fetches it again."""
CANDIDATE_CREATED = 4  # a CandidateRow's created_at


_ID = itemgetter(0)
_SCORE = itemgetter(1)
_ENTRY_ID = lambda pair: pair[0][0]  # noqa: E731 (the id of an (entry, score) pair)


def _provable_best(rows: list[KeywordRow], limit: int, wanted: int) -> list[KeywordRow] | None:
    """The exact query's answer (the ``limit`` best unlocked rows, ties by id) from the
    ``wanted`` best index rows, or None when ties at the cut leave it unproven."""
    ranked = _unlocked_ranked(rows)
    if len(rows) == wanted:
        # Every row scoring above the last one returned was returned; rows tied with it
        # may have been left out, so they must not be needed.
        last = min(r[1] for r in rows)
        if sum(1 for r in ranked if r[1] > last) < limit:
            return None
    del ranked[limit:]
    return ranked


def _unlocked_ranked(rows: list[KeywordRow]) -> list[KeywordRow]:
    """The rows of live, unlocked beliefs, by score then id (the exact query's order)."""
    # (score desc, id asc) as two stable C-keyed sorts, without a key tuple per row
    ranked = sorted([r for r in rows if r[0] is not None and not r[2]], key=_ID)
    ranked.sort(key=_SCORE, reverse=True)
    return ranked


def _best_through_ties(rows: list[KeywordRow], limit: int) -> list[KeywordRow] | None:
    """The exact query's answer from every index row scoring at least the ``wanted``-th
    best (``Bm25Mirror.top(through_ties=True)``): any row left out scores below all of
    them, so the ``limit`` best unlocked rows by score and id are here, when there are that
    many. None when locked rows leave fewer (the exact query must look further)."""
    ranked = _unlocked_ranked(rows)
    if len(ranked) < limit:
        return None
    del ranked[limit:]
    return ranked


class KeywordReads:
    """``keyword_search`` and ``keyword_beliefs`` over a backend's ranked rows: the
    ``limit`` best live, unlocked rows by score, ties by id (``_keyword_rows``)."""

    def _keyword_rows(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> list[KeywordRow]:
        raise NotImplementedError

    def keyword_search(
        self,
        terms: list[str],
        *,
        limit: int,
        content_weight: float = CONTENT_WEIGHT,
        anchor_weight: float = ANCHOR_WEIGHT,
        context_weight: float = CONTEXT_WEIGHT,
    ) -> list[KeywordHit]:
        """BM25F over (content, anchor_text, context) for live, unlocked beliefs, best first.

        Ties are broken by belief id so the order is deterministic.
        """
        ranked = self._keyword_rows(terms, (content_weight, anchor_weight, context_weight), limit)
        return [KeywordHit(r[0], r[1]) for r in ranked]

    def keyword_beliefs(
        self,
        terms: list[str],
        *,
        limit: int,
        own: int = 0,
        content_weight: float = CONTENT_WEIGHT,
        anchor_weight: float = ANCHOR_WEIGHT,
        context_weight: float = CONTEXT_WEIGHT,
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """``keyword_search`` as id -> score in rank order (the engine reads the hits by
        id: a dict, not a list of ``KeywordHit``s to turn into one), plus id ->
        ``CandidateRow`` of the live hits, with the module-level constants ranked among
        them (store/values.py: an index of their own, scored by the passage index's
        statistics), and then the ``own`` best of the user's own beliefs (origin not
        ``document``) the ``limit`` left out, wherever they rank (store/own_pool.py). A
        backend supplies the reads: ``_passage_beliefs``, ``_value_hits``, ``_own_hits``."""
        weights = (content_weight, anchor_weight, context_weight)
        found = self._passage_beliefs(terms, weights, limit)
        # (fewer hits than the limit, none cut by a constant: every matching row is a hit)
        cut = len(found[0]) >= limit
        values = self._value_hits(terms, weights, limit)
        if values[0]:
            from credo.store.values import with_values

            found = with_values(*found, values, limit)
            cut = True
        if own > 0 and limit >= 0 and terms and cut:
            pool = self._own_hits(terms, weights, own)
            if pool[0]:
                from credo.store.own_pool import with_own

                return with_own(*found, pool)
        return found

    def _passage_beliefs(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """``keyword_beliefs``' answer from the passage index alone (``_keyword_rows``)."""
        ranked = self._keyword_rows(terms, weights, limit)
        hits = {r[0]: r[1] for r in ranked}  # TEXT id, REAL score
        # The index holds live beliefs only; the check keeps a stale entry out all the same.
        beliefs = {r[0]: (r[3], r[4], r[5], r[7], r[8]) for r in ranked if r[6] is None}
        return hits, beliefs

    def _value_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """The ``limit`` best live, unlocked constants for ``terms`` (id -> score, best
        first, ties by id) and their ``CandidateRow``s; none on a backend without them."""
        return {}, {}

    def _own_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        """The ``limit`` best live, unlocked beliefs whose origin is not ``document`` for
        ``terms`` (id -> score, best first, ties by id: the scores the passage query gives
        them) and their ``CandidateRow``s; none when the store holds no such belief or
        nothing else (then the hits hold the pool's best already: store/own_pool.py)."""
        return {}, {}

    def keyword_scores(self, terms: list[str], ids: list[str]) -> dict[str, float]:
        """id -> the BM25F score ``keyword_beliefs`` would give the beliefs ``ids`` for the
        query ``terms`` (default column weights), for those of them that match: a few
        beliefs scored for a few terms, without ranking the index."""
        raise NotImplementedError

    def term_rows(self, terms: list[str]) -> dict[str, int]:
        """term -> how many rows of the keyword index hold it (any column, as the index
        reads it: "describe" counts "described" too): the n of bm25's IDF, so a term held
        by fewer rows weighs more. Terms held by no row are left out."""
        raise NotImplementedError

    def context_phrase_ids(self, phrases: list[str], *, limit: int) -> list[str]:
        """The ids of the live, unlocked beliefs whose context field (path words and section
        trail) holds one of ``phrases``, the first ``limit`` by id: every row the phrases
        score in context, whatever their rank."""
        hits = self.keyword_search(phrases, limit=-1, content_weight=0.0, anchor_weight=0.0)
        return sorted(hit.belief_id for hit in hits if hit.score > 0)[:limit]


class FtsIndex(KeywordReads):
    conn: sqlite3.Connection
    _bm25: MirrorPolicy | None = None  # this store's bm25 mirror, once it reads keywords
    _values: "ValueIndex | None" = None  # this store's constants (store/values.py), once read
    # GraphQueries': the version the retrieve under way read (``one_version``), or None.
    _version_pinned: Callable[[], tuple[int, int] | None]
    _has_values: Callable[[], bool]  # GraphQueries': any constant in the value index
    _own_mixed: Callable[[], bool]  # GraphQueries': the user's own beliefs beside documents

    def _passage_beliefs(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        # A checked mirror's answer when it has one, else the general path's.
        found = self._mirrored_hits(terms, weights, limit)
        return super()._passage_beliefs(terms, weights, limit) if found is None else found

    def _value_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        if not self._has_values():  # (most stores hold none: known once per store version)
            return {}, {}
        if self._values is None:
            from credo.store.tokenizer import Tokenizer, tokenize_option
            from credo.store.values import ValueIndex

            option = tokenize_option(self.conn)
            if option is None:
                return {}, {}
            self._values = ValueIndex(self.conn, Tokenizer(option))
        return self._values.hits(terms, weights, limit, self.term_rows)

    def _own_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]]:
        policy = self._mirror_policy()
        mirror = policy.mirror
        if mirror is not None and mirror.checked and mirror.ranks is not None:
            # A warm index's: ranked on its arrays, as its keyword top (warm_keyword.py).
            mirror = policy.current(self.conn, self._version_pinned())
            if mirror is not None and mirror.ranks is not None:
                reads = mirror.reads
                found = mirror.ranks.own_hits(mirror, terms, weights, limit)
                if found is not None and (
                    mirror.reads == reads or policy.at_version(self.conn, mirror)
                ):
                    return found
        if not self._own_mixed():  # (a docs store, or one of notes: known once per version)
            return {}, {}
        expression = match_expression(terms)
        if expression is None:
            return {}, {}
        from credo.store.own_pool import sqlite_own_hits

        return sqlite_own_hits(self.conn, expression, weights, limit)

    def _mirrored_hits(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> tuple[dict[str, float], dict[str, CandidateRow]] | None:
        """``keyword_beliefs``' answer straight from a checked mirror's ranking and its
        per-version entries (``Bm25Mirror.entries``), or None when the general path must
        answer (no mirror, or not yet checked against FTS5, or ties at the cut). The same
        rows as ``_provable_best`` over ``_mirrored_rows``: a row is never made into a
        ``KeywordRow`` and its candidate row is the one made at its first ranking."""
        if limit < 0 or not terms:
            return None
        policy = self._mirror_policy()
        if policy.mirror is None or not policy.mirror.checked:
            return None  # (not asked: the general path asks, once, as it always has)
        mirror = policy.current(self.conn, self._version_pinned())
        if mirror is None:
            return None
        wanted = limit + KEYWORD_SLACK
        try:
            reads = mirror.reads
            if mirror.ranks is not None:  # a warm index's: ranked whole (store/warm_keyword.py)
                found = mirror.ranks.hits(mirror, terms, weights, limit)
                if mirror.reads != reads and not policy.at_version(self.conn, mirror):
                    return None
                return found
            ranked = mirror.top(terms, weights, wanted)  # score desc
            if ranked is None:
                return None
            entries = mirror.entries([rowid for rowid, _ in ranked])
            if mirror.reads != reads and not policy.at_version(self.conn, mirror):
                return None
        except sqlite3.Error:
            return None  # the general path reads again, and turns the mirror off
        # (entry, score) of the unlocked rows, score desc; a rowid without a belief is
        # locked (NO_ENTRY), as the LEFT JOIN's NULL row is dropped with locked ones.
        unlocked = [
            (entry, score)
            for entry, (_, score) in zip(entries, ranked, strict=True)
            if not entry[1]
        ]
        if len(ranked) == wanted:
            # As ``_provable_best``: rows tied with the last one returned may be missing,
            # so at least ``limit`` unlocked rows must score above it.
            last = ranked[-1][1]
            if len(unlocked) < limit or unlocked[limit - 1][1] <= last:
                return None
        scores = [score for _, score in unlocked]
        if len(set(scores)) < len(scores):  # ties: by id, as the exact query's order
            unlocked.sort(key=_ENTRY_ID)
            unlocked.sort(key=_SCORE, reverse=True)
        del unlocked[limit:]
        hits = {entry[0]: score for entry, score in unlocked}
        # The index holds live beliefs only; the check keeps a stale entry out all the same.
        beliefs = {entry[0]: entry[3] for entry, _ in unlocked if entry[2] is None}
        return hits, beliefs

    def keyword_scores(self, terms: list[str], ids: list[str]) -> dict[str, float]:
        expression = match_expression(terms)
        if expression is None or not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        try:
            # FTS5 reads the terms' postings and scores only the rows asked for.
            return dict(
                self.conn.execute(
                    "SELECT b.id, -bm25(beliefs_fts, ?, ?, ?) FROM beliefs_fts "
                    "JOIN beliefs b ON b.rid = beliefs_fts.rowid "
                    f"WHERE beliefs_fts MATCH ? AND beliefs_fts.rowid IN "
                    f"(SELECT rid FROM beliefs WHERE id IN ({marks}))",
                    (CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT, expression, *ids),
                ).fetchall()
            )
        except sqlite3.OperationalError:  # as in _keyword_rows: no hits
            return {}

    def term_rows(self, terms: list[str]) -> dict[str, int]:
        policy = self._mirror_policy()
        if policy.mirror is not None and policy.mirror.complete:  # a warm index's
            mirror = policy.current(self.conn, self._version_pinned())
            held = None if mirror is None else mirror.term_rows(terms)
            if held is not None:
                return held
        counted: dict[str, int] = {}
        for term in dict.fromkeys(terms):
            try:
                # (FTS5 counts a term's rows from its doclist alone: no row is read)
                (rows,) = self.conn.execute(
                    "SELECT count(*) FROM beliefs_fts WHERE beliefs_fts MATCH ?", (quote(term),)
                ).fetchone()
            except sqlite3.OperationalError:  # as in _keyword_rows: held nowhere
                continue
            if rows:
                counted[term] = rows
        return counted

    def context_phrase_ids(self, phrases: list[str], *, limit: int) -> list[str]:
        # FTS5's column filter: the rows the phrases match in context, unranked (ranking
        # every row that holds the phrase's tokens anywhere cost ~10x as much).
        expression = match_expression(phrases)
        if expression is None:
            return []
        try:
            rows = self.conn.execute(
                "SELECT b.id FROM beliefs_fts JOIN beliefs b ON b.rid = beliefs_fts.rowid "
                "WHERE beliefs_fts MATCH ? AND b.locked = 0 AND b.deleted_at IS NULL "
                "ORDER BY b.id LIMIT ?",
                (f"context : ({expression})", limit),
            ).fetchall()
        except sqlite3.OperationalError:  # as in _keyword_rows: no hits
            return []
        return [row[0] for row in rows]

    def _keyword_rows(
        self, terms: list[str], weights: KeywordWeights, limit: int
    ) -> list[KeywordRow]:
        """The ``limit`` best live, unlocked rows by FTS5's bm25 (all for a negative limit).

        FTS5 scores every posting of the query's terms, and that is most of the cost; the
        rest is what each scored row is joined to. So the index is ranked on its own (rowid
        and score, the best ``limit + KEYWORD_SLACK``) and only those few rows are joined
        to ``beliefs`` to drop locked ones and read id and content. The inner order breaks
        ties arbitrarily, so the result is only taken when it provably equals the exact
        query (ties broken by id): fewer rows than asked for, or at least ``limit``
        unlocked rows scoring strictly above the last one returned. Otherwise (ties at the
        cut, or many locked hits) the exact query runs instead.
        """
        expression = match_expression(terms)
        if expression is None:
            return []
        try:
            ranked = None if limit < 0 else self._keyword_top(terms, expression, weights, limit)
            if ranked is None:
                ranked = self.conn.execute(
                    "SELECT b.id, -bm25(beliefs_fts, ?, ?, ?) AS s, b.locked, b.content, "
                    "b.alpha, b.beta, b.deleted_at, b.session, b.created_at FROM beliefs_fts "
                    "JOIN beliefs b ON b.rid = beliefs_fts.rowid "
                    "WHERE beliefs_fts MATCH ? AND b.locked = 0 "
                    "ORDER BY s DESC, b.id LIMIT ?",
                    (*weights, expression, limit),
                ).fetchall()
        except sqlite3.OperationalError:
            # Quoting makes every term a literal; a failure here would be a tokenizer edge
            # case (for example a term FTS5 cannot parse), and no hits is the honest answer.
            return []
        return ranked

    def _keyword_top(
        self, terms: list[str], expression: str, weights: KeywordWeights, limit: int
    ) -> list[KeywordRow] | None:
        """The fast path of ``keyword_beliefs``: its rows, or None when they are not
        provably those of the exact query."""
        wanted = limit + KEYWORD_SLACK
        policy = self._mirror_policy()
        mirror = policy.current(self.conn, self._version_pinned())
        if mirror is not None:
            try:
                rows = self._mirrored_rows(mirror, terms, weights, wanted)
            except sqlite3.Error:
                policy.disable()  # FTS5 can still answer: it does, from now on
                rows = None
            if rows is not None:
                best = _provable_best(rows, limit, wanted)
                if mirror.checked:
                    if best is None:  # ties at the cut: read every tied row, break them here
                        try:
                            tied = self._mirrored_rows(
                                mirror, terms, weights, wanted, through_ties=True
                            )
                        except sqlite3.Error:
                            policy.disable()
                            return None
                        best = None if tied is None else _best_through_ties(tied, limit)
                    return best
                # Until a mirror has agreed with FTS5 on an answer with hits, FTS5 answers
                # too: on a platform whose C arithmetic differs (fused multiply-add), the
                # first difference turns the mirror off.
                exact = _provable_best(
                    self._ranked_rows(expression, weights, wanted), limit, wanted
                )
                if best != exact:
                    policy.disable()
                    return exact
                mirror.checked = bool(best)
                return best
        started = time.perf_counter()
        rows = self._ranked_rows(expression, weights, wanted)
        policy.charge(time.perf_counter() - started)
        return _provable_best(rows, limit, wanted)

    def _ranked_rows(
        self, expression: str, weights: KeywordWeights, wanted: int
    ) -> list[KeywordRow]:
        """The ``wanted`` best index rows by FTS5's bm25 (ties in any order), each joined
        to its belief."""
        return self.conn.execute(
            "SELECT b.id, f.s, b.locked, b.content, b.alpha, b.beta, b.deleted_at, "
            "b.session, b.created_at FROM ("
            "SELECT rowid AS r, -bm25(beliefs_fts, ?, ?, ?) AS s FROM beliefs_fts "
            "WHERE beliefs_fts MATCH ? ORDER BY s DESC LIMIT ?"
            # LEFT JOIN: a row per ranked index entry (NULLs for an entry without a belief,
            # which the exact query's inner join drops), so the count below is the index's.
            ") AS f LEFT JOIN beliefs b ON b.rid = f.r",
            (*weights, expression, wanted),
        ).fetchall()

    def _mirror_policy(self) -> MirrorPolicy:
        if self._bm25 is None:
            self._bm25 = MirrorPolicy()
        return self._bm25

    def _mirrored_rows(
        self,
        mirror: "Bm25Mirror",
        terms: list[str],
        weights: KeywordWeights,
        wanted: int,
        *,
        through_ties: bool = False,
    ) -> list[KeywordRow] | None:
        """``_ranked_rows`` from the in-memory mirror of bm25 (with ``through_ties``, every
        row tied with the last one too), or None when the mirror cannot answer (a term of
        several tokens) or the store moved while it read."""
        reads = mirror.reads
        ranked = mirror.top(terms, weights, wanted, through_ties=through_ties)
        if ranked is None:
            return None
        found = mirror.beliefs([rowid for rowid, _ in ranked])
        if mirror.reads != reads and not self._mirror_policy().at_version(self.conn, mirror):
            return None  # another connection committed while the mirror read
        missing = (None,) * 8  # the LEFT JOIN's NULLs for a rowid without a belief
        return [
            (b[0], score) + b[1:]  # type: ignore[operator]  # noqa: RUF005 (cheaper than *)
            for rowid, score in ranked
            if (b := found.get(rowid, missing))  # (a row is never empty: always true)
        ]

    def purge_deleted(self) -> None:
        """Merge the index so the terms of deleted rows leave the file (SQLite < 3.42 has
        no FTS5 'secure-delete' option; a hard forget must not leave words behind)."""
        self.conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')")
        self.conn.execute("INSERT INTO values_fts(values_fts) VALUES ('optimize')")  # (m016)

    def fts_integrity_check(self) -> None:
        self.conn.execute(
            "INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('integrity-check', 1)"
        )
        self.conn.execute("INSERT INTO values_fts(values_fts, rank) VALUES ('integrity-check', 1)")
