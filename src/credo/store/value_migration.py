"""m016: a second keyword index, ``values_fts``, for module-level constants (store/values.py).

The passage index (``beliefs_fts``) and its external-content view leave out the beliefs of
kind ``value``; ``values_fts`` holds them alone, kept in step by triggers of the same form
as m013's, so each index's statistics are its own rows'. ``definitions`` gains a ``value``
column: 1 on a constant's row, which the definition lane's statistics do not count
(store/defn_stats.py).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sqlite3

from credo.store.index_text import SQL_FUNCTION

VALUE_KIND = "value"  # (``beliefs.kind`` of a constant's belief: what the triggers test)

_F = SQL_FUNCTION
_LIVE = f"""SELECT rid, {_F}(content) AS content, {_F}(anchor_text) AS anchor_text,
        {_F}(context) AS context
    FROM beliefs WHERE deleted_at IS NULL"""
_FIELDS = f"{_F}(R.content), {_F}(R.anchor_text), {_F}(R.context)"


def _triggers(table: str, test: str) -> str:
    """The three triggers that keep ``table`` in step with the beliefs that pass ``test``
    (R: the row; as m013's, with the row's kind tested)."""
    new, old = test.replace("R.", "NEW."), test.replace("R.", "OLD.")
    fields_new, fields_old = _FIELDS.replace("R.", "NEW."), _FIELDS.replace("R.", "OLD.")
    return f"""
DROP TRIGGER IF EXISTS {table}_insert;
DROP TRIGGER IF EXISTS {table}_delete;
DROP TRIGGER IF EXISTS {table}_update;
CREATE TRIGGER {table}_insert AFTER INSERT ON beliefs
WHEN NEW.deleted_at IS NULL AND {new} AND NOT EXISTS (SELECT 1 FROM _bulk_load)
BEGIN
    INSERT INTO {table}(rowid, content, anchor_text, context)
    VALUES (NEW.rid, {fields_new});
END;
CREATE TRIGGER {table}_delete AFTER DELETE ON beliefs WHEN OLD.deleted_at IS NULL AND {old}
BEGIN
    INSERT INTO {table}({table}, rowid, content, anchor_text, context)
    VALUES ('delete', OLD.rid, {fields_old});
END;
CREATE TRIGGER {table}_update
AFTER UPDATE OF content, anchor_text, context, deleted_at, kind ON beliefs
BEGIN
    INSERT INTO {table}({table}, rowid, content, anchor_text, context)
    SELECT 'delete', OLD.rid, {fields_old}
    WHERE OLD.deleted_at IS NULL AND {old};
    INSERT INTO {table}(rowid, content, anchor_text, context)
    SELECT NEW.rid, {fields_new}
    WHERE NEW.deleted_at IS NULL AND {new};
END;
"""


_PASSAGE = f"R.kind <> '{VALUE_KIND}'"
_VALUE = f"R.kind = '{VALUE_KIND}'"
M016_VALUE_INDEX = (
    f"""
DROP VIEW beliefs_live;
CREATE VIEW beliefs_live AS
    {_LIVE} AND kind <> '{VALUE_KIND}';
DROP VIEW IF EXISTS values_live;
CREATE VIEW values_live AS
    {_LIVE} AND kind = '{VALUE_KIND}';
CREATE VIRTUAL TABLE IF NOT EXISTS values_fts USING fts5(
    content, anchor_text, context,
    content='values_live', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2'
);
"""
    + _triggers("beliefs_fts", _PASSAGE)
    + _triggers("values_fts", _VALUE)
)


def apply_m016(conn: sqlite3.Connection, statements: list[str]) -> None:
    """Run m016's ``statements``, then move a store's constants (none before this
    reading) from the passage index to the value index."""
    for statement in statements:
        conn.execute(statement)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(definitions)")}
    if "value" not in columns:  # (m016 can be re-run: a test re-runs m012 onwards)
        conn.execute("ALTER TABLE definitions ADD COLUMN value INTEGER NOT NULL DEFAULT 0")
    moved = conn.execute(
        "SELECT rid FROM beliefs WHERE kind = ? AND deleted_at IS NULL", (VALUE_KIND,)
    ).fetchall()
    if moved:  # (a store read by this reading before m016 existed: none shipped)
        conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild')")
        conn.execute("INSERT INTO values_fts(values_fts) VALUES ('rebuild')")
