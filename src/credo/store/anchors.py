"""SQL over ``belief_documents`` (the belief↔document linker's table)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from credo.store.db import json_array
from credo.types import DocAnchor

if TYPE_CHECKING:
    from credo.store.warm import WarmIndex

_COLUMNS = "belief_id, doc_uri, anchor_type, position_hint, created_at"


def _anchor(row: Sequence[object]) -> DocAnchor:
    return DocAnchor(
        belief_id=str(row[0]),
        doc_uri=str(row[1]),
        anchor_type=str(row[2]),
        position_hint=None if row[3] is None else str(row[3]),
        created_at=float(row[4]),  # type: ignore[arg-type]
    )


def read_anchors_for(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
    """``AnchorTable.anchors_for`` read from SQL."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM belief_documents "
        "WHERE belief_id IN (SELECT value FROM json_each(?)) "
        "ORDER BY belief_id, created_at, doc_uri",
        (json_array(ids),),
    )
    grouped: dict[str, list[DocAnchor]] = {}
    for anchor in map(_anchor, rows):
        grouped.setdefault(anchor.belief_id, []).append(anchor)
    return grouped


class AnchorTable:
    conn: sqlite3.Connection
    _warm_now: Callable[[], WarmIndex | None]  # GraphQueries'

    def insert_anchors(self, anchors: Iterable[DocAnchor]) -> int:
        """INSERT OR IGNORE: a (belief_id, doc_uri) pair is stored once. Returns rows added."""
        before = self.conn.total_changes
        # DocAnchor is a NamedTuple in column order: bound as it is, no row built per
        # anchor (an ingest inserts several per passage).
        self.conn.executemany(
            f"INSERT OR IGNORE INTO belief_documents({_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
            anchors,
        )
        return self.conn.total_changes - before

    def get_anchor(self, belief_id: str, doc_uri: str) -> DocAnchor | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM belief_documents WHERE belief_id = ? AND doc_uri = ?",
            (belief_id, doc_uri),
        ).fetchone()
        return _anchor(row) if row else None

    def anchors_for(self, ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
        """Anchors of many beliefs in one query, each list ordered by (created_at, doc_uri),
        in id order (from the warm index's cache when it holds this version)."""
        warm = self._warm_now()
        if warm is not None:
            return warm.anchors_for(self.conn, ids)
        return read_anchors_for(self.conn, ids)

    def anchors_for_doc(self, uri_or_prefix: str, *, prefix: bool) -> list[DocAnchor]:
        """Reverse lookup. With ``prefix``, a folder (``docs/``) lists every document under
        it, and a file lists its own anchors with their ``#L..`` fragments, never another
        file that merely shares the prefix (``docs/a.md`` is not ``docs/a.md.bak``)."""
        if prefix:
            rows = self.conn.execute(
                f"SELECT {_COLUMNS} FROM belief_documents WHERE doc_uri >= ? AND doc_uri < ? "
                "ORDER BY doc_uri, belief_id",
                (uri_or_prefix, uri_or_prefix + "\U0010ffff"),
            )
            return [a for a in map(_anchor, rows) if names_doc(uri_or_prefix, a.doc_uri)]
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM belief_documents WHERE doc_uri = ? ORDER BY belief_id",
            (uri_or_prefix,),
        )
        return [_anchor(r) for r in rows]

    def iter_anchors(self) -> Iterator[DocAnchor]:
        yield from map(
            _anchor,
            self.conn.execute(
                f"SELECT {_COLUMNS} FROM belief_documents ORDER BY belief_id, doc_uri"
            ),
        )


def names_doc(needle: str, uri: str) -> bool:
    """Whether ``uri`` is the document ``needle`` names (or lies under it as a folder)."""
    if needle.endswith("/") or uri == needle:
        return uri.startswith(needle)
    return uri.startswith(needle) and uri[len(needle)] in "#/?"
