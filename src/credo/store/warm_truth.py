"""Each belief's truth links in a warm index, laid out flat for a store too big to read them
all (store/truth.py's ``read_truth_if_short`` declines past ~a quarter of a million edges).

A first pass over new queries at a million beliefs asks the truth links of ~100 beliefs it
has not met, once per query. ``WarmGraph.truth_links`` found them by gathering every edge
of those beliefs (a belief has ~4 either way) and filtering them by type and by the far
end's state, ~20 numpy calls a query. Here the filter is paid once, at index read: each
belief's truth edges to live beliefs, its out-edges then its in-edges, each in its slice's
order, are one slice of three small arrays (6 bytes an edge: 3 MB for the half million
ends of a million-belief store's quarter million CONTRADICTS edges, and 4 bytes a belief
for the slice starts). A belief's links are then a few C calls on memoryviews, or, for many,
one gather. The gathering over all edges stays (``gathered``): the reference the laid-out
reads are tested against (tests/test_warm_links.py), and the way for other types.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from credo.store.truth import TruthLink

# Beliefs asked at once whose slices are read one by one from memoryviews; past it, as whole
# arrays (on the batches of a first pass at a million beliefs, ~105 asked: 72 against 121 us)
FEW_ASKED = 20
# (asked id, src, dst, type, far end): ``WarmGraph.truth_links``' rows.
TruthRow = tuple[str, str, str, str, str]


class TruthSlices:
    """The truth edges (of the types ``kinds``) between each belief and a live one, by
    rowid: belief r's are ``[start[r], start[r + 1])`` of ``far`` (the other end's rowid),
    ``kind`` (a type number) and ``side`` (0: an out-edge, r is its src; 1: an in-edge)."""

    __slots__ = ("far", "kind", "kinds", "side", "start", "views")

    def __init__(
        self,
        kinds: frozenset[str],
        edges: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int8]]],
        wanted: npt.NDArray[np.bool_],
        state: npt.NDArray[np.int8],
    ) -> None:
        """``edges``: the out and the in direction's (start, other, kind), compressed rows
        as ``warm_graph._Slices`` holds them; ``wanted``: whether each type number is one of
        ``kinds``; ``state``: each rowid's state (0: no live belief)."""
        import numpy

        self.kinds = kinds
        size = len(edges[0][0]) - 1
        keys, fars, numbers = [], [], []
        for side, (start, other, kind) in enumerate(edges):
            at = numpy.flatnonzero(wanted[kind] & (state[other] != 0))
            # (the belief whose slice holds each position: the last start at or before it)
            near = numpy.searchsorted(start, at, side="right") - 1
            keys.append(near * 2 + side)
            fars.append(other[at])
            numbers.append(kind[at])
        key = numpy.concatenate(keys)
        order = numpy.argsort(key, kind="stable")  # (each side's slice order kept)
        key = key[order]
        self.far = numpy.concatenate(fars)[order].astype(numpy.int32)
        self.kind = numpy.concatenate(numbers)[order].astype(numpy.int8)
        self.side = (key & 1).astype(numpy.int8)
        # (int32: a store's truth edges number well under 2**31; half the bytes of int64)
        self.start = numpy.searchsorted(key >> 1, numpy.arange(size + 1)).astype(numpy.int32)
        # (read a belief at a time: a slice of a memoryview is a C call, a numpy gather ~2 us)
        self.views = tuple(map(memoryview, (self.start, self.far, self.kind, self.side)))

    def found(
        self, asked: list[tuple[str, int]], names: Sequence[str | None], kinds: Sequence[str]
    ) -> tuple[dict[str, list[TruthLink]], dict[str, int]]:
        """``WarmGraph.truth_links`` of the asked (id, rowid) pairs as the truth memo keeps
        them (``WarmIndex.truth_links_of``): each asked id's links (src, dst, type), for
        those that have any, its out-edges then its in-edges; and each
        far end's rowid, by id, in the order first met (its row and facts are read by rowid:
        no search of the id table for them)."""
        found: dict[str, list[TruthLink]] = {}
        fars: dict[str, int] = {}
        for me, name, end, kind, into in self._walk(asked, names, kinds):
            link = (name, me, kind) if into else (me, name, kind)
            if (got := found.get(me)) is None:
                found[me] = [link]
            else:
                got.append(link)
            fars[name] = end
        return found, fars

    def _walk(
        self, asked: list[tuple[str, int]], names: Sequence[str | None], kinds: Sequence[str]
    ) -> Iterator[tuple[str, str, int, str, int]]:
        """(asked id, far end's id, its rowid, type, whether an in-edge) of each link of the
        asked beliefs, in their order: each one's out-edges, then its in-edges."""
        if len(asked) <= FEW_ASKED:
            start, far, kind, side = self.views
            for me, rid in asked:
                low, high = start[rid], start[rid + 1]
                if low != high:
                    for end, number, into in zip(
                        far[low:high].tolist(), kind[low:high].tolist(), side[low:high].tolist(),
                        strict=True,
                    ):  # fmt: skip
                        yield me, names[end], end, kinds[number], into  # type: ignore[misc]
            return
        import numpy

        at, counts = positions(self.start, numpy.array([rid for _, rid in asked], numpy.int64))
        if not len(at):
            return
        owner = numpy.repeat(numpy.arange(len(asked)), counts)
        for key, end, number, into in zip(
            owner.tolist(), self.far[at].tolist(), self.kind[at].tolist(), self.side[at].tolist(),
            strict=True,
        ):  # fmt: skip
            yield asked[key][0], names[end], end, kinds[number], into  # type: ignore[misc]


def gathered(
    edges: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int8]]],
    wanted: npt.NDArray[np.bool_],
    state: npt.NDArray[np.int8],
    asked: list[str],
    rids: list[int],
    names: Sequence[str | None],
    kinds: Sequence[str],
) -> list[TruthRow]:
    """``WarmGraph.truth_links`` of many beliefs (``asked``, of rowids ``rids``) when their
    edges are not laid out (``edges``, ``wanted``, ``state`` as ``TruthSlices`` takes them):
    their edges gathered and filtered (a truth type, a live far end) as whole arrays, only
    the few kept made Python values (truth links are asked once per belief and version:
    the truth graph keeps them). Each asked belief's out-edges, then its in-edges, each in
    slice order, as the per-belief walk gives them."""
    import numpy

    near = numpy.array(rids, dtype=numpy.int64)
    owners, fars, numbers = [], [], []
    for side, (start, other, kind) in enumerate(edges):
        at, counts = positions(start, near)
        ends, types = other[at], kind[at]
        keep = wanted[types] & (state[ends] != 0)
        owners.append(numpy.repeat(numpy.arange(len(rids)) * 2 + side, counts)[keep])
        fars.append(ends[keep])
        numbers.append(types[keep])
    owner = numpy.concatenate(owners)
    order = numpy.argsort(owner, kind="stable")  # (out-edges listed first: kept first)
    found: list[TruthRow] = []
    for key, far, number in zip(
        owner[order].tolist(),
        numpy.concatenate(fars)[order].tolist(),
        numpy.concatenate(numbers)[order].tolist(),
        strict=True,
    ):
        me, end, kind_name = asked[key >> 1], names[far], kinds[number]
        if key & 1:
            found.append((me, end, me, kind_name, end))  # type: ignore[arg-type]
        else:
            found.append((me, me, end, kind_name, end))  # type: ignore[arg-type]
    return found


def positions(
    start: npt.NDArray[np.integer[Any]], near: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every edge position of the beliefs ``near`` in turn (their slices of ``start``, in
    compressed rows: low[i] .. low[i] + counts[i]), and each one's count (the warm graph's
    slices and the truth slices alike)."""
    import numpy

    low = start[near]
    counts = start[near + 1] - low
    ends = numpy.cumsum(counts)
    total = int(ends[-1]) if len(ends) else 0
    return numpy.arange(total) + numpy.repeat(low - (ends - counts), counts), counts
