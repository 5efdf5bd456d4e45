"""A note the coverage gate scores as a line keeps its seed in the heat lane
(retrieval/own_line.py ``own_heat``): what a unit with no link keeps under Chung's normalised
Laplacian, at most the best passage's heat; a note the gate leaves, a store of one kind, and
the passages' parts are as before."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import own_line
from credo.retrieval.own_line import own_heat
from credo.surfaces.render import result_json
from tests.conftest import exported_records, postgres_store, write_topic_pages

QUESTION = "how long is the retry backoff for nightly crawls"
NOTE = "Our nightly crawls wait a retry backoff of 30 seconds, too long for the small shops."
ASIDE = "Ana owns the backoff dashboards."
TOPICS = ("cookies", "headers", "proxies", "selectors", "pipelines", "exports", "signals")


def _docs(root: Path) -> Path:
    """Seven pages that share none of the question's words, and one long section cut into
    several passages (linked to their section's first: heat flows among them), whose
    paragraphs hold the question's words apart."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    write_topic_pages(docs, TOPICS)
    paragraphs = []
    for n in range(8):
        paragraphs.append(
            f"A retry waits for its backoff, step {n} of the schedule. The backoff of each "
            "retry grows with the attempts made so far, and the engine records every attempt."
        )
        paragraphs.append(
            f"Nightly crawls start at midnight, batch {n}. Nightly crawls run for six hours "
            "and are split when they run long; each crawl keeps its own queue on disk."
        )
    text = "# Retries\n\n## Backoff and scheduling\n\n" + "\n\n".join(paragraphs) + "\n"
    (docs / "retries.md").write_text(text, encoding="utf-8")
    return docs


def _parts(memory: Memory, belief: str, question: str = QUESTION) -> dict[str, float]:
    result = memory.retrieve(question, token_budget=100_000, use_intentional_clustering=False)
    return dict(next(b for b in result.beliefs if b.id == belief).lanes)


def test_a_note_that_answers_keeps_its_seed_in_the_heat_lane(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before: the note, a seed of the lane and the gate's line, kept e^-1 of its
    seed in the heat lane (L x = x at a vertex with no link), where the linked passages
    gathered more than theirs. Now it keeps its seed: e times its part before."""
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(_docs(tmp_path))
        note = memory.remember(NOTE)
        now = _parts(memory, note)
        monkeypatch.setattr(own_line, "own_heat", lambda *_a: {})
        before = _parts(memory, note)
    assert now["bm25f"] == before["bm25f"]
    assert now["line"] == before["line"]
    assert now["heat"] == pytest.approx(before["heat"] * math.e, rel=1e-6)


def test_a_note_the_gate_leaves_keeps_its_heat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(_docs(tmp_path))
        memory.remember(NOTE)
        aside = memory.remember(ASIDE)
        now = json.dumps(result_json(memory.retrieve("how does the retry backoff grow")))
        parts = _parts(memory, aside, "how does the retry backoff grow")
        monkeypatch.setattr(own_line, "own_heat", lambda *_a: {})
        assert json.dumps(result_json(memory.retrieve("how does the retry backoff grow"))) == now
        assert _parts(memory, aside, "how does the retry backoff grow") == parts


def _seeds(keyword: dict[str, float], count: int) -> dict[str, float]:
    """The graph lanes' seeds as ``_rank`` takes them: the ``count`` best hits, id asc in
    a tie."""
    return dict(sorted(sorted(keyword.items()), key=lambda kv: kv[1], reverse=True)[:count])


def test_the_note_s_heat_is_its_seed_at_most_the_best_passage_s() -> None:
    keyword = {"p1": 10.0, "p2": 8.0, "n": 9.0, "m": 2.0}
    trails = {"p1": "a.md", "p2": "b.md"}
    heat = {"p1": 0.9, "p2": 0.95, "n": 0.331, "m": 0.07}
    assert own_heat(["n"], heat, _seeds(keyword, 20), trails) == {"n": 0.9}  # its seed share
    low = {**heat, "p1": 0.5, "p2": 0.6}
    assert own_heat(["n"], low, _seeds(keyword, 20), trails) == {"n": 0.6}  # the best passage's
    assert own_heat(["m"], heat, _seeds(keyword, 3), trails) == {}  # not one of the 3 seeds
    assert own_heat(["n"], {**heat, "n": 0.95}, _seeds(keyword, 20), trails) == {}  # never lowered
    assert own_heat(["n"], {"n": 0.3}, _seeds(keyword, 20), trails) == {}  # no passage's heat


scores = st.floats(min_value=0.001, max_value=100.0, allow_nan=False)


@given(
    keyword=st.dictionaries(st.sampled_from("abcdefgh"), scores, min_size=1),
    heat=st.dictionaries(st.sampled_from("abcdefgh"), scores),
    passages=st.sets(st.sampled_from("abcdefgh")),
    seeds=st.integers(min_value=0, max_value=10),
)
def test_own_heat_raises_notes_only_up_to_the_best_passage_s_heat(
    keyword: dict[str, float], heat: dict[str, float], passages: set[str], seeds: int
) -> None:
    trails = {i: "p.md" for i in passages}
    notes = [i for i in keyword if i not in trails]
    found = own_heat(notes, heat, _seeds(keyword, seeds), trails)
    top = max((v for i, v in heat.items() if i in trails), default=0.0)
    ordered = sorted(sorted(keyword.items()), key=lambda kv: kv[1], reverse=True)
    taken = {i for i, _ in ordered[:seeds]}
    for belief, value in found.items():
        assert belief in notes and belief in taken
        assert heat.get(belief, 0.0) < value <= top
        assert value <= keyword[belief] / max(keyword.values())


def test_warm_and_cold_give_the_same_answers_twice(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(_docs(tmp_path))
        memory.remember(NOTE)
        memory.remember(ASIDE)
    db = tmp_path / "m.db"
    questions = (QUESTION, "how does the retry backoff grow", "when do nightly crawls start")
    with Memory(db, root=tmp_path) as warm, Memory(db, root=tmp_path) as cold:
        assert warm.store.build_warm()
        first = [json.dumps(result_json(cold.retrieve(q))) for q in questions]
        assert [json.dumps(result_json(cold.retrieve(q))) for q in questions] == first
        assert [json.dumps(result_json(warm.retrieve(q))) for q in questions] == first


def test_postgresql_gives_the_sqlite_answers(tmp_path: Path) -> None:
    source = tmp_path / "src"
    with Memory(source / "m.db", root=source) as memory:
        memory.ingest(_docs(source))
        note = memory.remember(NOTE)
        memory.remember(ASIDE)
        assert _parts(memory, note)["heat"] > 0
        records = exported_records(memory, tmp_path / "mixed.jsonl")
    questions = (QUESTION, "how does the retry backoff grow")
    outputs = []
    with postgres_store() as url:
        for location in (tmp_path / "copy.db", url):
            with Memory(location, root=source) as copy:
                copy.import_records(records)
                outputs.append([json.dumps(result_json(copy.retrieve(q))) for q in questions])
    assert outputs[0] == outputs[1]
