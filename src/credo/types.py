"""Plain data shared by every layer: beliefs, edges, anchors and retrieval results.

The store returns these records (never rows); the engine and the surfaces consume them.
They are ``NamedTuple`` classes rather than dataclasses because the hook starts a fresh
interpreter per prompt: importing ``dataclasses`` (it pulls in ``inspect``) and building
frozen dataclasses cost ~40 ms there, named tuples almost nothing. They are immutable and
compare by value, as frozen dataclasses would.

Even a named tuple class costs ~0.2 ms to build (``namedtuple`` compiles its ``__new__``),
so the records retrieval never builds (edges, edge types, store counts) are made on first
use (`once`).
"""

# Annotations stay evaluated (no `from __future__ import annotations`): typing.NamedTuple
# compiles each string annotation at import, ~25 us a field, paid by every fresh process.

from _thread import allocate_lock
from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple


def once(define: Callable[[], None]) -> Callable[[], None]:
    """``define``, run by the first call only, also when threads race to make it.

    How a module builds on first use the classes that a read-only process never needs:
    ``define`` creates them as ``global`` names (so they keep a plain ``__qualname__``, and
    pickle and type checkers see ordinary module attributes); the module's ``__getattr__``
    (PEP 562) calls it when one is imported, and its own code before it builds one.
    """
    lock = allocate_lock()
    done = False

    def run() -> None:
        nonlocal done
        if done:
            return
        with lock:
            if not done:
                define()
                done = True

    return run


BELIEF_KINDS = ("factual", "requirement", "preference", "correction", "procedure", "note")
ORIGINS = (
    "user_stated",
    "user_corrected",
    "agent_inferred",
    "document",
    "conversation",
    "import",
)
ANCHOR_TYPES = ("ingest", "manual", "derived")

# Immutable, so one shared default is safe (a dict default would be shared and mutable).
NO_COUNTS: Mapping[str, int] = MappingProxyType({})
NO_LANES: Mapping[str, float] = MappingProxyType({})


class Belief(NamedTuple):
    """One stored statement and its evidence counts."""

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
    deleted_at: float | None
    corroborations: int = 0

    @property
    def confidence(self) -> float:
        """Posterior mean of the Beta-Bernoulli evidence: alpha / (alpha + beta)."""
        return self.alpha / (self.alpha + self.beta)


class DocAnchor(NamedTuple):
    """A belief's link to a document (seed: doc-linker spec memo)."""

    belief_id: str
    doc_uri: str
    anchor_type: str
    position_hint: str | None
    created_at: float


class RetrievedBelief(NamedTuple):
    """One belief in a retrieval result, with why it is there."""

    id: str
    content: str
    score: float
    locked: bool
    tokens: int  # what it costs in the rendered block
    lanes: Mapping[str, float] = NO_LANES  # lane -> its score contribution
    cluster_id: int | None = None


class RetrievalResult(NamedTuple):
    """What ``Memory.retrieve`` returns: the pack, in order, and what did not fit.

    ``doc_anchors`` is parallel to ``beliefs`` when anchors were asked for, else ``None``.
    """

    query: str
    beliefs: tuple[RetrievedBelief, ...]
    token_budget: int
    used_tokens: int
    dropped: tuple[str, ...] = ()  # ranked candidates that did not fit the budget
    locked_overflow: tuple[str, ...] = ()  # locked beliefs beyond their half of the budget
    doc_anchors: tuple[tuple[DocAnchor, ...], ...] | None = None
    clustering: bool = False

    @property
    def ids(self) -> list[str]:
        return [b.id for b in self.beliefs]


@once
def _define_edge_records() -> None:
    """Edges and store counts: written by `relate` and ingest, read by `credo show`, `stats`
    and export, never by retrieval (its graph lanes read links, store/graph.py)."""
    global EdgeType, EDGE_VALENCE, Edge, StoreStats

    class EdgeType(StrEnum):
        """Typed relation between two beliefs. The value is the name stored in the database."""

        SUPPORTS = "SUPPORTS"
        IMPLEMENTS = "IMPLEMENTS"
        TESTS = "TESTS"
        CITES = "CITES"
        DERIVED_FROM = "DERIVED_FROM"
        RELATES_TO = "RELATES_TO"
        TEMPORAL_NEXT = "TEMPORAL_NEXT"
        SUPERSEDES = "SUPERSEDES"
        RESOLVES = "RESOLVES"
        CONTRADICTS = "CONTRADICTS"

    # Default weight (valence) of each edge type (SYSTEM.md § Data model). The stored weight
    # is the valence unless the caller gives one, so a threshold on weight means something.
    EDGE_VALENCE = {
        EdgeType.SUPPORTS: 1.0,
        EdgeType.IMPLEMENTS: 0.65,
        EdgeType.TESTS: 0.55,
        EdgeType.CITES: 0.5,
        EdgeType.DERIVED_FROM: 0.5,
        EdgeType.RELATES_TO: 0.3,
        EdgeType.TEMPORAL_NEXT: 0.2,
        EdgeType.SUPERSEDES: 0.0,
        EdgeType.RESOLVES: 0.0,
        EdgeType.CONTRADICTS: -0.5,
    }

    class Edge(NamedTuple):
        """A typed, weighted relation src -> dst."""

        src: str
        dst: str
        type: EdgeType
        weight: float
        anchor_text: str | None = None
        created_at: float = 0.0

    class StoreStats(NamedTuple):
        """Counts that describe a store."""

        beliefs: int
        locked: int
        deleted: int
        edges: int
        anchors: int
        log_entries: int
        schema_version: int
        path: str
        size_bytes: int
        edges_by_type: Mapping[str, int] = NO_COUNTS


def __getattr__(name: str) -> Any:
    if name in ("EdgeType", "EDGE_VALENCE", "Edge", "StoreStats"):
        _define_edge_records()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
