"""bench/positions_bound.py: the integer-position prototype of the warm ranking (issue #17)
runs, and ranks a small synthetic store as the engine does."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import numpy as np
from bench import positions_bound
from bench.positions_bound import MODES, child, measure, report, rounded
from bench.synth import write_records

from credo import Memory
from credo.retrieval import pipeline
from credo.retrieval.compress import Costs
from credo.retrieval.rank import rounded as engine_rounded


def test_the_prototype_ranks_a_small_store_as_the_engine(tmp_path: Path, capsys) -> None:
    (tmp_path / ".git").mkdir()
    db = tmp_path / "bench.db"
    with Memory(db, root=tmp_path) as memory:
        memory.import_records(write_records(tmp_path / "r.jsonl", 400, 2, text="zipf"))
    kept = (pipeline._rank, pipeline.compose, Costs.fill)
    figures = measure(db, 12)
    # the pipeline as it was: the bench's wrappers are taken off
    assert (pipeline._rank, pipeline.compose, Costs.fill) == kept
    answered = len(figures["proto"]["rank"])
    assert answered >= 6
    same = figures["same"]
    assert all(same["top 10 ids"]) and all(same["candidate set"])
    report(figures)
    assert "implied whole query" in capsys.readouterr().out or answered < 12
    for mode in MODES:  # what ``--instructions`` runs under valgrind, here without
        child(str(db), mode, "3")
    assert (pipeline._rank, pipeline.compose, Costs.fill) == kept


def test_the_folded_heat_gives_the_engines_parts_to_the_bit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    db = tmp_path / "bench.db"
    with Memory(db, root=tmp_path) as memory:
        memory.import_records(write_records(tmp_path / "r.jsonl", 300, 3, seed=5, text="zipf"))
    monkeypatch.setattr(positions_bound, "FOLDED", True)
    same = measure(db, 10)["same"]
    assert same["top n's parts (Scored.lanes)"] and all(same["top n's parts (Scored.lanes)"])


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), max_size=40))
def test_rounding_on_arrays_is_the_engines(values: list[float]) -> None:
    found = rounded(np.array(values, dtype=np.float64)).tolist()
    assert all(
        a == b or (math.isnan(a) and math.isnan(b))
        for a, b in zip(found, engine_rounded(values), strict=True)
    )


def test_the_handoff_is_what_the_engine_passes_plain_ranked_tuples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Since day-warmC68 compose's later stages read plain ``rank.Ranked`` tuples; the
    handoff built a ``Scored`` per candidate (a NamedTuple's Python ``__new__``, which the
    engine no longer runs), so "prototype + handoff" overstated today's cost."""
    (tmp_path / ".git").mkdir()
    db = tmp_path / "bench.db"
    with Memory(db, root=tmp_path) as memory:
        memory.import_records(write_records(tmp_path / "r.jsonl", 300, 2, seed=3, text="zipf"))
    made: list[list[Any]] = []
    real = positions_bound._handoff

    def spy(ranker: Any, ranking: Any) -> Any:
        out = real(ranker, ranking)
        made.append(out[0])
        return out

    monkeypatch.setattr(positions_bound, "_handoff", spy)
    measure(db, 6)
    assert made and any(made)
    assert all(type(s) is tuple and len(s) == 3 for ranked in made for s in ranked)
