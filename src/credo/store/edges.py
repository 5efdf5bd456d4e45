"""SQL over the ``edges`` table."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence

from credo.types import Edge, EdgeType

_COLUMNS = "src, dst, type, weight, anchor_text, created_at"


def _edge(row: Sequence[object]) -> Edge:
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
        self.conn.executemany(
            f"INSERT INTO edges({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            ((e.src, e.dst, e.type.value, e.weight, e.anchor_text, e.created_at) for e in edges),
        )

    def delete_edge(self, src: str, dst: str, edge_type: EdgeType) -> bool:
        cur = self.conn.execute(
            "DELETE FROM edges WHERE src = ? AND dst = ? AND type = ?", (src, dst, edge_type.value)
        )
        return cur.rowcount > 0

    def existing_edge_keys(self, keys: Iterable[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        payload = json.dumps([list(k) for k in keys])
        rows = self.conn.execute(
            "SELECT e.src, e.dst, e.type FROM json_each(?) j JOIN edges e "
            "ON e.src = json_extract(j.value, '$[0]') AND e.dst = json_extract(j.value, '$[1]') "
            "AND e.type = json_extract(j.value, '$[2]')",
            (payload,),
        )
        return {(str(r[0]), str(r[1]), str(r[2])) for r in rows}

    def edges_for_beliefs(self, ids: Iterable[str]) -> list[Edge]:
        """The candidate-induced subgraph: edges whose both ends are in ``ids`` (one query)."""
        payload = json.dumps(sorted(set(ids)))
        rows = self.conn.execute(
            f"WITH c(id) AS (SELECT value FROM json_each(?)) "
            f"SELECT {_COLUMNS} FROM edges WHERE src IN c AND dst IN c ORDER BY src, dst, type",
            (payload,),
        )
        return [_edge(r) for r in rows]

    def edges_touching(self, ids: Iterable[str]) -> list[Edge]:
        """Edges with at least one end in ``ids``, whose other end is a live belief (one query)."""
        payload = json.dumps(sorted(set(ids)))
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
