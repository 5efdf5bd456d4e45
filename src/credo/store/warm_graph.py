"""The graph reads of ``GraphQueries`` answered from memory, for one store version.

A long-lived process (the warm server) keeps every belief's state (live or not, locked or
not) and every edge, read once per store version on a connection of its own
(``store/warm.py``). Beliefs are numbered by their rowid, so the edges are flat numpy
arrays (compressed rows: each belief's out-edges, and its in-edges, are one slice), ~30
bytes an edge and ~110 a belief at a million beliefs, where Python tuples and lists took
~320 an edge. The answers are those of the SQL in ``graph.py``, row for row and in the
same order, so retrieval gives byte-identical results either way (tests/test_warm_index.py):
- ``links_with_ends``: the links sorted by (src, dst, type) and cut at the limit, as the
  ordered query does; each end's row comes from the per-version row cache;
- ``pairs_among``: the ids sorted, then each one's out-edges in primary-key order
  (dst, type), as the primary-key search of the SQL walks them.

The beliefs' rows (``CandidateRow``) are held apart, compactly (``warm_rows``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import TYPE_CHECKING

from credo.store.fts import CandidateRow
from credo.store.graph import Link
from credo.store.warm_heat import HeatRow, heat_rows
from credo.store.warm_truth import TruthSlices, gathered, positions

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# A belief's state, by rowid.
ABSENT, UNLOCKED, LOCKED = 0, 1, 2
_UNLOCKED = UNLOCKED.__eq__
BATCH = 65_536  # edge rows read at a time
MAX_SEEN = 200_000  # beliefs whose edges are kept as Python values, per direction
# (far end's rowid, its id, type, weight, its state) of one edge.
_Edge = tuple[int, str, str, float, int]
_Edges = tuple[_Edge, ...]
# (the link, the end the SQL checks is live, its state) of one edge to a live belief; in a
# prepared store, then the edge's rank in (src, dst, type) order (``prepare``).
_Linked = tuple["Link", str, int] | tuple["Link", str, int, int]
MAX_LINKED = 50_000  # beliefs whose links are kept as Links, per direction
# Beliefs whose links are made one by one from memoryviews, past it as whole arrays (the
# two cost the same at ~20 beliefs: 35 us at 30 on the 10k bench store).
FEW_BELIEFS = 20


_new = tuple.__new__  # a Link without the NamedTuple's Python-level __new__
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_END_STATE = itemgetter(1, 2)  # of a _Linked: its far end and that end's state
_RANK = itemgetter(3)  # of a prepared store's _Linked


class _Slices:
    """One direction of the edges: for belief rowid r, its edges are ``[start[r],
    start[r + 1])`` of ``other`` (the far end's rowid), ``kind`` (a type number) and
    ``weight``."""

    __slots__ = ("kind", "other", "rank", "start", "views", "weight")

    def __init__(
        self, near: npt.NDArray[np.int64], far: npt.NDArray[np.int64], kind: npt.NDArray[np.int64],
        weight: npt.NDArray[np.float64], size: int,
    ) -> None:  # fmt: skip
        import numpy

        order = numpy.argsort(near, kind="stable")
        self.other = far[order].astype(numpy.int32)
        self.kind = kind[order].astype(numpy.int8)
        self.weight = weight[order]
        self.start = numpy.searchsorted(near[order], numpy.arange(size + 1))
        # The four as memoryviews (no copy): one belief's slice read as Python values by a
        # few C calls, where a numpy gather costs a fixed ~2 us a call.
        self.views = tuple(map(memoryview, (self.start, self.other, self.kind, self.weight)))
        # Each edge's rank in (src, dst, type) order, by name: set by ``WarmGraph.prepare``.
        self.rank: npt.NDArray[np.int64] | None = None


class WarmGraph:
    """Beliefs (id <-> rowid, state) and edges (out and in slices), of one store version."""

    __slots__ = (
        "_bit_sets", "_far", "_heat", "_ids", "_into", "_into_links", "_into_seen", "_kinds",
        "_locked", "_out", "_out_links",
        "_out_seen", "_rids",
        "_state", "_states", "_touching", "_truth", "edges", "live",
    )  # fmt: skip

    def __init__(self, conn: sqlite3.Connection) -> None:
        """Read on ``conn`` inside the caller's read transaction (one snapshot)."""
        import numpy

        size = conn.execute("SELECT coalesce(max(rid), -1) + 1 FROM beliefs").fetchone()[0]
        ids: list[str | None] = [None] * size
        self._rids: dict[str, int] = {}
        self._state = numpy.zeros(size, dtype=numpy.int8)
        for rid, belief_id, state in conn.execute(
            "SELECT rid, id, CASE WHEN deleted_at IS NOT NULL THEN 0 WHEN locked THEN 2 "
            "ELSE 1 END FROM beliefs"
        ):
            ids[rid] = belief_id
            self._rids[belief_id] = rid
            self._state[rid] = state
        # Tuples: the collector stops walking a tuple of strings after its first look, a list
        # of a million it would walk at every full collection (so too each belief's edges).
        self._ids: tuple[str | None, ...] = tuple(ids)
        del ids
        self.live = int(numpy.count_nonzero(self._state))
        # The states again as bytes, for one belief at a time: a byte is read as a Python
        # int in a few ns, where a numpy scalar and its comparison cost ~100.
        self._states = self._state.tobytes()
        self._kinds: list[str] = [row[0] for row in conn.execute("SELECT DISTINCT type FROM edges")]
        code = " ".join(f"WHEN ? THEN {i}" for i in range(len(self._kinds)))
        count = conn.execute("SELECT count(*) FROM edges").fetchone()[0]
        self.edges = int(count)  # to forgotten beliefs too
        # (src rowid, dst rowid, type number, weight) per edge, filled a batch at a time:
        # the rows as Python tuples all at once would double the peak.
        table = numpy.zeros((count, 4), dtype=numpy.float64)
        cursor = conn.execute(
            "SELECT s.rid, d.rid, "
            + (f"CASE e.type {code} END" if self._kinds else "0")
            + ", e.weight FROM edges e JOIN beliefs s ON s.id = e.src "
            "JOIN beliefs d ON d.id = e.dst",
            self._kinds,
        )
        at = 0
        while batch := cursor.fetchmany(BATCH):
            table[at : at + len(batch)] = batch
            at += len(batch)
        src, dst = table[:, 0].astype(numpy.int64), table[:, 1].astype(numpy.int64)
        kind, weight = table[:, 2].astype(numpy.int64), table[:, 3].copy()
        del table
        # The edge types touching each belief, either way, forgotten ends included: a bit per
        # type number (None past 64 types). Truth reads skip the beliefs no truth edge touches.
        self._touching: npt.NDArray[np.uint64] | None = None
        if len(self._kinds) <= 64:
            bits = numpy.left_shift(numpy.uint64(1), kind.astype(numpy.uint64))
            self._touching = numpy.zeros(size, dtype=numpy.uint64)
            numpy.bitwise_or.at(self._touching, src, bits)
            numpy.bitwise_or.at(self._touching, dst, bits)
        self._out = _Slices(src, dst, kind, weight, size)
        self._into = _Slices(dst, src, kind, weight, size)
        # Each belief's edges as the reads use them, made on first use: the same beliefs come
        # back query after query, and a slice costs ~2 us to turn into Python values.
        self._out_seen: dict[int, _Edges] = {}
        self._into_seen: dict[int, _Edges] = {}
        self._out_links: dict[int, tuple[_Linked, ...]] = {}  # ``_linked``, by rowid
        self._into_links: dict[int, tuple[_Linked, ...]] = {}
        self._bit_sets: dict[frozenset[str], int] = {}  # ``_bits``, per set of type names
        # id -> the ids its out-edges reach (forgotten ends too), of each belief with one:
        # made by ``prepare`` for a small store, for ``pairs_among``. Tuples, not sets: a
        # tuple of strings leaves the collector's lists at its first look, a set never does.
        self._far: dict[str, tuple[str, ...]] | None = None
        self._locked: set[str] = set()  # the live locked ids, when prepared
        # id -> its row as the heat lane reads it, of each live belief: made by ``prepare``.
        self._heat: dict[str, HeatRow] | None = None
        self._truth: TruthSlices | None = None  # the truth edges laid out (``hold_truth``)

    def _edges(self, slices: _Slices, seen: dict[int, _Edges], rid: int) -> _Edges:
        """(far rowid, far id, type, weight, far state) of each edge of ``rid``."""
        found = seen.get(rid)
        return self._edges_of(slices, seen, [rid])[0] if found is None else found

    def _edges_of(self, slices: _Slices, seen: dict[int, _Edges], rids: list[int]) -> list[_Edges]:
        """``_edges`` of each of ``rids``, those not kept yet gathered in one numpy pass (a
        slice and three ``tolist`` per belief cost ~8 us; a query meets ~100 new beliefs
        at a million)."""
        missing = [rid for rid in dict.fromkeys(rids) if rid not in seen]
        if missing and len(missing) <= FEW_BELIEFS and len(seen) + len(missing) <= MAX_SEEN:
            start, other, kind, weight = slices.views  # a few: one by one (``_links_each``)
            names, kinds, states = self._ids, self._kinds, self._states
            for rid in missing:
                low, high = start[rid], start[rid + 1]
                seen[rid] = tuple(
                    (far, names[far], kinds[number], value, states[far])
                    for far, number, value in zip(
                        other[low:high].tolist(), kind[low:high].tolist(),
                        weight[low:high].tolist(), strict=True,
                    )
                )  # fmt: skip
        elif missing:
            import numpy

            if len(seen) + len(missing) > MAX_SEEN:
                seen.clear()
                missing = list(dict.fromkeys(rids))
            near = numpy.array(missing, dtype=numpy.int64)
            at, counts = positions(slices.start, near)
            others = slices.other[at]
            states = self._state[others].tolist()
            names, kinds = self._ids, self._kinds
            rows = [
                (other, names[other], kinds[kind], weight, state)
                for other, kind, weight, state in zip(
                    others.tolist(),
                    slices.kind[at].tolist(),
                    slices.weight[at].tolist(),
                    states,
                    strict=True,
                )
            ]
            start = 0
            for rid, count in zip(missing, counts.tolist(), strict=True):
                seen[rid] = tuple(rows[start : start + count])  # type: ignore[arg-type]
                start += count
        return [seen[rid] for rid in rids]

    @property
    def size(self) -> int:
        """One past the highest rowid read."""
        return len(self._ids)

    @property
    def states(self) -> npt.NDArray[np.int8]:
        """Each rowid's state (``ABSENT``, ``UNLOCKED``, ``LOCKED``); not to be written to."""
        return self._state

    @property
    def id_table(self) -> tuple[Mapping[str, int], Sequence[str | None]]:
        """(id -> rowid, rowid -> id): ``ids[rids[i]]`` is the graph's own object for ``i``,
        the one every read of this index names the belief with."""
        return self._rids, self._ids

    def rids(self, ids: list[str]) -> list[int]:
        """The rowid of each of ``ids`` (-1 for an id not read)."""
        rids = self._rids
        return [rids.get(i, -1) for i in ids]

    def names(self, rids: list[int]) -> list[tuple[str | None, int]]:
        """(id, ``locked`` as the column holds it) of each of ``rids``."""
        names, states = self._ids, self._states  # (bytes: no numpy call for a few rows)
        return [(names[r], 1 if states[r] == LOCKED else 0) for r in rids]

    def _rid_list(self, ids: Iterable[str]) -> list[tuple[str, int]]:
        rids = self._rids
        return [(i, rid) for i in set(ids) if (rid := rids.get(i)) is not None]

    def _rid_lists(self, ids: Iterable[str]) -> tuple[list[str], list[int]]:
        """``_rid_list`` as two lists: the distinct ids the graph holds, and their rowids."""
        held = list(ids if isinstance(ids, set) else set(ids))
        rids = list(map(self._rids.get, held))
        if None in rids:  # (an id the graph does not hold: none, as the lanes ask)
            pairs = [(i, rid) for i, rid in zip(held, rids, strict=True) if rid is not None]
            held, rids = list(map(_FIRST, pairs)), list(map(_SECOND, pairs))
        return held, rids  # type: ignore[return-value]

    def links_with_ends(
        self,
        ids: Iterable[str],
        limit: int,
        rows_of: Callable[[list[str]], list[CandidateRow | None]],
        cached: Mapping[str, CandidateRow | None] | None = None,
    ) -> tuple[list[Link], dict[str, CandidateRow | None]]:
        """``GraphQueries.links_with_ends`` as ``Link``s and the ends; ``rows_of`` gives the
        row of each id it is told is live and unlocked (None: none). Each belief's links to
        live beliefs, with their far ends and states, are made once per version
        (``_linked``), so a query only joins, filters and sorts them. ``cached``: the row
        cache ``rows_of`` reads, which a prepared store's index read filled."""
        inside = set(ids)
        rids = self._rid_lists(inside)[1]
        found = list(chain.from_iterable(self._linked(True, rids)))
        # An edge inside ``ids`` once: as its src's out-link (the far end of an in-link is
        # its src).
        found += [
            row for row in chain.from_iterable(self._linked(False, rids)) if row[1] not in inside
        ]
        # By (src, dst, type): a link's key (the edges' primary key); a prepared store's links
        # carry that order's rank, an int compared in C where a Link compares its strings.
        found.sort(key=_FIRST if self._out.rank is None else _RANK)
        if limit >= 0:
            del found[limit:]
        if cached is not None and self._far is not None:  # (prepared: every row cached)
            # Each end's cached row in the order met, a locked one's None, by C-level passes
            # (what follows makes, filters and joins a state per end: ~1.4k instructions
            # more an end at 10k).
            fars = list(map(_SECOND, found))
            try:
                met = dict(zip(fars, map(cached.__getitem__, fars), strict=True))
            except KeyError:  # (the cache started over: ``rows_of`` reads it again)
                met = None
            if met is not None:
                if self._locked and not self._locked.isdisjoint(met):
                    met.update(dict.fromkeys(self._locked.intersection(met)))
                return list(map(_FIRST, found)), met
        states = dict(map(_END_STATE, found))  # each end checked live, and its state
        unlocked = list(compress(states, map(_UNLOCKED, states.values())))
        ends: dict[str, CandidateRow | None] = dict.fromkeys(states)  # a locked end: None
        ends.update(zip(unlocked, rows_of(unlocked), strict=True))  # (in place: same order)
        return list(map(_FIRST, found)), ends

    def _linked(self, out: bool, rids: list[int]) -> list[tuple[_Linked, ...]]:
        """(link, far end, its state) of each live-ended edge of each of ``rids``, out-edges
        (``out``) or in-edges: made once per belief and version (``_links_of``)."""
        kept = self._out_links if out else self._into_links
        missing = [rid for rid in rids if rid not in kept]
        if missing:
            if len(kept) + len(missing) > MAX_LINKED:
                kept.clear()
                missing = rids  # (every one asked is looked up below)
            self._links_of(out, list(dict.fromkeys(missing)), kept)
        return list(map(kept.__getitem__, rids))

    def _links_of(self, out: bool, rids: list[int], kept: dict[int, tuple[_Linked, ...]]) -> None:
        """Keep ``_linked`` of each of ``rids`` (distinct) in ``kept``, straight from the
        edge slices (no ``_Edge`` tuples on the way), a belief's edges in slice order, as
        ``_edges_of`` lists them: a few beliefs one by one (``_links_each``), more in
        whole arrays (``_links_gathered``)."""
        if len(rids) > FEW_BELIEFS:
            self._links_gathered(out, rids, kept)
        else:
            self._links_each(out, rids, kept)

    def _links_each(self, out: bool, rids: list[int], kept: dict[int, tuple[_Linked, ...]]) -> None:
        """``_links_of`` read from the slices' memoryviews: a query at 10k meets ~10 new
        beliefs of ~2 links each a direction, too few for numpy's fixed cost per call."""
        slices = self._out if out else self._into
        start, other, kind, weight = slices.views
        names, kinds, states = self._ids, self._kinds, self._states
        for rid in rids:
            low, high = start[rid], start[rid + 1]
            near = names[rid]
            found: list[_Linked] = []
            ranks = [None] * (high - low) if slices.rank is None else slices.rank[low:high].tolist()
            for far, number, value, rank in zip(
                other[low:high].tolist(), kind[low:high].tolist(), weight[low:high].tolist(),
                ranks, strict=True,
            ):  # fmt: skip
                if state := states[far]:
                    end = names[far]
                    fields = (near, end) if out else (end, near)
                    link = _new(Link, (*fields, kinds[number], value))
                    found.append((link, end, state) if rank is None else (link, end, state, rank))
            kept[rid] = tuple(found)

    def _links_gathered(
        self, out: bool, rids: list[int], kept: dict[int, tuple[_Linked, ...]]
    ) -> None:
        """``_links_each`` for many beliefs: the edges to forgotten beliefs dropped as one
        array, then each link, far end and state made by C-level passes (``map`` /
        ``zip``), no Python-level step per edge."""
        import numpy

        slices = self._out if out else self._into
        near = numpy.array(rids, dtype=numpy.int64)
        at, counts = positions(slices.start, near)
        others = slices.other[at]
        states = self._state[others]
        live = states != ABSENT
        owner = numpy.repeat(numpy.arange(len(rids)), counts)[live]
        names, kinds = self._ids, self._kinds
        fars = list(map(names.__getitem__, others[live].tolist()))
        nears = list(map(names.__getitem__, near[owner].tolist()))
        fields = zip(
            *((nears, fars) if out else (fars, nears)),
            map(kinds.__getitem__, slices.kind[at][live].tolist()),
            slices.weight[at][live].tolist(),
            strict=True,
        )
        columns = [map(_new, repeat(Link), fields), fars, states[live].tolist()]
        if slices.rank is not None:
            columns.append(slices.rank[at][live].tolist())
        rows = list(zip(*columns, strict=True))
        per_rid = numpy.bincount(owner, minlength=len(rids)).tolist()
        low = 0
        for rid, count in zip(rids, per_rid, strict=True):
            kept[rid] = tuple(rows[low : low + count])
            low += count

    def preparable(self, most: int) -> bool:
        """Whether ``prepare(most)`` makes every live belief's links."""
        return self.size <= MAX_LINKED and self.size + 2 * self.edges <= most

    def prepare(self, most: int) -> list[int]:
        """Make every live belief's links (``_linked``, both ways) and heat row
        (``warm_heat``) now, at index read, when its rowids and edge ends number at most
        ``most`` (and the memos hold them all, ``MAX_LINKED``): a query then meets no
        belief for the first time. Returns the live rowids (empty: too many)."""
        import numpy

        if not self.preparable(most):
            return []
        rids = numpy.flatnonzero(self._state).tolist()
        ids = self._ids
        self._locked = {ids[r] for r in numpy.flatnonzero(self._state == LOCKED).tolist()}  # type: ignore[misc]
        by_name = self._rank_edges().tolist()
        for out in (True, False):
            kept = self._out_links if out else self._into_links
            for low in range(0, len(rids), BATCH):
                self._links_gathered(out, rids[low : low + BATCH], kept)
        names, start = self._ids, self._out.start
        fars = list(map(names.__getitem__, self._out.other.tolist()))
        bounds = start.tolist()
        self._far = {
            names[rid]: tuple(fars[bounds[rid] : bounds[rid + 1]])  # type: ignore[misc]
            for rid in numpy.flatnonzero(numpy.diff(start)).tolist()
        }
        by_id = {names[rid]: by_name[rid] for rid in rids}  # (``HeatRow.order``)
        self._heat = heat_rows(names, rids, self._out_links, self._into_links, by_id)  # type: ignore[arg-type]
        return rids

    @property
    def heat(self) -> Mapping[str, HeatRow] | None:
        """Each live belief's heat row (``warm_heat``), when ``prepare`` made them."""
        return self._heat

    def _rank_edges(self) -> npt.NDArray[np.int64]:
        """Set each edge's rank in (src, dst, type) order, by name, on both directions' slices
        (a prepared store's sorts of ids and edges); return each rowid's rank by its id."""
        import numpy

        names = self._ids
        named = [rid for rid, name in enumerate(names) if name is not None]
        by_name = numpy.zeros(self.size, dtype=numpy.int64)  # a rowid's rank by its id
        by_name[sorted(named, key=names.__getitem__)] = numpy.arange(len(named))
        kinds = sorted(range(len(self._kinds)), key=self._kinds.__getitem__)
        by_kind = numpy.zeros(max(len(kinds), 1), dtype=numpy.int64)
        by_kind[kinds] = numpy.arange(len(kinds))
        keys = []
        for out, slices in ((True, self._out), (False, self._into)):
            near = numpy.repeat(numpy.arange(self.size), numpy.diff(slices.start))
            far = slices.other.astype(numpy.int64)
            src, dst = (near, far) if out else (far, near)
            pair = by_name[src] * self.size + by_name[dst]
            keys.append(pair * len(by_kind) + by_kind[slices.kind])
        ordered = numpy.sort(keys[0])  # (src, dst, type) is the edges' primary key: unique
        self._out.rank = numpy.searchsorted(ordered, keys[0])
        self._into.rank = numpy.searchsorted(ordered, keys[1])
        return by_name

    def pairs_among(self, ids: Iterable[str], min_weight: float) -> list[tuple[str, str]]:
        """``GraphQueries.pairs_among``: (src, dst) of the edges inside ``ids`` weighing at
        least ``min_weight``, ordered by (src, dst, type) as the SQL's primary-key walk of
        the sorted ids gives them. The out-edges of all the ids are gathered and filtered
        as whole arrays; only the edges kept become Python values. A prepared store
        (``prepare``) answers from each belief's far ends instead (``_pairs_held``)."""
        if self._far is not None:
            return self._pairs_held(self._far, set(ids), min_weight)
        rids = self._rids
        near = [rid for i in set(ids) if (rid := rids.get(i)) is not None]
        if not near:
            return []
        import numpy

        asked = numpy.array(near, dtype=numpy.int64)
        out = self._out
        at, counts = positions(out.start, asked)
        src = numpy.repeat(asked, counts)
        other = out.other[at]
        keep = (out.weight[at] >= min_weight) & _among(other, asked)
        if not keep.any():
            return []
        names, kinds = self._ids, self._kinds
        found = sorted(
            zip(
                map(names.__getitem__, src[keep].tolist()),
                map(names.__getitem__, other[keep].tolist()),
                map(kinds.__getitem__, out.kind[at][keep].tolist()),
                strict=True,
            )
        )
        return [(s, d) for s, d, _kind in found]

    def _pairs_held(
        self, far: dict[str, tuple[str, ...]], inside: set[str], min_weight: float
    ) -> list[tuple[str, str]]:
        """``pairs_among`` from the far ends ``prepare`` keeps: the ~90 ids a query asks are
        each one look-up and one set test (C-level), where the arrays' way costs ~20 numpy
        calls of ~3 us each in a query's flow (its caches cold); only the few ids with an
        edge inside read their edges, from the slices' memoryviews."""
        get = far.get
        meets = inside.isdisjoint
        hits = [i for i in inside if (ends := get(i)) is not None and not meets(ends)]
        if not hits:
            return []
        start, other, kind, weight = self._out.views
        rids, names, kinds = self._rids, self._ids, self._kinds
        found = []
        for src in hits:
            rid = rids[src]
            low, high = start[rid], start[rid + 1]
            for end, number, value in zip(
                other[low:high].tolist(), kind[low:high].tolist(), weight[low:high].tolist(),
                strict=True,
            ):  # fmt: skip
                dst = names[end]
                if dst in inside and value >= min_weight:
                    found.append((src, dst, kinds[number]))
        found.sort()  # by (src, dst, type), as the SQL's primary-key walk gives them
        return [(src, dst) for src, dst, _kind in found]

    def truth_links(
        self, ids: Iterable[str], kinds: frozenset[str]
    ) -> list[tuple[str, str, str, str, str]]:
        """(asked id, src, dst, type, far end) of each edge of a type in ``kinds`` between an
        asked id and a live belief, each id's out-edges then its in-edges: the rows of
        store/truth.py's ``_LINKS``, without the far ends' columns (``locked``, ``moves``)."""
        out, out_seen, into, into_seen = self._out, self._out_seen, self._into, self._into_seen
        found: list[tuple[str, str, str, str, str]] = []
        asked_rids = self._rid_list(ids)
        if self._touching is not None and asked_rids:
            touched = self._touching[[rid for _, rid in asked_rids]] & self._bits(kinds)
            picked = zip(asked_rids, touched.tolist(), strict=True)
            asked_rids = [pair for pair, bits in picked if bits]
        rids = [rid for _, rid in asked_rids]
        if len(rids) > FEW_BELIEFS:
            edges = [(s.start, s.other, s.kind) for s in (self._out, self._into)]
            asked = [asked for asked, _ in asked_rids]
            wanted = self._wanted(kinds)
            return gathered(edges, wanted, self._state, asked, rids, self._ids, self._kinds)
        outs, ins = self._edges_of(out, out_seen, rids), self._edges_of(into, into_seen, rids)
        for (asked, _rid), out_edges, in_edges in zip(asked_rids, outs, ins, strict=True):
            for _other, dst, kind, _weight, state in out_edges:
                if state and kind in kinds:
                    found.append((asked, asked, dst, kind, dst))
            for _other, src, kind, _weight, state in in_edges:
                if state and kind in kinds:
                    found.append((asked, src, asked, kind, src))
        return found

    def hold_truth(self, kinds: frozenset[str]) -> None:
        """Lay out the edges of the types ``kinds`` to live beliefs flat, each belief's as
        one slice (``warm_truth``): ``truth_links`` of those kinds then reads them there."""
        edges = [(s.start, s.other, s.kind) for s in (self._out, self._into)]
        self._truth = TruthSlices(kinds, edges, self._wanted(kinds), self._state)

    def _wanted(self, kinds: frozenset[str]) -> npt.NDArray[np.bool_]:
        """Whether each type number is in ``kinds``, looked up by number (``numpy.isin`` of a
        few hundred numbers costs ~15x more)."""
        import numpy

        bits = self._bits(kinds)
        return numpy.array([bool(bits >> i & 1) for i in range(len(self._kinds))] or [False])

    def truth_found(
        self, ids: Iterable[str], kinds: frozenset[str]
    ) -> tuple[dict[str, list[tuple[str, str, str]]], dict[str, int]] | None:
        """``truth_links`` of ``ids`` as the truth memo keeps them, and each far end's rowid
        (``TruthSlices.found``), when the edges of ``kinds`` are laid out; else None."""
        held = self._truth
        if held is None or held.kinds != kinds:
            return None
        return held.found(self._rid_list(ids), self._ids, self._kinds)

    def end_facts(
        self, ids: list[str], kind: str, rids: list[int] | None = None
    ) -> list[tuple[bool, bool]]:
        """(``locked``, not ``moves(kind)``) of each of ``ids`` (of rowids ``rids``, when
        known), read in one numpy pass."""
        if rids is None:
            rids = [self._rids[i] for i in ids]
        locked = (self._state[rids] == LOCKED).tolist()
        if self._touching is None:
            return [(a, not self.moves(i, kind)) for a, i in zip(locked, ids, strict=True)]
        import numpy

        bit = numpy.uint64(self._bits(frozenset((kind,))))
        still = ((self._touching[rids] & bit) == 0).tolist()
        return list(zip(locked, still, strict=True))

    def moves(self, belief_id: str, kind: str) -> bool:
        """Whether ``belief_id`` has an edge of ``kind`` either way, to a forgotten belief too
        (truth.py's ``_STILL``, negated)."""
        rid = self._rids[belief_id]
        if self._touching is not None:
            return bool(int(self._touching[rid]) & self._bits(frozenset((kind,))))
        return any(e[2] == kind for e in self._edges(self._out, self._out_seen, rid)) or any(
            e[2] == kind for e in self._edges(self._into, self._into_seen, rid)
        )

    def holds_any(self, kinds: frozenset[str]) -> bool:
        """Whether any edge (to a forgotten belief too) has a type in ``kinds``."""
        return self._bits(kinds) != 0

    def _bits(self, kinds: frozenset[str]) -> int:
        found = self._bit_sets.get(kinds)
        if found is None:
            found = sum(1 << i for i, name in enumerate(self._kinds) if name in kinds)
            self._bit_sets[kinds] = found
        return found

    def live_unlocked(self, ids: Iterable[str]) -> list[str]:
        """The live, unlocked ids among ``ids``, sorted (as the id index gives them)."""
        states = self._states
        return sorted(i for i, rid in self._rid_list(ids) if states[rid] == UNLOCKED)


def _among(values: npt.NDArray[np.int32], members: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Whether each of ``values`` is one of ``members`` (a search of them sorted: no array
    the size of the store)."""
    import numpy

    ordered = numpy.sort(members)
    at = numpy.searchsorted(ordered, values)
    at[at == len(ordered)] = 0
    return ordered[at] == values
