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
        if link.weight <= 0:
            continue
        for here, there in ((link.src, link.dst), (link.dst, link.src)):
            base = frontier.get(here)
            if base is None:
                continue
            value = base * link.weight * decay
            if value > reached.get(there, 0.0):
                reached[there] = value
    return reached
