"""SQL over the ``beliefs`` and ``belief_corroborations`` tables."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import NamedTuple

from credo.store.edges import EdgeRow, insert_edge_rows
from credo.types import Belief

_COLUMNS = (
    "b.id, b.content, b.content_hash, b.kind, b.origin, b.locked, b.alpha, b.beta, "
    "b.session, b.created_at, b.updated_at, b.deleted_at, "
    "(SELECT count(*) FROM belief_corroborations c WHERE c.belief_id = b.id)"
)


def _belief(row: Sequence[object]) -> Belief:
    return Belief(
        id=str(row[0]),
        content=str(row[1]),
        content_hash=str(row[2]),
        kind=str(row[3]),
        origin=str(row[4]),
        locked=bool(row[5]),
        alpha=float(row[6]),  # type: ignore[arg-type]
        beta=float(row[7]),  # type: ignore[arg-type]
        session=None if row[8] is None else str(row[8]),
        created_at=float(row[9]),  # type: ignore[arg-type]
        updated_at=float(row[10]),  # type: ignore[arg-type]
        deleted_at=None if row[11] is None else float(row[11]),  # type: ignore[arg-type]
        corroborations=int(row[12]),  # type: ignore[call-overload]
    )


class NewBelief(NamedTuple):
    """A belief row to insert (the store fills nothing in).

    A NamedTuple in the column order of ``_INSERT``, so a batch goes to ``executemany``
    as it is: an import creates one per belief.
    """

    id: str
    content: str
    content_hash: str
    kind: str
    origin: str
    locked: bool
    alpha: float
    beta: float
    session: str | None
    created_at: float
    updated_at: float
    deleted_at: float | None = None


_INSERT = (
    "INSERT INTO beliefs(id, content, content_hash, kind, origin, locked, alpha, beta, "
    "session, created_at, updated_at, deleted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
# A belief's anchor_text: the anchor text of its incoming edges in (src, type) order, the
# same expression as the edges_anchor_* triggers of M001.
_REFRESH_ANCHOR_TEXT = (
    "UPDATE beliefs SET anchor_text = coalesce(("
    "SELECT group_concat(anchor_text, ' ') FROM ("
    "SELECT anchor_text FROM edges WHERE dst = ?1 AND anchor_text IS NOT NULL "
    "ORDER BY src, type)), '') WHERE id = ?1"
)


class BeliefTable:
    conn: sqlite3.Connection

    def get_belief(self, belief_id: str) -> Belief | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM beliefs b WHERE b.id = ?", (belief_id,))
        found = row.fetchone()
        return _belief(found) if found else None

    def live_ids(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` that name a stored, not forgotten belief (one query)."""
        rows = self.conn.execute(
            "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) "
            "AND deleted_at IS NULL",
            (_json_list(ids),),
        )
        return {str(r[0]) for r in rows}

    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        rows = self.conn.execute(
            "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?))",
            (_json_list(ids),),
        )
        return {str(r[0]) for r in rows}

    def find_by_hash(self, content_hash: str) -> Belief | None:
        """The belief holding this normalised text: a live one first, then the newest deleted."""
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM beliefs b WHERE b.content_hash = ? "
            "ORDER BY b.deleted_at IS NOT NULL, b.deleted_at DESC, b.id LIMIT 1",
            (content_hash,),
        ).fetchone()
        return _belief(row) if row else None

    def insert_beliefs(self, beliefs: Iterable[NewBelief]) -> None:
        # bool binds as 0/1; NewBelief is already a row in column order.
        self.conn.executemany(_INSERT, beliefs)

    def bulk_insert(self, beliefs: Collection[NewBelief], edges: Collection[EdgeRow]) -> None:
        """Insert many beliefs, then many edges, with the index work done in bulk.

        Must run inside a write transaction. A ``_bulk_load`` row (see M001) suspends the
        per-row FTS insert and anchor-text triggers; the new beliefs are then indexed by one
        INSERT ... SELECT before any edge goes in (while their anchor_text is still empty,
        so the FTS update trigger later deletes exactly what was indexed), and the flag is
        removed before the anchor_text of the edges' targets is refreshed, so those updates
        go through the ordinary FTS update trigger. ``edges`` are inserted in the order
        given; (src, dst, type) order fills the primary key fastest.
        """
        conn = self.conn
        if not beliefs and not edges:
            return
        row = conn.execute("SELECT max(rid) FROM beliefs").fetchone()
        first_rid = int(row[0] or 0) + 1
        conn.execute("INSERT INTO _bulk_load(active) VALUES (1)")
        try:
            conn.executemany(_INSERT, beliefs)
            added = conn.execute(
                "SELECT count(*) FROM beliefs WHERE rid >= ?", (first_rid,)
            ).fetchone()[0]
            if added == len(beliefs):
                conn.execute(
                    "INSERT INTO beliefs_fts(rowid, content, anchor_text) "
                    "SELECT rid, content, anchor_text FROM beliefs "
                    "WHERE rid >= ? AND deleted_at IS NULL",
                    (first_rid,),
                )
            else:  # rowids were not handed out past the old maximum (only at 2**63 - 1)
                conn.execute(
                    "INSERT INTO beliefs_fts(rowid, content, anchor_text) "
                    "SELECT rid, content, anchor_text FROM beliefs "
                    "WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL",
                    (json.dumps([b.id for b in beliefs]),),
                )
            _insert_edges_without_triggers(conn, edges)
        finally:
            conn.execute("DELETE FROM _bulk_load")
        targets = sorted({e[1] for e in edges if e[4] is not None})
        conn.executemany(_REFRESH_ANCHOR_TEXT, ((t,) for t in targets))

    def content_hashes(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> content_hash for those of ``ids`` that are stored (one query)."""
        rows = self.conn.execute(
            "SELECT id, content_hash FROM beliefs WHERE id IN (SELECT value FROM json_each(?))",
            (_json_list(ids),),
        )
        return dict(rows)  # rows are (id, content_hash) tuples of str

    def set_locked(self, belief_id: str, locked: bool, at: float) -> None:
        self.conn.execute(
            "UPDATE beliefs SET locked = ?, updated_at = ? WHERE id = ?",
            (int(locked), at, belief_id),
        )

    def set_deleted(self, belief_id: str, deleted_at: float | None, at: float) -> None:
        self.conn.execute(
            "UPDATE beliefs SET deleted_at = ?, updated_at = ? WHERE id = ?",
            (deleted_at, at, belief_id),
        )

    def set_evidence(self, belief_id: str, alpha: float, beta: float, at: float) -> None:
        self.conn.execute(
            "UPDATE beliefs SET alpha = ?, beta = ?, updated_at = ? WHERE id = ?",
            (alpha, beta, at, belief_id),
        )

    def delete_belief(self, belief_id: str) -> None:
        """Hard delete; edges, anchors and corroborations go with it (ON DELETE CASCADE)."""
        self.conn.execute("DELETE FROM beliefs WHERE id = ?", (belief_id,))

    def add_corroboration(
        self, belief_id: str, source: str | None, session: str | None, at: float
    ) -> None:
        self.conn.execute(
            "INSERT INTO belief_corroborations(belief_id, source, session, created_at) "
            "VALUES (?, ?, ?, ?)",
            (belief_id, source, session, at),
        )

    def iter_beliefs(self) -> Iterator[Belief]:
        """Every belief, deleted ones included, by id (the export order)."""
        yield from map(
            _belief, self.conn.execute(f"SELECT {_COLUMNS} FROM beliefs b ORDER BY b.id")
        )

    def locked_beliefs(self) -> list[Belief]:
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM beliefs b WHERE b.locked = 1 AND b.deleted_at IS NULL "
            "ORDER BY b.created_at, b.id"
        )
        return [_belief(r) for r in rows]


def _json_list(ids: Iterable[str]) -> str:
    return json.dumps(list(ids))


def _insert_edges_without_triggers(conn: sqlite3.Connection, edges: Collection[EdgeRow]) -> None:
    """Insert many edges with the anchor-text triggers dropped for the duration: a trigger
    invocation per row costs ~5 us even when its WHEN clause is false. The DDL is part of
    the caller's transaction, so no other connection ever sees the triggers missing, and a
    rollback restores them; the caller refreshes anchor text in one pass afterwards."""
    if len(edges) < 1000:
        insert_edge_rows(conn, edges)
        return
    triggers = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'edges' "
        "ORDER BY name"
    ).fetchall()
    for name, _ in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    insert_edge_rows(conn, edges)
    for _, sql in triggers:
        conn.execute(sql)
