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
    get, best = frontier.get, reached.get
    for src, dst, _kind, weight in links:  # (one unpacking: no attribute look-ups)
        if weight <= 0:
            continue
        # Both directions, src -> dst first (the order matters only for equal values).
        base = get(src)
        if base is not None:
            value = base * weight * decay
            if value > best(dst, 0.0):
                reached[dst] = value
        base = get(dst)
        if base is not None:
            value = base * weight * decay
            if value > best(src, 0.0):
                reached[src] = value
    return reached
