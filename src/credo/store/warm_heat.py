"""Each live belief's row as the heat lane reads it (retrieval/lanes/heat.py), made once per
store version when a small store's warm index is read (``WarmGraph.prepare``).

The heat lane's graph is the seeds' links (one hop, read whole: none is cut at the limit).
So a seed's row in a query is its whole row: its positive-weight neighbours, parallel edges
added in the edges' key order (src, dst, type), its degree their sum in the order each
neighbour first appears. What a query would build from the links is laid out here ahead:
the neighbours by id, the degree's inverse square root, and each normalised entry
``w * inv_sqrt[i] * inv_sqrt[j]`` for the common case of a neighbour that is a leaf of the
query's graph (its only link in the query is this one, so its degree is ``w``). The
arithmetic is the lane's own (``heat_over_links``), operation for operation, so the floats
are the same (tests/test_heat_rows.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from itertools import chain, repeat
from operator import itemgetter
from struct import pack
from typing import NamedTuple

from credo.store.graph import Link

_RANK = itemgetter(3)  # of a prepared ``_Linked``: its edge's rank in key order


class HeatRow(NamedTuple):
    """One belief's heat row: each tuple but ``inv_sqrt`` holds the belief itself first,
    then its positive-weight neighbours by id (a self-loop's belief again, in its place)."""

    members: tuple[str, ...]
    # The neighbours' weights (parallel edges added in key order); None for the belief.
    weights: tuple[float | None, ...]
    # Each neighbour's first positive edge's rank in key order (None for the belief): the
    # order a neighbour's degree is summed in, when it meets three seeds or more.
    ranks: tuple[int | None, ...]
    # D^-1/2 of the belief: one over the square root of its degree (0.0 without neighbours).
    inv_sqrt: float
    # The block of segments a query lays out when every neighbour is a leaf, numbered from
    # the belief (0) through its neighbours (1..k): the belief's own segment, then each
    # leaf's (the leaf, then the belief). ``offsets``: each entry's node; ``block``: its
    # weight: 1.0 (the belief's own step), each neighbour's normalised entry in this row
    # when it is a leaf, ``(w * inv_sqrt) * (1 / sqrt(w))``, then for each leaf 1.0 and
    # this belief's entry in the leaf's row, ``(w * (1 / sqrt(w))) * inv_sqrt``;
    # ``rows``: each entry's segment (its node's number). ``packed`` is ``block`` as
    # float64 bytes with each segment's own 1.0 made -1.0 (the series' signed weights:
    # ``lanes/heat._folded``), ``offsets`` and ``rows`` int64 bytes (shared by rows of one
    # size): a query joins its seeds' bytes into arrays with no Python object per entry.
    block: tuple[float, ...]
    packed: bytes
    offsets: bytes
    rows: bytes
    # Each of ``members``' rank by id among the version's ids, int64 bytes (empty: not
    # given): a query orders its nodes by id from these (``lanes/heat._best_by_rank``)
    # with no string compared.
    order: bytes = b""


def inverse_sqrt(degree: float) -> float:
    """D^-1/2 as the heat lane computes it (``lanes/heat._inv_sqrt_degrees``)."""
    return 1.0 / math.sqrt(degree) if degree > 0 else 0.0


def heat_row(
    name: str, links: Iterable[tuple[Link, str, int, int]], by_id: Mapping[str, int] | None = None
) -> HeatRow:
    """The heat row of the belief ``name`` from its links to live beliefs (``_Linked``: the
    link, its far end, that end's state, its rank), an edge inside ``name`` (a self-loop)
    listed once; ``by_id``: each id's rank by id (``HeatRow.order``), when known."""
    row: dict[str, float] = {}
    first: dict[str, int] = {}
    for link, far, _state, rank in sorted(links, key=_RANK):
        weight = link[3]
        if weight <= 0:
            continue  # contradicting and zero-weight edges carry no heat
        # (0.0 + w is w: a neighbour's first weight is kept as the link's own float)
        row[far] = row[far] + weight if far in row else weight
        if far == name:  # a self-loop: its own row twice, as the lane adds both directions
            row[far] += weight
        first.setdefault(far, rank)
    # (``sum`` in first-appearance order: the lane's very sum, whatever the Python)
    inv = inverse_sqrt(sum(row.values()))
    names = sorted(row)
    weights = [row[n] for n in names]
    leaf = [1.0 / math.sqrt(w) for w in weights]  # a leaf's D^-1/2: its degree is w
    toward = [w * inv * own for w, own in zip(weights, leaf, strict=True)]
    back = [w * own * inv for w, own in zip(weights, leaf, strict=True)]
    offsets, segments = _block_shape(len(names))
    row_names = (name, *names)
    block = (1.0, *toward, *chain.from_iterable(zip(repeat(1.0), back)))
    signed = (-1.0, *toward, *chain.from_iterable(zip(repeat(-1.0), back)))
    return HeatRow(
        row_names,
        (None, *weights),
        (None, *map(first.__getitem__, names)),
        inv,
        block,
        pack(f"{len(signed)}d", *signed),
        offsets,
        segments,
        b"" if by_id is None else pack(f"{len(names) + 1}q", *map(by_id.__getitem__, row_names)),
    )


@functools.lru_cache(maxsize=1024)
def _block_shape(size: int) -> tuple[bytes, bytes]:
    """``HeatRow.offsets`` and ``rows`` of a row of ``size`` neighbours."""
    leaves = range(1, size + 1)
    offsets = (0, *leaves, *chain.from_iterable(zip(leaves, repeat(0))))
    # (the belief's segment, its own entry and one a neighbour, then two a leaf)
    segments = (*repeat(0, size + 1), *chain.from_iterable(zip(leaves, leaves, strict=True)))
    return pack(f"{len(offsets)}q", *offsets), pack(f"{len(segments)}q", *segments)


def heat_rows(
    names: tuple[str | None, ...],
    rids: list[int],
    out_links: dict[int, tuple[tuple[Link, str, int, int], ...]],
    into_links: dict[int, tuple[tuple[Link, str, int, int], ...]],
    by_id: Mapping[str, int] | None = None,
) -> dict[str, HeatRow]:
    """id -> ``heat_row`` of each live belief of ``rids`` (``names``: rowid -> id), from the
    links ``WarmGraph.prepare`` made both ways (an in-link from the belief itself is its
    self-loop's out-link again: left out)."""
    rows: dict[str, HeatRow] = {}
    for rid in rids:
        name = names[rid]
        if name is None:
            continue
        links = out_links[rid] + tuple(row for row in into_links[rid] if row[1] != name)
        rows[name] = heat_row(name, links, by_id)
    return rows
