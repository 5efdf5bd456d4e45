"""A lane's results from two stores ingested afresh from the same file: what the lanes'
determinism tests compare."""

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
            answers = [
                [(b.content, b.score, sorted(b.lanes.items())) for b in r.beliefs]
                for r in (memory.retrieve(q, token_budget=5000) for q in queries)
            ]
        outputs.append(json.dumps(answers))
    return outputs
