"""The warm server holds Python's cycle collector off while it answers
(credo/surfaces/collector.py): that is safe because answering makes no reference cycles,
and the collector is free again between requests."""

from __future__ import annotations

import gc
import json
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


def test_a_cycle_frozen_with_an_index_is_collected_at_the_next_one(
    tmp_path: Path, collecting: None
) -> None:
    """The keeper freezes what lives when an index is installed; a cycle that held then and
    is garbage by the next install is collected there, not kept for good."""
    import threading
    import weakref

    from credo.store.warm import Keeper

    class Node:
        pass

    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember("deploy with kamal", id="a")
        lock = threading.Lock()
        keeper = Keeper(lock, lambda: memory.store, lambda said: None)
        try:
            cycle = Node()
            cycle.self = cycle  # type: ignore[attr-defined]
            gone = weakref.ref(cycle)
            assert keeper.refresh()  # frozen with the first index
            del cycle
            memory.remember("staging first", id="b")  # the store moves: a new index
            assert keeper.refresh()
            assert gone() is None
        finally:
            keeper.stop()
            gc.unfreeze()
