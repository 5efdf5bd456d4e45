"""SQL for `credo ingest` and `credo doctor`: the ``ingested_files`` ledger and the bulk
reads and writes over beliefs, anchors and the log that re-ingesting a file needs.

Every method takes or returns many rows at once (ids travel as one JSON parameter), so
ingesting a file costs a handful of statements, not one per chunk.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py. The write-path rows
# (store/rows.py) are named in quotes: a read never loads them.

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from credo.store.db import json_array

if TYPE_CHECKING:
    from credo.store.rows import BeliefKey, FileAnchor, IngestedFile

# The highest code point: "a#" <= uri < "a#" + _TOP selects every "a#..." (an index range).
_TOP = "\U0010ffff"


def _file(row: Sequence[object]) -> "IngestedFile":
    from credo.store.rows import IngestedFile

    return IngestedFile(
        path=str(row[0]),
        content_hash=str(row[1]),
        size=int(row[2]),  # type: ignore[call-overload]
        mtime=float(row[3]),  # type: ignore[arg-type]
        ingested_at=float(row[4]),  # type: ignore[arg-type]
        beliefs=int(row[5]),  # type: ignore[call-overload]
        first_belief=None if row[6] is None else str(row[6]),
    )


def _key(row: Sequence[object]) -> "BeliefKey":
    from credo.store.rows import BeliefKey

    return BeliefKey(
        id=str(row[0]),
        content_hash=str(row[1]),
        origin=str(row[2]),
        locked=bool(row[3]),
        deleted_at=None if row[4] is None else float(row[4]),  # type: ignore[arg-type]
    )


_FILE_COLUMNS = "path, content_hash, size, mtime, ingested_at, beliefs, first_belief"
_KEY_COLUMNS = "b.id, b.content_hash, b.origin, b.locked, b.deleted_at"


class FileRows:
    """The ledger's reads and writes whose Python is the same on both backends; each
    backend's class gives the statements (PostgreSQL's in store/postgres/ledger.py) and
    how a list of ids travels as one parameter (``_id_list``)."""

    conn: Any  # sqlite3.Connection or psycopg.Connection
    _GET_FILE: ClassVar[str]  # (path)
    _FILES: ClassVar[str]  # (low, high): the paths in [low, high), by path
    _RELATIVE: ClassVar[str]  # (limit): the first paths that are no URI, by path
    _MENTIONS: ClassVar[str]  # (low, high): belief_id, doc_uri of derived anchors to files
    _DROP_FILE: ClassVar[str]  # (path)
    _BY_HASH: ClassVar[str]  # (digests): _KEY_COLUMNS, in find_by_hash's order per hash
    _TEXTS: ClassVar[str]  # (ids): id, content, deleted_at
    _UNANCHORED: ClassVar[str]  # (): id, content of live beliefs without anchors, by id
    _FILE_ANCHORS: ClassVar[str]  # (low, high): _KEY_COLUMNS, doc_uri, position_hint
    _ANCHORS_ELSEWHERE: ClassVar[str]  # (ids, low, high): belief_id, doc_uri
    _SOURCES: ClassVar[str]  # (ids): belief_id, source_path by seq
    _PUT_CONTEXT: ClassVar[str]  # (belief_id, file, context)
    _DROP_CONTEXT: ClassVar[str]  # (belief_id, file)
    _FILE_CONTEXTS: ClassVar[str]  # (ids, "#" + _TOP): belief_id, file, context

    @staticmethod
    def _id_list(ids: Iterable[str]) -> object:
        raise NotImplementedError

    # -- the ingested_files ledger ---------------------------------------------------------
    def get_ingested_file(self, path: str) -> "IngestedFile | None":
        row = self.conn.execute(self._GET_FILE, (path,)).fetchone()
        return _file(row) if row else None

    def ingested_files(self, prefix: str = "") -> "list[IngestedFile]":
        """Ledger rows whose path starts with ``prefix`` (all rows for ""), by path."""
        return [_file(r) for r in self.conn.execute(self._FILES, (prefix, prefix + _TOP))]

    def relative_file_paths(self, limit: int) -> list[str]:
        """The first ``limit`` ledger paths (by path) that are relative to the root, not a
        ``file:///`` URI: what the root of a store made before is inferred from."""
        return [str(r[0]) for r in self.conn.execute(self._RELATIVE, (limit,))]

    def file_mentions(self, prefix: str = "") -> list[tuple[str, str]]:
        """(belief_id, doc_uri) of every ``derived`` anchor to a file path relative to the
        root that starts with ``prefix`` (no URL, no ``file:///`` URI), by doc_uri."""
        rows = self.conn.execute(self._MENTIONS, (prefix, prefix + _TOP))
        return [(str(r[0]), str(r[1])) for r in rows]

    def drop_ingested_file(self, path: str) -> None:
        self.conn.execute(self._DROP_FILE, (path,))

    # -- beliefs ---------------------------------------------------------------------------
    def beliefs_by_hash(self, digests: Iterable[str]) -> "dict[str, BeliefKey]":
        """For each content hash, the belief holding it: a live one first, then the newest
        deleted, then the smallest id (the order ``find_by_hash`` uses)."""
        found: dict[str, BeliefKey] = {}
        for key in map(_key, self.conn.execute(self._BY_HASH, (self._id_list(digests),))):
            found.setdefault(key.content_hash, key)
        return found

    def live_beliefs_without_anchors(self) -> list[tuple[str, str]]:
        """(id, content) of live beliefs that have no document anchor at all, by id."""
        return [(str(r[0]), str(r[1])) for r in self.conn.execute(self._UNANCHORED)]

    def belief_texts(self, ids: Iterable[str]) -> dict[str, tuple[str, float | None]]:
        """id -> (content, deleted_at) for many beliefs in one query."""
        rows = self.conn.execute(self._TEXTS, (self._id_list(ids),))
        return {str(r[0]): (str(r[1]), None if r[2] is None else float(r[2])) for r in rows}

    # -- anchors ---------------------------------------------------------------------------
    def ingest_anchors_of_file(self, path: str) -> "list[FileAnchor]":
        """The ``ingest`` anchors into ``path`` (URIs ``path#...``), with their beliefs."""
        from credo.store.rows import FileAnchor

        lower = path + "#"
        rows = self.conn.execute(self._FILE_ANCHORS, (lower, lower + _TOP))
        return [FileAnchor(_key(r), str(r[5]), None if r[6] is None else str(r[6])) for r in rows]

    def ingest_anchors_elsewhere(self, ids: Iterable[str], path: str) -> list[tuple[str, str]]:
        """(belief_id, doc_uri) of the ``ingest`` anchors of ``ids`` into files other than
        ``path`` (where those beliefs stand, or stood, on another document)."""
        lower = path + "#"
        rows = self.conn.execute(self._ANCHORS_ELSEWHERE, (self._id_list(ids), lower, lower + _TOP))
        return [(str(r[0]), str(r[1])) for r in rows]

    # -- each file's context of a belief (m019) -------------------------------------------
    def put_file_contexts(self, path: str, contexts: Iterable[tuple[str, str]]) -> None:
        """Record the context (belief id, context) each belief has in the file ``path``;
        rows already equal are not rewritten."""
        rows = [(belief_id, path, context) for belief_id, context in contexts]
        if rows:
            self.conn.executemany(self._PUT_CONTEXT, rows)

    def drop_file_contexts(self, keys: Iterable[tuple[str, str]]) -> None:
        """Forget the contexts of (belief id, file) pairs (the belief left the file)."""
        rows = list(keys)
        if rows:
            self.conn.executemany(self._DROP_CONTEXT, rows)

    def file_contexts(self, ids: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
        """id -> [(file, context)] of the files that hold an ``ingest`` anchor of it, the
        file anchored first first (then by path, a code point order on both backends); ids
        without any are left out."""
        found: dict[str, list[tuple[float, str, str]]] = {}
        rows = self.conn.execute(self._FILE_CONTEXTS, (self._id_list(ids), "#" + _TOP))
        for belief_id, file, context, since in rows:
            found.setdefault(str(belief_id), []).append((float(since), str(file), str(context)))
        return {i: [(f, c) for _, f, c in sorted(rows_of)] for i, rows_of in found.items()}

    def iter_anchor_contexts(self) -> list[tuple[str, str, str]]:
        """Every (belief id, file, context) row of a text held by several files, by belief
        id then file (export: knowledge/derived_records.py)."""
        rows = self.conn.execute("SELECT belief_id, file, context FROM anchor_contexts")
        return sorted((str(r[0]), str(r[1]), str(r[2])) for r in rows)

    # -- the log ---------------------------------------------------------------------------
    def log_source_paths(self, ids: Iterable[str]) -> dict[str, list[str]]:
        """id -> the distinct non-null ``source_path`` values of its log rows, oldest first."""
        sources: dict[str, list[str]] = {}
        for belief_id, source in self.conn.execute(self._SOURCES, (self._id_list(ids),)):
            paths = sources.setdefault(str(belief_id), [])
            if source not in paths:
                paths.append(str(source))
        return sources


class FileTable(FileRows):
    conn: sqlite3.Connection
    _id_list = staticmethod(json_array)
    _GET_FILE = f"SELECT {_FILE_COLUMNS} FROM ingested_files WHERE path = ?"
    _FILES = (
        f"SELECT {_FILE_COLUMNS} FROM ingested_files WHERE path >= ? AND path < ? ORDER BY path"
    )
    _RELATIVE = "SELECT path FROM ingested_files WHERE path NOT LIKE '%://%' ORDER BY path LIMIT ?"
    _MENTIONS = (
        "SELECT belief_id, doc_uri FROM belief_documents WHERE doc_uri >= ? AND doc_uri < ? "
        "AND anchor_type = 'derived' AND doc_uri NOT LIKE '%://%' ORDER BY doc_uri, belief_id"
    )
    _DROP_FILE = "DELETE FROM ingested_files WHERE path = ?"
    _BY_HASH = (
        f"SELECT {_KEY_COLUMNS} FROM beliefs b "
        "WHERE b.content_hash IN (SELECT value FROM json_each(?)) "
        "ORDER BY b.content_hash, b.deleted_at IS NOT NULL, b.deleted_at DESC, b.id"
    )
    _TEXTS = (
        "SELECT id, content, deleted_at FROM beliefs WHERE id IN (SELECT value FROM json_each(?))"
    )
    _UNANCHORED = (
        "SELECT b.id, b.content FROM beliefs b WHERE b.deleted_at IS NULL AND NOT EXISTS "
        "(SELECT 1 FROM belief_documents d WHERE d.belief_id = b.id) ORDER BY b.id"
    )
    _FILE_ANCHORS = (
        f"SELECT {_KEY_COLUMNS}, d.doc_uri, d.position_hint FROM belief_documents d "
        "JOIN beliefs b ON b.id = d.belief_id "
        "WHERE d.doc_uri >= ? AND d.doc_uri < ? AND d.anchor_type = 'ingest' "
        "ORDER BY d.doc_uri, d.belief_id"
    )
    _ANCHORS_ELSEWHERE = (
        "SELECT belief_id, doc_uri FROM belief_documents "
        "WHERE belief_id IN (SELECT value FROM json_each(?)) AND anchor_type = 'ingest' "
        "AND NOT (doc_uri >= ? AND doc_uri < ?) ORDER BY belief_id, doc_uri"
    )
    _SOURCES = (
        "SELECT belief_id, source_path FROM ingest_log "
        "WHERE belief_id IN (SELECT value FROM json_each(?)) AND source_path IS NOT NULL "
        "ORDER BY seq"
    )

    _PUT_CONTEXT = (
        "INSERT INTO anchor_contexts(belief_id, file, context) VALUES (?, ?, ?) "
        "ON CONFLICT(belief_id, file) DO UPDATE SET context = excluded.context "
        "WHERE anchor_contexts.context <> excluded.context"
    )
    _DROP_CONTEXT = "DELETE FROM anchor_contexts WHERE belief_id = ? AND file = ?"
    _FILE_CONTEXTS = (
        "SELECT * FROM (SELECT c.belief_id, c.file, c.context, ("
        "SELECT min(d.created_at) FROM belief_documents d WHERE d.belief_id = c.belief_id "
        "AND d.anchor_type = 'ingest' AND d.doc_uri >= c.file || '#' "
        "AND d.doc_uri < c.file || ?2) AS since FROM anchor_contexts c "
        "WHERE c.belief_id IN (SELECT value FROM json_each(?1))) WHERE since IS NOT NULL"
    )

    def record_ingested_files(self, files: "Iterable[IngestedFile]") -> None:
        self.conn.executemany(
            f"INSERT INTO ingested_files({_FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(path) DO UPDATE SET content_hash = excluded.content_hash, "
            "size = excluded.size, mtime = excluded.mtime, ingested_at = excluded.ingested_at, "
            "beliefs = excluded.beliefs, first_belief = excluded.first_belief",
            (
                (f.path, f.content_hash, f.size, f.mtime, f.ingested_at, f.beliefs, f.first_belief)
                for f in files
            ),
        )

    def add_ingested_files(self, files: "Iterable[IngestedFile]") -> int:
        """Ledger rows for paths the ledger does not hold (a row it holds is kept as it is:
        the records import only adds); returns the rows added."""
        rows = [tuple(f) for f in files]
        if not rows:
            return 0
        return self.conn.executemany(
            f"INSERT INTO ingested_files({_FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(path) DO NOTHING",
            rows,
        ).rowcount

    def set_deleted_many(self, ids: Iterable[str], deleted_at: float | None, at: float) -> None:
        """Soft-delete (or with ``deleted_at=None`` revive) many beliefs in one statement."""
        self.conn.execute(
            "UPDATE beliefs SET deleted_at = ?, updated_at = ? "
            "WHERE id IN (SELECT value FROM json_each(?))",
            (deleted_at, at, json_array(ids)),
        )

    def set_contexts(self, contexts: Iterable[tuple[str, str]]) -> None:
        """Set beliefs' context field (id, context); rows already equal are not rewritten,
        so the FTS index is touched only where the context changed."""
        self.conn.executemany(
            "UPDATE beliefs SET context = ?2 WHERE id = ?1 AND context IS NOT ?2", contexts
        )

    def set_retention(self, classes: Iterable[tuple[str, str]]) -> None:
        """Set beliefs' retention class (id, class); rows already equal are not rewritten."""
        self.conn.executemany(
            "UPDATE beliefs SET retention = ?2 WHERE id = ?1 AND retention IS NOT ?2", classes
        )

    def existing_anchor_keys(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (belief_id, doc_uri) pairs among ``keys`` that are stored."""
        rows = self.conn.execute(
            "SELECT d.belief_id, d.doc_uri FROM json_each(?) j JOIN belief_documents d "
            "ON d.belief_id = json_extract(j.value, '$[0]') "
            "AND d.doc_uri = json_extract(j.value, '$[1]')",
            (_json_pairs(keys),),
        )
        return {(str(r[0]), str(r[1])) for r in rows}

    def move_anchor(self, belief_id: str, old_uri: str, new_uri: str, hint: str | None) -> None:
        """Point an anchor row at a new URI and position; the row is updated, never copied.

        When the belief already holds ``new_uri`` (say, a manual anchor on the same lines),
        that row stays and the old one goes, so the (belief_id, doc_uri) key holds.
        """
        cur = self.conn.execute(
            "UPDATE OR IGNORE belief_documents SET doc_uri = ?, position_hint = ? "
            "WHERE belief_id = ? AND doc_uri = ?",
            (new_uri, hint, belief_id, old_uri),
        )
        if cur.rowcount == 0 and old_uri != new_uri:
            self.delete_anchors([(belief_id, old_uri)])

    def delete_anchors(self, keys: Iterable[tuple[str, str]]) -> None:
        self.conn.executemany(
            "DELETE FROM belief_documents WHERE belief_id = ? AND doc_uri = ?", keys
        )


def _json_pairs(keys: Iterable[Sequence[str]]) -> str:
    import json  # ingest only: the read path never needs the json module

    return json.dumps([list(k) for k in keys])
