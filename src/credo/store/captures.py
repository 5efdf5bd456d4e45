"""SQL over ``captures`` (migration m007): which beliefs came from the user's own words in
a session, where, and whether the user has been shown them; and the two reads capture
needs of the beliefs (credo.agent.capture).

One row per belief (``belief_id`` is the key): it records the *first* capture. The same
statement captured again in a later session corroborates the belief and leaves its row as
it is, so a session's listing shows what was new in it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from credo.store.db import json_array
from credo.store.fts import CONTENT_WEIGHT, CONTEXT_WEIGHT, quote

if TYPE_CHECKING:  # write-path rows: a read never builds them (store/rows.py)
    from credo.store.rows import CaptureCandidate, CaptureRecord

_COLUMNS = "c.belief_id, c.session, c.at, c.kind, c.transcript, c.turn, c.listed_at"

# The candidates: beliefs holding at least two of a statement's terms (a pair of terms
# AND-ed, the pairs OR-ed), newest first. Ordered by rowid, FTS5 walks its postings in
# order and stops at the limit: the cost stays well under a millisecond whatever the
# terms, where ranking every belief that holds one common word by bm25 took 25 ms at 10k.
# The filters sit in the same walk, so passages and superseded beliefs never use up the
# limit. Anchor text is left out of the score (weight 0): it holds the words other beliefs
# use for one, and a capture compares what a belief itself says.
_CANDIDATES = (
    "SELECT b.id, b.content, b.kind, b.origin, b.locked, "
    f"-bm25(beliefs_fts, {CONTENT_WEIGHT}, 0.0, {CONTEXT_WEIGHT}) "
    "FROM beliefs_fts JOIN beliefs b ON b.rid = beliefs_fts.rowid "
    "WHERE beliefs_fts MATCH ? AND b.deleted_at IS NULL AND b.origin <> 'document' "
    "AND NOT EXISTS (SELECT 1 FROM edges e JOIN beliefs n ON n.id = e.src "
    "AND n.deleted_at IS NULL WHERE e.dst = b.id AND e.type = 'SUPERSEDES') "
    "ORDER BY beliefs_fts.rowid DESC LIMIT ?"
)
# Most term pairs in one MATCH (a statement of 12 topic words has 66).
MAX_PAIRS = 120


def term_pairs(term_groups: Iterable[Sequence[str]]) -> list[tuple[str, str]]:
    """The distinct pairs of distinct terms within each group, in the order met, at most
    ``MAX_PAIRS``: a candidate holds both terms of one pair (both backends ask this). A
    group of one term is the pair of it with itself: a candidate holds that term."""
    pairs: dict[tuple[str, str], None] = {}
    for group in term_groups:
        terms = list(dict.fromkeys(group))
        if len(terms) == 1:
            pairs.setdefault((terms[0], terms[0]), None)
        for i, first in enumerate(terms):
            for second in terms[i + 1 :]:
                pairs.setdefault((first, second), None)
    return list(pairs)[:MAX_PAIRS]


def _record(row: Sequence[object]) -> CaptureRecord:
    from credo.store.rows import CaptureRecord

    return CaptureRecord(
        belief_id=str(row[0]),
        session=None if row[1] is None else str(row[1]),
        at=float(row[2]),  # type: ignore[arg-type]
        kind=str(row[3]),
        transcript=None if row[4] is None else str(row[4]),
        turn=None if row[5] is None else int(row[5]),  # type: ignore[call-overload]
        listed_at=None if row[6] is None else float(row[6]),  # type: ignore[arg-type]
    )


class CaptureRows:
    """The captures' reads and writes whose Python is the same on both backends; each
    backend's class gives the statements (PostgreSQL's in store/postgres/ledger.py)."""

    conn: Any  # sqlite3.Connection or psycopg.Connection
    _MARK: ClassVar[str]  # the dialect's parameter mark
    _INSERT: ClassVar[str]  # a CaptureRecord; the first capture of a belief stays
    _GET: ClassVar[str]  # (belief_id)
    _LISTED: ClassVar[str]  # (at, belief_ids as ``_id_list``)
    _SEEN: ClassVar[str]  # named: id, s

    @staticmethod
    def _id_list(ids: Iterable[str]) -> object:
        raise NotImplementedError

    def insert_capture(self, record: CaptureRecord) -> bool:
        """INSERT OR IGNORE (the first capture of a belief stays). Returns whether added."""
        return self.conn.execute(self._INSERT, tuple(record)).rowcount > 0

    def get_capture(self, belief_id: str) -> CaptureRecord | None:
        row = self.conn.execute(self._GET, (belief_id,)).fetchone()
        return _record(row) if row else None

    def capture_records(
        self, *, session: str | None = None, unlisted: bool = False
    ) -> list[CaptureRecord]:
        """Captures of live beliefs, oldest first (ties by id); ``session`` None: of every
        session; ``unlisted``: only those not yet shown to the user."""
        where = ["b.deleted_at IS NULL"]
        params: list[object] = []
        if session is not None:
            where.append(f"c.session = {self._MARK}")
            params.append(session)
        if unlisted:
            where.append("c.listed_at IS NULL")
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM captures c JOIN beliefs b ON b.id = c.belief_id "
            f"WHERE {' AND '.join(where)} ORDER BY c.at, c.belief_id",
            params,
        )
        return [_record(r) for r in rows]

    def set_listed(self, belief_ids: Iterable[str], at: float) -> int:
        """Mark captures as shown (once: a capture listed before keeps its time)."""
        return self.conn.execute(self._LISTED, (at, self._id_list(belief_ids))).rowcount

    def seen_in_session(self, belief_id: str, session: str | None) -> bool:
        """Whether the belief was created or corroborated in ``session`` (None matches the
        writes that named no session): a capture counts once per session."""
        row = self.conn.execute(self._SEEN, {"id": belief_id, "s": session}).fetchone()
        return row is not None


class CaptureTable(CaptureRows):
    conn: sqlite3.Connection
    _MARK = "?"
    _id_list = staticmethod(json_array)
    _INSERT = (
        "INSERT OR IGNORE INTO captures(belief_id, session, at, kind, transcript, turn, "
        "listed_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    _GET = f"SELECT {_COLUMNS} FROM captures c WHERE c.belief_id = ?"
    _LISTED = (
        "UPDATE captures SET listed_at = ? WHERE listed_at IS NULL "
        "AND belief_id IN (SELECT value FROM json_each(?))"
    )
    _SEEN = (
        "SELECT 1 FROM beliefs WHERE id = :id AND session IS :s UNION ALL "
        "SELECT 1 FROM belief_corroborations WHERE belief_id = :id AND session IS :s "
        "LIMIT 1"
    )

    def capture_candidates(
        self, term_groups: Iterable[Sequence[str]], *, limit: int
    ) -> list[CaptureCandidate]:
        """The beliefs a captured statement may replace or contradict: live, not superseded
        by a live belief, not document passages (origin ``document``), locked ones too,
        holding at least two terms of one of ``term_groups`` (a statement's words each;
        the index stems them), newest first. One query, quoted by ``store.fts``."""
        pairs = term_pairs(term_groups)
        if not pairs or limit <= 0:
            return []
        expression = " OR ".join(f"({quote(a)} AND {quote(b)})" for a, b in pairs)
        try:
            rows = self.conn.execute(_CANDIDATES, (expression, limit)).fetchall()
        except sqlite3.OperationalError:
            return []  # a term FTS5 cannot parse even quoted: no candidates (see fts.py)
        from credo.store.rows import CaptureCandidate

        return [
            CaptureCandidate(str(r[0]), str(r[1]), str(r[2]), str(r[3]), bool(r[4]), float(r[5]))
            for r in rows
        ]
