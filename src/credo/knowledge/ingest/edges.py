"""A file's ingest edges kept equal to what the file states now (the rule "Edges" of
`credo.knowledge.ingest`).

What a file states is a set of `EdgeSource` (src, dst, type, cited file). ``settle``
compares it with the file's rows in ``edge_files`` (store/edge_files.py): an edge newly
stated is inserted when missing and recorded as this file's when ingest wrote it (now or
before: some file holds a row for it); an edge no longer stated loses this file's row, and
an edge no file states any more is deleted. An edge another writer wrote first
(``relate``, a capture, an import of an edge no ``edge_source`` record names) has no row
and is never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from credo.edge_types import EDGE_VALENCE, Edge, EdgeType
from credo.store.edge_files import EdgeKey, EdgeSource

if TYPE_CHECKING:  # (annotations only: the protocol's class costs ~1 ms to build)
    from credo.store import Store

Note = Callable[[str, dict[str, Any]], None]  # (belief id, payload): one log row


def ingest_edge(src: str, dst: str, type_name: str, now: float) -> Edge:
    """An edge ingest states: its type's valence, no anchor text, written ``now``."""
    edge_type = EdgeType(type_name)
    return Edge(src, dst, edge_type, EDGE_VALENCE[edge_type], None, now)


def edge_payload(edge: Edge) -> dict[str, Any]:
    return {"action": "edge", "dst": edge.dst, "type": edge.type.value, "weight": edge.weight}


def unedge_payload(key: EdgeKey) -> dict[str, Any]:
    return {"action": "unedge", "dst": key[1], "type": key[2]}


def insert_new_edges(store: Store, edges: list[Edge]) -> list[Edge]:
    """Insert the edges not yet stored (self-edges dropped); return those inserted."""
    unique: dict[tuple[str, str, str], Edge] = {}
    for edge in edges:
        if edge.src != edge.dst:
            unique.setdefault((edge.src, edge.dst, edge.type.value), edge)
    present = store.existing_edge_keys(unique)
    added = [edge for key, edge in unique.items() if key not in present]
    store.insert_edges(added)
    return added


def settle(
    store: Store,
    uri: str,
    stated: Mapping[EdgeSource, Edge],
    note: Note,
    *,
    drop: bool = True,
) -> tuple[int, int]:
    """Make ``uri``'s ingest edges those of ``stated`` (self-edges are left out); with
    ``drop`` False only add (the file's CITES to later files are still to come). Logs each
    edge inserted or deleted through ``note``. Returns (edges added, edges deleted)."""
    before = store.edge_sources_of_file(uri)
    new = {s: e for s, e in stated.items() if s not in before and s[0] != s[1]}
    added: list[Edge] = []
    if new:
        added = insert_new_edges(store, list(new.values()))
        for edge in added:
            note(edge.src, edge_payload(edge))
        mine = {(e.src, e.dst, e.type.value) for e in added}
        others = {s[:3] for s in new} - mine
        if others:  # stored before this write: ingest's only if some file states it
            mine |= store.owned_edge_keys(others)
        store.add_edge_sources(uri, sorted(s for s in new if s[:3] in mine))
    removed: list[EdgeKey] = []
    if drop:
        gone = sorted(s for s in before if s not in stated)
        removed = store.drop_edge_sources(uri, gone)
        for key in removed:
            note(key[0], unedge_payload(key))
    return len(added), len(removed)
