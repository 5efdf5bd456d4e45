"""bench/doc_gaps.py: the questions where credo's file order loses to a baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.doc_gaps import corpus_gaps, first_ranks, kind_of, read_gaps, render


def _corpus(query_file: Path) -> dict[str, Any]:
    def scores(ndcg: float) -> dict[str, float]:
        return {"doc_ndcg@10": ndcg}

    return {
        "corpus": "demo",
        "kind": "code",
        "query_file": {"file": str(query_file)},
        "systems": ["credo", "fts5-para", "fts5-func"],
        "summary": {"best-baseline": {"all": {"by": {"doc_ndcg@10": ["fts5-func"]}}}},
        "per_query": {
            "credo": {"q1": scores(0.631), "q2": scores(1.0), "q3": scores(0.5)},
            "fts5-para": {"q1": scores(1.0), "q2": scores(0.631), "q3": scores(0.9)},
            "fts5-func": {"q1": scores(0.631), "q2": scores(1.0), "q3": scores(0.4)},
        },
        "top": {
            "credo": {
                "q1": [["tests/test_a.py#L1-L9"], ["src/a.py#L3-L8"], ["src/a.py#L9-L20"]],
                "q2": [["src/b.py#L1-L4"]],
                "q3": [["CHANGES.md#L1-L2"], ["src/a.py#L1-L2"], ["README.md#L1-L3"]],
            },
            "fts5-para": {
                "q1": [["src/a.py#L3-L4"]],
                "q2": [["src/c.py#L1-L2"], ["src/b.py#L1-L2"]],
                "q3": [["src/b.py#L1-L2"], ["src/a.py#L1-L2"]],
            },
            "fts5-func": {"q1": [], "q2": [["src/b.py#L1-L4"]], "q3": []},
        },
    }


QUERIES = [
    {"id": "q1", "query": "one", "sections": [{"path": "src/a.py", "start": 3, "end": 8}]},
    {"id": "q2", "query": "two", "sections": [{"path": "src/b.py", "start": 1, "end": 4}]},
    {
        "id": "q3",
        "query": "three",
        "groups": [
            [{"path": "src/a.py", "start": 1, "end": 2}],
            [{"path": "src/b.py", "start": 1, "end": 2}],
        ],
    },
]


def test_first_ranks_keep_each_files_first_hit() -> None:
    top = [["x.py#L1-L2"], ["a.py#L1-L2", "b.py#L1-L2"], ["a.py#L5-L6"]]
    assert first_ranks(top, ["a.py", "b.py", "c.py"]) == {"a.py": 2, "b.py": 2, "c.py": None}


def test_kinds_follow_the_rankings_own_path_rules() -> None:
    answers = {"src/a.py"}
    assert kind_of("src/a.py", answers) == "same-file"
    assert kind_of("tests/test_a.py", answers) == "test"
    assert kind_of("CHANGES.md", answers) == "history"
    assert kind_of("docs/README.md", answers) == "readme"
    assert kind_of("src/b.py", answers) == "other"


def test_a_loss_to_any_baseline_is_listed_with_what_stands_above(tmp_path: Path) -> None:
    query_file = tmp_path / "demo.json"
    query_file.write_text(json.dumps({"queries": QUERIES}), encoding="utf-8")
    gaps = corpus_gaps(_corpus(query_file), {q["id"]: q for q in QUERIES}, "query")
    assert [g.query_id for g in gaps] == ["q1", "q3"]  # (q2: credo above both)
    q1, q3 = gaps
    assert (q1.baseline, q1.credo_first, q1.baseline_first) == (
        "fts5-para",
        {"src/a.py": 2},
        {"src/a.py": 1},
    )
    assert q1.above == ((1, "tests/test_a.py#L1-L9", "test"),)
    # A multi-file question: src/b.py is missing, so all of credo's hits stood above it.
    assert q3.credo_first == {"src/a.py": 2, "src/b.py": None}
    assert [kind for _, _, kind in q3.above] == ["history", "same-file", "readme"]


def test_against_the_corpus_best_names_one_baseline(tmp_path: Path) -> None:
    query_file = tmp_path / "demo.json"
    query_file.write_text(json.dumps({"queries": QUERIES}), encoding="utf-8")
    gaps = corpus_gaps(_corpus(query_file), {q["id"]: q for q in QUERIES}, "corpus")
    assert gaps == []  # fts5-func is never above credo here


def test_read_and_render_a_run(tmp_path: Path) -> None:
    query_file = tmp_path / "demo.json"
    query_file.write_text(json.dumps({"queries": QUERIES}), encoding="utf-8")
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"corpora": [_corpus(query_file)]}), encoding="utf-8")
    assert read_gaps([run], "docs", "query") == []
    text = render(read_gaps([run], "code", "query"))
    assert "q1  credo 0.631 < fts5-para 1.000: one" in text
    assert "src/a.py: credo 2, fts5-para 1" in text
    assert text.endswith("test 1, history 1, readme 1, same-file 1, other 0")
