"""Disjoint sets over hashable keys: union-find with path compression and union by size.

Two callers share it: retrieval-time clustering (`credo.cluster`, connected components of
the candidate subgraph, on the hot path) and the offline near-duplicate audit. It is
therefore kept general (any hashable, mutually orderable key; str belief ids in practice)
and free of anything belief-specific.

Complexity (Tarjan 1975; Tarjan & van Leeuwen 1984): with both path compression and union
by size, any sequence of m operations on n keys costs O(m * alpha(n)), alpha the inverse
Ackermann function (<= 4 for any n that fits in memory), so in practice linear.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
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
        self._parent: dict[K, K] = {}
        # Sizes are kept for roots only: a merged root's entry is dropped, so the map
        # never holds stale counts.
        self._size: dict[K, int] = {}
        for key in keys:
            self.add(key)

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
        parent = self._parent
        try:
            root = parent[key]
        except KeyError:
            raise NotFoundError(
                f"union-find has no key {key!r}; add it (or union it) before find"
            ) from None
        if root == key:  # Fast path: most finds after compression land on a root.
            return root
        while True:
            up = parent[root]
            if up == root:
                break
            root = up
        # Second pass: point every node on the path straight at the root.
        while key != root:
            up = parent[key]
            parent[key] = root
            key = up
        return root

    def union(self, a: K, b: K) -> bool:
        """Merge the sets of `a` and `b`, adding either key if it is new.

        Union by size hangs the smaller tree under the larger, which bounds tree height by
        log2(n) even before compression. Returns True if two distinct sets were merged,
        False if `a` and `b` were already together.
        """
        parent = self._parent
        if a not in parent:
            self.add(a)
        if b not in parent:
            self.add(b)
        root_a = self.find(a)
        root_b = self.find(b)
        if root_a == root_b:
            return False
        size = self._size
        if size[root_a] < size[root_b]:
            root_a, root_b = root_b, root_a
        parent[root_b] = root_a
        size[root_a] += size.pop(root_b)
        return True

    def connected(self, a: K, b: K) -> bool:
        """True if `a` and `b` are in the same set (both must have been added)."""
        return self.find(a) == self.find(b)

    def size_of(self, key: K) -> int:
        """Number of keys in `key`'s set."""
        return self._size[self.find(key)]

    def components(self) -> list[tuple[K, ...]]:
        """All sets, deterministically: each sorted ascending, sets sorted by first member.

        Independent of insertion and union order, so results can be compared, cached and
        shown. Cost O(n log n) for the sorts.
        """
        groups: dict[K, list[K]] = {}
        for key in self._parent:
            groups.setdefault(self.find(key), []).append(key)
        sorted_groups = [tuple(sorted(group)) for group in groups.values()]
        sorted_groups.sort(key=lambda group: group[0])
        return sorted_groups
