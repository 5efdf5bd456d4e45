"""bench/updates_misses.py: the evidence it prints for the knowledge-update misses."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench.updates_misses import fts5_order, main, matched_terms, term_index


def test_terms_are_matched_by_their_porter_stem() -> None:
    # "owns" and "own" share a stem, "owner" does not: why "Who owns X?" misses its owner
    conn = term_index(
        [
            {"id": "a", "content": "Queries of the billing service have their own timeout"},
            {"id": "b", "content": "The billing service goes to its owner Dmitri"},
        ]
    )
    assert matched_terms(conn, ["owns", "billing"]) == {
        "a": frozenset({"owns", "billing"}),
        "b": frozenset({"billing"}),
    }
    assert fts5_order(conn, ["owns", "billing"]) == ["a", "b"]


def test_the_truth_step_never_ranks_a_missed_current_value_lower(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--budgets", "20"])  # room for one belief at most: nearly every question misses
    out = capsys.readouterr().out
    ranks = re.findall(r"credo rank (\d+) of \d+.*truth step off: rank (\d+)", out)
    assert len(ranks) >= 100
    assert all(int(on) <= int(off) for on, off in ranks)
