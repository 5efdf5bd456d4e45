"""SQL over the ``edges`` table."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from credo.store.db import json_array

if TYPE_CHECKING:  # loaded by the first edge read or write: retrieval reads links, not these
    from credo.edge_types import Edge, EdgeType

_COLUMNS = "src, dst, type, weight, anchor_text, created_at"
_INSERT = f"INSERT INTO edges({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"

# An edge as a row in column order: (src, dst, type, weight, anchor_text, created_at).
EdgeRow = tuple[str, str, str, float, str | None, float]


def insert_edge_rows(conn: sqlite3.Connection, rows: Iterable[EdgeRow]) -> None:
    conn.executemany(_INSERT, rows)


def _edge(row: Sequence[object]) -> Edge:
    from credo.edge_types import Edge, EdgeType

    return Edge(
        src=str(row[0]),
        dst=str(row[1]),
        type=EdgeType(row[2]),
        weight=float(row[3]),  # type: ignore[arg-type]
        anchor_text=None if row[4] is None else str(row[4]),
        created_at=float(row[5]),  # type: ignore[arg-type]
    )


class EdgeTable:
    conn: sqlite3.Connection

    def get_edge(self, src: str, dst: str, edge_type: EdgeType) -> Edge | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM edges WHERE src = ? AND dst = ? AND type = ?",
            (src, dst, edge_type.value),
        ).fetchone()
        return _edge(row) if row else None

    def insert_edges(self, edges: Iterable[Edge]) -> None:
        insert_edge_rows(
            self.conn,
            ((e.src, e.dst, e.type.value, e.weight, e.anchor_text, e.created_at) for e in edges),
        )

    def delete_edge(self, src: str, dst: str, edge_type: EdgeType) -> bool:
        cur = self.conn.execute(
            "DELETE FROM edges WHERE src = ? AND dst = ? AND type = ?", (src, dst, edge_type.value)
        )
        return cur.rowcount > 0

    def has_edges(self) -> bool:
        return self.conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is not None

    def existing_edge_keys(self, keys: Iterable[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        """Those of ``keys`` (src, dst, type) that are stored.

        Reads the stored edges of the keys' sources (a primary-key prefix scan each), which
        on a bulk import is far cheaper than matching every key through JSON.
        """
        if not self.has_edges():
            return set()
        wanted = set(keys)
        if not wanted:
            return set()
        sources = json_array(sorted({k[0] for k in wanted}))
        rows = self.conn.execute(
            "SELECT src, dst, type FROM edges WHERE src IN (SELECT value FROM json_each(?))",
            (sources,),
        )
        return wanted.intersection(rows)  # rows are (src, dst, type) tuples of str

    def edges_for_beliefs(self, ids: Iterable[str]) -> list[Edge]:
        """The candidate-induced subgraph: edges whose both ends are in ``ids`` (one query)."""
        payload = json_array(sorted(set(ids)))
        rows = self.conn.execute(
            f"WITH c(id) AS (SELECT value FROM json_each(?)) "
            # "+dst": look up by src only and filter dst; the plan SQLite would pick
            # otherwise probes every (src, dst) pair, N^2 index lookups.
            f"SELECT {_COLUMNS} FROM edges WHERE src IN c AND +dst IN c ORDER BY src, dst, type",
            (payload,),
        )
        return [_edge(r) for r in rows]

    def edges_touching(self, ids: Iterable[str]) -> list[Edge]:
        """Edges with at least one end in ``ids``, forgotten ends included (``credo show`` is
        an audit view; the retrieval lanes use ``links_touching``, which skips them)."""
        payload = json_array(sorted(set(ids)))
        rows = self.conn.execute(
            f"WITH c(id) AS (SELECT value FROM json_each(?)) "
            f"SELECT {_COLUMNS} FROM edges WHERE src IN c "
            f"UNION SELECT {_COLUMNS} FROM edges WHERE dst IN c",
            (payload,),
        )
        return sorted((_edge(r) for r in rows), key=lambda e: (e.src, e.dst, e.type.value))

    def iter_edges(self) -> Iterator[Edge]:
        yield from map(
            _edge, self.conn.execute(f"SELECT {_COLUMNS} FROM edges ORDER BY src, dst, type")
        )
