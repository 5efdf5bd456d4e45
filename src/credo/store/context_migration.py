"""m017: the passage index reads a context-less belief's compound names' words as its context.

``beliefs_live`` and the ``beliefs_fts`` triggers read the context column through
``credo_index_context`` (store/compound_words.py) instead of ``credo_index_text``: a note
naming ``SQLAlchemyJobStore`` is indexed with "sqlalchemy job store" there. The value
index (m016) is left as it is: a constant always has its context. The live rows the change
reads otherwise (no context, a compound name in the text) are indexed again, each alone:
a store without them costs one scan, not a rebuild.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3

from credo.store.compound_words import compound_words
from credo.store.index_text import CONTEXT_SQL_FUNCTION as _C
from credo.store.index_text import SQL_FUNCTION as _F
from credo.store.index_text import index_text, register
from credo.store.value_migration import _LIVE, _PASSAGE, VALUE_KIND, _triggers


def _reading_context(sql: str) -> str:
    """m016's ``sql`` with the context column read by ``credo_index_context``."""
    for row in ("NEW", "OLD"):
        sql = sql.replace(f"{_F}({row}.context)", f"{_C}({row}.content, {row}.context)")
    return sql.replace(f"{_F}(context) AS context", f"{_C}(content, context) AS context")


M017_CONTEXT_WORDS = _reading_context(
    f"""
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    {_LIVE} AND kind <> '{VALUE_KIND}';
"""
    + _triggers("beliefs_fts", _PASSAGE)
)

# The live passage-index rows without a context (a compound name is checked in Python).
_CONTEXTLESS = (
    "SELECT rid, content, anchor_text FROM beliefs WHERE deleted_at IS NULL "
    f"AND context = '' AND kind <> '{VALUE_KIND}'"
)


def apply_m017(conn: sqlite3.Connection, statements: list[str]) -> None:
    """Run m017's ``statements`` and index again the rows it reads otherwise (inside the
    caller's transaction, as every migration)."""
    register(conn)  # (a connection not opened by store/db.py, e.g. a test's)
    changed = [
        (rid, index_text(content), index_text(anchor), words)
        for rid, content, anchor in conn.execute(_CONTEXTLESS)
        if (words := compound_words(content))
    ]
    for statement in statements:
        conn.execute(statement)
    # Out as m013 put them in (an empty context), in with their words.
    conn.executemany(
        "INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context) "
        "VALUES ('delete', ?, ?, ?, '')",
        [row[:3] for row in changed],
    )
    conn.executemany(
        "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) VALUES (?, ?, ?, ?)",
        changed,
    )
