"""Bugs a review found, each pinned by the smallest store that showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo import Memory
from credo.errors import StoreError


def test_a_named_folder_cannot_flood_the_candidates(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rows = [
        {"kind": "belief", "id": f"s{i}", "content": f"module note {i}", "doc": f"src/m{i}.py"}
        for i in range(400)
    ]
    memory.import_records(rows)
    result = memory.retrieve("fix the bug in src/", token_budget=100_000)
    assert 0 < len(result.beliefs) <= 60  # the doc lane is bounded like the graph lanes
    assert len(result.dropped) == 0


def test_hrr_turned_on_elsewhere_is_kept_true_by_an_open_process(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    early = Memory(path, root=tmp_path)  # opened before the lane exists
    for name in "xy":
        early.remember(f"node {name}", id=name)
    with Memory(path, root=tmp_path) as other:
        other.enable_hrr(dim=256)
    early.relate("y", "x", "CITES")
    assert early.store.load_traces(["x"]) != {}
    # ...and the lane is on by default for a store that keeps traces.
    assert early.retrieve("what cites x", lanes={"bm25f": False}).ids == ["y"]
    early.close()


def test_import_of_a_forgotten_text_revives_it(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    belief_id = memory.remember("Kafka topics are per tenant")
    memory.forget(belief_id)
    report = memory.import_records([{"kind": "belief", "content": "Kafka topics are per tenant"}])
    assert report.beliefs_corroborated == 1
    assert memory.get(belief_id).deleted_at is None
    assert memory.retrieve("kafka tenant").ids == [belief_id]


def test_export_onto_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.remember("anything")
    (tmp_path / "out").mkdir()
    with pytest.raises(StoreError, match="cannot write"):
        memory.export_records(tmp_path / "out")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".credo-export")] == []
