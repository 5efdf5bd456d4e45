"""Multi-hop expansion: reach along edges from the seeds, decayed by weight and hop.

score(v) = max over paths seed -> ... -> v of  s(seed) * prod(edge weight) * decay^hops.
Only positive edges are walked, in both directions; the best path wins (max, not sum, so a
hub does not collect score from every neighbour). Each hop is one batched query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from credo.store.graph import Link

DEFAULT_DECAY = 0.5


def expand_hop(
    frontier: Mapping[str, float], links: Sequence[Link], *, decay: float = DEFAULT_DECAY
) -> dict[str, float]:
    """Scores reached in one hop from ``frontier`` (node -> score) over ``links``."""
    reached: dict[str, float] = {}
    for link in links:
        weight = link.weight
        if weight <= 0:
            continue
        src, dst = link.src, link.dst
        # Both directions, src -> dst first (the order matters only for equal values).
        base = frontier.get(src)
        if base is not None:
            value = base * weight * decay
            if value > reached.get(dst, 0.0):
                reached[dst] = value
        base = frontier.get(dst)
        if base is not None:
            value = base * weight * decay
            if value > reached.get(src, 0.0):
                reached[src] = value
    return reached
