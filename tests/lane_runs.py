"""A lane's results from two stores ingested afresh from the same file, and from one store
cold and warm: what the lanes' determinism and warm-path tests compare."""

from __future__ import annotations

import json
from pathlib import Path

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
