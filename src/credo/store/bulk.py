"""Bulk writes of beliefs and edges (the records import), in steps, inside one transaction.

A ``BulkLoad`` is opened inside a write transaction, takes belief and edge rows in batches
and is finished before anything else writes; the caller rolls the transaction back if any
step raises. The rows must be valid already (the importer checks every field, end and
duplicate before it hands a row over), which is what makes these shortcuts safe:

- CHECK constraints are skipped while rows go in (``PRAGMA ignore_check_constraints``): the
  ``IN (...)`` lists of the edge type and of ``locked`` cost several microseconds a row.
- The per-row triggers that keep the FTS index, the anchor text and (with the HRR lane
  off) the HRR queue up to date are dropped and their work done in set-based statements:
  each batch of beliefs is indexed by one INSERT ... SELECT as it goes in (while its
  anchor_text is still empty, so the FTS update trigger later deletes exactly what was
  indexed); at the end, with the triggers back, the anchor_text of the edges' targets is
  refreshed through the ordinary FTS update trigger. A batch whose text ``index_text``
  leaves as it is (all ASCII text, most text) is indexed from the table, not through the
  view's ``credo_index_text`` (m013): that SQL function is a Python call per field and row,
  each taking the GIL back from the parsing thread (+4.7% instructions on a 20k import).
- A table that held no row when the load began has its indexes built after its rows: one
  sort instead of a random B-tree insert per row.
- Rows go in as multi-row ``INSERT ... VALUES (...), (...)`` statements: one statement
  execution per few hundred rows instead of one per row (half the cost), and one release
  of the GIL per statement, which lets another Python thread run meanwhile.
- A column that holds the same None, False or True in every row of such a statement is
  written as a literal (``insert_rows``): the sqlite3 module binds those values through an
  adapter lookup that raises and clears an exception each time.
- Into an empty store, past ``FTS_DEFER_MERGES_AT`` beliefs, FTS5 stops merging segments,
  and merges them all once at the end (``'optimize'``); its settings are put back after.

The DDL is part of the caller's transaction: no other connection ever sees a trigger or an
index missing, and a rollback (or a crash) restores them. Below ``BULK_DDL_ROWS`` rows the
schema is left alone (a schema reload costs more than a few hundred trigger firings) and
the ``_bulk_load`` flag of M001 suspends the triggers instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from itertools import chain, repeat
from operator import is_, is_not, itemgetter

from credo.store.db import json_array
from credo.store.index_text import has_special
from credo.store.migrations import LIVE_ANCHOR_TEXT
from credo.store.value_migration import VALUE_KIND

BULK_DDL_ROWS = 1000

# Rows per multi-row INSERT: past a hundred or so the statement gets no cheaper per row,
# and larger ones hand the GIL to a parsing thread for longer (one hand-over costs up to
# the interpreter's switch interval, 5 ms).
ROWS_PER_STATEMENT = 2000

BELIEF_COLUMNS = (
    "id, content, content_hash, kind, origin, locked, alpha, beta, session, created_at, "
    "updated_at, deleted_at, context, retention"
)
EDGE_COLUMNS = "src, dst, type, weight, anchor_text, created_at"
# A new belief's fields the keyword index reads (its anchor_text is still '').
_KIND = BELIEF_COLUMNS.split(", ").index("kind")
_INDEXED = tuple(BELIEF_COLUMNS.split(", ").index(name) for name in ("content", "context"))
# The rows of beliefs_live as its view gives them to a batch that ``index_text`` leaves as
# it is: the same columns and rows, without a function call per field.
_PLAIN_LIVE = (
    "(SELECT rid, content, anchor_text, context FROM beliefs WHERE deleted_at IS NULL "
    f"AND kind <> '{VALUE_KIND}')"
)

# The per-row triggers a load replaces with set-based statements. Any other trigger (one a
# later migration adds) stays in force.
_TRIGGERS = ("beliefs_fts_insert", "edges_anchor_insert")
_TEMP_TRIGGERS = ("credo_hrr_insert",)  # store/hrr.py; kept while the HRR lane is on

# A load into an empty store stops FTS5's merges once it holds this many beliefs, and
# merges every segment once at the end ('optimize'). Measured on synthetic Zipf text: at
# 100k beliefs the one big merge costs a little more than the merges it saves (0.75 against
# 0.64 s of FTS work), at 1M it saves a quarter of it (6.1 against 8.6 s).
FTS_DEFER_MERGES_AT = 250_000
# The FTS5 settings held meanwhile (no merges, incremental or forced) and their FTS5
# defaults (fts5Int.h).
_FTS_NO_MERGES = {"automerge": 0, "crisismerge": 1999}
_FTS_DEFAULTS = {"automerge": 4, "crisismerge": 16}

# A belief's anchor_text, by the rule of the edges_anchor_* triggers (M005).
_REFRESH_ANCHOR_TEXT = (
    f"UPDATE beliefs SET anchor_text = {LIVE_ANCHOR_TEXT.format(target='?1')} WHERE id = ?1"
)


def insert_rows(
    conn: sqlite3.Connection, table: str, columns: str, rows: Sequence[Sequence[object]]
) -> None:
    """``INSERT INTO table(columns)`` every row, a few hundred rows per statement.

    A column that holds the same None, False or True in every row of a statement is written
    as the literal NULL, 0 or 1 instead of a parameter: the sqlite3 module binds those
    values through its adapter lookup, which raises and clears an AttributeError each time
    (about a microsecond, with the GIL held), and an import binds millions of them (a
    belief's session, deleted_at and locked flag, an edge's anchor text). The stored values
    are the same: a bound False or True is stored as the integer 0 or 1.
    """
    if not rows:
        return
    width = columns.count(",") + 1
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per = max(1, min(ROWS_PER_STATEMENT, limit // width))
    head = f"INSERT INTO {table}({columns}) VALUES "
    statements: dict[tuple[tuple[str, ...], int], str] = {}
    for start in range(0, len(rows), per):
        part = rows[start : start + per]
        slots = _slots(part, width)
        sql = statements.get((slots, len(part)))
        if sql is None:
            sql = head + ",".join(["(" + ",".join(slots) + ")"] * len(part))
            statements[(slots, len(part))] = sql
        kept = [j for j, slot in enumerate(slots) if slot == "?"]
        if len(kept) == width:
            conn.execute(sql, list(chain.from_iterable(part)))
        elif len(kept) <= 1:  # itemgetter of one index gives the value, not a tuple
            conn.execute(sql, [row[kept[0]] for row in part] if kept else [])
        else:
            conn.execute(sql, list(chain.from_iterable(map(itemgetter(*kept), part))))


def plain_text(rows: Sequence[Sequence[object]]) -> bool:
    """True when the index reads every new belief row's text as it is: ``index_text``
    leaves it so (its ``has_special`` is false for each, as for any ASCII text) and a row
    without a context names no compound name (m017: store/compound_words.py); the index
    may then read the rows from the table instead of through ``beliefs_live``."""
    from credo.store.compound_words import compound_words  # (dump.py imports this module)

    content, context = _INDEXED
    return not any(
        has_special(text) for row in rows for j in _INDEXED if isinstance(text := row[j], str)
    ) and not any(
        row[context] == "" and isinstance(row[content], str) and compound_words(row[content])
        for row in rows
    )


_LITERALS = ((None, "NULL"), (False, "0"), (True, "1"))


def _slots(rows: Sequence[Sequence[object]], width: int) -> tuple[str, ...]:
    """Per column: the SQL literal of the None, False or True every row holds there, or
    ``?``. Checked at C speed, and only where the first row holds one of them."""
    first = rows[0]
    slots: list[str] = []
    for j in range(width):
        slot = "?"
        for value, literal in _LITERALS:
            if first[j] is value:
                if all(map(is_, map(itemgetter(j), rows), repeat(value))):
                    slot = literal
                break
        slots.append(slot)
    return tuple(slots)


class BulkLoad:
    """One bulk insert of beliefs and edges, fed in batches (see the module docstring).

    ``start()``, then any number of ``add_beliefs`` / ``add_edges`` calls, then
    ``finish()``; nothing else may write between ``start`` and ``finish``. If a step raises,
    ``close()``, then roll the transaction back.
    """

    def __init__(self, conn: sqlite3.Connection, *, big: bool) -> None:
        self.conn = conn
        self.big = big
        row = conn.execute("SELECT max(rid) FROM beliefs").fetchone()
        self.first_rid = int(row[0] or 0) + 1
        self.beliefs_added = 0
        # SQLite gives a new row the largest rowid + 1 until that would pass 2**63 - 1, then
        # picks one at random: far below that, the rows go in as first_rid, first_rid + 1...
        self.contiguous = self.first_rid < 2**62
        self._anchor_targets: set[str] = set()
        self._restore: list[str] = []  # DDL that undoes the suspensions, in order
        self._fts_saved: dict[str, object] | None = None  # merge settings, when deferred
        self._may_defer_merges = False  # a big load into an empty store

    def start(self) -> None:
        conn = self.conn
        if self.big:
            empty = [
                t
                for t in ("beliefs", "edges")
                if conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() is None
            ]
            self._drop("index", _indexes_of(conn, empty), temp=False)
            self._may_defer_merges = "beliefs" in empty
            self._drop("trigger", _TRIGGERS, temp=False)
            hrr_on = conn.execute("SELECT 1 FROM _meta WHERE key = 'hrr_dim'").fetchone()
            if hrr_on is None:  # else its trigger must see every edge
                self._drop("trigger", _TEMP_TRIGGERS, temp=True)
        else:
            conn.execute("INSERT INTO _bulk_load(active) VALUES (1)")
        conn.execute("PRAGMA ignore_check_constraints = ON")

    def add_beliefs(self, rows: Sequence[Sequence[object]]) -> int | None:
        """Insert belief rows (``NewBelief``) and index the live ones for FTS. Returns the
        rowid of the first, the others following in order (None when the rowids are too
        close to 2**63 - 1 to be sure of that: see ``contiguous``)."""
        if not rows:
            return None
        conn = self.conn
        first = self.first_rid + self.beliefs_added
        if self._may_defer_merges and self.beliefs_added >= FTS_DEFER_MERGES_AT:
            self._may_defer_merges = False
            self._defer_fts_merges()
        insert_rows(conn, "beliefs", BELIEF_COLUMNS, rows)
        self.beliefs_added += len(rows)
        # the view: the fields as the index reads them (m013), or the table where that is them
        live = _PLAIN_LIVE if plain_text(rows) else "beliefs_live"
        if not self.big and any(row[_KIND] == VALUE_KIND for row in rows):
            # (a constant's row, into its own index: store/values.py; a big load's
            # trigger for it stays in force, as any trigger it does not replace)
            conn.execute(
                "INSERT INTO values_fts(rowid, content, anchor_text, context) "
                "SELECT rid, content, anchor_text, context FROM values_live WHERE rid IN "
                "(SELECT rid FROM beliefs WHERE id IN (SELECT value FROM json_each(?)))",
                (json_array(str(r[0]) for r in rows if r[_KIND] == VALUE_KIND),),
            )
        if self.contiguous:
            conn.execute(
                "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) "
                f"SELECT rid, content, anchor_text, context FROM {live} WHERE rid >= ?",
                (first,),
            )
            return first
        else:
            conn.execute(
                "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) "
                f"SELECT rid, content, anchor_text, context FROM {live} WHERE rid IN "
                "(SELECT rid FROM beliefs WHERE id IN (SELECT value FROM json_each(?)))",
                (json_array(str(r[0]) for r in rows),),
            )
            return None

    def add_edges(self, rows: Sequence[Sequence[object]]) -> None:
        """Insert edge rows (``EdgeRow``); (src, dst, type) order fills the key fastest."""
        insert_rows(self.conn, "edges", EDGE_COLUMNS, rows)
        if has_anchor_text(rows):
            self._anchor_targets.update([str(r[1]) for r in rows if r[4] is not None])

    def finish(self) -> None:
        """Restore checks, indexes and triggers; refresh anchor text."""
        conn = self.conn
        self.close()
        if self.big:
            if self._fts_saved is not None:
                self._merge_fts()
            for sql in self._restore:
                conn.execute(sql)
        else:
            conn.execute("DELETE FROM _bulk_load")
        conn.executemany(_REFRESH_ANCHOR_TEXT, ((t,) for t in sorted(self._anchor_targets)))

    def close(self) -> None:
        """Restore the connection's CHECK enforcement, also when a step raised (the rollback
        that follows restores the schema, not a pragma). Idempotent."""
        self.conn.execute("PRAGMA ignore_check_constraints = OFF")

    def _defer_fts_merges(self) -> None:
        """Stop FTS5 merging the segments the batches write: into an empty index, each
        merge rewrites postings a later merge rewrites again (log N times over); one
        'optimize' at the end (``_merge_fts``) writes each posting once more. The segments
        written before stay as they are, and that merge takes them too."""
        names = json_array(_FTS_NO_MERGES)
        self._fts_saved = dict(
            self.conn.execute(
                "SELECT k, v FROM beliefs_fts_config WHERE k IN (SELECT value FROM json_each(?))",
                (names,),
            ).fetchall()
        )
        for key, value in _FTS_NO_MERGES.items():
            self.conn.execute(
                "INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES (?, ?)", (key, value)
            )

    def _merge_fts(self) -> None:
        """Merge the load's segments into one, then put the merge settings back as they
        were: a setting that had no row of its own is set to FTS5's default (for this
        connection's copy) and its row deleted (the table as before)."""
        conn, saved = self.conn, self._fts_saved or {}
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')")
        for key in _FTS_NO_MERGES:
            conn.execute(
                "INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES (?, ?)",
                (key, saved.get(key, _FTS_DEFAULTS[key])),
            )
            if key not in saved:
                conn.execute("DELETE FROM beliefs_fts_config WHERE k = ?", (key,))
        self._fts_saved = None

    def _drop(self, kind: str, names: Sequence[str], *, temp: bool) -> None:
        """Drop those of the named triggers or indexes that exist; remember how to recreate
        them. On an error they stay dropped: the caller's rollback restores them."""
        if not names:
            return
        schema = "temp" if temp else "main"
        found = self.conn.execute(
            f"SELECT name, sql FROM {schema}.sqlite_master WHERE type = ? "
            "AND name IN (SELECT value FROM json_each(?)) ORDER BY name",
            (kind, json_array(names)),
        ).fetchall()
        for name, sql in found:
            self.conn.execute(f'DROP {kind.upper()} {schema}."{name}"')
            # SQLite stores a temp trigger's text without TEMP; recreated as stored, it
            # would land in the main schema, for every connection.
            self._restore.append("CREATE TEMP" + sql.removeprefix("CREATE") if temp else sql)


def has_anchor_text(edges: Sequence[Sequence[object]]) -> bool:
    """Whether any edge row (``EdgeRow``) carries anchor text; C-level, as most carry none."""
    return any(map(is_not, map(itemgetter(4), edges), repeat(None)))


def _indexes_of(conn: sqlite3.Connection, tables: Sequence[str]) -> list[str]:
    """The explicit (not constraint) indexes of ``tables``."""
    if not tables:
        return []
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
        "AND tbl_name IN (SELECT value FROM json_each(?)) ORDER BY name",
        (json_array(tables),),
    )
    return [str(r[0]) for r in rows]
