"""SQL over the agent's day journal: ``injections`` (what a hook put before the model),
``injection_counts`` (how often each belief was put there) and ``feedback_events`` (the
automatic feedback given, undoable by session). The rules live in ``credo.agent``; this
module only reads and writes rows.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from credo.store.beliefs import _COLUMNS, _belief
from credo.store.db import int_array, json_array
from credo.types import Belief

if TYPE_CHECKING:
    from credo.store.rows import FeedbackEvent, Injection

# The event whose injections are not uses: SessionStart shows what was used most, and
# counting its own picks would make them the most used for ever after.
NOT_A_USE = "session_start"


_INJECTION_COLUMNS = "id, at, session, event, prompt_hash, belief_ids, tokens, chars, reason"
_EVENT_COLUMNS = "id, at, session, belief_id, signal, alpha_delta, beta_delta, undone_at"


def _injection(row: Sequence[object]) -> "Injection":
    import json  # the journal views only: the read path never lists the journal

    from credo.store.rows import Injection

    try:
        ids = json.loads(str(row[5]))
    except ValueError:
        ids = []
    return Injection(
        id=int(row[0]),  # type: ignore[call-overload]
        at=float(row[1]),  # type: ignore[arg-type]
        session=None if row[2] is None else str(row[2]),
        event=str(row[3]),
        prompt_hash=None if row[4] is None else str(row[4]),
        belief_ids=tuple(str(i) for i in ids) if isinstance(ids, list) else (),
        tokens=int(row[6]),  # type: ignore[call-overload]
        chars=int(row[7]),  # type: ignore[call-overload]
        reason=str(row[8]),
    )


def _event(row: Sequence[object]) -> "FeedbackEvent":
    from credo.store.rows import FeedbackEvent

    return FeedbackEvent(
        id=int(row[0]),  # type: ignore[call-overload]
        at=float(row[1]),  # type: ignore[arg-type]
        session=None if row[2] is None else str(row[2]),
        belief_id=str(row[3]),
        signal=str(row[4]),
        alpha_delta=float(row[5]),  # type: ignore[arg-type]
        beta_delta=float(row[6]),  # type: ignore[arg-type]
        undone_at=None if row[7] is None else float(row[7]),  # type: ignore[arg-type]
    )


class JournalRows:
    """The journal's reads and writes whose Python is the same on both backends; each
    backend's class gives the statements (PostgreSQL's in store/postgres/ledger.py)."""

    conn: Any  # sqlite3.Connection or psycopg.Connection
    _PRUNE: ClassVar[str]  # (keep)
    _INJECTIONS: ClassVar[str]  # (limit)
    _SESSION_INJECTIONS: ClassVar[str]  # (session, limit)
    _INJECTED_IN_SESSION: ClassVar[str]  # (session): belief ids in injection, list order
    _INJECTION_COUNT: ClassVar[str]  # (belief_id)
    _USEFUL: ClassVar[str]  # named: use, fb, co, limit (see ``useful_beliefs``)
    _STATED: ClassVar[str]  # (limit): see ``user_statements``
    _FEEDBACK_GIVEN: ClassVar[str]  # (session, signal)
    _FEEDBACK_EVENTS: ClassVar[str]  # (session, open_only)
    # (at, session, event, prompt_hash, belief_ids as JSON, tokens, chars, reason)
    _APPEND: ClassVar[str]
    _COUNT_USES: ClassVar[str]  # named: at, ids (``_id_list``); ids not stored are skipped

    @staticmethod
    def _id_list(ids: Iterable[str]) -> object:
        raise NotImplementedError

    @staticmethod
    def _inserted_id(cursor: Any) -> int:
        """The id of the row ``_APPEND`` inserted."""
        raise NotImplementedError

    def insert_injection(
        self,
        at: float,
        session: str | None,
        event: str,
        prompt_hash: str | None,
        belief_ids: Sequence[str],
        tokens: int,
        chars: int,
        reason: str,
    ) -> int:
        """Append one journal row and, unless ``event`` is SessionStart's, count one use of
        each distinct belief it names that the store holds (a global lock is not here).
        Returns the row's id. Call inside a transaction."""
        row = (at, session, event, prompt_hash, json_array(belief_ids), tokens, chars, reason)
        cursor = self.conn.execute(self._APPEND, row)
        if event != NOT_A_USE and belief_ids:
            self.conn.execute(self._COUNT_USES, {"at": at, "ids": self._id_list(belief_ids)})
        return self._inserted_id(cursor)

    def prune_injections(self, keep: int) -> int:
        """Delete all but the newest ``keep`` journal rows (by id); returns how many went."""
        return self.conn.execute(self._PRUNE, (keep,)).rowcount

    def injections(self, *, session: str | None = None, limit: int = 50) -> "list[Injection]":
        """Journal rows, newest first; one session's when ``session`` is given."""
        if session is None:
            rows = self.conn.execute(self._INJECTIONS, (limit,))
        else:
            rows = self.conn.execute(self._SESSION_INJECTIONS, (session, limit))
        return [_injection(r) for r in rows]

    def injected_in_session(self, session: str) -> list[str]:
        """Every belief id a session's injections named, distinct, first injected first."""
        rows = self.conn.execute(self._INJECTED_IN_SESSION, (session,))
        return list(dict.fromkeys(str(r[0]) for r in rows))

    def injection_count(self, belief_id: str) -> int:
        """How often the belief was injected (SessionStart's own picks aside)."""
        row = self.conn.execute(self._INJECTION_COUNT, (belief_id,)).fetchone()
        return int(row[0]) if row else 0

    # -- SessionStart's candidates -----------------------------------------------------
    def useful_beliefs(
        self,
        *,
        use_weight: float,
        feedback_weight: float,
        corroboration_weight: float,
        limit: int,
    ) -> list[tuple[Belief, int]]:
        """(belief, times injected) for the live, unlocked beliefs with evidence of use
        (injected, alpha above the prior 1, or corroborated) and no more harm than use
        (alpha >= beta), best first by

            (use_weight * injected + feedback_weight * (alpha - 1)
             + corroboration_weight * corroborations) * alpha / (alpha + beta),

        ties by id; at most ``limit``. Exact, without scoring every injected belief: a
        belief still at the prior (alpha = beta = 1) and never corroborated scores
        ``use_weight * injected / 2``, so among those only the ``limit`` most injected can
        place (read in order from ``injection_counts_by_times``); the beliefs off the prior
        (``beliefs_with_evidence``) and the corroborated ones are few, and all scored."""
        rows = self.conn.execute(
            self._USEFUL,
            {
                "use": use_weight,
                "fb": feedback_weight,
                "co": corroboration_weight,
                "limit": limit,
            },
        )
        return [(_belief(r), int(r[-1])) for r in rows]  # the count after the columns

    def user_statements(self, *, limit: int) -> list[tuple[Belief, int]]:
        """(belief, times injected) for the person's own live, unlocked rules, preferences
        and corrections (origin ``user_stated``/``user_corrected``, kind ``requirement``,
        ``preference`` or ``correction``: what capture stores from a prompt) with no more
        harm than use (alpha >= beta), newest first, ties by id; at most ``limit``."""
        rows = self.conn.execute(self._STATED, (limit,))
        return [(_belief(r), int(r[-1])) for r in rows]

    # -- feedback events ---------------------------------------------------------------
    def feedback_given(self, session: str, signal: str) -> set[str]:
        """The beliefs a session already has a ``signal`` event for, undone ones too."""
        rows = self.conn.execute(self._FEEDBACK_GIVEN, (session, signal))
        return {str(r[0]) for r in rows}

    def feedback_events(self, session: str, *, open_only: bool = False) -> "list[FeedbackEvent]":
        """A session's feedback events in the order they were given (only those not undone
        yet with ``open_only``)."""
        rows = self.conn.execute(self._FEEDBACK_EVENTS, (session, int(open_only)))
        return [_event(r) for r in rows]


class JournalTable(JournalRows):
    conn: sqlite3.Connection
    _id_list = staticmethod(json_array)
    _APPEND = (
        "INSERT INTO injections(at, session, event, prompt_hash, belief_ids, tokens, chars, "
        "reason) VALUES (?,?,?,?,?,?,?,?)"
    )
    # (WHERE true: an upsert's SELECT needs one, or ON reads as a join constraint.)
    _COUNT_USES = (
        "INSERT INTO injection_counts(belief_id, times, last_at) "
        "SELECT DISTINCT j.value, 1, :at FROM json_each(:ids) AS j "
        "JOIN beliefs AS b ON b.id = j.value WHERE true "
        "ON CONFLICT(belief_id) DO UPDATE SET times = times + 1, last_at = :at"
    )
    _PRUNE = (
        "DELETE FROM injections WHERE id <= "
        "(SELECT id FROM injections ORDER BY id DESC LIMIT 1 OFFSET ?)"
    )
    _INJECTIONS = f"SELECT {_INJECTION_COLUMNS} FROM injections ORDER BY id DESC LIMIT ?"
    _SESSION_INJECTIONS = (
        f"SELECT {_INJECTION_COLUMNS} FROM injections WHERE session = ? ORDER BY id DESC LIMIT ?"
    )
    _INJECTED_IN_SESSION = (
        "SELECT j.value FROM injections AS i, json_each("
        "CASE WHEN json_valid(i.belief_ids) THEN i.belief_ids ELSE '[]' END) AS j "
        "WHERE i.session = ? ORDER BY i.id, j.key"
    )
    _INJECTION_COUNT = "SELECT times FROM injection_counts WHERE belief_id = ?"
    _USEFUL = (
        # CROSS JOIN keeps the counts outermost: read by times, stopped at the limit.
        "WITH plain(id) AS (SELECT n.belief_id FROM injection_counts AS n "
        "CROSS JOIN beliefs AS b ON b.id = n.belief_id WHERE b.deleted_at IS NULL "
        "AND b.locked = 0 AND b.alpha = 1.0 AND b.beta = 1.0 "
        "ORDER BY n.times DESC, n.belief_id LIMIT :limit), "
        "c(id) AS (SELECT id FROM plain "
        "UNION SELECT id FROM beliefs WHERE alpha <> 1.0 OR beta <> 1.0 "
        # A document's corroborations are its text again in other files (an ingest's
        # copies: boilerplate such as "def __init__(self) -> None"), not statements.
        "UNION SELECT k.belief_id FROM belief_corroborations AS k "
        "JOIN beliefs AS d ON d.id = k.belief_id WHERE d.origin <> 'document'), "
        "r(id, times, score) AS (SELECT b.id, coalesce(n.times, 0), "
        "(:use * coalesce(n.times, 0) + :fb * (b.alpha - 1.0) + :co * (SELECT count(*) FROM "
        "belief_corroborations AS k WHERE k.belief_id = b.id AND b.origin <> 'document')) "
        "* b.alpha / (b.alpha + b.beta) "
        "FROM c JOIN beliefs AS b ON b.id = c.id "
        "LEFT JOIN injection_counts AS n ON n.belief_id = b.id "
        "WHERE b.deleted_at IS NULL AND b.locked = 0 AND b.alpha >= b.beta), "
        "top AS (SELECT id, times, score FROM r WHERE score > 0 "
        "ORDER BY score DESC, id LIMIT :limit) "
        f"SELECT {_COLUMNS}, top.times FROM top JOIN beliefs AS b ON b.id = top.id "
        "ORDER BY top.score DESC, top.id"
    )
    _STATED = (
        f"SELECT {_COLUMNS}, coalesce(n.times, 0) FROM beliefs AS b "
        "LEFT JOIN injection_counts AS n ON n.belief_id = b.id "
        "WHERE b.deleted_at IS NULL AND b.locked = 0 AND b.alpha >= b.beta "
        "AND b.origin IN ('user_stated', 'user_corrected') "
        "AND b.kind IN ('requirement', 'preference', 'correction') "
        "ORDER BY b.created_at DESC, b.id LIMIT ?"
    )
    _FEEDBACK_GIVEN = (
        "SELECT DISTINCT belief_id FROM feedback_events WHERE session = ? AND signal = ?"
    )
    _FEEDBACK_EVENTS = (
        f"SELECT {_EVENT_COLUMNS} FROM feedback_events WHERE session = ? "
        "AND (? = 0 OR undone_at IS NULL) ORDER BY id"
    )

    @staticmethod
    def _inserted_id(cursor: sqlite3.Cursor) -> int:
        return int(cursor.lastrowid or 0)

    # -- feedback events ---------------------------------------------------------------
    def insert_feedback_events(
        self, events: Iterable[tuple[float, str | None, str, str, float, float]]
    ) -> None:
        """Append (at, session, belief_id, signal, alpha_delta, beta_delta) rows."""
        self.conn.executemany(
            "INSERT INTO feedback_events(at, session, belief_id, signal, alpha_delta, "
            "beta_delta) VALUES (?,?,?,?,?,?)",
            events,
        )

    def mark_feedback_undone(self, event_ids: Iterable[int], at: float) -> None:
        self.conn.execute(
            "UPDATE feedback_events SET undone_at = ? "
            "WHERE id IN (SELECT value FROM json_each(?)) AND undone_at IS NULL",
            (at, int_array(map(int, event_ids))),
        )
