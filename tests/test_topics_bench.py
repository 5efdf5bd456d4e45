"""bench/topics.py: its blind question files are well formed and its own tables add up, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.devsets.corpora import DEV
from bench.docs_corpora import CORPORA
from bench.docs_multi import load_queries
from bench.heldout.corpora import HELDOUT
from bench.topics import (
    BY_NAME,
    QUERIES,
    SHAPES,
    TOPICS,
    by_shape,
    changed,
    parse_lanes,
    variants,
)


def test_every_corpus_has_a_query_file_and_every_file_a_corpus() -> None:
    assert {p.stem for p in QUERIES.glob("*.json")} == set(BY_NAME)


def test_no_topics_project_is_in_another_bench_and_every_release_is_pinned() -> None:
    others = {c.project.lower() for c in (*CORPORA, *HELDOUT, *DEV)}
    mine = [c.project.lower() for c in TOPICS]
    assert len(set(mine)) == len(mine) >= 5
    assert not set(mine) & others
    assert all(len(c.sha256) == 64 and c.licence and c.include for c in TOPICS)


@pytest.mark.parametrize("path", sorted(QUERIES.glob("*.json")), ids=lambda p: p.stem)
def test_query_file_format(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    queries, meta = load_queries(path)
    assert meta["written_by"] and len(queries) >= 12
    assert len({q.id for q in queries}) == len(queries)
    shapes = [row["shape"] for row in raw["queries"]]
    assert set(shapes) <= set(SHAPES)
    assert shapes.count("latest") >= 2 and shapes.count("rare") >= 2
    for q in queries:
        assert q.labels
        for loc in q.labels:
            # documentation sections: a page or the changelog, never code
            assert loc.path.endswith((".md", ".rst")) and 1 <= loc.start <= loc.end


def test_lanes_are_checked_and_make_an_on_and_an_off_system() -> None:
    assert parse_lanes(" title, latest ") == ["title", "latest"]
    with pytest.raises(SystemExit, match="unknown lane 'nope'"):
        parse_lanes("title,nope")
    assert variants([]) == {}
    assert variants(["title"]) == {"credo-on": {"title": True}, "credo-off": {"title": False}}


def _result(on: dict[str, int | None], off: dict[str, int | None]) -> dict[str, object]:
    def scores(ranks: dict[str, int | None]) -> dict[str, dict[str, float | int | None]]:
        return {
            qid: {
                "rank": rank,
                "doc_ndcg@10": 1.0 if rank else 0.0,
                "section_hit@5": float(bool(rank) and rank <= 5),
                "section_mrr@10": 1 / rank if rank else 0.0,
            }
            for qid, rank in ranks.items()
        }

    return {
        "corpus": "nox",
        "systems": ["credo-on", "credo-off"],
        "per_query": {"credo-on": scores(on), "credo-off": scores(off)},
    }


def test_by_shape_pools_questions_and_changed_lists_the_moved_ones() -> None:
    # nox's file holds nx-01 ("testing", topic) and nx-15 ("latest release", latest)
    result = _result({"nx-01": 1, "nx-15": 2}, {"nx-01": None, "nx-15": 2})
    table = by_shape([result], QUERIES)
    assert table["credo-on"]["topic"] == {"n": 1, "ndcg": 1.0, "hit5": 1.0, "mrr": 1.0}
    assert table["credo-off"]["all"] == {"n": 2, "ndcg": 0.5, "hit5": 0.5, "mrr": 0.25}
    moved = changed([result], QUERIES)
    assert [(m["id"], m["shape"], m["off"], m["on"]) for m in moved] == [
        ("nx-01", "topic", None, 1)
    ]
