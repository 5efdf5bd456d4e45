"""Disjoint sets over hashable keys: union-find with path compression and union by size.

Two callers share it: retrieval-time clustering (`credo.retrieval.cluster`, connected components of
the candidate subgraph, on the hot path) and the offline near-duplicate audit. It is
therefore kept general (any hashable, mutually orderable key; str belief ids in practice)
and free of anything belief-specific. The retrieve's pack (`cluster.pack_ranked`) reads
its components through `first_labels`, which labels them over positions, without a set per key.

Complexity (Tarjan 1975; Tarjan & van Leeuwen 1984): with both path compression and union
by size, any sequence of m operations on n keys costs O(m * alpha(n)), alpha the inverse
Ackermann function (<= 4 for any n that fits in memory), so in practice linear.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import accumulate, compress
from typing import Any, Generic, Protocol, TypeVar

from credo.errors import NotFoundError


class _OrderedKey(Hashable, Protocol):
    """A key that can be hashed (for the maps) and sorted (for deterministic components)."""

    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_OrderedKey)


class UnionFind(Generic[K]):
    """A partition of keys into disjoint sets, merged with `union`, queried with `find`.

    Every key starts in its own singleton set. The root of a set is an arbitrary member
    (which one depends on the union order); only `components()` is meant to be shown or
    compared, and it is deterministic whatever the order of `add` and `union` calls.

    Example:
        >>> uf = UnionFind(["a", "b", "c"])
        >>> uf.union("a", "c")
        True
        >>> uf.components()
        [('a', 'c'), ('b',)]
    """

    __slots__ = ("_parent", "_size")

    def __init__(self, keys: Iterable[K] = ()) -> None:
        # Built in bulk (not through add) because the clustering hot path creates one
        # union-find per retrieve(); a repeated key is simply kept once.
        self._parent: dict[K, K] = {key: key for key in keys}
        # Only a root's size is meaningful; a merged root keeps its last count, which is
        # never read again (dropping it would cost a dict operation per merge).
        self._size: dict[K, int] = dict.fromkeys(self._parent, 1)

    def __len__(self) -> int:
        """Number of keys (not of sets)."""
        return len(self._parent)

    def __contains__(self, key: object) -> bool:
        return key in self._parent

    def __iter__(self) -> Iterator[K]:
        """Keys in the order they were added."""
        return iter(self._parent)

    def add(self, key: K) -> bool:
        """Register `key` as a singleton set. Returns False if it was already present."""
        if key in self._parent:
            return False
        self._parent[key] = key
        self._size[key] = 1
        return True

    def find(self, key: K) -> K:
        """The root of `key`'s set; compresses the path walked so later finds are O(1).

        Raises:
            NotFoundError: `key` was never added (a query never creates a set; a silent
                singleton would hide a caller's typo).
        """
        try:
            return _root(self._parent, key)
        except KeyError:
            raise NotFoundError(
                f"union-find has no key {key!r}; add it (or union it) before find"
            ) from None

    def union(self, a: K, b: K) -> bool:
        """Merge the sets of `a` and `b`, adding either key if it is new.

        Union by size hangs the smaller tree under the larger, which bounds tree height by
        log2(n) even before compression. Returns True if two distinct sets were merged,
        False if `a` and `b` were already together (or are the same key).
        """
        return self.union_all(((a, b),)) == 1

    def union_all(self, pairs: Iterable[tuple[K, K]]) -> int:
        """`union` every pair; returns how many merges happened.

        The bulk form exists for speed: clustering unions up to ~1000 edges per retrieve()
        and a Python call per edge would dominate its cost. The loop inlines the common
        case of `find` (a key that is a root or a root's child, which compression makes
        the norm) and falls back to the full walk only for deeper keys.
        """
        parent = self._parent
        size = self._size
        merged = 0
        for a, b in pairs:
            try:
                root_a = parent[a]
            except KeyError:
                self.add(a)
                root_a = a
            if parent[root_a] != root_a:
                root_a = _root(parent, a)
            try:
                root_b = parent[b]
            except KeyError:
                self.add(b)
                root_b = b
            if parent[root_b] != root_b:
                root_b = _root(parent, b)
            if root_a == root_b:
                continue
            size_a = size[root_a]
            size_b = size[root_b]
            if size_a < size_b:
                root_a, root_b = root_b, root_a
            parent[root_b] = root_a
            size[root_a] = size_a + size_b
            merged += 1
        return merged

    def connected(self, a: K, b: K) -> bool:
        """True if `a` and `b` are in the same set (both must have been added)."""
        return self.find(a) == self.find(b)

    def size_of(self, key: K) -> int:
        """Number of keys in `key`'s set."""
        return self._size[self.find(key)]

    def partition(self, keys: Iterable[K]) -> list[list[K]]:
        """Split `keys` by set, keeping their order: groups by first appearance in `keys`.

        Members keep the order of `keys`, so passing keys already sorted by some ranking
        yields groups sorted by that ranking and ordered by their best member, with no
        per-group sort (this is how clustering gets its member and cluster order).
        A key that appears twice in `keys` appears twice in its group.

        Raises:
            NotFoundError: a key was never added.
        """
        parent = self._parent
        groups: dict[K, list[K]] = {}
        for key in keys:
            try:
                root = parent[key]
                if parent[root] != root:
                    root = _root(parent, key)
            except KeyError:
                raise NotFoundError(
                    f"union-find has no key {key!r}; add it (or union it) before partition"
                ) from None
            group = groups.get(root)
            if group is None:
                groups[root] = [key]
            else:
                group.append(key)
        return list(groups.values())

    def ordered_sets(self, keys: Iterable[K]) -> tuple[list[list[K]], dict[K, int]]:
        """`partition` of ``keys``, with a key never added standing alone, and each key's
        set as its index in the groups, in one pass: clustering unions only the candidates
        with an edge among them (most have none) and reads both answers.

        Keys must be distinct: a repeated key of a set is held twice in its group, as in
        `partition`, but a repeated key never added opens a group at each appearance (and
        its index is the last one's).
        """
        parent = self._parent
        get = parent.get
        groups: list[list[K]] = []
        index_of: dict[K, int] = {}
        at_root: dict[K, int] = {}
        for key in keys:
            root = get(key, _ALONE)
            if root is _ALONE:  # (the common case: a candidate with no edge among them)
                index_of[key] = len(groups)
                groups.append([key])
                continue
            if parent[root] != root:  # type: ignore[index]
                root = _root(parent, key)
            at = at_root.get(root)  # type: ignore[arg-type]
            if at is None:
                at = at_root[root] = len(groups)  # type: ignore[index]
                groups.append([key])
            else:
                groups[at].append(key)
            index_of[key] = at
        return groups, index_of

    def components(self) -> list[tuple[K, ...]]:
        """All sets, deterministically: each sorted ascending, sets sorted by first member.

        Independent of insertion and union order, so results can be compared, cached and
        shown. Partitioning the sorted keys gives both orders at once: O(n log n).
        """
        return [tuple(group) for group in self.partition(sorted(self._parent))]


_ALONE: Any = object()  # (``ordered_sets``: a key never added)


def first_labels(
    keys: Sequence[K], pairs: Iterable[tuple[K, K]]
) -> tuple[dict[K, int], list[int], list[K]]:
    """The connected components of the distinct ``keys`` under ``pairs``, each labelled by
    the order of its first key in ``keys``: what ``ordered_sets(keys)`` of a `UnionFind` of
    the pairs tells clustering, without a set per key (a pair with an end outside ``keys``
    is ignored).

    Returns ``(at, labels, firsts)``: ``at[key]`` the key's position in ``keys``,
    ``labels[position]`` its component's label (0, 1, ... by first key), ``firsts`` each
    component's first key, in label order. A key's label is ``labels[at[key]]``.

    Over positions, not keys: each set's root is its first position (the smaller root is
    kept), so a root is its component's first key. Most keys are joined to none (~110
    keys, ~50 pairs a retrieve()), so the labels are counted over the roots by C-level
    passes and only the positions joined below another (``joined``) are then given their
    root's label, in position order: a parent is never after its child, so its label is
    final when the child is met (no pointer jumping, fewer passes over every key:
    ~289k -> ~214k instructions a call on the 10k bench's recorded calls). Path halving
    without union by size: O(m log n) at worst.
    """
    count = len(keys)
    at = dict(zip(keys, range(count), strict=True))
    get = at.get
    parent = list(range(count))
    joined: list[int] = []  # each position put below another, once (only roots are)
    for a, b in pairs:
        i = get(a)
        j = get(b)
        if i is None or j is None:
            continue
        while (up := parent[i]) != i:  # (path halving: a key skips to its grandparent)
            up = parent[i] = parent[up]
            i = up
        while (up := parent[j]) != j:
            up = parent[j] = parent[up]
            j = up
        if i < j:
            parent[j] = i
            joined.append(j)
        elif j < i:
            parent[i] = j
            joined.append(i)
    first = [True] * count
    for position in joined:
        first[position] = False
    labels = list(accumulate(first, initial=-1))  # a root's: the roots before it
    del labels[0]
    joined.sort()
    for position in joined:
        labels[position] = labels[parent[position]]
    return at, labels, list(compress(keys, first))


def _root(parent: dict[K, K], key: K) -> K:
    """Root of `key` with full path compression (two passes: find, then re-point).

    Raises KeyError for an unknown key; the public methods turn it into NotFoundError.
    """
    root = parent[key]
    if parent[root] == root:  # Depth <= 1, the common case: nothing to compress.
        return root
    while True:
        up = parent[root]
        if up == root:
            break
        root = up
    while key != root:
        up = parent[key]
        parent[key] = root
        key = up
    return root
