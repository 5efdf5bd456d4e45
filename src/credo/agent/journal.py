"""The injection journal: every memory block a hook (or the MCP server) puts before the
model, one row each (docs/AGENT.md).

A row holds the time, the session, the event (``prompt``, ``session_start``, ``subagent``,
``mcp``), the sha256 of the prompt (never its text: the journal must not become a second
transcript), the belief ids in pack order, the block's tokens and characters, and why it
looks as it does (``retrieval``, ``acknowledgement: locks only``, ``startup``,
``compact``...). ``credo log`` shows it; SessionStart ranks by the use counts it keeps.

Logging is one short transaction: one insert, one counter upsert; the journal keeps its
newest ``KEEP`` rows, pruned in the same transaction once every ``PRUNE_EVERY`` rows (a
delete by the primary key). A hook defers it (``Memory.deferred_writes``) until its output
is out: the warm server writes after its reply, the direct path in the detached child that
captures (or at once when there is nothing to capture: surfaces/hook.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from credo.errors import InvalidInputError

if TYPE_CHECKING:
    from credo.memory import Memory
    from credo.store.rows import Injection

EVENTS = ("prompt", "session_start", "subagent", "mcp")
KEEP = 50_000  # journal rows kept (~10 MB at most); the use counts outlive them
PRUNE_EVERY = 500  # rows between prunes
MAX_LIMIT = 100_000
MAX_REASON_CHARS = 200


def prompt_hash(prompt: str) -> str:
    """sha256 hex of the prompt's UTF-8 (a lone surrogate is replaced, never fatal)."""
    return _sha256()(prompt.encode("utf-8", "replace")).hexdigest()


@cache
def _sha256() -> Callable[[bytes], Any]:
    """CPython's built-in sha256 (``_sha2`` from 3.12, ``_sha256`` before): the same digest
    as hashlib's, without loading OpenSSL, which costs the hook ~4 ms per prompt. Found once
    per process: a failed import is not remembered, and asking again cost the warm server
    ~0.3 ms a prompt on 3.11 (the import system's whole search for ``_sha2``)."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found]
        except ImportError:
            from hashlib import sha256
    return sha256


def log_injection(
    memory: Memory,
    *,
    event: str,
    session: str | None,
    prompt: str | None,
    belief_ids: Sequence[str],
    tokens: int,
    chars: int,
    reason: str = "",
) -> None:
    """Append one injection to the journal and count a use of each belief it names
    (SessionStart's own picks are not counted: they are chosen by those counts).

    Raises:
        InvalidInputError: an unknown event, negative tokens or chars, or ids that are not
            strings.
    """
    if event not in EVENTS:
        raise InvalidInputError(f"event {event!r} must be one of {', '.join(EVENTS)}")
    for name, value in (("tokens", tokens), ("chars", chars)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInputError(f"{name} {value!r} must be an integer >= 0")
    ids = list(belief_ids)
    if not all(isinstance(i, str) for i in ids):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise InvalidInputError("belief_ids must be strings")
    if memory.store.read_only:
        return  # a store this process may only read keeps no journal of its reads
    digest = None if prompt is None else prompt_hash(prompt)
    now = time.time()

    def write(into: Memory) -> None:
        # The journal's own tables only: no edge watcher is loaded for it (a hook's cost).
        with into.store.transaction(beliefs_or_edges=False), into.store.write_errors():
            row = into.store.insert_injection(
                now, session, event, digest, ids, tokens, chars, reason[:MAX_REASON_CHARS]
            )
            if row % PRUNE_EVERY == 0:
                into.store.prune_injections(KEEP)

    if memory.deferred_writes is not None:
        memory.deferred_writes.append(write)  # the warm server's: after its reply
    else:
        write(memory)


def injections(memory: Memory, *, session: str | None = None, limit: int = 50) -> list[Injection]:
    """The journal, newest first (one session's with ``session``), at most ``limit`` rows."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInputError(f"limit {limit!r} must be an integer in [1, {MAX_LIMIT}]")
    return memory.store.injections(session=session, limit=limit)


def injected_ids(memory: Memory, session: str) -> list[str]:
    """Every belief a session was shown, distinct, in the order first injected."""
    return memory.store.injected_in_session(session)
