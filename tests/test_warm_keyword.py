"""A warm index's keyword top ranked on rowids (credo/store/warm_keyword.py) gives exactly the
exact query's answer: FTS5's ``bm25()`` rows, locked beliefs left out, ties by id in SQLite's
order (the bytes of UTF-8: code points), cut at the limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import Store
from credo.store import warm as warm_module
from tests.test_bm25_mirror import _fts5_answer, _ordered  # (FTS5's answer, the mirror off)

# Few words, so many rows tie; ids whose code-point order is not their UTF-16 order
# ("\uff01" < "🚀" by code point and by UTF-8 byte, > by UTF-16 unit), nor their
# lower-cased order.
WORDS = ("alpha", "beta", "gamma", "delta", "café", "日本")
ID_PARTS = ("a", "B", "b", "é", "\uff01", "🚀", "日", "0", "-")

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
ids = st.lists(st.sampled_from(ID_PARTS), min_size=1, max_size=4).map("".join)


def _warm(
    path: Path, beliefs: list[tuple[str, str]], locked: set[int], forgotten: set[int]
) -> Memory:
    memory = Memory(path / "m.db", root=path)
    for n, (belief_id, text) in enumerate(beliefs):
        memory.remember(text, id=belief_id)
        if n in locked:
            memory.lock(belief_id)
    for n in sorted(forgotten):
        if n < len(beliefs) and n not in locked:
            memory.forget(beliefs[n][0])
    assert memory.store.build_warm()
    return memory


def _checked(store: Store) -> bool:
    """Let the mirror agree with FTS5 once (it answers alone only then), as a query does;
    whether it has (a store with no live unlocked hit never lets it)."""
    mirror = store._mirror_policy().mirror  # type: ignore[attr-defined]
    for word in WORDS:
        if mirror.checked:
            break
        store.keyword_beliefs([word], limit=1)
    return bool(mirror.checked)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    beliefs=st.lists(st.tuples(ids, texts), min_size=1, max_size=20, unique_by=lambda b: b[0]),
    locked=st.sets(st.integers(0, 19), max_size=4),
    forgotten=st.sets(st.integers(0, 19), max_size=4),
    queries=st.lists(
        st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.integers(1, 12)),
        min_size=1,
        max_size=6,
    ),
    prepared=st.booleans(),
)
def test_the_ranked_top_is_the_exact_query_s(
    tmp_path_factory: pytest.TempPathFactory,
    beliefs: list[tuple[str, str]],
    locked: set[int],
    forgotten: set[int],
    queries: list[tuple[list[str], int]],
    prepared: bool,
) -> None:
    """``prepared``: every belief's entry made at index read, or made as queries meet it."""
    kept = warm_module.PREPARED
    warm_module.PREPARED = kept if prepared else -1
    try:
        memory = _warm(tmp_path_factory.mktemp("ranks"), beliefs, locked, forgotten)
    finally:
        warm_module.PREPARED = kept
    with memory:
        store = memory.store
        mirror = store._mirror_policy().mirror  # type: ignore[attr-defined]
        assert mirror is not None and mirror.ranks is not None
        _checked(store)
        for terms, limit in queries:
            with store.one_version():
                warm = store.keyword_beliefs(terms, limit=limit)
            assert _ordered(warm) == _fts5_answer(store, terms, limit)
            assert all(type(score) is float for score in warm[0].values())


def test_ties_go_by_code_point_and_locked_rows_are_left_out(tmp_path: Path) -> None:
    others = ("beta", "gamma", "delta", "café", "日本", "beta")
    names = ("🚀", "\uff01", "b", "B", "é", "a")
    beliefs = [(i, f"alpha {w}") for i, w in zip(names, others, strict=True)]
    with _warm(tmp_path, beliefs, {5}, set()) as memory:
        store = memory.store
        assert _checked(store)
        hits, rows = store.keyword_beliefs(["alpha"], limit=4)
        assert list(hits) == ["B", "b", "é", "\uff01"]
        assert list(rows) == ["B", "b", "é", "\uff01"]
        assert _ordered((hits, rows)) == _fts5_answer(store, ["alpha"], 4)


def test_an_index_row_of_no_belief_leaves_the_ranking_to_the_mirror(tmp_path: Path) -> None:
    """A row of the keyword index that no live belief holds (an index out of step with its
    table) is nothing the ranks know: the mirror's own ranking answers, as without them."""
    beliefs = [(f"b{i}", "alpha beta" if i % 2 else "alpha") for i in range(8)]
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    for belief_id, text in beliefs:
        memory.remember(text, id=belief_id)
    with memory.store.transaction() as conn:
        conn.execute(
            "INSERT INTO beliefs_fts(rowid, content, anchor_text) VALUES (999, 'alpha', '')"
        )
    assert memory.store.build_warm()
    with memory:
        store = memory.store
        assert store._mirror_policy().mirror.ranks is None  # type: ignore[attr-defined]
        _checked(store)
        assert _ordered(store.keyword_beliefs(["alpha"], limit=3)) == _fts5_answer(
            store, ["alpha"], 3
        )
