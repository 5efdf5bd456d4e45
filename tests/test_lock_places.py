"""L0's placement kept per store version (retrieval/lock_places.py) changes no result: a
long-lived warm process answers as a fresh cold one does while its locks are edited,
unlocked, contradicted, joined by a lock whose id shares a prefix, placed at any budget
(overflow included), and joined by global locks; a later query at the version costs no
lock again. Random stores with locks: warm == cold, the cold process asking in another
order (a placement kept for one query must not be replayed for another that differs)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import standing
from credo.types import RetrievalResult

QUERIES = ("deploy tool release", "kitchen onions garlic", "the rules we keep")
BUDGETS = (2400, 60, 0, 100_000)


def _texts(n: int) -> list[str]:
    return [
        f"rule {i}: the deploy tool release runs " + "with care " * (i % 4)
        if i % 2
        else f"kitchen note {i} about onions and garlic" + " and more" * (i % 3)
        for i in range(n)
    ]


def _store(path: Path, n: int = 16, every: int = 3) -> list[str]:
    """``n`` beliefs with derived ids, every ``every``-th locked; returns their ids."""
    with Memory(path, root=path.parent) as memory:
        return [memory.remember(t, lock=i % every == 0) for i, t in enumerate(_texts(n))]


def _answers(memory: Memory, **kw: object) -> list[RetrievalResult]:
    return [
        memory.retrieve(q, token_budget=b, **kw)  # type: ignore[arg-type]
        for q in QUERIES
        for b in BUDGETS
    ]


def _cold(path: Path, **kw: object) -> list[RetrievalResult]:
    with Memory(path, root=path.parent) as memory:
        return _answers(memory, **kw)


@pytest.fixture
def warm(tmp_path: Path) -> tuple[Memory, Path, list[str]]:
    path = tmp_path / "m.db"
    ids = _store(path)
    memory = Memory(path, root=tmp_path)
    assert memory.store.build_warm()
    assert _answers(memory) == _answers(memory)  # (placements made, then replayed)
    return memory, path, ids


def _after(
    warm: tuple[Memory, Path, list[str]], change: Callable[[Memory, list[str]], object]
) -> None:
    """``change`` made by another connection, then by the warm process itself: each time
    the warm process answers as a fresh one."""
    memory, path, ids = warm
    with memory:
        with Memory(path, root=path.parent) as other:
            change(other, ids)
        for kw in ({}, {"include_superseded": True}, {"use_intentional_clustering": False}):
            assert _answers(memory, **kw) == _cold(path, **kw)
            assert _answers(memory, **kw) == _cold(path, **kw)  # (replayed)


def test_a_replayed_placement_costs_no_lock_again(
    warm: tuple[Memory, Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory, path, _ = warm
    calls: list[str] = []
    real = standing.belief_tokens

    def counted(*args: object, **kw: object) -> int:
        calls.append(str(args[0]))
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(standing, "belief_tokens", counted)
    with memory:
        got = _answers(memory)
        assert calls == []  # every placement was made at this version already
        assert got == _cold(path)
        assert calls  # (a fresh process costs them)


def test_each_answer_owns_its_locks_lanes(warm: tuple[Memory, Path, list[str]]) -> None:
    memory, _, _ = warm
    with memory:
        first = memory.retrieve(QUERIES[0])
        first.beliefs[0].lanes["locked"] = 0.0  # type: ignore[index]
        again = memory.retrieve(QUERIES[0])  # (the same placement, replayed)
    assert again.beliefs[0].locked and again.beliefs[0].lanes == {"locked": 1.0}
    assert again.beliefs[0].lanes is not first.beliefs[0].lanes


def test_a_lock_edited_by_a_new_version(warm: tuple[Memory, Path, list[str]]) -> None:
    def edit(other: Memory, ids: list[str]) -> None:
        new = other.remember("rule 0 edited: the deploy tool release is frozen", lock=True)
        other.relate(new, ids[3], "SUPERSEDES", force=True)
        newer = other.remember("rule 6, now unlocked: deploy tool release notes")
        other.relate(newer, ids[6], "SUPERSEDES", force=True)

    _after(warm, edit)


def test_a_lock_unlocked(warm: tuple[Memory, Path, list[str]]) -> None:
    _after(warm, lambda other, ids: other.unlock(ids[3]))


def test_a_lock_forgotten(warm: tuple[Memory, Path, list[str]]) -> None:
    _after(warm, lambda other, ids: other.forget(ids[9]))


def test_locks_contradicted(warm: tuple[Memory, Path, list[str]]) -> None:
    def contradict(other: Memory, ids: list[str]) -> None:
        other.relate(ids[0], ids[3], "CONTRADICTS")  # two locks: each marks the other
        other.relate(ids[6], ids[1], "CONTRADICTS")  # a lock and a candidate
        other.relate(ids[9], ids[12], "CONTRADICTS")
        other.relate(ids[12], ids[9], "RESOLVES")

    _after(warm, contradict)


def test_a_new_lock_whose_id_shares_a_prefix(warm: tuple[Memory, Path, list[str]]) -> None:
    memory, _, ids = warm
    shown = memory.retrieve(QUERIES[0]).short_ids  # (``_after`` closes it)
    assert shown.get(ids[3]) == ids[3][:8]  # (shown by its shortest form)

    def twin(other: Memory, ids: list[str]) -> None:
        tail = "0" if ids[3][8] != "0" else "1"
        other.remember("the rules we keep: a twin", lock=True, id=ids[3][:8] + tail * 8)

    _after(warm, twin)
    with Memory(warm[1], root=warm[1].parent) as fresh:
        assert len(fresh.retrieve(QUERIES[0]).short_ids[ids[3]]) > 8


def test_global_locks_change_under_a_kept_placement(
    warm: tuple[Memory, Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = tmp_path / "rules.db"
    with Memory(rules, root=tmp_path) as user:
        first = user.remember("never use npm for the deploy tool", lock=True)
    monkeypatch.setenv("CREDO_GLOBAL_DB", str(rules))
    memory, path, _ = warm
    with memory:
        assert _answers(memory) == _cold(path)
        with Memory(rules, root=tmp_path) as user:
            user.remember("house style: the rules we keep are short", lock=True)
            user.unlock(first)
        assert _answers(memory) == _cold(path)
        with Memory(path, root=tmp_path) as other:  # the project locks a global twin
            other.remember("house style: the rules we keep are short", lock=True)
        assert _answers(memory) == _cold(path)


def test_a_global_lock_marked_by_the_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A global lock with a project belief's id stands in for it and takes its standing,
    which the query decides: what it replaces is listed only when the query reaches the
    replaced belief. A placement kept for one query is not replayed for the other (the
    key holds the standing); each answer is a fresh process's."""
    path, rules = tmp_path / "m.db", tmp_path / "rules.db"
    with Memory(path, root=tmp_path) as memory:
        twin = memory.remember("a note on the shed paint colour")
        old = memory.remember("kitchen garlic was allowed")
        memory.remember("rule: the deploy tool runs", lock=True)
        memory.relate(twin, old, "SUPERSEDES", force=True)
    with Memory(rules, root=tmp_path) as user:
        user.remember("house rule: the deploy tool never runs on fridays", lock=True, id=twin)
    monkeypatch.setenv("CREDO_GLOBAL_DB", str(rules))
    order = ("deploy tool", "kitchen garlic", "deploy tool")
    with Memory(path, root=tmp_path) as memory:
        got = [memory.retrieve(q) for q in order]
    for query, answer in zip(order, got, strict=True):
        with Memory(path, root=tmp_path) as fresh:
            assert answer == fresh.retrieve(query)
    placed = [[b.replaces for b in answer.beliefs if b.scope == "global"] for answer in got]
    assert placed == [[()], [(old,)], [()]]


@st.composite
def stores(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(2, 14))
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    return {
        "n": n,
        "locked": draw(st.sets(st.integers(0, n - 1), max_size=n)),
        "supersedes": draw(
            st.lists(st.sampled_from([p for p in pairs if p[0] > p[1]]), max_size=3)
        ),
        "contradicts": draw(st.lists(st.sampled_from(pairs), max_size=6)),
        "resolves": draw(st.lists(st.sampled_from(pairs), max_size=2)),
        "twins": draw(st.lists(st.integers(0, n - 1), max_size=2)),
        "budgets": draw(st.lists(st.integers(0, 300) | st.just(2400), min_size=1, max_size=3)),
        "history": draw(st.booleans()),
        "clustering": draw(st.booleans()),
    }


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores())
def test_warm_gives_what_cold_gives_on_random_stores_with_locks(
    tmp_path_factory: pytest.TempPathFactory, spec: dict[str, object]
) -> None:
    folder = tmp_path_factory.mktemp("s")
    path = folder / "m.db"
    n = spec["n"]
    with Memory(path, root=folder) as memory:
        ids = [
            memory.remember(t, lock=i in spec["locked"])  # type: ignore[operator]
            for i, t in enumerate(_texts(n))  # type: ignore[arg-type]
        ]
        for i in spec["twins"]:  # type: ignore[attr-defined]
            tail = "0" if ids[i][8] != "0" else "1"
            memory.remember(f"the rules we keep, twin {i}", lock=True, id=ids[i][:8] + tail * 8)
        seen: set[tuple[int, int]] = set()
        for kind in ("supersedes", "contradicts", "resolves"):
            for i, j in spec[kind]:  # type: ignore[attr-defined]
                if (i, j) not in seen and (j, i) not in seen:
                    seen.add((i, j))
                    memory.relate(ids[i], ids[j], kind.upper(), force=True)
    kw = {
        "include_superseded": spec["history"],
        "use_intentional_clustering": spec["clustering"],
    }

    def answers(memory: Memory, backwards: bool = False) -> list[RetrievalResult]:
        asked = [(q, b) for q in QUERIES for b in spec["budgets"]]  # type: ignore[attr-defined]
        return [
            memory.retrieve(q, token_budget=b, **kw)  # type: ignore[arg-type]
            for q, b in (asked[::-1] if backwards else asked)
        ]

    with Memory(path, root=folder) as memory:
        memory.store.build_warm()
        warm = [answers(memory), answers(memory)]
    with Memory(path, root=folder) as memory:  # (in another order: another query places)
        cold = answers(memory, backwards=True)[::-1]
    assert warm[0] == warm[1] == cold
