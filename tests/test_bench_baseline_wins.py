"""bench/baseline_wins.py: which questions a baseline wins over credo, and what it costs."""

import json
from pathlib import Path
from typing import Any

import pytest
from bench.baseline_wins import corpus_wins, main, read_reports


def _row(rank: int | None, ndcg: float = 1.0, groups: int | None = None) -> dict[str, Any]:
    return {
        "rank": rank,
        "doc_ndcg@10": ndcg,
        "groups_found": groups,
        "all_groups@10": None if groups is None else float(groups == 2),
    }


def _result(credo: dict[str, Any], **baselines: dict[str, Any]) -> dict[str, Any]:
    queries = {
        q: "multi" if row.get("groups_found") is not None else "code" for q, row in credo.items()
    }
    return {
        "corpus": "demo",
        "baselines": sorted(baselines),
        "query_types": queries,
        "per_query": {"credo": credo, **baselines},
    }


def test_each_kind_of_win_is_tagged_with_what_it_costs() -> None:
    credo = {
        "q1": _row(7),  # the baseline within 5, credo past it: hit@5
        "q2": _row(None, 0.0),  # credo has nothing in 10: in10
        "q3": _row(3),  # both in 10, the baseline first: mrr
        "q4": _row(2, groups=1),  # more groups: groups
        "q5": _row(1, 0.6),  # only a better file ranking: ndcg
        "q6": _row(1),  # credo first: no win
    }
    base = {
        "q1": _row(2),
        "q2": _row(8, 0.5),
        "q3": _row(2),
        "q4": _row(2, groups=2),
        "q5": _row(1, 0.9),
        "q6": _row(2),
    }
    wins = corpus_wins(_result(credo, **{"fts5-para": base}))
    assert [(w.query, w.tag) for w in wins] == [
        ("q1", "hit@5"),
        ("q2", "in10"),
        ("q3", "mrr"),
        ("q4", "groups"),
        ("q5", "ndcg"),
    ]


def test_the_best_baseline_is_the_one_with_the_first_match() -> None:
    credo = {"q": _row(9)}
    wins = corpus_wins(_result(credo, **{"fts5-a": {"q": _row(6)}, "fts5-b": {"q": _row(3)}}))
    assert [(w.baseline, w.baseline_rank, w.tag) for w in wins] == [("fts5-b", 3, "hit@5")]


def test_a_tie_is_no_win() -> None:
    credo = {"q": _row(2, 0.7, groups=1)}
    assert corpus_wins(_result(credo, **{"fts5-para": {"q": _row(2, 0.7, groups=1)}})) == []


def test_reports_are_read_and_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = {"corpora": [_result({"q": _row(4)}, **{"fts5-para": {"q": _row(1)}})]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert [r["corpus"] for r in read_reports([path])] == ["demo"]
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "demo               q" in out and "1 won by a baseline: mrr 1" in out


def test_only_the_named_baselines_compete() -> None:
    credo = {"q1": _row(4), "q2": _row(3)}
    para = {"q1": _row(1), "q2": _row(5)}
    trail = {"q1": _row(6), "q2": _row(2)}
    result = _result(credo, **{"fts5-para": para, "fts5-trail": trail})
    assert [(w.query, w.baseline) for w in corpus_wins(result)] == [
        ("q1", "fts5-para"),
        ("q2", "fts5-trail"),
    ]
    assert [(w.query, w.baseline) for w in corpus_wins(result, ["fts5-trail"])] == [
        ("q2", "fts5-trail")
    ]


def test_a_baseline_no_report_ran_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = {"corpora": [_result({"q": _row(4)}, **{"fts5-para": {"q": _row(1)}})]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    assert main([str(path), "--baseline", "fts5-trail"]) == 2
    assert capsys.readouterr().err.startswith("baseline_wins: no report ran fts5-trail")
    assert main([str(path), "--baseline", "fts5-para"]) == 0
    assert "1 won by a baseline: mrr 1" in capsys.readouterr().out
