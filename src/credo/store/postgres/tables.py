"""SQL over beliefs, corroborations, edges, anchors, the log and ``_meta`` on PostgreSQL:
the methods of store/beliefs.py, edges.py, anchors.py, log.py and hrr.py, with the same
results. Batches of ids travel as one array parameter (``= ANY(%s)``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from credo.store.anchors import _COLUMNS as _ANCHOR_COLUMNS  # pyright: ignore[reportPrivateUsage]
from credo.store.anchors import _anchor, names_doc  # pyright: ignore[reportPrivateUsage]
from credo.store.beliefs import _COLUMNS, BeliefRows, BeliefTable, _belief  # pyright: ignore[reportPrivateUsage]
from credo.store.edges import _COLUMNS as _EDGE_COLUMNS  # pyright: ignore[reportPrivateUsage]
from credo.store.edges import EdgeRow
from credo.store.log import REDACTED
from credo.store.postgres.pyformat import pyformat
from credo.types import Belief, DocAnchor

if TYPE_CHECKING:
    import psycopg

    from credo.edge_types import Edge, EdgeType
    from credo.store.postgres.bulk import BulkLoad
    from credo.store.rows import LogEntry, NewBelief

_TOP = "\U0010ffff"
_INSERT_BELIEF = (
    "INSERT INTO beliefs(id, content, content_hash, kind, origin, locked, alpha, beta, "
    "session, created_at, updated_at, deleted_at, context, retention) "
    "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
)
_INSERT_EDGE = f"INSERT INTO edges({_EDGE_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"


def belief_row(b: Iterable[object]) -> tuple[object, ...]:
    """A ``NewBelief`` as PostgreSQL takes it: ``locked`` as 0/1, not a boolean."""
    row = tuple(b)
    return (*row[:5], int(bool(row[5])), *row[6:])


def _edge(row: Iterable[object]) -> Edge:
    from credo.store.edges import _edge as edge  # pyright: ignore[reportPrivateUsage]

    return edge(tuple(row))


class Tables(BeliefRows):
    conn: psycopg.Connection
    _id_list = staticmethod(list)
    _BELIEF = pyformat(BeliefTable._BELIEF)
    _BELIEFS = f"SELECT {_COLUMNS} FROM beliefs b WHERE b.id = ANY(%s)"
    _LIVE_IDS = "SELECT id FROM beliefs WHERE id = ANY(%s) AND deleted_at IS NULL"
    _EXISTING_IDS = "SELECT id FROM beliefs WHERE id = ANY(%s)"
    _IDS_BETWEEN = pyformat(BeliefTable._IDS_BETWEEN)  # the id column is COLLATE "C"
    _BELIEF_BY_HASH = (
        f"SELECT {_COLUMNS} FROM beliefs b WHERE b.content_hash = %s "
        "ORDER BY b.deleted_at IS NOT NULL, b.deleted_at DESC NULLS LAST, b.id LIMIT 1"
    )
    _SET_LOCKED = pyformat(BeliefTable._SET_LOCKED)
    _SET_DELETED = pyformat(BeliefTable._SET_DELETED)
    _SET_EVIDENCE = pyformat(BeliefTable._SET_EVIDENCE)
    _DELETE_BELIEF = pyformat(BeliefTable._DELETE_BELIEF)
    _CORROBORATE = pyformat(BeliefTable._CORROBORATE)
    _LOCKED = BeliefTable._LOCKED
    _edge_watchers: list[Callable[[str, str, str, int], None]]

    # -- beliefs ---------------------------------------------------------------------------
    @staticmethod
    def _storable(text: str) -> bool:
        return "\x00" not in text

    def insert_beliefs(self, beliefs: Iterable[NewBelief]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(_INSERT_BELIEF, [belief_row(b) for b in beliefs])

    def bulk_load(self, *, big: bool) -> BulkLoad:
        from credo.store.postgres.bulk import BulkLoad

        return BulkLoad(self.conn)

    def content_hashes(self, ids: Iterable[str]) -> dict[str, str]:
        rows = self.conn.execute(
            "SELECT id, content_hash FROM beliefs WHERE id = ANY(%s)", (list(ids),)
        )
        return {str(r[0]): str(r[1]) for r in rows}

    def iter_beliefs(self) -> Iterator[Belief]:
        with self.conn.cursor() as cur:
            yield from map(_belief, cur.execute(f"SELECT {_COLUMNS} FROM beliefs b ORDER BY b.id"))

    # -- edges -----------------------------------------------------------------------------
    def get_edge(self, src: str, dst: str, edge_type: EdgeType) -> Edge | None:
        row = self.conn.execute(
            f"SELECT {_EDGE_COLUMNS} FROM edges WHERE src = %s AND dst = %s AND type = %s",
            (src, dst, edge_type.value),
        ).fetchone()
        return _edge(row) if row else None

    def insert_edges(self, edges: Iterable[Edge]) -> None:
        self.insert_edge_rows(
            [(e.src, e.dst, e.type.value, e.weight, e.anchor_text, e.created_at) for e in edges]
        )

    def insert_edge_rows(self, rows: Iterable[EdgeRow]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(_INSERT_EDGE, list(rows))

    def delete_edge(self, src: str, dst: str, edge_type: EdgeType) -> bool:
        cur = self.conn.execute(
            "DELETE FROM edges WHERE src = %s AND dst = %s AND type = %s",
            (src, dst, edge_type.value),
        )
        return cur.rowcount > 0

    def has_edges(self) -> bool:
        return self.conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is not None

    def existing_edge_keys(self, keys: Iterable[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        wanted = set(keys)
        if not wanted or not self.has_edges():
            return set()
        rows = self.conn.execute(
            "SELECT src, dst, type FROM edges WHERE src = ANY(%s)",
            (sorted({k[0] for k in wanted}),),
        )
        return wanted.intersection((str(r[0]), str(r[1]), str(r[2])) for r in rows)

    def edges_for_beliefs(self, ids: Iterable[str]) -> list[Edge]:
        payload = sorted(set(ids))
        rows = self.conn.execute(
            f"SELECT {_EDGE_COLUMNS} FROM edges WHERE src = ANY(%s) AND dst = ANY(%s) "
            "ORDER BY src, dst, type",
            (payload, payload),
        )
        return [_edge(r) for r in rows]

    def edges_touching(self, ids: Iterable[str]) -> list[Edge]:
        payload = sorted(set(ids))
        rows = self.conn.execute(
            f"SELECT {_EDGE_COLUMNS} FROM edges WHERE src = ANY(%s) OR dst = ANY(%s) "
            "ORDER BY src, dst, type",
            (payload, payload),
        )
        return [_edge(r) for r in rows]

    def iter_edges(self) -> Iterator[Edge]:
        with self.conn.cursor() as cur:
            yield from map(
                _edge, cur.execute(f"SELECT {_EDGE_COLUMNS} FROM edges ORDER BY src, dst, type")
            )

    # -- anchors ---------------------------------------------------------------------------
    def insert_anchors(self, anchors: Iterable[DocAnchor]) -> int:
        added = 0
        with self.conn.cursor() as cur:
            for a in anchors:
                cur.execute(
                    f"INSERT INTO belief_documents({_ANCHOR_COLUMNS}) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (belief_id, doc_uri) DO NOTHING",
                    (a.belief_id, a.doc_uri, a.anchor_type, a.position_hint, a.created_at),
                )
                added += max(cur.rowcount, 0)
        return added

    def get_anchor(self, belief_id: str, doc_uri: str) -> DocAnchor | None:
        row = self.conn.execute(
            f"SELECT {_ANCHOR_COLUMNS} FROM belief_documents WHERE belief_id = %s AND doc_uri = %s",
            (belief_id, doc_uri),
        ).fetchone()
        return _anchor(row) if row else None

    def anchors_for(self, ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
        rows = self.conn.execute(
            f"SELECT {_ANCHOR_COLUMNS} FROM belief_documents WHERE belief_id = ANY(%s) "
            "ORDER BY belief_id, created_at, doc_uri",
            (list(ids),),
        )
        grouped: dict[str, list[DocAnchor]] = {}
        for anchor in map(_anchor, rows):
            grouped.setdefault(anchor.belief_id, []).append(anchor)
        return grouped

    def anchors_for_doc(self, uri_or_prefix: str, *, prefix: bool) -> list[DocAnchor]:
        if prefix:
            rows = self.conn.execute(
                f"SELECT {_ANCHOR_COLUMNS} FROM belief_documents WHERE doc_uri >= %s "
                "AND doc_uri < %s ORDER BY doc_uri, belief_id",
                (uri_or_prefix, uri_or_prefix + _TOP),
            )
            return [a for a in map(_anchor, rows) if names_doc(uri_or_prefix, a.doc_uri)]
        rows = self.conn.execute(
            f"SELECT {_ANCHOR_COLUMNS} FROM belief_documents WHERE doc_uri = %s ORDER BY belief_id",
            (uri_or_prefix,),
        )
        return [_anchor(r) for r in rows]

    def iter_anchors(self) -> Iterator[DocAnchor]:
        with self.conn.cursor() as cur:
            yield from map(
                _anchor,
                cur.execute(
                    f"SELECT {_ANCHOR_COLUMNS} FROM belief_documents ORDER BY belief_id, doc_uri"
                ),
            )

    # -- the log ---------------------------------------------------------------------------
    def append_log(
        self,
        entries: Iterable[tuple[float, str, str | None, str | None, dict[str, Any] | str | None]],
    ) -> None:
        import json

        rows = [
            (at, op, bid, src, p if p is None or type(p) is str else json.dumps(p, sort_keys=True))
            for at, op, bid, src, p in entries
        ]
        with self.conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO ingest_log(at, op, belief_id, source_path, payload) "
                "VALUES (%s,%s,%s,%s,%s)",
                rows,
            )

    def log_beliefs(
        self, rids: tuple[int, int], at: float, op: str, source_path: str | None
    ) -> None:
        """store/log.py's ``log_beliefs``: one ``op`` row per belief in the rid range, the
        payload the JSON that ``json.dumps(..., sort_keys=True, ensure_ascii=False)``
        writes (what SQLite's json_quote builds there)."""
        import json

        rows = self.conn.execute(
            "SELECT id, content, session FROM beliefs WHERE rid BETWEEN %s AND %s ORDER BY rid",
            rids,
        ).fetchall()
        self.append_log(
            (
                at,
                op,
                str(r[0]),
                source_path,
                json.dumps({"content": r[1], "session": r[2]}, sort_keys=True, ensure_ascii=False),
            )
            for r in rows
        )

    def redact_log(self, belief_id: str) -> None:
        self.conn.execute(
            "UPDATE ingest_log SET payload = %s WHERE payload IS DISTINCT FROM %s AND "
            "(belief_id = %s OR (op = 'relate' AND payload LIKE '{%%' "
            "AND payload::jsonb ->> 'dst' = %s))",
            (REDACTED, REDACTED, belief_id, belief_id),
        )

    def log_entries(self, belief_id: str | None = None) -> Iterator[LogEntry]:
        import json

        from credo.store.rows import LogEntry

        columns = "SELECT seq, at, op, belief_id, source_path, payload FROM ingest_log"
        if belief_id is None:
            rows = self.conn.execute(f"{columns} ORDER BY seq").fetchall()
        else:
            rows = self.conn.execute(
                f"{columns} WHERE belief_id = %s ORDER BY seq", (belief_id,)
            ).fetchall()
        for seq, at, op, bid, src, payload in rows:
            yield LogEntry(
                int(seq), float(at), str(op), bid, src, json.loads(payload) if payload else {}
            )

    # -- _meta and HRR traces --------------------------------------------------------------
    def meta_get(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM _meta WHERE key = %s", (key,)).fetchone()
        return None if row is None else str(row[0])

    def meta_set(self, key: str, value: str | None) -> None:
        if value is None:
            self.conn.execute("DELETE FROM _meta WHERE key = %s", (key,))
        else:
            self.conn.execute(
                "INSERT INTO _meta(key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def load_traces(self, ids: Iterable[str]) -> dict[str, bytes]:
        rows = self.conn.execute(
            "SELECT belief_id, trace FROM hrr_traces WHERE belief_id = ANY(%s)",
            (sorted(set(ids)),),
        )
        return {str(r[0]): bytes(r[1]) for r in rows}

    def save_traces(self, traces: Mapping[str, bytes | None]) -> None:
        gone = [(k,) for k, v in traces.items() if v is None]
        kept = [(k, v) for k, v in traces.items() if v is not None]
        with self.conn.cursor() as cur:
            if gone:
                cur.executemany("DELETE FROM hrr_traces WHERE belief_id = %s", gone)
            if kept:
                cur.executemany(
                    "INSERT INTO hrr_traces(belief_id, trace) VALUES (%s, %s) "
                    "ON CONFLICT (belief_id) DO UPDATE SET trace = excluded.trace",
                    kept,
                )

    def watch_edges(self, callback: Callable[[str, str, str, int], None]) -> None:
        """Call ``callback(src, dst, type, +1 | -1)`` for every edge written (cascades
        included) while the HRR lane is on: a trigger queues them in ``_edge_changes``
        and the store hands them over before COMMIT (``report_edge_changes``)."""
        if callback not in self._edge_watchers:
            self._edge_watchers.append(callback)

    def report_edge_changes(self) -> None:
        rows = self.conn.execute(
            "DELETE FROM _edge_changes RETURNING seq, src, dst, type, sign"
        ).fetchall()
        for _, src, dst, kind, sign in sorted(rows):
            for callback in self._edge_watchers:
                callback(str(src), str(dst), str(kind), int(sign))

    def clear_traces(self) -> None:
        self.conn.execute("DELETE FROM hrr_traces")
