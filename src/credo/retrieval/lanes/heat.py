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
import sys
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from itertools import accumulate, chain, compress, repeat
from operator import attrgetter, itemgetter, not_
from struct import pack
from typing import TYPE_CHECKING, Any

from credo.store.graph import Link

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from credo.store.warm_heat import HeatRow

    # The nodes, each entry's node and signed weight, each entry's segment, the first values.
    Blocks = tuple[
        list[str],
        npt.NDArray[np.int64],
        npt.NDArray[np.float64],
        npt.NDArray[np.int64],
        list[float],
    ]

DEFAULT_T = 1.0
TAYLOR_TERMS = 12
_SRC = itemgetter(0)  # of a Link
_DST = itemgetter(1)
_MEMBERS = attrgetter("members")  # of a HeatRow
_WEIGHTS = attrgetter("weights")
_RANKS = attrgetter("ranks")
_INV_SQRT = attrgetter("inv_sqrt")
_BLOCK = attrgetter("block")
_OFFSETS = attrgetter("offsets")
_ROWS = attrgetter("rows")
_PACKED = attrgetter("packed")
_ORDER = attrgetter("order")
# Fewer entries in the blocks of the seeds apart than this, and ``heat_over_rows`` computes
# every segment: joining blocks costs ~10 numpy calls whatever their size, more than ~100
# entries computed one by one (callgrind on recorded queries: a docs store's, black's, meet
# ~30 such entries and lose ~100k instructions a call by blocks; the 10k bench's ~200 and
# gain ~250k).
_APART_ENTRIES = 128
# A lane's best (``graph_lanes.lane_best``): the beliefs to keep whatever their heat (the
# keyword hits), and how many others, the hottest, join them.
Best = tuple[Container[str], int]


def adjacency(links: Sequence[Link], nodes: set[str]) -> dict[str, dict[str, float]]:
    """Symmetric positive weights among ``nodes``; parallel edges add up."""
    adj: dict[str, dict[str, float]] = {n: {} for n in nodes}
    for link in links:
        if link.weight <= 0 or link.src not in nodes or link.dst not in nodes:
            continue
        adj[link.src][link.dst] = adj[link.src].get(link.dst, 0.0) + link.weight
        adj[link.dst][link.src] = adj[link.dst].get(link.src, 0.0) + link.weight
    return adj


def heat_over_links(
    seeds: Mapping[str, float],
    links: Sequence[Link],
    *,
    t: float = DEFAULT_T,
    terms: int = TAYLOR_TERMS,
    above: float | None = None,
) -> dict[str, float]:
    """``heat_kernel(seeds, adjacency(links, nodes))`` with ``nodes`` the seeds and every
    end of ``links``: the retrieval lane's form, which builds the graph straight from the
    links with integer node indexes instead of a string-keyed adjacency (same floats:
    each row keeps the adjacency's insertion order and sums, tested). With ``above``, only
    the nodes whose heat is greater than it."""
    nodes = set(map(_SRC, links))  # (C-level passes: ~80 links a query)
    nodes.update(map(_DST, links))
    nodes.update(seeds)
    order = sorted(nodes)
    index = dict(zip(order, range(len(order)), strict=True))
    rows: list[dict[int, float]] = [{} for _ in order]
    for src, dst, _kind, weight in links:
        if weight <= 0:
            continue
        a, b = index[src], index[dst]
        out, back = rows[a], rows[b]
        out[b] = out.get(b, 0.0) + weight
        back[a] = back.get(a, 0.0) + weight  # read after the write: a self-loop adds twice
    # Whole-array steps when numpy is loaded already (a warm process); a fresh process (the
    # hook's direct path) does not pay numpy's import for this.
    if "numpy" in sys.modules:
        return _taylor_arrays(order, index, rows, seeds, t, terms, above)
    heat = _taylor(order, index, rows, seeds, t, terms)
    return heat if above is None else {k: v for k, v in heat.items() if v > above}


def heat_lane(
    seeds: Mapping[str, float],
    hops: list[list[Link]],
    heat_rows: Callable[[], Mapping[str, HeatRow] | None],
    *,
    cap: int,
    t: float,
    above: float,
    best: Best | None = None,
) -> dict[str, float]:
    """The heat of ``seeds`` over the links of ``hops``: gathered from the seeds' heat rows
    (``heat_over_rows``) when ``hops`` is one hop read whole (fewer links than ``cap``, the
    read's limit: each seed's row in the query is then its whole row) and ``heat_rows()``
    (the store's, per version) holds them; else ``heat_kernel(seeds, adjacency(links, seeds
    and link ends))`` built straight from the links (``heat_over_links``). With ``best``,
    only the lane's best of it (``best_of``)."""
    if len(hops) == 1 and len(hops[0]) < cap and (rows := heat_rows()) is not None:
        found = heat_over_rows(seeds, rows, t=t, above=above, best=best)
        if found is not None:
            return found
    heat = heat_over_links(seeds, [link for hop in hops for link in hop], t=t, above=above)
    return heat if best is None else best_of(heat, list(heat), best)  # (heat: by id)


def best_of(heat: Mapping[str, float], names: list[str], best: Best) -> dict[str, float]:
    """``graph_lanes.lane_best(heat, keep, limit)`` (``best``) without locks, ``names`` the
    keys of ``heat`` by id: the kept ones by id, then the ``limit`` hottest others by
    (heat desc, id asc), the same dict in the same order (tested). Taken straight from the
    series' answer, it spares the lane's whole id-ordered dict."""
    keep, limit = best
    found = {k: heat[k] for k in names if k in keep}
    others = [k for k in names if k not in keep]
    others.sort(key=heat.__getitem__, reverse=True)  # (stable: ties stay by id)
    del others[limit:]
    found.update(zip(others, map(heat.__getitem__, others), strict=True))
    return found


def heat_over_rows(
    seeds: Mapping[str, float],
    rows: Mapping[str, HeatRow],
    *,
    t: float = DEFAULT_T,
    terms: int = TAYLOR_TERMS,
    above: float,
    best: Best | None = None,
) -> dict[str, float] | None:
    """``heat_over_links(seeds, links, above=above)`` with ``links`` every link touching the
    seeds (one hop, none cut), gathered from each seed's heat row (``rows``: id ->
    ``HeatRow``, made once per store version: store/warm_heat.py) instead of built from the
    links; None when a seed has no row. ``above`` must be 0 or more: a node that only a
    non-positive edge reaches has no heat, and is left out (numpy must be loaded: a warm
    process's path).

    The same floats, by the same operations on the same segments (tested). A seed's row in
    the query is its whole row; any other node's holds its links to the seeds only (in the
    seeds' order by id), its degree their sum in the order the links first reach it. Most
    such nodes are leaves (one seed each), whose entries the heat rows hold made: when
    every node is met once, the seeds' blocks are laid out whole (``_leaves_only``). Else
    the seeds whose rows meet a node twice have their segments computed (``_shared``:
    the nodes two seeds share, and the seeds in one another's rows, by
    ``_shared_segments``), the nodes numbered seeds first (by id), then the leaves, then
    the shared nodes, after the other seeds' whole blocks: the series does not care which
    node has which number, only each segment's order (the node, then its neighbours by
    id)."""
    import numpy

    names = sorted(seeds)
    try:
        held = list(map(rows.__getitem__, names))
    except KeyError:
        return None  # (a seed the version does not hold: the caller builds from links)
    members = list(chain.from_iterable(map(_MEMBERS, held)))  # each seed, then its row
    if len(set(members)) == len(members):
        laid = _leaves_only(seeds, names, held, members)
        if best is not None and best[1] >= 0 and all(map(_ORDER, held)):
            order = _joined(map(_ORDER, held), numpy.int64)
            return _best_by_rank(laid[0], _folded(*laid[1:], t, terms, above), order, above, best)
        return _series(*laid, t, terms, above, best)
    # A seed whose row holds no node met twice (no shared neighbour, no seed) is a star of
    # its own, apart from the rest: its block is laid out whole, and only the other seeds'
    # segments are computed (``_shared``), numbered after the blocks. (A node's floats
    # depend on its segment only, not on its number.)
    if 3 * len(members) - 2 * len(names) < _APART_ENTRIES:  # (all blocks: too few entries)
        apart = alone = []
    else:
        twice = {n for n, times in Counter(members).items() if times > 1}
        apart = list(map(twice.isdisjoint, map(_MEMBERS, held)))
        alone = list(compress(held, apart))
    if 3 * sum(map(len, map(_MEMBERS, alone))) - 2 * len(alone) < _APART_ENTRIES:
        nodes, gather, flat, owners, values = _shared(seeds, names, held, members)
        return _series(
            nodes,
            _indexes(gather, len(gather)),
            _doubles(flat, len(flat)),
            _indexes(owners, len(owners)),
            values,
            t,
            terms,
            above,
            best,
        )
    met = list(compress(held, map(not_, apart)))
    inside = list(compress(names, map(not_, apart)))
    stars = list(chain.from_iterable(map(_MEMBERS, alone)))
    first, first_gather, first_flat, first_owners, first_values = _leaves_only(
        seeds, list(compress(names, apart)), alone, stars
    )
    nodes, gather, flat, owners, values = _shared(
        seeds, inside, met, list(chain.from_iterable(map(_MEMBERS, met)))
    )
    at = _indexes(gather, len(gather)) + len(first)
    segments = _indexes(owners, len(owners)) + len(first)
    return _series(
        first + nodes,
        numpy.concatenate((first_gather, at)),
        numpy.concatenate((first_flat, _doubles(flat, len(flat)))),
        numpy.concatenate((first_owners, segments)),
        first_values + values,
        t,
        terms,
        above,
        best,
    )


def _shared(
    seeds: Mapping[str, float], names: list[str], held: list[HeatRow], members: list[str]
) -> tuple[list[str], list[int], list[float], list[int], list[float]]:
    """The nodes, each entry's node and signed weight (``_folded``), each entry's segment
    and the nodes' first values of ``heat_over_rows``' seeds ``names`` (rows ``held``,
    ``members`` their nodes) when some node is met twice: a seed in a row, or a node two
    seeds share."""
    sizes = list(map(len, map(_MEMBERS, held)))
    outside = list(map(not_, map(seeds.__contains__, members)))  # not a seed
    others = list(compress(members, outside))  # the other nodes, as the seeds meet them
    # The seeds' segments' weights, and each neighbour's entry as a leaf (None: a seed's
    # own place), from the blocks (``HeatRow.block``).
    flat = list(chain.from_iterable(row.block[: len(row.members)] for row in held))
    backs = list(chain.from_iterable((None, *row.block[len(row.members) + 1 :: 2]) for row in held))
    owner = list(chain.from_iterable(map(repeat, range(len(names)), sizes)))
    shared = [n for n, times in Counter(others).items() if times > 1]
    leaf_names = set(others).difference(shared)
    at_leaf = list(compress(range(len(members)), map(leaf_names.__contains__, members)))
    leaves = list(map(members.__getitem__, at_leaf))
    nodes = names + leaves + shared
    index = dict(zip(nodes, range(len(nodes)), strict=True))
    gather = list(map(index.__getitem__, members))
    for start in accumulate(sizes[:-1], initial=0):
        flat[start] = -1.0  # (a seed's own entry: the blocks hold 1.0)
    # A leaf's segment: itself at -1.0, then its one seed at the entry its seed's row holds.
    first = len(names)
    numbers = range(first, first + len(leaves))
    owners = owner + list(chain.from_iterable(zip(numbers, numbers, strict=True)))
    gather += chain.from_iterable(zip(numbers, map(owner.__getitem__, at_leaf), strict=True))
    flat += chain.from_iterable(zip(repeat(-1.0), map(backs.__getitem__, at_leaf)))
    _shared_segments(names, held, members, owner, shared, index, gather, flat, owners)
    values = [float(seeds[n]) for n in names]
    values += repeat(0.0, len(leaves) + len(shared))
    return nodes, gather, flat, owners, values


def _leaves_only(
    seeds: Mapping[str, float],
    names: list[str],
    held: list[HeatRow],
    members: list[str],
) -> Blocks:
    """The layout of ``heat_over_rows`` (as ``_shared``) for seeds whose rows meet no node
    twice (no seed in a row, no neighbour shared): every other node is a leaf of one seed,
    so each seed's block of segments is laid out in its row already (``HeatRow.block``,
    packed), and the nodes are numbered as ``members`` lists them: each seed, then its
    leaves. A block's entries' nodes and segments count from its seed's: each is moved by
    its block's first node, one ``repeat`` and two adds (no Python int per entry)."""
    import numpy

    sizes = list(map(len, map(_MEMBERS, held)))  # (nodes a block: the seed and its leaves)
    bases = list(accumulate(sizes, initial=0))
    del bases[-1]
    entries = [3 * size - 2 for size in sizes]  # (a seed's entry and two a leaf)
    moved = _indexes(bases, len(bases)).repeat(_indexes(entries, len(entries)))  # (no wrappers)
    gather = _joined(map(_OFFSETS, held), numpy.int64)
    gather += moved
    owners = _joined(map(_ROWS, held), numpy.int64)
    owners += moved
    values = [0.0] * len(members)
    for base, name in zip(bases, names, strict=True):
        values[base] = float(seeds[name])
    return members, gather, _joined(map(_PACKED, held), numpy.float64), owners, values


def _shared_segments(
    names: list[str],
    held: list[HeatRow],
    members: list[str],
    owner: list[int],
    shared: list[str],
    index: Mapping[str, int],
    gather: list[int],
    flat: list[float],
    owners: list[int],
) -> None:
    """The segments of ``heat_over_rows``'s shared nodes (``shared``, numbered last), and
    the seeds' entries for them and for one another, made in place: a shared node's degree
    sums its seeds' weights in the order its links first appear (the ranks; two weights add
    up alike either way round)."""
    weights = list(chain.from_iterable(map(_WEIGHTS, held)))
    ranks = list(chain.from_iterable(map(_RANKS, held)))
    seed_inv = list(map(_INV_SQRT, held))
    inv = dict(zip(names, seed_inv, strict=True))
    spots: dict[str, list[int]] = {n: [] for n in shared}  # where each is in the rows
    for at in compress(range(len(members)), map(spots.__contains__, members)):
        spots[members[at]].append(at)
    for name, at in spots.items():
        found = [weights[i] for i in at]
        if len(at) > 2:  # (in the order the links first reach it)
            found = [w for _, w in sorted(zip(map(ranks.__getitem__, at), found, strict=True))]
        inv[name] = 1.0 / math.sqrt(sum(found))  # type: ignore[arg-type]
    # A seed's entry for a seed or a shared node: ``w * inv_sqrt[i] * inv_sqrt[j]``.
    for at in compress(range(len(members)), map(inv.__contains__, members)):
        weight = weights[at]
        if weight is not None:  # (None: the seed itself)
            flat[at] = weight * seed_inv[owner[at]] * inv[members[at]]
    for name, at in spots.items():
        scale = inv[name]
        number = index[name]
        owners += repeat(number, len(at) + 1)
        gather.append(number)
        flat.append(-1.0)
        for i in at:
            gather.append(owner[i])
            flat.append(weights[i] * scale * seed_inv[owner[i]])  # type: ignore[operator]


def _series(
    nodes: list[str],
    at: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    owners: npt.NDArray[np.int64],
    values: list[float],
    t: float,
    terms: int,
    above: float,
    best: Best | None = None,
) -> dict[str, float]:
    """``_taylor_arrays``' series over segments laid out already (node i's segment: itself,
    then its neighbours by id; ``at``: each entry's node, ``weights`` its signed weight,
    ``owners`` its segment: ``_folded``), the nodes hotter than ``above`` by id (with
    ``best``, the lane's best of them: ``best_of``)."""
    heat = _folded(at, weights, owners, values, t, terms, above)
    kept = heat > above
    found = dict(zip(compress(nodes, kept.tolist()), heat[kept].tolist(), strict=True))
    if best is not None:
        return best_of(found, sorted(found), best)
    return {n: found[n] for n in sorted(found)}


def _best_by_rank(
    nodes: list[str],
    heat: npt.NDArray[np.float64],
    order: npt.NDArray[np.int64],
    above: float,
    best: Best,
) -> dict[str, float]:
    """``_series``' answer with ``best`` (``limit`` >= 0) by one ``lexsort`` on ``order``
    (each node's rank by id, ``HeatRow.order``): kept ones by rank, then the others by (heat
    desc, rank asc). The same dict in the same order (tested), -35k instructions a query."""
    import numpy

    keep, limit = best
    held = numpy.frombuffer(flags := bytes(map(keep.__contains__, nodes)), numpy.bool_)
    if (hot := heat > above).all():  # (the usual case: none to leave out; a NaN is not above)
        ranked = numpy.lexsort((order, numpy.where(held, 0.0, -heat), ~held))
        count = flags.count(1)
    else:
        kept = held[at := hot.nonzero()[0]]  # (``flatnonzero``'s Python wrappers spared)
        ranked = at[numpy.lexsort((order[at], numpy.where(kept, 0.0, -heat[at]), ~kept))]
        count = int(numpy.count_nonzero(kept))
    picked = ranked[: count + limit]
    return dict(zip(map(nodes.__getitem__, picked.tolist()), heat[picked].tolist(), strict=True))


def _doubles(values: Iterable[float], count: int) -> npt.NDArray[np.float64]:
    """The ``count`` floats of ``values`` as a float64 array, packed by ``struct`` (its C
    loop converts each float for about half of what ``numpy.fromiter`` spends on it in
    ``PyArray_Pack``; an ``array.array`` parses each item's format: slower still)."""
    import numpy

    return numpy.frombuffer(pack(f"{count}d", *values), numpy.float64)


def _indexes(values: Iterable[int], count: int) -> npt.NDArray[np.int64]:
    """The ``count`` ints of ``values`` as an int64 array (indexes for a gather or
    ``reduceat``): as ``_doubles``."""
    import numpy

    return numpy.frombuffer(pack(f"{count}q", *values), numpy.int64)


def _joined(blocks: Iterable[bytes], kind: type[np.generic]) -> npt.NDArray[Any]:
    """Packed blocks joined into one writable array of ``kind``."""
    import numpy

    return numpy.frombuffer(bytearray(b"".join(blocks)), kind)


def _folded(
    at: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    owners: npt.NDArray[np.int64],
    values: list[float],
    t: float,
    terms: int,
    above: float | None = None,
) -> npt.NDArray[np.float64]:
    """The series' sum from the nodes' first ``values``: the reference's very floats (see
    ``_taylor_arrays``), below 0.0 made 0.0 (a NaN stays) but for a level ``above`` >= 0.0
    (its callers keep the nodes hotter only: the same nodes and floats either way).
    Each entry is a node's own (``weights`` -1.0) or a neighbour's (its normalised weight),
    ``owners`` the node whose segment holds it. ``bincount`` adds each segment's products
    from 0.0 in entry order: ``0 - x + a + b`` is ``-((x - a) - b)`` exactly (IEEE negation
    is exact), the reference's running subtraction negated, and ``t / k`` times it is ``-t /
    k`` times that. Only a zero's sign may differ, which no sum with the first values (+0.0
    or a seed's) keeps. Each term joins one running sum as it is made, ``((t0 + t1) + t2) +
    ...``, the reference's order (a ``sum`` may add pairwise, as down a single column)."""
    import numpy

    first = _doubles(values, len(values))  # (no term: the first values, as ``_taylor``)
    total = term = first
    fold, multiply, add = numpy.bincount, numpy.multiply, numpy.add
    for k in range(1, terms):
        # L x = x - D^-1/2 W D^-1/2 x ; next term = (-t / k) * L * term
        term = multiply(fold(owners, weights * term[at]), t / k)
        total = total + term if total is first else add(total, term, out=total)  # (own array)
    return total if above is not None and above >= 0.0 else numpy.where(total < 0.0, 0.0, total)


def _inv_sqrt_degrees(rows: list[dict[int, float]]) -> list[float]:
    """D^-1/2 of each node: one over the square root of its row's weights summed in the
    row's insertion order (0.0 for a node without an edge)."""
    sqrt = math.sqrt
    return [1.0 / sqrt(d) if d > 0 else 0.0 for d in map(sum, map(dict.values, rows))]


def _taylor_arrays(
    order: list[str],
    index: Mapping[str, int],
    rows: list[dict[int, float]],
    seeds: Mapping[str, float],
    t: float,
    terms: int,
    above: float | None = None,
) -> dict[str, float]:
    """``_taylor`` as whole-array steps (numpy), the very same floats (with ``above``, only
    the nodes whose heat is greater than it).

    Each node is one segment of a flat array: itself at weight -1.0, then its neighbours by
    index at their normalised weights. A step multiplies the flat weights by the gathered
    values and adds each segment up in order (``_folded``), a left fold (``-x + a + b`` is
    ``-((x - a) - b)``: the reference's running subtraction negated). Degrees
    are ``sum(row.values())`` as there (insertion order); the products and the division
    by the square root are the same IEEE operations. The segments are laid out by one
    Python pass into lists, made arrays by three conversions: ~100 nodes, most of them
    leaves, cost less so than by the ~20 numpy calls of an array-built layout (each ~1-3
    us in a query's flow, its caches cold)."""
    inv_sqrt = _inv_sqrt_degrees(rows)
    gather: list[int] = []  # the flat array's values: node i's own, then its neighbours'
    flat: list[float] = []  # their signed weights: -1.0, then each neighbour's normalised one
    owners: list[int] = []  # each entry's segment (node i's: i)
    for i, row in enumerate(rows):
        owners += repeat(i, len(row) + 1)
        gather.append(i)
        flat.append(-1.0)
        if row:
            scale = inv_sqrt[i]
            for j, w in sorted(row.items()):  # by neighbour index
                gather.append(j)
                flat.append(w * scale * inv_sqrt[j])
    first = [0.0] * len(order)
    for n, value in seeds.items():  # every seed is a node (heat_over_links adds them)
        first[index[n]] = float(value)
    at, weights = _indexes(gather, len(gather)), _doubles(flat, len(flat))
    heat = _folded(at, weights, _indexes(owners, len(owners)), first, t, terms, above)
    if above is not None:
        kept = heat > above
        return dict(zip(compress(order, kept.tolist()), heat[kept].tolist(), strict=True))
    return dict(zip(order, heat.tolist(), strict=True))


def _taylor(
    order: list[str],
    index: Mapping[str, int],
    rows: list[dict[int, float]],
    seeds: Mapping[str, float],
    t: float,
    terms: int,
) -> dict[str, float]:
    """The Taylor series of ``heat_kernel`` over nodes ``order`` (sorted names)
    (``index`` their positions) whose neighbours are ``rows[i]`` (index -> weight, in
    adjacency insertion order).

    The arithmetic of the reference, operation for operation and in the same order, so
    the floats are identical; what changes is the interpreter's work per step. The local
    graph is mostly seeds and their leaves (one neighbour each), so nodes are stored
    grouped by their number of neighbours and the groups of degree 0 to 3 are each one
    list comprehension with the row written out: ``x - a - b`` is ``(x - a) - b``, the
    reference's running subtraction over neighbours by name (by index, as indexes follow
    names). Only nodes of higher degree (the seeds, a few per query) loop over their row.
    (C-level ``map`` and ``itemgetter`` gathers per neighbour rank were tried: slower at
    this size, ~70 leaves and a handful of seeds.)
    """
    inv_sqrt = _inv_sqrt_degrees(rows)
    # Storage position of each node: by number of neighbours (4 and more together), then
    # by name; the groups below are built in that order, so they concatenate in place.
    buckets: list[list[int]] = [[], [], [], [], []]
    for i, row in enumerate(rows):
        buckets[min(len(row), 4)].append(i)
    where = [0] * len(order)
    position = 0
    for bucket in buckets:
        for i in bucket:
            where[i] = position
            position += 1
    leaves: list[tuple[int, int, float]] = []
    for i in buckets[1]:
        ((j, w),) = rows[i].items()
        leaves.append((where[i], where[j], w * inv_sqrt[i] * inv_sqrt[j]))
    longer: list[list[tuple[int, list[tuple[int, float]]]]] = [[], [], []]
    for group, bucket in zip(longer, buckets[2:], strict=True):
        for i in bucket:
            scale = inv_sqrt[i]
            row = [(where[j], w * scale * inv_sqrt[j]) for j, w in sorted(rows[i].items())]
            group.append((where[i], row))
    pairs = [(i, j, w, h, v) for i, ((j, w), (h, v)) in longer[0]]
    triples = [(i, j, w, h, v, g, u) for i, ((j, w), (h, v), (g, u)) in longer[1]]
    wide = longer[2]
    isolated = len(buckets[0])
    term = [0.0] * len(order)
    for n, value in seeds.items():  # every seed is a node (heat_over_links adds them)
        term[where[index[n]]] = float(value)
    total = term[:]
    for k in range(1, terms):
        # L x = x - D^-1/2 W D^-1/2 x ; next term = (-t / k) * L * term
        scale = -t / k
        x = term
        term = [scale * a for a in x[:isolated]]
        term += [scale * (x[i] - w * x[j]) for i, j, w in leaves]
        term += [scale * (x[i] - w * x[j] - v * x[h]) for i, j, w, h, v in pairs]
        term += [scale * (x[i] - w * x[j] - v * x[h] - u * x[g]) for i, j, w, h, v, g, u in triples]
        for i, row in wide:
            value = x[i]
            for j, w in row:
                value -= w * x[j]
            term.append(scale * value)
        total = [a + b for a, b in zip(total, term, strict=True)]
    return {n: max(total[where[i]], 0.0) for i, n in enumerate(order)}


def heat_kernel(
    seeds: Mapping[str, float],
    adj: Mapping[str, Mapping[str, float]],
    *,
    t: float = DEFAULT_T,
    terms: int = TAYLOR_TERMS,
) -> dict[str, float]:
    """exp(-tL) s over the graph ``adj`` (every node must be a key), by Taylor series: the
    readable form of ``heat_over_links``, which must give the very same floats (tested)."""
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
