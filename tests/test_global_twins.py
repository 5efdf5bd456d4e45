"""A global lock whose text equals an unlocked project belief has that belief's id (its
twin): the twin is shown once, as the global lock, whichever way the truth step would
bring it back (a head standing in for what it supersedes, a conflict brought along, a
member of a group kept aside), warm and cold alike. The autouse fixture in conftest.py
points CREDO_GLOBAL_DB at this test's own file."""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.agent.global_store import global_path, open_global
from credo.errors import ConflictError, InvalidInputError
from credo.memory import Memory
from credo.surfaces.render import memory_block

TWIN = "never use npm for the deploy tool"
OLD = "use npm for the kitchen garlic tool"


def project_memory(folder: Path) -> Memory:
    (folder / ".git").mkdir(parents=True, exist_ok=True)
    return Memory(folder / ".credo" / "memory.db", root=folder)


def lock_globally(*texts: str) -> list[str]:
    with open_global() as g:
        return [g.remember(text, lock=True) for text in texts]


def fresh_global_store() -> None:
    """Each hypothesis example starts from an empty global store (one file per test)."""
    path = global_path()
    assert path is not None
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def cold_and_warm(memory: Memory, query: str) -> str:
    """The block for ``query`` from SQL, checked equal to the warm index's."""
    cold = memory_block(memory.retrieve(query))
    assert memory.store.build_warm() and memory.store.warm
    assert memory_block(memory.retrieve(query)) == cold
    return cold


def test_a_twin_standing_in_for_what_it_supersedes_is_shown_once(tmp_path: Path) -> None:
    with project_memory(tmp_path) as memory:
        old = memory.remember(OLD)
        twin = memory.remember(TWIN)
        memory.relate(twin, old, "SUPERSEDES", force=True)
    assert lock_globally(TWIN) == [twin]
    with project_memory(tmp_path) as memory:
        result = memory.retrieve("kitchen garlic tool")
        block = cold_and_warm(memory, "kitchen garlic tool")
    assert result.ids == [twin]  # the successor, as the global lock; the old one left out
    assert result.beliefs[0].locked and result.beliefs[0].scope == "global"
    assert block.count(TWIN) == 1 and OLD not in block
    assert result.beliefs[0].replaces == (old,)  # the twin's standing, as the query reached old


def test_a_twin_in_conflict_is_not_brought_along(tmp_path: Path) -> None:
    with project_memory(tmp_path) as memory:
        other = memory.remember("always use npm for the kitchen garlic tool")
        twin = memory.remember(TWIN)
        memory.relate(other, twin, "CONTRADICTS")
    lock_globally(TWIN)
    with project_memory(tmp_path) as memory:
        result = memory.retrieve("kitchen garlic tool")
        block = cold_and_warm(memory, "kitchen garlic tool")
    assert Counter(result.ids) == {twin: 1, other: 1}
    assert block.count(TWIN) == 1


EDGES = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(["SUPERSEDES", "CONTRADICTS"])),
    max_size=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edges=EDGES, twinned=st.sets(st.integers(0, 7), min_size=1), data=st.data())
def test_no_id_is_shown_twice(
    tmp_path_factory: object,
    edges: list[tuple[int, int, str]],
    twinned: set[int],
    data: st.DataObject,
) -> None:
    """Project beliefs linked at random, some locked globally too: every id once, the same
    answer warm and cold."""
    folder = tmp_path_factory.mktemp("twins")  # type: ignore[attr-defined]
    texts = [f"garlic tool rule number {n} says {'abcdefgh'[n]}" for n in range(8)]
    with project_memory(folder) as memory:
        ids = [memory.remember(text) for text in texts]
        for src, dst, kind in edges:
            if src != dst:
                with suppress(InvalidInputError, ConflictError):  # a cycle: nothing stored
                    memory.relate(ids[src], ids[dst], kind, force=True)
    fresh_global_store()
    with open_global() as g:
        for n in sorted(twinned):
            g.remember(texts[n], lock=True)
    query = data.draw(st.sampled_from(["garlic tool rule", "number 3 says d", "says a"]))
    with project_memory(folder) as memory:
        result = memory.retrieve(query)
        cold_and_warm(memory, query)
    shown = [b.id for b in result.beliefs]
    assert len(shown) == len(set(shown))
