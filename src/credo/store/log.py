"""SQL over ``ingest_log``: the append-only record of every write."""

# Evaluated annotations, for a cheaper import: see credo/types.py. The write-path rows
# (store/rows.py) are named in quotes: a read never loads them.

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from credo.store.rows import LogEntry

REDACTED = '{"redacted":true}'


@cache
def _payload_encoder() -> Callable[[Any], str]:
    """``json.dumps(payload, sort_keys=True)``, built once for every call.

    ``dumps`` builds a new ``JSONEncoder`` per call when an option is given, and even one
    kept encoder builds its C encoder (and a dict of seen containers) per ``encode``: an
    ingest logs a payload per belief and anchor. The C encoder is built here once, with
    ``JSONEncoder``'s defaults but no circular-reference check (a payload is a flat dict
    credo builds); the text is ``dumps``' own."""
    import json  # write paths only: a process that only reads never loads it
    from json import encoder

    # (not in the module's type stubs: an implementation detail, None without the C part)
    make: Callable[..., Callable[[Any, int], Iterable[str]]] | None = getattr(
        encoder, "c_make_encoder", None
    )
    if make is None:  # an interpreter without the C accelerator
        return json.JSONEncoder(sort_keys=True).encode
    defaults = json.JSONEncoder(sort_keys=True)
    chunks = make(
        None,
        defaults.default,
        encoder.encode_basestring_ascii,
        None,
        defaults.key_separator,
        defaults.item_separator,
        True,
        defaults.skipkeys,
        defaults.allow_nan,
    )
    join = "".join
    return lambda payload: join(chunks(payload, 0))


class LogTable:
    conn: sqlite3.Connection

    def append_log(
        self,
        entries: Iterable[tuple[float, str, str | None, str | None, dict[str, Any] | str | None]],
    ) -> None:
        """Append (at, op, belief_id, source_path, payload) rows.

        A payload is a dict (stored as sorted-key JSON) or a string that already holds that
        JSON: a bulk writer encodes its payloads itself, more cheaply than ``json.dumps``.
        """
        encode = _payload_encoder()
        self.conn.executemany(
            "INSERT INTO ingest_log(at, op, belief_id, source_path, payload) VALUES (?,?,?,?,?)",
            (
                (
                    at,
                    op,
                    bid,
                    src,
                    p if p is None or type(p) is str else encode(p),
                )
                for at, op, bid, src, p in entries
            ),
        )

    def log_beliefs(
        self, rids: tuple[int, int], at: float, op: str, source_path: str | None
    ) -> None:
        """Append one ``op`` row per belief whose rowid is in the range ``rids`` (first,
        last), in rowid order, with the payload ``{"content": ..., "session": ...}``, in one
        statement (a bulk import logs every belief it adds; one bound row each cost more
        than the belief insert).

        The payload is the text ``json.dumps(..., sort_keys=True)`` writes, except that
        characters past ``~`` (DEL and all non-ASCII) stay as they are instead of ``\\u``
        escapes: the same JSON.
        """
        self.conn.execute(
            "INSERT INTO ingest_log(at, op, belief_id, source_path, payload) "
            "SELECT ?, ?, id, ?, "
            "'{\"content\": ' || json_quote(content) || ', \"session\": ' || json_quote(session) "
            "|| '}' FROM beliefs WHERE rid BETWEEN ? AND ? ORDER BY rid",
            (at, op, source_path, *rids),
        )

    def redact_log(self, belief_id: str) -> None:
        """Erase the payloads that mention a hard-forgotten belief (its text must leave)."""
        self.conn.execute(
            "UPDATE ingest_log SET payload = ? WHERE payload IS NOT ? AND (belief_id = ? "
            "OR (op = 'relate' AND json_extract(payload, '$.dst') = ?))",
            (REDACTED, REDACTED, belief_id, belief_id),
        )

    def log_entries(self, belief_id: str | None = None) -> "Iterator[LogEntry]":
        import json

        from credo.store.rows import LogEntry

        if belief_id is None:
            rows = self.conn.execute(
                "SELECT seq, at, op, belief_id, source_path, payload FROM ingest_log ORDER BY seq"
            )
        else:
            rows = self.conn.execute(
                "SELECT seq, at, op, belief_id, source_path, payload FROM ingest_log "
                "WHERE belief_id = ? ORDER BY seq",
                (belief_id,),
            )
        for seq, at, op, bid, src, payload in rows:
            yield LogEntry(
                int(seq), float(at), str(op), bid, src, json.loads(payload) if payload else {}
            )
