"""Reads for the retrieval pipeline: graph reads for the lanes (one batched query per hop,
live beliefs only), the candidate subgraph for clustering, and the lock list."""

# Evaluated annotations, for a cheaper import: see credo/types.py (``Link``'s fields).

import contextlib
import sqlite3
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from credo.store.db import json_array, store_version
from credo.store.docmatch import DocAnchorMatches, like_literal
from credo.store.fts import CandidateRow
from credo.store.own_pool import OWN
from credo.types import TRAIL_SEPARATOR, Belief

if TYPE_CHECKING:
    from credo.store.warm import WarmIndex
    from credo.store.warm_heat import HeatRow


class Link(NamedTuple):
    """An edge seen from the lanes: direction kept, type as its stored name."""

    src: str
    dst: str
    type: str
    weight: float


_SRC_DST_TYPE = itemgetter(0, 1, 2)

# Edges with one end in the ids (json ?1) whose other end is live, with that end's row.
_LINKS_WITH_ENDS = (
    "WITH c(id) AS (SELECT value FROM json_each(?1)) "
    "SELECT e.src, e.dst, e.type, e.weight, d.id, d.locked, d.content, d.alpha, d.beta, "
    "d.session, d.created_at "
    "FROM edges e JOIN beliefs d ON d.id = e.dst "
    "WHERE e.src IN c AND d.deleted_at IS NULL "
    "UNION ALL "
    "SELECT e.src, e.dst, e.type, e.weight, s.id, s.locked, s.content, s.alpha, s.beta, "
    "s.session, s.created_at "
    "FROM edges e JOIN beliefs s ON s.id = e.src "
    "WHERE e.dst IN c AND e.src NOT IN c AND s.deleted_at IS NULL "
    "LIMIT ?2"
)


_DOC_ANCHORS = (
    "SELECT a.belief_id, a.doc_uri FROM belief_documents a "
    "JOIN beliefs b ON b.id = a.belief_id AND b.deleted_at IS NULL WHERE "
)
_DOC_ORDER = " ORDER BY a.doc_uri, a.belief_id LIMIT ?"
_LIKE = "a.doc_uri LIKE ? ESCAPE '\\'"


class _OneVersion:
    """``GraphQueries.one_version``'s scope (a class: entered twice a retrieve, where a
    generator-based context manager costs a few microseconds more)."""

    __slots__ = ("_outer", "_store")

    def __init__(self, store: "GraphQueries") -> None:
        self._store = store
        self._outer = False

    def __enter__(self) -> None:
        store = self._store
        if store._one_version_depth == 0:
            data_version = store_version(store.conn)[0]
            # (raises before the scope holds anything; a request's check holds for the
            # retrieves inside it while no other connection commits: ``Store.checked``)
            if data_version != store._checked_at:
                store.check_current(data_version)
            store._data_version = data_version
            self._outer = True
        store._one_version_depth += 1

    def __exit__(self, *_: object) -> None:
        store = self._store
        store._one_version_depth -= 1
        if self._outer:
            store._data_version = None


class GraphQueries(DocAnchorMatches):
    conn: sqlite3.Connection
    _PREFIX_SQL = _DOC_ANCHORS + "a.doc_uri >= ? AND a.doc_uri < ?" + _DOC_ORDER
    _NAME_SQL = _DOC_ANCHORS + f"{_LIKE} OR {_LIKE} OR a.doc_uri = ? OR {_LIKE}" + _DOC_ORDER
    _STEM_SQL = _DOC_ANCHORS + f"{_LIKE} OR {_LIKE}" + _DOC_ORDER
    # (store version, locked beliefs) as last read by ``current_locks``.
    _locks_seen: tuple[tuple[int, int], tuple[Belief, ...]] | None = None
    # ``PRAGMA data_version`` as read when the retrieve under way began (``one_version``),
    # and how many scopes are open; None outside one.
    _data_version: int | None = None
    _one_version_depth = 0
    # ``PRAGMA data_version`` at which a long-lived surface's request found the store
    # current (``SqliteStore.checked``), while the request lasts; None outside one.
    _checked_at: int | None = None
    # Per store version: whether any belief has a context, any a class but fact, and any
    # passage line statistics (store/line_stats.py).
    _contexts_seen: tuple[tuple[int, int] | None, tuple[bool, ...]] | None = None
    # The warm index (store/warm.py) of a long-lived process, while the store is at its
    # version: the reads below answer from it instead of SQL, with the same rows.
    _warm: "WarmIndex | None" = None

    def check_current(self, data_version: int | None = None) -> None:
        """Raise ``SchemaVersionError`` once another process has migrated the store past
        this code (SqliteStore's; the mixin alone checks nothing)."""

    def one_version(self) -> contextlib.AbstractContextManager[None]:
        """One retrieve's reads: another connection's commits are looked for once, here
        (``PRAGMA data_version``), not at every read's version check (the warm index, the
        keyword mirror, the locks, the truth links: ~4 a query). Every check inside takes
        the version the scope read, so the warm index and the per-version caches answer
        as of that version all through; a statement that runs SQL still sees what is
        committed when it runs (a cold retrieve is no snapshot: a commit landing mid-query
        may reach its later SQL reads), and the next scope sees the commit and lets those
        caches go. This connection's writes still move the version (``total_changes``).
        Re-entrant: an inner scope keeps the outer one's read."""
        return _OneVersion(self)

    def _version_now(self) -> tuple[int, int]:
        """The store's version: as the open ``one_version`` scope read it, else read now."""
        return store_version(self.conn, self._data_version)

    def _version_pinned(self) -> tuple[int, int] | None:
        """The open ``one_version`` scope's version, or None outside one."""
        data_version = self._data_version
        return None if data_version is None else store_version(self.conn, data_version)

    def _warm_now(self) -> "WarmIndex | None":
        """The warm index if the store is still at its version; a moved store lets it go
        (the reads fall back to SQL until a new one is installed)."""
        warm = self._warm
        if warm is None or self.conn.in_transaction:
            return None  # inside a transaction the reads must see its own writes
        if store_version(self.conn, self._data_version) != warm.version:
            self._warm = None
            return None
        return warm

    def current_locks(self) -> list[Belief]:
        """``locked_beliefs`` (every retrieve places them first), read again only when the
        store may have changed since the last read: another connection committed (``PRAGMA
        data_version`` moves) or this one wrote (``total_changes`` moves, rolled-back
        writes included). Inside an open transaction it always reads, and keeps nothing:
        what it would see there may yet be rolled back. A store with 40 locks spends
        ~0.2 ms per retrieve reading them; the version check costs ~5 us (none inside a
        ``one_version`` scope: it read the version once).
        """
        if self.conn.in_transaction:
            return self.locked_beliefs()
        version = self._version_now()
        seen = self._locks_seen
        if seen is None or seen[0] != version:
            seen = self._locks_seen = (version, tuple(self.locked_beliefs()))
        return list(seen[1])

    def locked_beliefs(self) -> list[Belief]:  # implemented by the beliefs table
        raise NotImplementedError

    def links_touching(self, ids: Iterable[str], *, limit: int) -> list[Link]:
        """Edges with one end in ``ids`` whose other end is live (not forgotten), sorted by
        (src, dst, type), at most ``limit`` of them (bounded fan-out for hub beliefs).

        ``ids`` must themselves be live (they come from the keyword index or an earlier hop),
        so only the far end is checked; an edge inside ``ids`` is returned once.
        """
        payload = json_array(sorted(set(ids)))
        rows = self.conn.execute(
            "WITH c(id) AS (SELECT value FROM json_each(?)) SELECT * FROM ("
            "SELECT e.src, e.dst, e.type, e.weight FROM edges e "
            "JOIN beliefs d ON d.id = e.dst WHERE e.src IN c AND d.deleted_at IS NULL "
            "UNION ALL "
            "SELECT e.src, e.dst, e.type, e.weight FROM edges e "
            "JOIN beliefs s ON s.id = e.src "
            "WHERE e.dst IN c AND e.src NOT IN c AND s.deleted_at IS NULL"
            ") ORDER BY 1, 2, 3 LIMIT ?",
            (payload, limit),
        ).fetchall()
        return [Link(src, dst, kind, weight) for src, dst, kind, weight in rows]

    def links_with_ends(
        self, ids: Iterable[str], *, limit: int
    ) -> tuple[list[Link], dict[str, CandidateRow | None]]:
        """``links_touching``, plus the end of each link that the query checks is live
        (every end outside ``ids``, and the dst of an edge inside them) as the engine needs
        it: id -> ``CandidateRow``, or None when it is locked.

        The far end is read anyway to check that it is live, so its row costs nothing
        more here, and spares the engine a second fetch of the beliefs the graph lanes
        reach (one query, like ``links_touching``).
        """
        warm = self._warm_now()
        if warm is not None:
            return warm.graph.links_with_ends(
                ids, limit, lambda wanted: warm.row_list(self.conn, wanted), warm.cached_rows
            )
        payload = json_array(sorted(set(ids)))
        # Unordered, with one row more than the limit: when all rows fit, sorting them here
        # is cheaper than SQLite's sorter; a hub (more rows than the limit) needs the
        # ordered cut, and gets it from the same query with ORDER BY.
        rows = self.conn.execute(_LINKS_WITH_ENDS, (payload, limit + 1)).fetchall()
        if len(rows) > limit:
            rows = self.conn.execute(
                f"SELECT * FROM ({_LINKS_WITH_ENDS}) ORDER BY 1, 2, 3 LIMIT ?3",
                (payload, -1, limit),  # LIMIT -1: no limit inside, the cut is outside
            ).fetchall()
        else:
            rows.sort(key=_SRC_DST_TYPE)  # (src, dst, type), as ORDER BY 1, 2, 3
        # Columns are typed by the schema (TEXT ids, content and session, REAL the rest).
        ends: dict[str, CandidateRow | None] = {
            r[4]: None if r[5] else (r[6], r[7], r[8], r[9], r[10]) for r in rows
        }
        return [Link(r[0], r[1], r[2], r[3]) for r in rows], ends

    def heat_rows(self) -> "Mapping[str, HeatRow] | None":
        """Each live belief's row as the heat lane reads it (store/warm_heat.py), made when
        a small store's warm index was read; None: no warm index now, or none made."""
        warm = self._warm_now()
        return None if warm is None else warm.graph.heat

    def pairs_among(self, ids: Iterable[str], *, min_weight: float) -> list[tuple[str, str]]:
        """(src, dst) of the edges whose both ends are in ``ids`` and whose weight is at
        least ``min_weight``, in no particular order: the candidate-induced subgraph as
        clustering sees it (one query; ``edges_for_beliefs`` filtered, without the columns
        and the edges clustering would not read)."""
        warm = self._warm_now()
        if warm is not None:
            return warm.graph.pairs_among(ids, min_weight)
        payload = json_array(sorted(set(ids)))
        return self.conn.execute(
            # The ids drive the join (a primary-key range per id) and "+dst" keeps the
            # planner from probing the dst index per pair; dst is checked against the list.
            "SELECT e.src, e.dst FROM json_each(?1) AS j "
            "CROSS JOIN edges AS e ON e.src = j.value "
            "WHERE e.weight >= ?2 AND +e.dst IN (SELECT value FROM json_each(?1))",
            (payload, min_weight),
        ).fetchall()

    def trails(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> trail (the first line of the context) of the beliefs among ``ids`` that
        have one: those ingest read from a document. A store with none (known per store
        version, as ``current_locks`` knows its locks) is not asked."""
        if not self._has_contexts():
            return {}
        warm = self._warm_now()
        if warm is not None:
            return warm.trails(self.conn, ids)
        rows = self.conn.execute(
            "SELECT id, substr(context, 1, instr(context || char(10), char(10)) - 1) "
            "FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) AND context <> ''",
            (json_array(ids),),
        )
        return dict(rows.fetchall())

    def titled(self, words: Iterable[str], *, limit: int) -> dict[str, str]:
        """id -> trail of the live, unlocked documentation passages (those with line
        statistics) whose trail's section titles hold one of ``words`` (case-insensitive,
        within a word too: the caller tells the titles apart), the first ``limit`` by id:
        the pages the title lane reads when the keyword index cannot tell its hits apart
        (retrieval/lanes/title.py). A scan of the documentation passages: asked only then."""
        patterns = [f"%{TRAIL_SEPARATOR}%{like_literal(w)}%" for w in dict.fromkeys(words) if w]
        if not patterns or limit <= 0 or not self._has_contexts():
            return {}
        wanted = " OR ".join(["t LIKE ? ESCAPE '\\'"] * len(patterns))
        rows = self.conn.execute(
            "SELECT id, t FROM (SELECT b.id AS id, "
            "substr(b.context, 1, instr(b.context || char(10), char(10)) - 1) AS t "
            "FROM passage_lines AS p JOIN beliefs AS b ON b.id = p.belief_id "
            "WHERE b.deleted_at IS NULL AND b.locked = 0) "
            f"WHERE {wanted} ORDER BY id LIMIT ?",
            (*patterns, limit),
        )
        return dict(rows.fetchall())

    def index_extras(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> what the keyword index holds of the beliefs among ``ids`` besides their
        content: their anchor text and their whole context, a line apart (those with
        neither left out). Read for a few hits at a time (retrieval/numbers.py)."""
        rows = self.conn.execute(
            "SELECT id, anchor_text || char(10) || context FROM beliefs "
            "WHERE id IN (SELECT value FROM json_each(?)) AND (anchor_text <> '' OR context <> '')",
            (json_array(ids),),
        )
        return dict(rows.fetchall())

    def short_prefix_sharing(self) -> Mapping[str, bool] | None:
        """Every derived id -> ``sharing_short_prefix``'s answer for it, when the warm index
        holds them all (made at index read); else None (ask ``sharing_short_prefix``)."""
        warm = self._warm_now()
        return None if warm is None else warm.short_prefix_sharing()

    def sharing_short_prefix(self, ids: list[str]) -> set[str]:
        """Those of ``ids`` (derived ids) whose short prefix starts another stored id too
        (credo.store.short_ids): one statement, or the warm index's per-version answers."""
        warm = self._warm_now()
        if warm is not None:
            return warm.sharing_short_prefix(self.conn, ids)
        from credo.store.beliefs import SHARING_SHORT_PREFIX

        return {row[0] for row in self.conn.execute(SHARING_SHORT_PREFIX, (json_array(ids),))}

    def stated(self, ids: Iterable[str]) -> set[str]:
        """The beliefs among ``ids`` a person stated or corrected (origin ``user_stated`` or
        ``user_corrected``, or kind ``correction``): the compress stage shows them verbatim."""
        warm = self._warm_now()
        if warm is not None:
            return warm.stated(self.conn, ids)
        rows = self.conn.execute(
            "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) "
            "AND (origin IN ('user_stated', 'user_corrected') OR kind = 'correction')",
            (json_array(ids),),
        )
        return {row[0] for row in rows}

    def retention(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> retention class of the beliefs among ``ids`` that are not facts (a
        snapshot, a transient one): what the compress stage and the result read. A store
        with none (known per store version, through the partial index of m009) is not
        asked."""
        if not self._has_classes():
            return {}
        warm = self._warm_now()
        if warm is not None:
            return warm.retention(self.conn, ids)
        rows = self.conn.execute(
            "SELECT id, retention FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) "
            "AND retention <> 'fact'",
            (json_array(ids),),
        )
        return dict(rows.fetchall())

    def _has_contexts(self) -> bool:
        return self._has(0)

    def _has_classes(self) -> bool:
        return self._has(1)

    def _has_lines(self) -> bool:
        return self._has(2)

    def _has_definitions(self) -> bool:
        return self._has(3)

    def _has_acronyms(self) -> bool:
        return self._has(4)

    def _has_values(self) -> bool:
        return self._has(5)

    def _own_mixed(self) -> bool:
        """Whether the store holds a live, unlocked belief of the user's own (origin not
        ``document``) and passages (a context): only then can the keyword hits leave one of
        the former out (store/own_pool.py)."""
        return self._has(6) and self._has(0)

    def _has(self, which: int) -> bool:
        """Whether any belief has a context (``which`` 0), a class other than fact (1), any
        passage has line statistics (2), any code definition is stored (3), any acronym
        (4: store/acronyms.py), any module-level constant (5: store/values.py), or any live,
        unlocked belief is the user's own (6: store/own_pool.py)."""
        # Kept per version inside a retrieve (``one_version``); read every time outside one.
        version = None if self.conn.in_transaction else self._version_pinned()
        seen = self._contexts_seen
        if version is None or seen is None or seen[0] != version:
            found = self.conn.execute(
                "SELECT EXISTS (SELECT 1 FROM beliefs WHERE context <> ''), "
                "EXISTS (SELECT 1 FROM beliefs WHERE retention <> 'fact'), "
                "EXISTS (SELECT 1 FROM passage_lines), EXISTS (SELECT 1 FROM definitions), "
                "EXISTS (SELECT 1 FROM acronyms), EXISTS (SELECT 1 FROM values_fts_docsize), "
                f"EXISTS (SELECT 1 FROM beliefs WHERE {OWN})"
            ).fetchone()
            seen = (version, tuple(map(bool, found)))
            if version is not None:
                self._contexts_seen = seen
        return seen[1][which]

    def live_unlocked(self, ids: Iterable[str]) -> dict[str, CandidateRow]:
        """id -> ``CandidateRow`` for the live, unlocked beliefs among ``ids``."""
        warm = self._warm_now()
        if warm is not None:
            return warm.rows(self.conn, ids)
        rows = self.conn.execute(
            "SELECT id, content, alpha, beta, session, created_at FROM beliefs "
            "WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL AND locked = 0",
            (json_array(ids),),
        )
        return {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def successors(
        self, ids: Iterable[str], *, edge_type: str, limit: int
    ) -> tuple[list[tuple[str, str]], dict[str, CandidateRow]]:
        """(src, dst) of the ``edge_type`` edges out of ``ids`` whose dst is live and
        unlocked, sorted, at most ``limit`` of them; plus id -> ``CandidateRow`` of those
        dsts (one query: the dst row is read anyway to check it is live).

        The ids drive the join, a primary-key range of ``edges`` per id.
        """
        rows = self.conn.execute(
            "SELECT e.src, e.dst, d.content, d.alpha, d.beta, d.session, d.created_at "
            "FROM json_each(?1) AS j CROSS JOIN edges AS e ON e.src = j.value "
            "JOIN beliefs AS d ON d.id = e.dst "
            "WHERE e.type = ?2 AND d.deleted_at IS NULL AND d.locked = 0 "
            "ORDER BY e.src, e.dst LIMIT ?3",
            (json_array(sorted(set(ids))), edge_type, limit),
        ).fetchall()
        pairs = [(r[0], r[1]) for r in rows]
        return pairs, {r[1]: (r[2], r[3], r[4], r[5], r[6]) for r in rows}
