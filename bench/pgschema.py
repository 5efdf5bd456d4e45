"""A fresh, empty PostgreSQL store for a bench run: a schema of its own on the server the
run is given, dropped afterwards (the tests' ``postgres_store``, for benches).

The server: ``--postgres URL``, else ``CREDO_BENCH_POSTGRES``, else ``CREDO_TEST_POSTGRES``
(``.ci/postgres start DIR`` starts a throwaway one and prints its URL).
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def server_url(given: str | None) -> str:
    """The server a bench runs on, or a clear exit when none is named."""
    url = (
        given
        or os.environ.get("CREDO_BENCH_POSTGRES", "").strip()
        or os.environ.get("CREDO_TEST_POSTGRES", "").strip()
    )
    if not url:
        raise SystemExit(
            "no PostgreSQL server: give --postgres URL or set CREDO_BENCH_POSTGRES "
            "(`.ci/postgres start /tmp/pg` starts one and prints its URL)"
        )
    return url


def schema_url(base: str, schema: str) -> str:
    """``base`` with its search_path set to ``schema``: one store per schema."""
    parts = urlsplit(base)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    return urlunsplit(parts._replace(query=urlencode(query)))


@contextlib.contextmanager
def fresh_store(base: str, label: str = "bench") -> Iterator[str]:
    """The URL of an empty store in a new schema of ``base``'s database, dropped after."""
    import psycopg

    schema = f"{label}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    try:
        yield schema_url(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[arg-type]
