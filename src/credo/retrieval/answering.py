"""The anchors shown with a result, the file that answered first.

A text held by several files is one belief with an ``ingest`` anchor in each, indexed with
the union of their contexts (knowledge/ingest/copies.py). A question that finds it by one
file's own words ("where is baseTimestamp set": Go's ``func init()`` in text_formatter.go,
not the one in buffer_pool.go) should see that file first: its anchors are ordered by how
many of the question's words (stemmed, camelCase names split as the index splits them)
each file's own context holds, the stored order (created_at, doc_uri) breaking ties. A
belief anchored in one file, and every result without copies, costs nothing more than
the one read of anchors it always made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.siblings import anchors_with_siblings
from credo.store.compound_words import compound_words
from credo.store.stem import stem, tokens

if TYPE_CHECKING:
    from credo.store import Store
    from credo.types import DocAnchor, RetrievedBelief


def shown_anchors(
    store: Store, query: str, beliefs: list[RetrievedBelief]
) -> tuple[tuple[DocAnchor, ...], ...]:
    """Each belief's anchors (then its folded siblings' places), the answering file first."""
    found = store.anchors_for([b.id for b in beliefs] + [s for b in beliefs for s in b.siblings])
    copied = [belief_id for belief_id, anchors in found.items() if _files(anchors) > 1]
    if copied:
        found = dict(found)
        contexts = store.file_contexts(copied)
        asked = _stems(query)
        for belief_id in copied:
            if belief_id in contexts:
                found[belief_id] = answering_first(found[belief_id], contexts[belief_id], asked)
    return tuple(anchors_with_siblings(b, found) for b in beliefs)


def answering_first(
    anchors: list[DocAnchor], contexts: Iterable[tuple[str, str]], asked: set[str]
) -> list[DocAnchor]:
    """``anchors`` with the ``ingest`` anchors of the files whose context holds most of
    ``asked`` first (a stable sort: ties keep the stored order)."""
    held: Mapping[str, int] = {file: len(asked & _stems(context)) for file, context in contexts}
    if len(set(held.values())) < 2:
        return anchors
    return sorted(
        anchors,
        key=lambda a: -held.get(a.doc_uri.partition("#")[0], 0) if a.anchor_type == "ingest" else 0,
    )


def _files(anchors: list[DocAnchor]) -> int:
    return len({a.doc_uri.partition("#")[0] for a in anchors if a.anchor_type == "ingest"})


def _stems(text: str) -> set[str]:
    return {stem(token) for token in tokens(f"{text} {compound_words(text)}")}
