"""The warm server holds Python's cycle collector off while it answers
(credo/surfaces/collector.py): that is safe because answering makes no reference cycles,
and the collector is free again between requests."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from credo.memory import Memory
from credo.surfaces import serve, warm
from credo.surfaces.collector import Collector
from tests.test_hook_events import base
from tests.test_warm import env, project, run_dir, store_of  # noqa: F401  (fixtures)


@pytest.fixture
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_answering_makes_no_reference_cycles(tmp_path: Path, collecting: None) -> None:
    """Retrieves of every kind (both pack modes, history, explain's parts, budgets that cut
    conflict groups) on a store with supersession, conflicts, locks and documents: with the
    collector off, nothing is left that only a collection would free."""
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        ids = [
            memory.remember(f"deploy staging note {i} about the cache and tokens", id=f"n{i}")
            for i in range(30)
        ]
        memory.remember("Always deploy with kamal", id="rule", lock=True)
        for i in range(0, 28, 3):
            memory.relate(ids[i + 1], ids[i], "SUPERSEDES")
            memory.relate(ids[i + 2], ids[i + 1], "CONTRADICTS")
            memory.relate(ids[i], ids[(i + 5) % 30], "SUPPORTS")
        (tmp_path / "docs").mkdir()
        (tmp_path / "docs" / "deploy.md").write_text(
            "# Deploy\n\nStaging first, then the cache is warmed.\n\n## Tokens\n\nRotate them.\n",
            encoding="utf-8",
        )
        memory.ingest(tmp_path / "docs")
        memory.retrieve("deploy")  # first-use caches are not garbage
        gc.collect()
        gc.disable()
        for budget in (60, 400, 2400):
            for clustering in (True, False):
                for history in (True, False):
                    memory.retrieve(
                        "how do we deploy to staging? docs/deploy.md tokens",
                        token_budget=budget,
                        use_intentional_clustering=clustering,
                        include_superseded=history,
                    )
        assert gc.collect() == 0


def test_the_collector_is_held_off_while_any_request_is_answered(collecting: None) -> None:
    collector = Collector()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # a second request at once
            assert not gc.isenabled()
        assert not gc.isenabled()  # the first is still being answered
    assert gc.isenabled()
    gc.disable()  # a process that turned it off keeps it off
    with collector.paused():
        pass
    assert not gc.isenabled()


def test_a_request_is_answered_with_the_collector_held_off(
    project: Path,  # noqa: F811
    env: dict[str, str],  # noqa: F811
    collecting: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    answer = serve.Engine.answer

    def watched(self: serve.Engine, request: dict[str, object]) -> object:
        seen.append(gc.isenabled())
        return answer(self, request)

    monkeypatch.setattr(serve.Engine, "answer", watched)
    listener = serve.start(store_of(project))
    try:
        payload = base(project, "UserPromptSubmit", prompt="how do we deploy?")
        assert warm.ask("prompt", json.dumps(payload).encode()) is not None
    finally:
        listener.stop()
    assert seen == [False]
    assert gc.isenabled()


def test_the_store_moving_leaves_no_reference_cycles(tmp_path: Path, collecting: None) -> None:
    """The warm path across versions: a warm index read, answers that build a version's truth
    graph, writes that move the store, the index read again: what each version kept is freed
    by reference counting alone (the truth graph holds its version's memo weakly). (sqlite3
    makes a cycle of its own per closed connection, its statement cache: not ours.)"""
    from credo.store.warm import Keeper

    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        for i in range(12):
            memory.remember(f"deploy staging note {i} about the cache", id=f"n{i}")
        for i in range(0, 10, 3):
            memory.relate(f"n{i + 1}", f"n{i}", "SUPERSEDES")
            memory.relate(f"n{i + 2}", f"n{i + 1}", "CONTRADICTS")
        keeper = Keeper(threading.Lock(), lambda: memory.store, lambda said: None)
        flags = gc.get_debug()
        try:
            assert keeper.refresh()
            memory.retrieve("deploy staging cache")
            gc.collect()
            gc.disable()
            for round_ in range(3):
                memory.retrieve("deploy staging cache", include_superseded=round_ == 1)
                memory.remember(f"a new note {round_} about the cache", id=f"x{round_}")
                memory.relate(f"x{round_}", "n0", "CONTRADICTS")
                memory.retrieve("deploy the cache")  # from SQL: the store moved
                assert keeper.refresh()
            memory.retrieve("deploy staging cache")
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            kept = {"_Memo", "TruthGraph", "TruthReader", "WarmIndex", "WarmGraph", "Bm25Mirror"}
            ours = [o for o in gc.garbage if type(o).__qualname__ in kept]
            assert ours == [], sorted({type(o).__qualname__ for o in ours})
        finally:
            gc.set_debug(flags)
            gc.garbage.clear()
            keeper.stop()
