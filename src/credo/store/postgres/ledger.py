"""The ingest ledger, the captures and the agent's journal on PostgreSQL: the methods of
store/files.py, captures.py (its keyword read is in keyword.py) and journal.py, with the
same results."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from credo.store.beliefs import _COLUMNS  # pyright: ignore[reportPrivateUsage]
from credo.store.captures import CaptureRows, CaptureTable
from credo.store.files import (
    _FILE_COLUMNS,  # pyright: ignore[reportPrivateUsage]
    _KEY_COLUMNS,  # pyright: ignore[reportPrivateUsage]
    FileRows,
    FileTable,
)
from credo.store.journal import (
    _EVENT_COLUMNS,  # pyright: ignore[reportPrivateUsage]
    JournalRows,
    JournalTable,
)
from credo.store.postgres.pyformat import pyformat

if TYPE_CHECKING:
    import psycopg

    from credo.store.rows import (
        IngestedFile,
    )

# A JSON array held as text, as jsonb ('[]' for anything else: json_valid's guard).
_IDS = "(CASE WHEN {c} ~ '^\\[' THEN {c}::jsonb ELSE '[]'::jsonb END)"


class Ledger(FileRows, CaptureRows, JournalRows):
    conn: psycopg.Connection
    _id_list = staticmethod(list)
    _MARK = "%s"
    _INSERT = (
        "INSERT INTO captures(belief_id, session, at, kind, transcript, turn, listed_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (belief_id) DO NOTHING"
    )
    _GET = pyformat(CaptureTable._GET)
    _LISTED = "UPDATE captures SET listed_at = %s WHERE listed_at IS NULL AND belief_id = ANY(%s)"
    _SEEN = (
        "SELECT 1 FROM beliefs WHERE id = %(id)s AND session IS NOT DISTINCT FROM %(s)s "
        "UNION ALL SELECT 1 FROM belief_corroborations WHERE belief_id = %(id)s "
        "AND session IS NOT DISTINCT FROM %(s)s LIMIT 1"
    )
    _GET_FILE = pyformat(FileTable._GET_FILE)
    _FILES = pyformat(FileTable._FILES)
    _RELATIVE = pyformat(FileTable._RELATIVE)
    _MENTIONS = pyformat(FileTable._MENTIONS)
    _DROP_FILE = pyformat(FileTable._DROP_FILE)
    _BY_HASH = (
        f"SELECT {_KEY_COLUMNS} FROM beliefs b WHERE b.content_hash = ANY(%s) "
        "ORDER BY b.content_hash, b.deleted_at IS NOT NULL, b.deleted_at DESC NULLS LAST, "
        "b.id"
    )
    _TEXTS = "SELECT id, content, deleted_at FROM beliefs WHERE id = ANY(%s)"
    _UNANCHORED = FileTable._UNANCHORED
    _FILE_ANCHORS = pyformat(FileTable._FILE_ANCHORS)
    _ANCHORS_ELSEWHERE = (
        "SELECT belief_id, doc_uri FROM belief_documents "
        "WHERE belief_id = ANY(%s) AND anchor_type = 'ingest' "
        "AND NOT (doc_uri >= %s AND doc_uri < %s) ORDER BY belief_id, doc_uri"
    )
    _PUT_CONTEXT = (
        "INSERT INTO anchor_contexts(belief_id, file, context) VALUES (%s, %s, %s) "
        "ON CONFLICT (belief_id, file) DO UPDATE SET context = excluded.context "
        "WHERE anchor_contexts.context <> excluded.context"
    )
    _DROP_CONTEXT = pyformat(FileTable._DROP_CONTEXT)
    _FILE_CONTEXTS = (  # (ids, "#" + top: the parameters in that order, as SQLite's)
        "SELECT * FROM (SELECT c.belief_id, c.file, c.context, ("
        "SELECT min(d.created_at) FROM belief_documents d WHERE d.belief_id = c.belief_id "
        "AND d.anchor_type = 'ingest' AND d.doc_uri >= c.file || '#' "
        "AND d.doc_uri < c.file || p.top) AS since "
        "FROM (SELECT %s::text[] AS ids, %s::text AS top) p "
        "JOIN anchor_contexts c ON c.belief_id = ANY(p.ids)) AS x WHERE since IS NOT NULL"
    )
    _SOURCES = (
        "SELECT belief_id, source_path FROM ingest_log WHERE belief_id = ANY(%s) "
        "AND source_path IS NOT NULL ORDER BY seq"
    )
    _PRUNE = pyformat(JournalTable._PRUNE)
    _INJECTIONS = pyformat(JournalTable._INJECTIONS)
    _SESSION_INJECTIONS = pyformat(JournalTable._SESSION_INJECTIONS)
    _INJECTED_IN_SESSION = (
        "SELECT j.value FROM injections AS i, jsonb_array_elements_text("
        f"{_IDS.format(c='i.belief_ids')}) WITH ORDINALITY AS j(value, k) "
        "WHERE i.session = %s ORDER BY i.id, j.k"
    )
    _INJECTION_COUNT = pyformat(JournalTable._INJECTION_COUNT)
    # store/journal.py's formula and order.
    _USEFUL = (
        "WITH plain(id) AS (SELECT n.belief_id FROM injection_counts AS n "
        "JOIN beliefs AS b ON b.id = n.belief_id WHERE b.deleted_at IS NULL "
        "AND b.locked = 0 AND b.alpha = 1.0 AND b.beta = 1.0 "
        "ORDER BY n.times DESC, n.belief_id LIMIT %(limit)s), "
        "c(id) AS (SELECT id FROM plain "
        "UNION SELECT id FROM beliefs WHERE alpha <> 1.0 OR beta <> 1.0 "
        "UNION SELECT k.belief_id FROM belief_corroborations AS k "
        "JOIN beliefs AS d ON d.id = k.belief_id WHERE d.origin <> 'document'), "
        "r(id, times, score) AS (SELECT b.id, coalesce(n.times, 0), "
        "(%(use)s::float8 * coalesce(n.times, 0) + %(fb)s::float8 * (b.alpha - 1.0) "
        "+ %(co)s::float8 * (SELECT count(*) FROM belief_corroborations AS k "
        "WHERE k.belief_id = b.id AND b.origin <> 'document')) * b.alpha / (b.alpha + b.beta) "
        "FROM c JOIN beliefs AS b ON b.id = c.id "
        "LEFT JOIN injection_counts AS n ON n.belief_id = b.id "
        "WHERE b.deleted_at IS NULL AND b.locked = 0 AND b.alpha >= b.beta), "
        "top AS (SELECT id, times, score FROM r WHERE score > 0 "
        "ORDER BY score DESC, id LIMIT %(limit)s) "
        f"SELECT {_COLUMNS}, top.times FROM top JOIN beliefs AS b ON b.id = top.id "
        "ORDER BY top.score DESC, top.id"
    )
    _STATED = pyformat(JournalTable._STATED)
    _FEEDBACK_GIVEN = pyformat(JournalTable._FEEDBACK_GIVEN)
    _APPEND = pyformat(JournalTable._APPEND) + " RETURNING id"
    _COUNT_USES = (
        "INSERT INTO injection_counts(belief_id, times, last_at) "
        "SELECT DISTINCT j, 1, %(at)s::float8 FROM unnest(%(ids)s::text[]) AS j "
        "JOIN beliefs AS b ON b.id = j "
        "ON CONFLICT (belief_id) DO UPDATE SET times = injection_counts.times + 1, "
        "last_at = %(at)s::float8"
    )
    _FEEDBACK_EVENTS = (
        f"SELECT {_EVENT_COLUMNS} FROM feedback_events WHERE session = %s "
        "AND (%s::int = 0 OR undone_at IS NULL) ORDER BY id"
    )

    # -- the ingested_files ledger ---------------------------------------------------------
    def record_ingested_files(self, files: Iterable[IngestedFile]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO ingested_files({_FILE_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s) "
                "ON CONFLICT (path) DO UPDATE SET content_hash = excluded.content_hash, "
                "size = excluded.size, mtime = excluded.mtime, "
                "ingested_at = excluded.ingested_at, beliefs = excluded.beliefs, "
                "first_belief = excluded.first_belief",
                [tuple(f) for f in files],
            )

    def add_ingested_files(self, files: Iterable[IngestedFile]) -> int:
        rows = [tuple(f) for f in files]
        if not rows:
            return 0
        with self.conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO ingested_files({_FILE_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s) "
                "ON CONFLICT (path) DO NOTHING",
                rows,
            )
            return max(cur.rowcount, 0)

    def set_deleted_many(self, ids: Iterable[str], deleted_at: float | None, at: float) -> None:
        self.conn.execute(
            "UPDATE beliefs SET deleted_at = %s, updated_at = %s WHERE id = ANY(%s)",
            (deleted_at, at, list(ids)),
        )

    def set_contexts(self, contexts: Iterable[tuple[str, str]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "UPDATE beliefs SET context = %s WHERE id = %s AND context IS DISTINCT FROM %s",
                [(context, belief_id, context) for belief_id, context in contexts],
            )

    def put_file_contexts(self, path: str, contexts: Iterable[tuple[str, str]]) -> None:
        rows = [(belief_id, path, context) for belief_id, context in contexts]
        if rows:
            with self.conn.cursor() as cur:
                cur.executemany(self._PUT_CONTEXT, rows)

    def drop_file_contexts(self, keys: Iterable[tuple[str, str]]) -> None:
        rows = list(keys)
        if rows:
            with self.conn.cursor() as cur:
                cur.executemany(self._DROP_CONTEXT, rows)

    def set_retention(self, classes: Iterable[tuple[str, str]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "UPDATE beliefs SET retention = %s WHERE id = %s AND retention <> %s",
                [(kind, belief_id, kind) for belief_id, kind in classes],
            )

    def existing_anchor_keys(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        pairs = list(keys)
        rows = self.conn.execute(
            "SELECT d.belief_id, d.doc_uri FROM unnest(%s::text[], %s::text[]) AS k(b, u) "
            "JOIN belief_documents d ON d.belief_id = k.b AND d.doc_uri = k.u",
            ([p[0] for p in pairs], [p[1] for p in pairs]),
        )
        return {(str(r[0]), str(r[1])) for r in rows}

    def move_anchor(self, belief_id: str, old_uri: str, new_uri: str, hint: str | None) -> None:
        """store/files.py's ``move_anchor`` (UPDATE OR IGNORE there): the row moves unless
        the belief holds ``new_uri`` already, in which case the old row goes."""
        cur = self.conn.execute(
            "UPDATE belief_documents SET doc_uri = %s, position_hint = %s "
            "WHERE belief_id = %s AND doc_uri = %s AND (%s = %s OR NOT EXISTS ("
            "SELECT 1 FROM belief_documents o WHERE o.belief_id = %s AND o.doc_uri = %s))",
            (new_uri, hint, belief_id, old_uri, old_uri, new_uri, belief_id, new_uri),
        )
        if cur.rowcount == 0 and old_uri != new_uri:
            self.delete_anchors([(belief_id, old_uri)])

    def delete_anchors(self, keys: Iterable[tuple[str, str]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "DELETE FROM belief_documents WHERE belief_id = %s AND doc_uri = %s",
                [tuple(k) for k in keys],
            )

    # -- captures --------------------------------------------------------------------------
    # -- the journal -----------------------------------------------------------------------
    @staticmethod
    def _inserted_id(cursor: psycopg.Cursor) -> int:
        row = cursor.fetchone()
        return int(row[0]) if row else 0

    def insert_feedback_events(
        self, events: Iterable[tuple[float, str | None, str, str, float, float]]
    ) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO feedback_events(at, session, belief_id, signal, alpha_delta, "
                "beta_delta) VALUES (%s,%s,%s,%s,%s,%s)",
                list(events),
            )

    def mark_feedback_undone(self, event_ids: Iterable[int], at: float) -> None:
        self.conn.execute(
            "UPDATE feedback_events SET undone_at = %s WHERE id = ANY(%s) AND undone_at IS NULL",
            (at, [int(i) for i in event_ids]),
        )
