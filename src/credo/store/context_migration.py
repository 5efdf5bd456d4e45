"""m017, m018: the passage index reads a context-less belief's compound names' words as context.

m017: ``beliefs_live`` and the ``beliefs_fts`` triggers read the context column through
``credo_index_context`` instead of ``credo_index_text``: a note naming ``SQLAlchemyJobStore``
is indexed with "sqlalchemy job store" there. The value index (m016) is left as it is: a
constant always has its context. The live rows the change reads otherwise (no context, a
compound name in the text) are indexed again, each alone: a store without them costs one
scan, not a rebuild.

m018: the names read by letters of any script with a case and an acronym's version kept
with it (store/identifier.py: "İstanbulCity" is "istanbul city", not "stanbul city";
"IPv6Address" "ipv6 address", not "pv6 address"), through a function of a new name,
``credo_index_context_words`` (store/compound_words.py). ``credo_index_context`` keeps
schema 17's reading (`v17_index_context`): a v17 store (a backup, a crash mid-m018) is
read, checked and written as its rows were indexed, and m018 takes a row out of the index
by exactly the words it went in with. Only the rows whose words differ are indexed again.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
import sqlite3

from credo.store.compound_words import compound_words
from credo.store.identifier import NOISE_WORDS
from credo.store.index_text import (
    CONTEXT_SQL_FUNCTION,
    V17_CONTEXT_SQL_FUNCTION,
    index_text,
    register,
)
from credo.store.index_text import SQL_FUNCTION as _F
from credo.store.sql_split import split_statements
from credo.store.value_migration import _LIVE, _PASSAGE, VALUE_KIND, _triggers


def _reading_context(sql: str, function: str) -> str:
    """m016's ``sql`` with the context column read by ``function``."""
    for row in ("NEW", "OLD"):
        sql = sql.replace(f"{_F}({row}.context)", f"{function}({row}.content, {row}.context)")
    return sql.replace(f"{_F}(context) AS context", f"{function}(content, context) AS context")


_VIEW_AND_TRIGGERS = f"""
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    {_LIVE} AND kind <> '{VALUE_KIND}';
""" + _triggers("beliefs_fts", _PASSAGE)
M017_CONTEXT_WORDS = _reading_context(_VIEW_AND_TRIGGERS, V17_CONTEXT_SQL_FUNCTION)
M018_CONTEXT_WORDS = _reading_context(_VIEW_AND_TRIGGERS, CONTEXT_SQL_FUNCTION)

# The live passage-index rows without a context (a compound name is checked in Python).
_CONTEXTLESS = (
    "SELECT rid, content, anchor_text FROM beliefs WHERE deleted_at IS NULL "
    f"AND context = '' AND kind <> '{VALUE_KIND}'"
)


def apply_m017(conn: sqlite3.Connection) -> None:
    """Run m017's statements and index again the rows it reads otherwise (inside the
    caller's transaction, as every migration)."""
    statements = split_statements(M017_CONTEXT_WORDS)
    register(conn)  # (a connection not opened by store/db.py, e.g. a test's)
    changed = [
        (rid, index_text(content), index_text(anchor), "", words)
        for rid, content, anchor in conn.execute(_CONTEXTLESS)
        # (as v17 read them: its function, credo_index_context, reads so)
        if (words := v17_compound_words(content))
    ]
    for statement in statements:
        conn.execute(statement)
    # Out as m013 put them in (an empty context), in with their words.
    _index_again(conn, changed)


# Schema 17's reading of a note's compound names (m017), kept for its function.
_V17_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_V17_PART = re.compile(r"[A-Z]{2,}s\d*(?![a-z])|[A-Z]+\d*(?![a-z])|[A-Z]?[a-z]+\d*|\d+")
_V17_CASE_CHANGE = re.compile(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]")
_V17_UPPER_INSIDE = re.compile(r"[A-Z](?<=[A-Za-z0-9][A-Z])")  # (every case change holds one)


def v17_compound_words(text: str) -> str:
    """``compound_words(text)`` as schema 17 read it: names from their first ASCII letter,
    split ASCII-wise, one-letter parts dropped."""
    if _V17_UPPER_INSIDE.search(text) is None:  # (most notes: no case change, one C scan)
        return ""
    words: dict[str, None] = {}
    for word in _V17_NAME.findall(text):
        if word[1:].islower() or not _V17_CASE_CHANGE.search(word):
            continue
        parts = [p.lower() for p in _V17_PART.findall(word)]
        kept = [p for p in parts if len(p) > 1 and not p.isdigit() and p not in NOISE_WORDS]
        if len(kept) >= 2:
            words.update(dict.fromkeys(kept))
    return " ".join(words)


def v17_index_context(content: str, context: str) -> str:
    """``index_context`` as schema 17 read it (``credo_index_context``)."""
    return index_text(context) if context else v17_compound_words(content)


def apply_m018(conn: sqlite3.Connection) -> None:
    """Read the context column by m018's function and index again the live context-less
    rows whose words v17 read otherwise (inside the caller's transaction: a crash leaves
    the store at v17, as it was)."""
    statements = split_statements(M018_CONTEXT_WORDS)
    register(conn)
    changed = [
        (rid, index_text(content), index_text(anchor), old, new)
        for rid, content, anchor in conn.execute(_CONTEXTLESS)
        if (old := v17_compound_words(content)) != (new := compound_words(content))
    ]
    for statement in statements:
        conn.execute(statement)
    _index_again(conn, changed)


def _index_again(conn: sqlite3.Connection, rows: list[tuple[int, str, str, str, str]]) -> None:
    """Each (rowid, content, anchor, old context, new context) out of the keyword index by
    the words it was indexed with (FTS5's 'delete' must be given exactly those), and in with
    its new context."""
    conn.executemany(
        "INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context) "
        "VALUES ('delete', ?, ?, ?, ?)",
        [row[:4] for row in rows],
    )
    conn.executemany(
        "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) VALUES (?, ?, ?, ?)",
        [(*row[:3], row[4]) for row in rows],
    )
