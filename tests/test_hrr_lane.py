"""The HRR structural lane through the store: traces persisted, kept true by every write
path (relate, import, hard delete), and answers that agree with the exact SQL answer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from credo import Memory
from credo.retrieval.hrr_sync import enabled_dim
from credo.types import EdgeType

HRR = {"hrr": True, "bm25f": False, "heat": False, "bfs": False, "doc": False}


def _graph(memory: Memory, nodes: int, edges: int, seed: int) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    rows: list[dict[str, object]] = [
        {"kind": "belief", "id": f"g{i}", "content": f"graph node {i}"} for i in range(nodes)
    ]
    seen: set[tuple[str, str, str]] = set()
    types = [t.value for t in EdgeType]
    while len(seen) < edges:
        src, dst = rng.sample(range(nodes), 2)
        seen.add((f"g{src}", f"g{dst}", rng.choice(types)))
    rows += [{"kind": "edge", "src": s, "dst": d, "type": t} for s, d, t in sorted(seen)]
    memory.import_records(rows)
    return sorted(seen)


def test_enable_builds_traces_and_writes_keep_them_true(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    a, b, c, d = (memory.remember(f"note {n}", id=n) for n in "abcd")
    memory.relate(b, a, "CITES")
    assert memory.enable_hrr(dim=512) == 1
    assert enabled_dim(memory.store) == 512
    memory.relate(c, a, "CITES")  # incremental, after enabling
    memory.relate(d, a, "SUPPORTS")
    result = memory.retrieve("what cites a", lanes=HRR)
    assert sorted(result.ids) == ["b", "c"]
    assert all(set(x.lanes) == {"hrr"} for x in result.beliefs)
    assert memory.retrieve("a SUPPORTS ?", lanes=HRR).ids == []  # a supports nothing
    assert memory.retrieve("what supports a", lanes=HRR).ids == ["d"]
    memory.forget("c", hard=True)  # the cascade removes c's edge from a's trace
    assert memory.retrieve("what cites a", lanes=HRR).ids == ["b"]


def test_traces_survive_reopen_and_disable(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, root=tmp_path) as memory:
        for n in "xyz":
            memory.remember(f"node {n}", id=n)
        memory.enable_hrr(dim=256)
    with Memory(path, root=tmp_path) as memory:  # a new process picks the sync up
        memory.relate("y", "x", "DERIVED_FROM")
        memory.relate("z", "x", "DERIVED_FROM")
        assert memory.retrieve("x DERIVED_FROM ?", lanes=HRR).ids == []  # x derives from none
        assert sorted(memory.retrieve("y DERIVED_FROM ?", lanes=HRR).ids) == ["x"]
        assert sorted(memory.retrieve("what derived_from x", lanes=HRR).ids) == ["y", "z"]
        memory.disable_hrr()
        assert enabled_dim(memory.store) is None
        assert memory.retrieve("what derived_from x", lanes=HRR).ids == []


def test_unstructured_queries_and_unknown_anchors_give_nothing(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.remember("alpha", id="a")
    memory.enable_hrr(dim=256)
    assert memory.retrieve("tell me about alpha", lanes=HRR).ids == []
    assert memory.retrieve("what cites nobody-here", lanes=HRR).ids == []


@pytest.mark.parametrize("seed", [1, 2])
def test_hrr_agrees_with_exact_sql_on_a_generated_graph(tmp_path: Path, seed: int) -> None:
    """At least 95% of (anchor, type, direction) probes return exactly the SQL answer."""
    memory = Memory(tmp_path / f"g{seed}.db", root=tmp_path)
    edges = _graph(memory, nodes=300, edges=900, seed=seed)
    memory.enable_hrr()
    rng = random.Random(seed)
    probes = 0
    agree = 0
    for _ in range(120):
        src, dst, edge_type = rng.choice(edges)
        incoming = rng.random() < 0.5
        anchor = dst if incoming else src
        exact = {
            (s if incoming else d)
            for s, d, t in edges
            if t == edge_type and (d == anchor if incoming else s == anchor)
        }
        query = f"what {edge_type.lower()} {anchor}" if incoming else f"{anchor} {edge_type} ?"
        # The lane's answer: the beliefs it scored. Supersession and contradiction (the
        # generated graph holds both) would hide some and bring others along.
        result = memory.retrieve(query, lanes=HRR, token_budget=100_000, include_superseded=True)
        got = {b.id for b in result.beliefs if "hrr" in b.lanes}
        probes += 1
        agree += got == exact
    assert agree / probes >= 0.95, (agree, probes)


def test_a_store_that_only_reads_makes_no_edge_triggers(tmp_path: Path) -> None:
    """The HRR edge triggers are made before the first write, not at open: the hook and a
    search, which only read, never pay for them; any write still finds them in place."""
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    names = "SELECT name FROM sqlite_temp_master WHERE type = 'trigger' ORDER BY name"
    memory.retrieve("anything")
    assert memory.store.conn.execute(names).fetchall() == []
    memory.remember("a first write")
    assert [r[0] for r in memory.store.conn.execute(names)] == [
        "credo_hrr_delete",
        "credo_hrr_insert",
    ]
    memory.close()
