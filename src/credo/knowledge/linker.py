"""The belief↔document linker, in the seed's function style (doc-linker spec memo):
``link_belief_to_document``, ``get_doc_anchors`` and its batched form, each over a store.

This is where anchoring a belief happens: ``Memory.link``, ``Memory.anchors`` and
``Memory.anchors_for_beliefs`` call these functions with the memory's store, project root and
log source, so callers written against the seed and callers of ``Memory`` get the same
validation, normalisation (`credo.knowledge.docuri`) and ``ingest_log`` entries.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

from credo.config import project_root
from credo.errors import AnchorNotFoundError, InvalidInputError
from credo.knowledge.docuri import normalise_doc_uri, parse_lines
from credo.store import Store
from credo.types import ANCHOR_TYPES, DocAnchor


def link_belief_to_document(
    store: Store,
    belief_id: str,
    doc_uri: str,
    anchor_type: str = "ingest",
    position_hint: str | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    lines: str | tuple[int, int] | None = None,
    source: str = "api",
    must_exist: bool = False,
) -> DocAnchor:
    """Anchor a live belief to a document and return the stored anchor.

    Calling it again for the same (belief, normalised URI) leaves one row (INSERT OR IGNORE).

    Args:
        store: the open store.
        belief_id: a stored, not forgotten belief.
        doc_uri: a path, ``file://`` URI or URL; a path is stored relative to ``root``.
        anchor_type: one of ``ingest``, ``manual``, ``derived``.
        position_hint: where in the document; by default the line range of ``lines`` or of
            a ``#L12-L30`` fragment.
        root: the project root (default: the git work tree of the current folder, else the
            folder, as for ``Memory``).
        lines: a line range, ``"12-30"`` or ``(12, 30)``.
        source: the name written to ``ingest_log``.
        must_exist: refuse a local file that is not there (a URL is not fetched).

    Raises:
        InvalidInputError: an unknown anchor type, an empty URI, a malformed line range or
            (``must_exist``) a local file that is not there.
        NotFoundError: no live belief has this id.
    """
    if anchor_type not in ANCHOR_TYPES:
        raise InvalidInputError(
            f"anchor_type {anchor_type!r} must be one of {', '.join(ANCHOR_TYPES)}"
        )
    span = parse_lines(lines) if isinstance(lines, str) else lines
    base = Path(root) if root is not None else project_root()  # resolved by normalise
    normalised = normalise_doc_uri(
        doc_uri, root=base, lines=span, strict=True, must_exist=must_exist
    )
    hint = position_hint if position_hint is not None else normalised.position_hint
    now = time.time()
    with store.transaction(), store.write_errors():
        store.require_belief(belief_id, live=True)
        record_link(store, belief_id, normalised.uri, anchor_type, hint, now, source=source)
        stored = store.get_anchor(belief_id, normalised.uri)
    assert stored is not None
    return stored


def record_link(
    store: Store,
    belief_id: str,
    uri: str,
    anchor_type: str,
    hint: str | None,
    now: float,
    *,
    source: str,
) -> None:
    """Insert an already normalised anchor inside the caller's transaction, and log it when
    it is new."""
    if store.insert_anchors([DocAnchor(belief_id, uri, anchor_type, hint, now)]):
        store.append_log(
            [
                (
                    now,
                    "link",
                    belief_id,
                    source,
                    {"doc_uri": uri, "anchor_type": anchor_type, "position_hint": hint},
                )
            ]
        )


def unlink_belief_from_document(
    store: Store,
    belief_id: str,
    doc_uri: str,
    *,
    root: str | os.PathLike[str] | None = None,
    lines: str | tuple[int, int] | None = None,
    source: str = "api",
) -> list[DocAnchor]:
    """Drop a belief's anchors to a document, in one transaction, and return them.

    A reference with a line range (``docs/a.md#L1-L9``, or ``lines``) drops that one anchor;
    one without drops every anchor of the belief to that document (``docs/a.md`` and each
    ``docs/a.md#L..``). The file need not exist: dropping the anchor of a deleted file is
    what this is for. Each dropped anchor is logged (``unlink``, as ``link`` logs its add).
    The belief and everything else it holds stay; a forgotten belief's anchors can be
    dropped too. An ingested file's anchors are ingest's: a re-read of the changed file
    anchors its passages again.

    Raises:
        InvalidInputError: an empty URI or a malformed line range.
        NotFoundError: no belief has this id.
        AnchorNotFoundError: the belief has no anchor to that document (or range); nothing
            is changed.
    """
    span = parse_lines(lines) if isinstance(lines, str) else lines
    base = Path(root) if root is not None else project_root()
    uri = normalise_doc_uri(doc_uri, root=base, lines=span, strict=True).uri
    now = time.time()
    with store.transaction(), store.write_errors():
        store.require_belief(belief_id)
        held = store.anchors_for([belief_id]).get(belief_id, [])
        gone = [a for a in held if _names(uri, a.doc_uri)]
        if not gone:
            raise AnchorNotFoundError(_not_held(belief_id, uri, held))
        store.delete_anchors([(a.belief_id, a.doc_uri) for a in gone])
        store.append_log(
            [
                (
                    now,
                    "unlink",
                    a.belief_id,
                    source,
                    {
                        "doc_uri": a.doc_uri,
                        "anchor_type": a.anchor_type,
                        "position_hint": a.position_hint,
                    },
                )
                for a in gone
            ]
        )
    return gone


def _names(uri: str, stored: str) -> bool:
    """Whether an unlink of ``uri`` takes the stored anchor ``stored``: itself, or (``uri``
    with no fragment) any fragment of the same document, never another file that merely
    shares the prefix (``docs/a.md`` is not ``docs/a.md.bak``)."""
    return stored == uri or ("#" not in uri and stored.startswith(uri + "#"))


def _not_held(belief_id: str, uri: str, held: list[DocAnchor]) -> str:
    """The error's text: what the belief is anchored to instead, so the next try is right."""
    if not held:
        return f"belief {belief_id!r} has no anchors; nothing to unlink from {uri!r}"
    shown = ", ".join(a.doc_uri for a in held[:5]) + (", ..." if len(held) > 5 else "")
    return f"belief {belief_id!r} has no anchor to {uri!r}; its anchors: {shown}"


def get_doc_anchors(store: Store, belief_id: str) -> list[DocAnchor]:
    """A belief's anchors, oldest first.

    Raises:
        NotFoundError: no belief has this id (a forgotten one keeps its anchors for audit).
    """
    store.require_belief(belief_id)
    return store.anchors_for([belief_id]).get(belief_id, [])


def get_doc_anchors_batch(store: Store, belief_ids: Iterable[str]) -> dict[str, list[DocAnchor]]:
    """Anchors of many beliefs in one query (beliefs without anchors are absent)."""
    return store.anchors_for(belief_ids)
