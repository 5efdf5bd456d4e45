"""UnionFind: examples, and components checked against a plain BFS oracle (hypothesis)."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.errors import NotFoundError
from credo.unionfind import UnionFind, first_labels


def bfs_components(keys: list[int], pairs: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Reference: connected components by breadth-first search over undirected pairs."""
    neighbours: dict[int, set[int]] = {key: set() for key in keys}
    for a, b in pairs:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen: set[int] = set()
    components: list[tuple[int, ...]] = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        members = []
        while queue:
            node = queue.popleft()
            members.append(node)
            for other in neighbours[node]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        components.append(tuple(sorted(members)))
    return sorted(components)


keys_and_pairs = st.integers(min_value=0, max_value=30).flatmap(
    lambda n: st.tuples(
        st.just(list(range(n))),
        st.lists(
            st.tuples(st.integers(0, n + 5), st.integers(0, n + 5)),  # some keys never added
            max_size=3 * n + 3,
        ),
    )
)


@given(keys_and_pairs)
def test_components_match_bfs_oracle(case: tuple[list[int], list[tuple[int, int]]]) -> None:
    keys, pairs = case
    uf = UnionFind(keys)
    for a, b in pairs:
        uf.union(a, b)
    assert uf.components() == bfs_components(keys, pairs)


@given(keys_and_pairs, st.randoms(use_true_random=False))
def test_components_independent_of_order(
    case: tuple[list[int], list[tuple[int, int]]], rng: random.Random
) -> None:
    keys, pairs = case
    forward = UnionFind(keys)
    forward.union_all(pairs)
    shuffled_keys = list(keys)
    shuffled_pairs = [(b, a) for a, b in pairs]
    rng.shuffle(shuffled_keys)
    rng.shuffle(shuffled_pairs)
    backward = UnionFind(shuffled_keys)
    backward.union_all(shuffled_pairs)
    assert forward.components() == backward.components()


@given(keys_and_pairs)
def test_union_reports_merges_exactly(case: tuple[list[int], list[tuple[int, int]]]) -> None:
    """union is True iff the two keys were apart before; sets = keys - merges."""
    keys, pairs = case
    uf = UnionFind(keys)
    merges = 0
    for a, b in pairs:
        apart = a != b and (a not in uf or b not in uf or not uf.connected(a, b))
        merged = uf.union(a, b)
        assert merged == apart
        merges += merged
    assert len(uf.components()) == len(uf) - merges
    for component in uf.components():
        assert all(uf.size_of(key) == len(component) for key in component)


@given(keys_and_pairs)
def test_union_all_equals_repeated_union(case: tuple[list[int], list[tuple[int, int]]]) -> None:
    keys, pairs = case
    one_by_one = UnionFind(keys)
    merges = sum(one_by_one.union(a, b) for a, b in pairs)
    bulk = UnionFind(keys)
    assert bulk.union_all(pairs) == merges
    assert bulk.components() == one_by_one.components()


def test_new_keys_are_singletons() -> None:
    uf = UnionFind(["b", "a"])
    assert uf.components() == [("a",), ("b",)]
    assert uf.find("a") == "a"
    assert not uf.connected("a", "b")
    assert len(uf) == 2
    assert list(uf) == ["b", "a"]


def test_add_reports_whether_new() -> None:
    uf: UnionFind[str] = UnionFind()
    assert uf.add("x") is True
    assert uf.add("x") is False
    assert "x" in uf
    assert "y" not in uf


def test_repeated_keys_are_kept_once() -> None:
    uf = UnionFind(["a", "a", "b"])
    assert len(uf) == 2


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([], [("a",), ("b",), ("c",), ("d",)]),
        ([("a", "b")], [("a", "b"), ("c",), ("d",)]),
        ([("d", "a"), ("c", "b")], [("a", "d"), ("b", "c")]),
        ([("a", "b"), ("c", "d"), ("d", "a")], [("a", "b", "c", "d")]),
        ([("a", "a")], [("a",), ("b",), ("c",), ("d",)]),
    ],
)
def test_components_examples(pairs: list[tuple[str, str]], expected: list[tuple[str, ...]]) -> None:
    uf = UnionFind(["d", "c", "b", "a"])
    uf.union_all(pairs)
    assert uf.components() == expected


def test_union_returns_false_when_already_joined() -> None:
    uf = UnionFind(["a", "b"])
    assert uf.union("a", "b") is True
    assert uf.union("b", "a") is False
    assert uf.union("a", "a") is False


def test_union_adds_unknown_keys() -> None:
    uf: UnionFind[str] = UnionFind()
    assert uf.union("x", "y") is True
    assert uf.components() == [("x", "y")]


@pytest.mark.parametrize("call", ["find", "size_of", "partition"])
def test_query_of_unknown_key_raises_not_found(call: str) -> None:
    uf = UnionFind(["a"])
    with pytest.raises(NotFoundError, match="no key 'zz'"):
        if call == "partition":
            uf.partition(["a", "zz"])
        else:
            getattr(uf, call)("zz")


def test_not_found_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        UnionFind(["a"]).find("zz")


def test_deep_path_is_compressed() -> None:
    """Union by size allows depth 2 here (d -> c -> a); one find flattens it."""
    uf = UnionFind(["a", "b", "c", "d"])
    uf.union("a", "b")
    uf.union("c", "d")
    uf.union("a", "c")
    root = uf.find("d")
    assert root == uf.find("a")
    assert uf._parent["d"] == root  # white-box: the path now points at the root


def test_deep_path_is_followed_in_bulk_and_partition() -> None:
    uf = UnionFind(["a", "b", "c", "d", "e", "f"])
    uf.union_all([("a", "b"), ("c", "d"), ("a", "c")])  # d is two levels deep
    assert uf.union_all([("d", "e")]) == 1
    uf.union_all([("e", "f")])
    uf2 = UnionFind(["a", "b", "c", "d"])
    uf2.union_all([("a", "b"), ("c", "d"), ("a", "c")])
    assert uf2.partition(["d", "b"]) == [["d", "b"]]
    assert uf.components() == [("a", "b", "c", "d", "e", "f")]


def test_partition_keeps_the_given_order() -> None:
    uf = UnionFind(["a", "b", "c", "d"])
    uf.union_all([("a", "c"), ("b", "d")])
    assert uf.partition(["d", "a", "c", "b"]) == [["d", "b"], ["a", "c"]]
    assert uf.partition([]) == []


@given(keys_and_pairs, st.randoms(use_true_random=False))
def test_ordered_sets_equal_the_partition_of_all_keys_with_each_index(
    case: tuple[list[int], list[tuple[int, int]]], rng: random.Random
) -> None:
    keys, pairs = case
    every = sorted(set(keys) | {k for pair in pairs for k in pair})
    rng.shuffle(every)  # (any order: the groups follow it)
    full = UnionFind(every)
    full.union_all(pairs)
    # Only the pairs' ends added: every other key stands alone, as if added alone.
    ends = UnionFind([k for pair in pairs for k in pair])
    ends.union_all(pairs)
    groups, index_of = ends.ordered_sets(every)
    assert groups == full.partition(every)
    assert index_of == {k: n for n, group in enumerate(groups) for k in group}
    assert list(index_of) == every  # (each key's index set as it is met)


@given(keys_and_pairs, st.randoms(use_true_random=False))
def test_first_labels_equal_ordered_sets(
    case: tuple[list[int], list[tuple[int, int]]], rng: random.Random
) -> None:
    keys, pairs = case
    rng.shuffle(keys)  # (any order of distinct keys: labels follow it)
    rng.shuffle(pairs)
    # What clustering did before: a set per end of a pair inside ``keys``, then ordered_sets.
    inside = set(keys)
    kept = [(a, b) for a, b in pairs if a in inside and b in inside]
    ends = UnionFind([k for pair in kept for k in pair])
    ends.union_all(kept)
    groups, index_of = ends.ordered_sets(keys)
    at, labels, firsts = first_labels(keys, iter(pairs))
    assert list(at) == keys and [at[k] for k in keys] == list(range(len(keys)))
    assert [labels[at[k]] for k in keys] == [index_of[k] for k in keys]
    assert firsts == [group[0] for group in groups]


def test_first_labels_examples() -> None:
    at, labels, firsts = first_labels(
        ["d", "a", "c", "b", "e"], [("b", "a"), ("e", "c"), ("x", "d")]
    )
    assert at == {"d": 0, "a": 1, "c": 2, "b": 3, "e": 4}
    assert labels == [0, 1, 2, 1, 2]
    assert firsts == ["d", "a", "c"]
    assert first_labels([], [("a", "b")]) == ({}, [], [])


def test_first_labels_long_chain_reaches_the_first_key() -> None:
    # A chain joined from its far end: every key's root is found through a deep path.
    keys = list(range(200))
    pairs = [(k + 1, k) for k in reversed(range(199))] + [(150, 199)]
    _, labels, firsts = first_labels(keys, pairs)
    assert labels == [0] * 200 and firsts == [0]


@given(
    st.integers(min_value=1, max_value=150).flatmap(
        lambda n: st.tuples(
            st.permutations(list(range(n))),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n),
        )
    )
)
def test_first_labels_match_bfs_oracle_on_long_paths(
    case: tuple[list[int], list[tuple[int, int]]],
) -> None:
    keys, pairs = case
    # A path as deep as it can be (each root hung under the one before), then walked by
    # the drawn pairs' finds.
    pairs = [(keys[k + 1], keys[k]) for k in reversed(range(len(keys) // 2))] + pairs
    _, labels, _ = first_labels(keys, pairs)
    found: dict[int, list[int]] = {}
    for key, label in zip(keys, labels, strict=True):
        found.setdefault(label, []).append(key)
    assert sorted(tuple(sorted(group)) for group in found.values()) == bfs_components(keys, pairs)
    assert list(found) == sorted(found)  # (labels 0, 1, ... in order of first key)
