"""One statement for both backends where only the parameter marks differ: the SQLite
store's text (``?``) turned into psycopg's (``%s``) once, when a module loads."""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"\?\d")


def pyformat(sql: str) -> str:
    """``sql`` with each ``?`` a ``%s`` and each ``%`` doubled (psycopg reads it as a mark).

    Refuses what it cannot turn safely: a numbered parameter (``?1``) or a ``?`` inside a
    quoted literal, so a statement that needs more than new marks is written for
    PostgreSQL by hand."""
    literals = sql.split("'")[1::2]
    if _NUMBERED.search(sql) or any("?" in text for text in literals):
        raise ValueError(f"not a plain qmark statement: {sql[:60]!r}")
    return sql.replace("%", "%%").replace("?", "%s")
