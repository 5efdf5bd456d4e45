"""The HRR structural lane: answers "what CITES X", "X SUPPORTS ?", "CITES:X" from the
anchor's persisted trace (credo.retrieval.hrr; Plate 1995).

The cleanup memory holds the symbol vectors of the anchor's live one-hop neighbours (one
batched query): unbinding the asked role from the anchor's trace and keeping the
neighbours whose cosine clears the similarity floor decodes *which* of them stand in the
asked relation, by type and direction. No floor, no answer: noise never pads the result.
"""

from __future__ import annotations

from credo.retrieval.hrr import HrrIndex, noise_floor, parse_structural_query
from credo.retrieval.hrr_sync import enabled_dim
from credo.store import Store

NEIGHBOUR_LIMIT = 2000


def structural_lane(store: Store, text: str) -> dict[str, float]:
    query = parse_structural_query(text)
    dim = enabled_dim(store)
    if query is None or dim is None:
        return {}
    blob = store.load_traces([query.anchor]).get(query.anchor)
    if blob is None:
        return {}
    links = store.links_touching([query.anchor], limit=NEIGHBOUR_LIMIT)
    neighbours = sorted({end for link in links for end in (link.src, link.dst)} - {query.anchor})
    if not neighbours:
        return {}
    index = HrrIndex(dim)
    index.add_item(query.anchor)
    for belief_id in neighbours:
        index.add_item(belief_id)
    index.load_trace(query.anchor, blob)
    floor = noise_floor(dim, len(neighbours))
    answers = index.query(
        query.anchor, query.edge_type, query.direction, k=len(neighbours), floor=floor
    )
    return {belief_id: score for belief_id, score in answers if belief_id != query.anchor}
