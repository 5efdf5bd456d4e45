"""The belief↔document linker's contract, in the seed's names (doc-linker spec memo):
``link_belief_to_document``, ``get_doc_anchors`` and its batched form. They are the same
operations as ``Memory.link``, ``Memory.anchors`` and ``Memory.anchors_for_beliefs``; this
module only keeps the seed's vocabulary for callers written against it."""

from __future__ import annotations

from collections.abc import Iterable

from credo.memory import Memory
from credo.types import DocAnchor


def link_belief_to_document(
    memory: Memory,
    belief_id: str,
    doc_uri: str,
    *,
    anchor_type: str = "ingest",
    position_hint: str | None = None,
) -> DocAnchor:
    """Anchor a belief to a document; calling it again for the same (belief, normalised
    URI) leaves one row (INSERT OR IGNORE)."""
    return memory.link(belief_id, doc_uri, anchor_type=anchor_type, position_hint=position_hint)


def get_doc_anchors(memory: Memory, belief_id: str) -> list[DocAnchor]:
    """A belief's anchors, ordered by created_at."""
    return memory.anchors(belief_id)


def get_doc_anchors_batch(memory: Memory, belief_ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
    """Anchors of many beliefs in one query (beliefs without anchors are absent)."""
    return memory.anchors_for_beliefs(belief_ids)
