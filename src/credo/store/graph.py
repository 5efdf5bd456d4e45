"""Graph reads for the retrieval lanes: one batched query per hop, live beliefs only."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from credo.store.anchors import names_doc


class Link(NamedTuple):
    """An edge seen from the lanes: direction kept, type as its stored name."""

    src: str
    dst: str
    type: str
    weight: float


class GraphQueries:
    conn: sqlite3.Connection

    def links_touching(self, ids: Iterable[str], *, limit: int) -> list[Link]:
        """Edges with one end in ``ids`` whose other end is live (not forgotten), sorted by
        (src, dst, type), at most ``limit`` of them (bounded fan-out for hub beliefs).

        ``ids`` must themselves be live (they come from the keyword index or an earlier hop),
        so only the far end is checked; an edge inside ``ids`` is returned once.
        """
        payload = json.dumps(sorted(set(ids)))
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

    def _stem_matches(self, stem: str, limit: int) -> list[tuple[str, str]]:
        """Anchors to a file whose name without extension is ``stem`` (any folder)."""
        literal = _like_literal(stem)
        rows = self.conn.execute(
            "SELECT a.belief_id, a.doc_uri FROM belief_documents a "
            "JOIN beliefs b ON b.id = a.belief_id AND b.deleted_at IS NULL "
            "WHERE a.doc_uri LIKE ? ESCAPE '\\' OR a.doc_uri LIKE ? ESCAPE '\\' "
            "ORDER BY a.doc_uri, a.belief_id LIMIT ?",
            ("%/" + literal + ".%", literal + ".%", limit),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def live_unlocked(self, ids: Iterable[str]) -> dict[str, tuple[str, float, float]]:
        """id -> (content, alpha, beta) for the live, unlocked beliefs among ``ids``."""
        rows = self.conn.execute(
            "SELECT id, content, alpha, beta FROM beliefs "
            "WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL AND locked = 0",
            (json.dumps(list(ids)),),
        )
        return {str(r[0]): (str(r[1]), float(r[2]), float(r[3])) for r in rows}

    def doc_anchor_matches(self, needles: Iterable[str], *, limit: int) -> list[tuple[str, str]]:
        """(belief_id, doc_uri) of live beliefs whose anchor names a document matching a
        needle: the whole path (or a folder prefix) or its last path segments.

        A needle with a '/' is matched as a path prefix (index range scan); a bare file
        name as the final segment, which needs a LIKE scan of the anchors table; callers
        only pass names that look like files.
        """
        out: list[tuple[str, str]] = []
        for needle in needles:
            if needle.startswith("page:"):
                out += self._stem_matches(needle.removeprefix("page:"), limit)
                continue
            if "/" in needle or needle.startswith("http"):
                rows = self.conn.execute(
                    "SELECT a.belief_id, a.doc_uri FROM belief_documents a "
                    "JOIN beliefs b ON b.id = a.belief_id AND b.deleted_at IS NULL "
                    "WHERE a.doc_uri >= ? AND a.doc_uri < ? "
                    "ORDER BY a.doc_uri, a.belief_id LIMIT ?",
                    (needle, needle + "\U0010ffff", limit),
                )
                # A prefix scan also finds "docs/a.md.bak" for "docs/a.md": keep the file
                # itself, its #fragments, and what lies under it when it is a folder.
                found = [(str(r[0]), str(r[1])) for r in rows if names_doc(needle, str(r[1]))]
                if found or "/" not in needle:
                    out += found
                    continue
            # The last path segment: "x/name", "x/name#L1-L9", "name", "name#L1-L9".
            name = needle.rsplit("/", 1)[-1]
            if not name:
                continue
            literal = _like_literal(name)
            rows = self.conn.execute(
                "SELECT a.belief_id, a.doc_uri FROM belief_documents a "
                "JOIN beliefs b ON b.id = a.belief_id AND b.deleted_at IS NULL "
                "WHERE a.doc_uri LIKE ? ESCAPE '\\' OR a.doc_uri LIKE ? ESCAPE '\\' "
                "OR a.doc_uri = ? OR a.doc_uri LIKE ? ESCAPE '\\' "
                "ORDER BY a.doc_uri, a.belief_id LIMIT ?",
                ("%/" + literal, "%/" + literal + "#%", name, literal + "#%", limit),
            )
            out += [(str(r[0]), str(r[1])) for r in rows]
        return out


def _like_literal(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
