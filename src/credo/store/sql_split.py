"""A migration's SQL script as its statements, to run one by one: ``executescript()`` would
COMMIT the transaction each migration runs in (store/migrations.py)."""

import sqlite3


def split_statements(sql: str) -> list[str]:
    """``sql``'s statements in order, blank and ``--`` comment lines between them dropped."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise AssertionError(f"incomplete SQL statement in migration: {buffer[:60]!r}")
    return statements
