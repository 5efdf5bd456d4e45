"""Rows the write paths hand to the store or get back from it: a belief to insert, a log
entry, the ingest ledger's records, and the agent journal's (injections, feedback events).

A read (the hook, `credo search`, a retrieve) never builds one, and each named tuple class
costs a fresh process ~0.2 ms to make: so they live here, loaded by the first write, the
ingest and the log views (tests/test_import_cost.py checks a read does not load them).
"""

# Annotations stay evaluated (no `from __future__ import annotations`): see credo/types.py.

from typing import Any, NamedTuple


class NewBelief(NamedTuple):
    """A belief row to insert (the store fills nothing in).

    A NamedTuple in the column order of ``store.beliefs``' INSERT, so a batch goes to
    ``executemany`` as it is: an import creates one per belief.
    """

    id: str
    content: str
    content_hash: str
    kind: str
    origin: str
    locked: bool
    alpha: float
    beta: float
    session: str | None
    created_at: float
    updated_at: float
    deleted_at: float | None = None
    context: str = ""  # where it sits (path words, section trail): the FTS context field
    retention: str = "fact"  # its retention class (credo.types.RETENTIONS)


class LogEntry(NamedTuple):
    """One ``ingest_log`` row, its payload decoded."""

    seq: int
    at: float
    op: str
    belief_id: str | None
    source_path: str | None
    payload: dict[str, Any]


class IngestedFile(NamedTuple):
    """One row of ``ingested_files``: what the last ingest of a file saw."""

    path: str
    content_hash: str
    size: int
    mtime: float
    ingested_at: float
    beliefs: int
    first_belief: str | None


class BeliefKey(NamedTuple):
    """The few belief columns ingest decides on (no content, no evidence counts)."""

    id: str
    content_hash: str
    origin: str
    locked: bool
    deleted_at: float | None


class FileAnchor(NamedTuple):
    """An ``ingest`` anchor into one file, with the belief it belongs to."""

    belief: BeliefKey
    doc_uri: str
    position_hint: str | None


class CaptureRecord(NamedTuple):
    """One ``captures`` row: the belief's first capture."""

    belief_id: str
    session: str | None
    at: float
    kind: str  # the statement's kind: correction, preference or rule
    transcript: str | None  # the transcript's doc_uri, as anchored
    turn: int | None
    listed_at: float | None  # when the Stop hook showed it to the user


class CaptureCandidate(NamedTuple):
    """A live, current, non-document belief that shares words with a captured statement."""

    id: str
    content: str
    kind: str
    origin: str
    locked: bool
    score: float  # BM25F, higher is better


class Injection(NamedTuple):
    """One row of the journal: what one hook (or tool) call injected."""

    id: int
    at: float
    session: str | None
    event: str  # prompt | session_start | subagent | mcp
    prompt_hash: str | None  # sha256 hex of the prompt; the text itself is never kept
    belief_ids: tuple[str, ...]  # in pack order
    tokens: int
    chars: int
    reason: str


class FeedbackEvent(NamedTuple):
    """One automatic evidence change, with what undoing it takes back."""

    id: int
    at: float
    session: str | None
    belief_id: str
    signal: str
    alpha_delta: float
    beta_delta: float
    undone_at: float | None
