"""Heat-kernel authority: BM25F seed scores diffused over their local graph.

h = exp(-t L) s, with L = I - D^-1/2 W D^-1/2 the normalised Laplacian of the seeds' local
neighbourhood (Kondor & Lafferty 2002; Chung 2007 for the normalised form). W holds the
positive edge weights, both directions; contradicting (negative) and zero-weight edges carry
no heat. Because the eigenvalues of the normalised L lie in [0, 2], the truncated Taylor
series sum_k (-t)^k L^k s / k! converges fast: with t <= 1 and 12 terms the remainder is
below 2^12/12! ~ 9e-6, so no eigendecomposition (global or local) is ever needed.

Bounds: at most ``max_seeds`` seeds start the walk, the neighbourhood is ``hops`` hops, and
at most ``max_nodes`` nodes / ``max_links`` edges are taken (hub beliefs cannot blow up a
query). The arithmetic runs in a fixed node order, so results are byte-identical.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from credo.store.graph import Link

DEFAULT_T = 1.0
TAYLOR_TERMS = 12


def adjacency(links: Sequence[Link], nodes: set[str]) -> dict[str, dict[str, float]]:
    """Symmetric positive weights among ``nodes``; parallel edges add up."""
    adj: dict[str, dict[str, float]] = {n: {} for n in nodes}
    for link in links:
        if link.weight <= 0 or link.src not in nodes or link.dst not in nodes:
            continue
        adj[link.src][link.dst] = adj[link.src].get(link.dst, 0.0) + link.weight
        adj[link.dst][link.src] = adj[link.dst].get(link.src, 0.0) + link.weight
    return adj


def heat_kernel(
    seeds: Mapping[str, float],
    adj: Mapping[str, Mapping[str, float]],
    *,
    t: float = DEFAULT_T,
    terms: int = TAYLOR_TERMS,
) -> dict[str, float]:
    """exp(-tL) s over the graph ``adj`` (every node must be a key), by Taylor series."""
    order = sorted(adj)
    index = {n: i for i, n in enumerate(order)}
    degree = [sum(adj[n].values()) for n in order]
    inv_sqrt = [1.0 / math.sqrt(d) if d > 0 else 0.0 for d in degree]
    neighbours = [
        [(index[m], w * inv_sqrt[i] * inv_sqrt[index[m]]) for m, w in sorted(adj[n].items())]
        for i, n in enumerate(order)
    ]
    term = [float(seeds.get(n, 0.0)) for n in order]
    total = term[:]
    for k in range(1, terms):
        # L x = x - D^-1/2 W D^-1/2 x ; next term = (-t / k) * L * term
        scale = -t / k
        nxt = [0.0] * len(order)
        for i, row in enumerate(neighbours):
            acc = term[i]
            for j, w in row:
                acc -= w * term[j]
            nxt[i] = scale * acc
        term = nxt
        total = [a + b for a, b in zip(total, term, strict=True)]
    return {n: max(total[i], 0.0) for i, n in enumerate(order)}
