"""m013: the keyword index reads ``index_text`` of each field (CJK bigrams, emoji, ß).

The FTS5 triggers and the external-content view ``beliefs_live`` call the SQL function
``credo_index_text`` (store/index_text.py; every connection registers it: store/db.py),
so what is indexed, what a delete takes out and what a rebuild reads are one text. Rows
indexed before whose text the rule changes (CJK, emoji, ß: none in an English store) are
indexed again, each alone: a store without them costs one scan, not a rebuild.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3

from credo.store.index_text import SQL_FUNCTION, register

_F = SQL_FUNCTION
M013_INDEX_TEXT = f"""
DROP TRIGGER beliefs_fts_insert;
DROP TRIGGER beliefs_fts_delete;
DROP TRIGGER beliefs_fts_update;
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    SELECT rid, {_F}(content) AS content, {_F}(anchor_text) AS anchor_text,
        {_F}(context) AS context
    FROM beliefs WHERE deleted_at IS NULL;
CREATE TRIGGER beliefs_fts_insert AFTER INSERT ON beliefs
WHEN NEW.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    INSERT INTO beliefs_fts(rowid, content, anchor_text, context)
    VALUES (NEW.rid, {_F}(NEW.content), {_F}(NEW.anchor_text), {_F}(NEW.context));
END;
CREATE TRIGGER beliefs_fts_delete AFTER DELETE ON beliefs WHEN OLD.deleted_at IS NULL
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context)
    VALUES ('delete', OLD.rid, {_F}(OLD.content), {_F}(OLD.anchor_text), {_F}(OLD.context));
END;
CREATE TRIGGER beliefs_fts_update
AFTER UPDATE OF content, anchor_text, context, deleted_at ON beliefs
BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context)
    SELECT 'delete', OLD.rid, {_F}(OLD.content), {_F}(OLD.anchor_text), {_F}(OLD.context)
    WHERE OLD.deleted_at IS NULL;
    INSERT INTO beliefs_fts(rowid, content, anchor_text, context)
    SELECT NEW.rid, {_F}(NEW.content), {_F}(NEW.anchor_text), {_F}(NEW.context)
    WHERE NEW.deleted_at IS NULL;
END;
"""

# The live rows m006's index holds as written that the rule now reads otherwise.
_CHANGED = (
    "SELECT rid, content, anchor_text, context FROM beliefs WHERE deleted_at IS NULL "
    f"AND ({_F}(content) <> content OR {_F}(anchor_text) <> anchor_text "
    f"OR {_F}(context) <> context)"
)


def apply_m013(conn: sqlite3.Connection, statements: list[str]) -> None:
    """Run m013's ``statements`` and index again the rows whose text the rule changes
    (inside the caller's transaction, as every migration)."""
    register(conn)  # (a connection not opened by store/db.py, e.g. a test's)
    changed = conn.execute(_CHANGED).fetchall()
    for statement in statements:
        conn.execute(statement)
    # Out as they went in (the text itself), in as the rule reads it.
    conn.executemany(
        "INSERT INTO beliefs_fts(beliefs_fts, rowid, content, anchor_text, context) "
        "VALUES ('delete', ?, ?, ?, ?)",
        changed,
    )
    conn.executemany(
        "INSERT INTO beliefs_fts(rowid, content, anchor_text, context) "
        f"VALUES (?1, {_F}(?2), {_F}(?3), {_F}(?4))",
        changed,
    )
