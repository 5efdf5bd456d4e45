"""Edges as the store writes and shows them: their types, default weights and records.

Retrieval never builds these (its graph lanes read links, store/graph.py), and building
them costs a fresh process ~1 ms (an enum, a named tuple): so they live here, loaded by the
write paths and the views that show edges, and ``credo.types`` hands them out on first use.
"""

# Annotations stay evaluated (no `from __future__ import annotations`): see credo/types.py.

from enum import StrEnum
from typing import NamedTuple

from credo.errors import InvalidInputError


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


# Default weight (valence) of each edge type (SYSTEM.md § Data model). The stored weight is
# the valence unless the caller gives one, so a threshold on weight means something.
EDGE_VALENCE: dict[EdgeType, float] = {
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


def parse_edge_type(value: object) -> EdgeType:
    """An edge type from its name, any case and spacing around it."""
    if isinstance(value, EdgeType):
        return value
    if isinstance(value, str):
        try:
            return EdgeType(value.strip().upper())
        except ValueError:
            pass
    known = ", ".join(t.value for t in EdgeType)
    raise InvalidInputError(f"unknown edge type {value!r}; use one of {known}")
