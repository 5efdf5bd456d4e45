"""Opening a PostgreSQL store: psycopg 3 (the optional extra ``credo[postgres]``), one
autocommit connection (transactions are explicit), and errors that never show a password.

Credentials come from the URL, libpq's environment variables (PGPASSWORD, PGHOST...) or
``~/.pgpass``, as libpq reads them; credo passes the URL through and logs none of it.
"""

from __future__ import annotations

import os
import re
import sys
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote, urlsplit

from credo.config import redact_url
from credo.errors import StoreError

if TYPE_CHECKING:
    import psycopg

# A writer waits this long for another's write lock before failing with a clear error (the
# SQLite store's busy timeout); statements never wait for row locks longer either.
LOCK_TIMEOUT_MS = 10_000
CONNECT_TIMEOUT_S = 10


def secrets(url: str) -> list[str]:
    """The password of ``url`` (userinfo or ``password=``) and of PGPASSWORD, as written
    and decoded: the strings an error message must never carry."""
    found: list[str] = []
    try:
        parts = urlsplit(url)
        if parts.password:
            found += [parts.password, unquote(parts.password)]
        found += [v for k, v in parse_qsl(parts.query) if k.lower() == "password" and v]
    except ValueError:
        pass
    env = os.environ.get("PGPASSWORD")
    if env:
        found.append(env)
    return sorted({s for s in found if s}, key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """``text`` without any password ``url`` carries, and with the URL itself redacted."""
    out = text.replace(url, redact_url(url))
    for secret in secrets(url):
        out = out.replace(secret, "***")
    return re.sub(r"(?i)(password\s*=\s*)\S+", r"\1***", out)


def import_psycopg() -> ModuleType:
    """psycopg, also in an interpreter started without ``site`` (the installed hook runs
    ``python -S``, and a hook no warm server answers reads the store itself): then the
    site-packages folders are added first, as ``site`` would have at start-up.

    Raises:
        ImportError: psycopg is not installed.
    """
    try:
        import psycopg
    except ImportError:
        if not sys.flags.no_site:
            raise
        import site

        site.main()
        import psycopg
    return psycopg


def connect(url: str) -> psycopg.Connection:
    """An autocommit connection to ``url``.

    Raises:
        StoreError: psycopg is not installed, or the server refuses or cannot be reached
            (the message names the redacted URL, never its password).
    """
    try:
        psycopg = import_psycopg()
    except ImportError:
        raise StoreError(
            f"store {redact_url(url)} is a PostgreSQL server; install the driver with "
            "pip install 'credo[postgres]'"
        ) from None
    try:
        conn = psycopg.connect(
            url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT_S,
            application_name="credo",
        )
        conn.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT_MS)}")
    except psycopg.Error as exc:
        detail = " ".join(str(exc).split())
        raise StoreError(f"cannot open store {redact_url(url)}: {scrub(detail, url)}") from None
    return conn
