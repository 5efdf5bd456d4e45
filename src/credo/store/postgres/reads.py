"""The retrieval pipeline's reads on PostgreSQL: store/graph.py's and store/truth.py's
methods, with the same results (rows in the same order, ties broken by id in code-point
order: every text column is ``COLLATE "C"``).

Nothing is kept between calls: SQLite's caches key on ``PRAGMA data_version``, which a
server has no cheap equivalent of; each retrieve reads what it needs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from credo.store.docmatch import DocAnchorMatches, like_literal
from credo.store.fts import CandidateRow
from credo.store.graph import Link
from credo.store.short_ids import SHORT_CHARS
from credo.store.truth import (
    _STILL,  # pyright: ignore[reportPrivateUsage]
    _TYPES,  # pyright: ignore[reportPrivateUsage]
    SUPERSEDES,
    TruthFacts,
    TruthLinks,
    TruthReader,
    _Memo,  # pyright: ignore[reportPrivateUsage]
)
from credo.types import TRAIL_SEPARATOR, Belief

if TYPE_CHECKING:
    import psycopg

    from credo.store.warm_heat import HeatRow


_LINKS_WITH_ENDS = (
    "SELECT * FROM ("
    "SELECT e.src, e.dst, e.type, e.weight, d.id AS end_id, d.locked, d.content, d.alpha, "
    "d.beta, d.session, d.created_at FROM edges e JOIN beliefs d ON d.id = e.dst "
    "WHERE e.src = ANY(%(ids)s) AND d.deleted_at IS NULL "
    "UNION ALL "
    "SELECT e.src, e.dst, e.type, e.weight, s.id, s.locked, s.content, s.alpha, s.beta, "
    "s.session, s.created_at FROM edges e JOIN beliefs s ON s.id = e.src "
    "WHERE e.dst = ANY(%(ids)s) AND NOT e.src = ANY(%(ids)s) AND s.deleted_at IS NULL"
    ") AS x ORDER BY 1, 2, 3 LIMIT %(limit)s"
)

# store/truth.py's _LINKS, its ids as an array.
_TRUTH_LINKS = (
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    f"b.created_at, {_STILL} FROM unnest(%(ids)s::text[]) AS j(value) "
    "JOIN edges AS e ON e.src = j.value "
    f"JOIN beliefs AS b ON b.id = e.dst WHERE e.type IN {_TYPES} AND b.deleted_at IS NULL "
    "UNION ALL "
    "SELECT j.value, e.src, e.dst, e.type, b.locked, b.content, b.alpha, b.beta, b.session, "
    f"b.created_at, {_STILL} FROM unnest(%(ids)s::text[]) AS j(value) "
    "JOIN edges AS e ON e.dst = j.value "
    f"JOIN beliefs AS b ON b.id = e.src WHERE e.type IN {_TYPES} AND b.deleted_at IS NULL"
)

# The lineage: PostgreSQL allows one recursive reference, so both directions are one join.
_LINEAGE = (
    'WITH RECURSIVE n(id) AS (SELECT %(start)s::text COLLATE "C" UNION '
    "SELECT CASE WHEN e.dst = n.id THEN e.src ELSE e.dst END FROM n "
    f"JOIN edges AS e ON (e.dst = n.id OR e.src = n.id) WHERE e.type = '{SUPERSEDES}') "
    "SELECT e.src, e.dst FROM n JOIN edges AS e ON e.src = n.id "
    f"WHERE e.type = '{SUPERSEDES}' ORDER BY e.src, e.dst"
)


_DOC_ANCHORS = (
    "SELECT a.belief_id, a.doc_uri FROM belief_documents a "
    "JOIN beliefs b ON b.id = a.belief_id AND b.deleted_at IS NULL WHERE "
)
_DOC_ORDER = " ORDER BY a.doc_uri, a.belief_id LIMIT %s"


# store/beliefs.py's SHARING_SHORT_PREFIX: the ids are text COLLATE "C" (code-point order).
_SHARING_SHORT_PREFIX = (
    "SELECT v FROM unnest(%s::text[]) AS v WHERE (SELECT count(*) FROM (SELECT 1 FROM beliefs b "
    f'WHERE b.id >= left(v, {SHORT_CHARS}) COLLATE "C" AND b.id < left(v, {SHORT_CHARS - 1}) '
    f'|| chr(ascii(substr(v, {SHORT_CHARS}, 1)) + 1) COLLATE "C" LIMIT 2) AS s) > 1'
)


class Reads(DocAnchorMatches, TruthLinks):
    conn: psycopg.Connection
    # store/graph.py's statements: LIKE there is case-blind for ASCII letters only, which
    # ILIKE under ``COLLATE "C"`` is too (backslash is the escape in both).
    _PREFIX_SQL = _DOC_ANCHORS + "a.doc_uri >= %s AND a.doc_uri < %s" + _DOC_ORDER
    _NAME_SQL = (
        _DOC_ANCHORS
        + "a.doc_uri ILIKE %s OR a.doc_uri ILIKE %s OR a.doc_uri = %s OR a.doc_uri ILIKE %s"
        + _DOC_ORDER
    )
    _STEM_SQL = _DOC_ANCHORS + "a.doc_uri ILIKE %s OR a.doc_uri ILIKE %s" + _DOC_ORDER

    def locked_beliefs(self) -> list[Belief]:  # the tables mixin
        raise NotImplementedError

    def current_locks(self) -> list[Belief]:
        return self.locked_beliefs()

    def one_version(self) -> contextlib.AbstractContextManager[None]:
        """Nothing to hold: no read here is kept by version."""
        return contextlib.nullcontext()

    def links_touching(self, ids: Iterable[str], *, limit: int) -> list[Link]:
        links, _ = self.links_with_ends(ids, limit=limit)
        return links

    def links_with_ends(
        self, ids: Iterable[str], *, limit: int
    ) -> tuple[list[Link], dict[str, CandidateRow | None]]:
        rows = self.conn.execute(
            _LINKS_WITH_ENDS, {"ids": sorted(set(ids)), "limit": limit if limit >= 0 else None}
        ).fetchall()
        ends: dict[str, CandidateRow | None] = {
            r[4]: None if r[5] else (r[6], r[7], r[8], r[9], r[10]) for r in rows
        }
        return [Link(r[0], r[1], r[2], r[3]) for r in rows], ends

    def heat_rows(self) -> Mapping[str, HeatRow] | None:
        return None  # (no warm index: the heat lane builds its graph from the links)

    def pairs_among(self, ids: Iterable[str], *, min_weight: float) -> list[tuple[str, str]]:
        payload = sorted(set(ids))
        rows = self.conn.execute(
            "SELECT src, dst FROM edges WHERE src = ANY(%s) AND weight >= %s AND dst = ANY(%s)",
            (payload, min_weight, payload),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def trails(self, ids: Iterable[str]) -> dict[str, str]:
        return self._text_of_each(
            "SELECT id, split_part(context, E'\\n', 1) FROM beliefs "
            "WHERE id = ANY(%s) AND context <> ''",
            ids,
        )

    def titled(self, words: Iterable[str], *, limit: int) -> dict[str, str]:
        # GraphQueries.titled's statement: ILIKE for SQLite's case-blind LIKE.
        patterns = [f"%{TRAIL_SEPARATOR}%{like_literal(w)}%" for w in dict.fromkeys(words) if w]
        if not patterns or limit <= 0:
            return {}
        rows = self.conn.execute(
            "SELECT id, t FROM (SELECT b.id AS id, split_part(b.context, E'\\n', 1) AS t "
            "FROM passage_lines AS p JOIN beliefs AS b ON b.id = p.belief_id "
            "WHERE b.deleted_at IS NULL AND b.locked = 0) AS d "
            "WHERE t ILIKE ANY(%s) ORDER BY id LIMIT %s",
            (patterns, limit),
        )
        return {str(r[0]): str(r[1]) for r in rows}

    def index_extras(self, ids: Iterable[str]) -> dict[str, str]:
        return self._text_of_each(
            "SELECT id, anchor_text || E'\\n' || context FROM beliefs "
            "WHERE id = ANY(%s) AND (anchor_text <> '' OR context <> '')",
            ids,
        )

    def _text_of_each(self, sql: str, ids: Iterable[str]) -> dict[str, str]:
        """id -> text of the rows ``sql`` (an (id, text) select over ``ANY(%s)``) reads."""
        return {str(r[0]): str(r[1]) for r in self.conn.execute(sql, (list(ids),))}

    def short_prefix_sharing(self) -> Mapping[str, bool] | None:
        return None  # (no warm index: ``sharing_short_prefix`` asks the server)

    def sharing_short_prefix(self, ids: list[str]) -> set[str]:
        return {str(r[0]) for r in self.conn.execute(_SHARING_SHORT_PREFIX, (ids,))}

    def stated(self, ids: Iterable[str]) -> set[str]:
        rows = self.conn.execute(
            "SELECT id FROM beliefs WHERE id = ANY(%s) "
            "AND (origin IN ('user_stated', 'user_corrected') OR kind = 'correction')",
            (list(ids),),
        )
        return {str(r[0]) for r in rows}

    def retention(self, ids: Iterable[str]) -> dict[str, str]:
        rows = self.conn.execute(
            "SELECT id, retention FROM beliefs WHERE id = ANY(%s) AND retention <> 'fact'",
            (list(ids),),
        )
        return {str(r[0]): str(r[1]) for r in rows}

    def live_unlocked(self, ids: Iterable[str]) -> dict[str, CandidateRow]:
        rows = self.conn.execute(
            "SELECT id, content, alpha, beta, session, created_at FROM beliefs "
            "WHERE id = ANY(%s) AND deleted_at IS NULL AND locked = 0",
            (list(ids),),
        )
        return {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def successors(
        self, ids: Iterable[str], *, edge_type: str, limit: int
    ) -> tuple[list[tuple[str, str]], dict[str, CandidateRow]]:
        rows = self.conn.execute(
            "SELECT e.src, e.dst, d.content, d.alpha, d.beta, d.session, d.created_at "
            "FROM edges AS e JOIN beliefs AS d ON d.id = e.dst "
            "WHERE e.src = ANY(%s) AND e.type = %s AND d.deleted_at IS NULL AND d.locked = 0 "
            "ORDER BY e.src, e.dst LIMIT %s",
            (sorted(set(ids)), edge_type, limit if limit >= 0 else None),
        ).fetchall()
        pairs = [(r[0], r[1]) for r in rows]
        return pairs, {r[1]: (r[2], r[3], r[4], r[5], r[6]) for r in rows}

    # -- truth maintenance -------------------------------------------------------------
    def truth_reader(self) -> TruthReader:
        """A reader that keeps nothing past itself (store/truth.py's reader inside a
        transaction): every retrieve reads the links of its own candidates."""
        return TruthReader(self._truth_at, _Memo((-1, -1)))

    def warm_ahead(self) -> object:
        """Nothing: no warm index is read of a PostgreSQL store."""
        return None

    def _truth_at(self, memo: _Memo, ids: Iterable[str]) -> TruthFacts:
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in memo.links]
        if missing:
            memo.add(missing, self.conn.execute(_TRUTH_LINKS, {"ids": sorted(missing)}))
        return memo.facts(wanted)

    def supersedes_path(self, start: str, goal: str) -> bool:
        row = self.conn.execute(
            'WITH RECURSIVE n(id) AS (SELECT %s::text COLLATE "C" UNION '
            f"SELECT e.dst FROM n JOIN edges AS e ON e.src = n.id WHERE e.type = '{SUPERSEDES}') "
            "SELECT 1 FROM n WHERE id = %s LIMIT 1",
            (start, goal),
        ).fetchone()
        return row is not None

    def supersedes_below(self, ids: Iterable[str]) -> list[tuple[str, str]]:
        rows = self.conn.execute(
            'WITH RECURSIVE n(id) AS (SELECT unnest(%s::text[]) COLLATE "C" UNION '
            f"SELECT e.dst FROM n JOIN edges AS e ON e.src = n.id WHERE e.type = '{SUPERSEDES}') "
            "SELECT e.src, e.dst FROM n JOIN edges AS e ON e.src = n.id "
            f"WHERE e.type = '{SUPERSEDES}' ORDER BY e.src, e.dst",
            (sorted(set(ids)),),
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def lineage_edges(self, belief_id: str) -> list[tuple[str, str]]:
        rows = self.conn.execute(_LINEAGE, {"start": belief_id}).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]
