"""SQL over the ``beliefs`` and ``belief_corroborations`` tables."""

# Evaluated annotations, for a cheaper import: see credo/types.py. The write-path rows
# (store/rows.py) are named in quotes: a read never loads them.

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from credo.errors import NotFoundError
from credo.store.db import json_array
from credo.store.short_ids import SHORT_CHARS, prefix_bounds
from credo.types import Belief

if TYPE_CHECKING:
    from credo.store.bulk import BulkLoad
    from credo.store.rows import NewBelief

_COLUMNS = (
    "b.id, b.content, b.content_hash, b.kind, b.origin, b.locked, b.alpha, b.beta, "
    "b.session, b.created_at, b.updated_at, b.deleted_at, "
    "(SELECT count(*) FROM belief_corroborations c WHERE c.belief_id = b.id), b.context, "
    "b.retention"
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
        context=str(row[13]),
        retention=str(row[14]),
    )


# The ids of json ? whose short prefix (credo.store.short_ids) starts another stored id too: an
# index range of at most two rows each, bounded as ``short_ids.prefix_bounds`` bounds it.
SHARING_SHORT_PREFIX = (
    "SELECT j.value FROM json_each(?) j WHERE (SELECT count(*) FROM (SELECT 1 FROM beliefs b "
    f"WHERE b.id >= substr(j.value, 1, {SHORT_CHARS}) AND b.id < substr(j.value, 1, "
    f"{SHORT_CHARS - 1}) || char(unicode(substr(j.value, {SHORT_CHARS}, 1)) + 1) LIMIT 2)) > 1"
)

_BELIEF_COLUMNS = (
    "id, content, content_hash, kind, origin, locked, alpha, beta, session, created_at, "
    "updated_at, deleted_at, context, retention"
)
_INSERT = f"INSERT INTO beliefs({_BELIEF_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
_STAGE_TABLE = f"CREATE TEMP TABLE IF NOT EXISTS belief_stage({_BELIEF_COLUMNS})"
_STAGE_ROWS = "INSERT INTO temp.belief_stage VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
_FROM_STAGE = (
    f"INSERT INTO main.beliefs({_BELIEF_COLUMNS}) SELECT * FROM temp.belief_stage ORDER BY rowid"
)


class BeliefRows:
    """The belief reads and writes whose Python is the same on both backends; each
    backend's class gives the statements (PostgreSQL's in store/postgres/tables.py) and
    how a list of ids travels as one parameter (``_id_list``)."""

    conn: Any  # sqlite3.Connection or psycopg.Connection
    _BELIEF: ClassVar[str]  # (id): _COLUMNS
    _BELIEFS: ClassVar[str]  # (ids): _COLUMNS
    _LIVE_IDS: ClassVar[str]  # (ids): id of those not forgotten
    _EXISTING_IDS: ClassVar[str]  # (ids): id
    _IDS_BETWEEN: ClassVar[str]  # (low, high, limit): id in [low, high), in id order
    _BELIEF_BY_HASH: ClassVar[str]  # (content_hash): _COLUMNS, live first, newest deleted next
    _SET_LOCKED: ClassVar[str]  # (locked 0/1, at, id)
    _SET_DELETED: ClassVar[str]  # (deleted_at, at, id)
    _SET_EVIDENCE: ClassVar[str]  # (alpha, beta, at, id)
    _DELETE_BELIEF: ClassVar[str]  # (id)
    _CORROBORATE: ClassVar[str]  # (belief_id, source, session, created_at)
    _LOCKED: ClassVar[str]  # (): _COLUMNS of live locked beliefs, oldest first

    @staticmethod
    def _id_list(ids: Iterable[str]) -> object:
        raise NotImplementedError

    @staticmethod
    def _storable(text: str) -> bool:
        """Whether the backend can hold ``text`` at all (PostgreSQL refuses a NUL)."""
        return True

    def require_belief(self, belief_id: str, *, live: bool = False) -> Belief:
        """The belief with this id, soft-deleted ones too unless ``live``.

        Raises:
            NotFoundError: no belief has this id, or (``live``) it is forgotten.
        """
        try:  # a lone surrogate (or what else the backend cannot hold) names none
            belief = self.get_belief(belief_id) if self._storable(belief_id) else None
        except UnicodeEncodeError:
            belief = None
        if belief is None:
            raise NotFoundError(f"no belief with id {belief_id!r}")
        if live and belief.deleted_at is not None:
            raise NotFoundError(
                f"belief {belief_id!r} is forgotten; remember it again to revive it"
            )
        return belief

    def holds(self, belief_id: str) -> bool:
        """Whether a belief (forgotten ones too) has exactly this id; False for a text the
        backend cannot hold (``require_belief``)."""
        try:
            return self._storable(belief_id) and self.get_belief(belief_id) is not None
        except UnicodeEncodeError:
            return False

    def get_belief(self, belief_id: str) -> Belief | None:
        found = self.conn.execute(self._BELIEF, (belief_id,)).fetchone()
        return _belief(found) if found else None

    def get_beliefs(self, ids: Iterable[str]) -> dict[str, Belief]:
        """id -> ``Belief`` for those of ``ids`` that are stored, forgotten ones too (one
        query)."""
        rows = self.conn.execute(self._BELIEFS, (self._id_list(ids),))
        return {str(r[0]): _belief(r) for r in rows}

    def live_ids(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` that name a stored, not forgotten belief (one query)."""
        return {str(r[0]) for r in self.conn.execute(self._LIVE_IDS, (self._id_list(ids),))}

    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        rows = self.conn.execute(self._EXISTING_IDS, (self._id_list(ids),))
        return {str(r[0]) for r in rows}

    def has_beliefs(self) -> bool:
        """Whether any belief row exists, forgotten ones included."""
        return self.conn.execute("SELECT 1 FROM beliefs LIMIT 1").fetchone() is not None

    def ids_with_prefix(self, prefix: str, limit: int) -> list[str]:
        """Up to ``limit`` stored ids (forgotten ones too) that start with ``prefix``, a
        derived id's prefix (credo.store.short_ids), in id order: one index range."""
        low, high = prefix_bounds(prefix)
        return [str(r[0]) for r in self.conn.execute(self._IDS_BETWEEN, (low, high, limit))]

    def find_by_hash(self, content_hash: str) -> Belief | None:
        """The belief holding this normalised text: a live one first, then the newest deleted."""
        row = self.conn.execute(self._BELIEF_BY_HASH, (content_hash,)).fetchone()
        return _belief(row) if row else None

    def set_locked(self, belief_id: str, locked: bool, at: float) -> None:
        self.conn.execute(self._SET_LOCKED, (int(locked), at, belief_id))

    def set_deleted(self, belief_id: str, deleted_at: float | None, at: float) -> None:
        self.conn.execute(self._SET_DELETED, (deleted_at, at, belief_id))

    def set_evidence(self, belief_id: str, alpha: float, beta: float, at: float) -> None:
        self.conn.execute(self._SET_EVIDENCE, (alpha, beta, at, belief_id))

    def delete_belief(self, belief_id: str) -> None:
        """Hard delete; edges, anchors and corroborations go with it (ON DELETE CASCADE)."""
        self.conn.execute(self._DELETE_BELIEF, (belief_id,))

    def add_corroboration(
        self, belief_id: str, source: str | None, session: str | None, at: float
    ) -> None:
        self.conn.execute(self._CORROBORATE, (belief_id, source, session, at))

    def locked_beliefs(self) -> list[Belief]:
        return [_belief(r) for r in self.conn.execute(self._LOCKED)]


class BeliefTable(BeliefRows):
    conn: sqlite3.Connection
    _id_list = staticmethod(json_array)
    _BELIEF = f"SELECT {_COLUMNS} FROM beliefs b WHERE b.id = ?"
    _BELIEFS = f"SELECT {_COLUMNS} FROM beliefs b WHERE b.id IN (SELECT value FROM json_each(?))"
    _LIVE_IDS = (
        "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL"
    )
    _EXISTING_IDS = "SELECT id FROM beliefs WHERE id IN (SELECT value FROM json_each(?))"
    _IDS_BETWEEN = "SELECT id FROM beliefs WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"
    _BELIEF_BY_HASH = (
        f"SELECT {_COLUMNS} FROM beliefs b WHERE b.content_hash = ? "
        "ORDER BY b.deleted_at IS NOT NULL, b.deleted_at DESC, b.id LIMIT 1"
    )
    _SET_LOCKED = "UPDATE beliefs SET locked = ?, updated_at = ? WHERE id = ?"
    _SET_DELETED = "UPDATE beliefs SET deleted_at = ?, updated_at = ? WHERE id = ?"
    _SET_EVIDENCE = "UPDATE beliefs SET alpha = ?, beta = ?, updated_at = ? WHERE id = ?"
    _DELETE_BELIEF = "DELETE FROM beliefs WHERE id = ?"
    _CORROBORATE = (
        "INSERT INTO belief_corroborations(belief_id, source, session, created_at) "
        "VALUES (?, ?, ?, ?)"
    )
    _LOCKED = (
        f"SELECT {_COLUMNS} FROM beliefs b WHERE b.locked = 1 AND b.deleted_at IS NULL "
        "ORDER BY b.created_at, b.id"
    )

    def insert_beliefs(self, beliefs: "Iterable[NewBelief]") -> None:
        """Insert rows (NewBelief is a row in column order) with one statement execution.

        Why not ``executemany``: inside a transaction each execution of a statement that
        fires a trigger opens a statement savepoint, and FTS5 (SQLite 3.40) writes its
        pending terms out as a new segment at every savepoint and release, so one
        execution per row made one index segment per belief, merged again and again
        (about a tenth of the instructions of ingesting black's docs). The rows go to a
        staging table without triggers first, then into ``beliefs`` by one INSERT ...
        SELECT (prepared once, where a multi-row VALUES is parsed anew for each row
        count): a file's new beliefs are indexed in one segment. The rows, their rowids
        and the indexed terms are the same; the segments they sit in differ."""
        rows = list(beliefs)
        if len(rows) == 1:
            self.conn.execute(_INSERT, rows[0])
            return
        if not rows:
            return
        # A TEMP table: this connection's own, gone with it, and (as the rows staged in it)
        # part of the transaction, so a rollback leaves nothing behind; hence created here
        # each time it is missing, not once.
        self.conn.execute(_STAGE_TABLE)
        try:
            self.conn.executemany(_STAGE_ROWS, rows)
            self.conn.execute(_FROM_STAGE)
        finally:  # a caller that catches a failed insert (a savepoint) must not find the
            # staged rows inserted again by its next call
            self.conn.execute("DELETE FROM temp.belief_stage")

    def bulk_load(self, *, big: bool) -> "BulkLoad":
        """A bulk insert of beliefs and edges, fed in batches (store/bulk.py). ``big``: many
        rows are coming, worth suspending triggers and indexes (schema changes) for."""
        from credo.store.bulk import BulkLoad  # imports only: the read path never loads it

        return BulkLoad(self.conn, big=big)

    def content_hashes(self, ids: Iterable[str]) -> dict[str, str]:
        """id -> content_hash for those of ``ids`` that are stored (one query)."""
        if not self.has_beliefs():
            return {}  # a fresh store: skip encoding and matching a bulk import's ids
        rows = self.conn.execute(
            "SELECT id, content_hash FROM beliefs WHERE id IN (SELECT value FROM json_each(?))",
            (json_array(ids),),
        )
        return dict(rows)  # rows are (id, content_hash) tuples of str

    def iter_beliefs(self) -> Iterator[Belief]:
        """Every belief, deleted ones included, by id (the export order)."""
        yield from map(
            _belief, self.conn.execute(f"SELECT {_COLUMNS} FROM beliefs b ORDER BY b.id")
        )
