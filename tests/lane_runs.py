"""A lane's results from two stores ingested afresh from the same file, and from one store
cold and warm; a warm index's cached read against SQL's: what the lanes' determinism and
warm-path tests compare."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from credo import Memory


def two_fresh_stores(tmp_path: Path, name: str, text: str, queries: tuple[str, ...]) -> list[str]:
    """Each store's answers to ``queries`` (content, score, lanes), as JSON."""
    outputs = []
    for store in ("a", "b"):
        root = tmp_path / store
        root.mkdir()
        (root / name).write_text(text)
        with Memory(root / "m.db", root=root) as memory:
            memory.ingest(root)
            outputs.append(json.dumps(answers(memory, queries)))
    return outputs


Answers = list[list[tuple[str, float, list[tuple[str, float]]]]]


def answers(memory: Memory, queries: tuple[str, ...]) -> Answers:
    """Each query's beliefs as (content, score, lanes)."""
    return [
        [(b.content, b.score, sorted(b.lanes.items())) for b in r.beliefs]
        for r in (memory.retrieve(q, token_budget=5000) for q in queries)
    ]


def cold_then_warm(memory: Memory, queries: tuple[str, ...]) -> Answers:
    """``answers`` from SQL, after checking the warm index gives the very same."""
    cold = answers(memory, queries)
    assert memory.store.build_warm() and memory.store.warm
    assert answers(memory, queries) == cold
    return cold


def cached_as_sql(
    memory: Memory, read: Callable[[list[str]], Mapping[str, list[Any]]], table: str
) -> tuple[list[str], Mapping[str, list[Any]]]:
    """Check that ``read`` (a store read the warm index caches) answers ids as SQL does,
    a second time without asking SQL (``table`` not in any statement), handing out lists
    of the caller's own; returns the ids asked (repeats and an unknown one among them)
    and SQL's answer."""
    store = memory.store
    ids = [r[0] for r in store.conn.execute("SELECT id FROM beliefs ORDER BY rowid DESC")]
    asked = [*ids[::2], "nobody", *ids]
    cold = read(asked)
    assert cold and store.build_warm() and store.warm
    for _ in range(2):  # (the second from the cache alone)
        statements: list[str] = []
        store.conn.set_trace_callback(statements.append)
        warm = read(asked)
        store.conn.set_trace_callback(None)
        assert list(warm.items()) == list(cold.items())
        warm[next(iter(warm))].clear()  # (a caller's list is its own)
    assert not [s for s in statements if table in s]
    return asked, cold
