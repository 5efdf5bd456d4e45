"""A note that holds as much of the question as any passage's best line is scored as a line
(retrieval/own_line.py): it ranks as a passage whose best line holds as much; a note that
only shares a word with the question keeps its keyword share alone; a store of one kind
answers as before; the cold SQL, the warm index and PostgreSQL agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.retrieval import own_line, pipeline
from credo.retrieval.lanes.line import fts5_idf
from credo.retrieval.own_line import coverage, note_line, own_line_scores
from credo.store.line_stats import LENGTH, LINES, PASSAGES
from credo.surfaces.render import result_json
from tests.conftest import exported_records, postgres_store, write_topic_pages

QUESTION = "how long is the retry backoff for nightly crawls"
NOTE = "Our nightly crawls wait a retry backoff of 30 seconds, too long for the small shops."
# Shares one rare word of the question ("backoff"), answers nothing
ASIDE = "Ana owns the backoff dashboards."
TOPICS = ("cookies", "headers", "proxies", "selectors", "pipelines")
TOPICS += ("exports", "signals", "spiders", "items", "logging")
QUESTIONS = (QUESTION, "when do nightly crawls start", "who owns the dashboards")


def _docs(root: Path) -> Path:
    """Ten pages that share none of the question's words, and one whose two sections each
    hold two or three of them, repeated (never all in one line)."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    write_topic_pages(docs, TOPICS)
    (docs / "retries.md").write_text(
        "# Retries\n\n## Backoff\n\nA retry waits for its backoff. The backoff of each retry "
        "grows.\n\nA long backoff delays the retry; a retry backoff is set per request.\n\n"
        "## Scheduling\n\nNightly crawls start at midnight. Nightly crawls run for six "
        "hours.\n\nLong crawls are split; crawls that run long are stopped.\n",
        encoding="utf-8",
    )
    return docs


def _mixed(root: Path, location: str | Path | None = None) -> tuple[Memory, str, str]:
    memory = Memory(location or root / "m.db", root=root)
    memory.ingest(_docs(root))
    return memory, memory.remember(NOTE), memory.remember(ASIDE)


def _ask(memory: Memory, question: str = QUESTION) -> list[str]:
    result = memory.retrieve(question, token_budget=100_000, use_intentional_clustering=False)
    return result.ids


def test_a_note_that_answers_ranks_above_passages_that_only_share_its_words(
    tmp_path: Path,
) -> None:
    """Fails before own_line.py: each section holds two or three of the question's words in
    its lines and took the line lane's part; the note, which holds them all, took only its
    keyword share there and ranked second, under "Scheduling"."""
    memory, note, _ = _mixed(tmp_path)
    with memory:
        result = memory.retrieve(QUESTION, token_budget=100_000, use_intentional_clustering=False)
    assert result.ids[0] == note
    parts = result.beliefs[0].lanes
    assert parts["line"] == pytest.approx(0.5)  # the line lane's whole weight: its best line


def test_a_note_sharing_one_rare_word_is_not_lifted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The aside holds "backoff" alone, where a section's line holds three of the words:
    the step scores it nowhere, and none of its parts grows (the line lane's best is now the
    note that answers, so its share there shrinks)."""
    scored: list[dict[str, float]] = []
    scores = own_line.own_line_scores

    def recorded(*args: object) -> dict[str, float]:
        scored.append(scores(*args))  # type: ignore[arg-type]
        return scored[-1]

    memory, note, aside = _mixed(tmp_path)
    with memory:
        with monkeypatch.context() as patched:
            patched.setattr(pipeline, "with_own_lines", lambda _s, lanes, *_a: lanes)
            without = memory.retrieve(QUESTION, token_budget=100_000)
        with monkeypatch.context() as patched:
            patched.setattr(own_line, "own_line_scores", recorded)
            with_step = memory.retrieve(QUESTION, token_budget=100_000)
        assert with_step.ids != without.ids
    assert scored and all(aside not in s for s in scored) and note in scored[0]
    mine = next(b for b in with_step.beliefs if b.id == aside).lanes
    before = next(b for b in without.beliefs if b.id == aside).lanes
    assert all(mine[lane] <= before[lane] for lane in before)


COUNTS = {LINES: 1000, PASSAGES: 400, LENGTH: 9000, "retri": 40, "backoff": 10, "nightli": 5}


def test_coverage_is_the_share_of_the_question_s_idf_mass() -> None:
    idf = {t: fts5_idf(1000, COUNTS[t]) for t in ("retri", "backoff", "nightli")}
    assert coverage([], idf) == 0.0
    assert coverage(["retri", "backoff", "nightli", "other"], idf) == pytest.approx(1.0)
    assert coverage(["backoff"], idf) == pytest.approx(idf["backoff"] / sum(idf.values()))
    assert coverage(["nightli"], idf) > coverage(["backoff"], idf) > coverage(["retri"], idf)


@pytest.mark.parametrize(
    ("note", "lifted"),
    [
        ("The nightly retry backoff is 30 seconds.", True),  # all three
        ("A retry backoff of 30 seconds.", True),  # as much as the best line (its two)
        ("The backoff dashboards are Ana's.", False),  # one of them: less than the line
        ("Nothing of the question here.", False),
    ],
)
def test_only_a_note_that_covers_as_much_as_the_best_line_is_scored(
    note: str, lifted: bool
) -> None:
    query = ["retri", "backoff", "nightli"]
    # one passage: a line holding "retri backoff", another "nightli" with nothing else
    passages = {"p": ("a retri backoff grow\nnightli run", "guid")}
    scores = own_line_scores(query, COUNTS, passages, {"n": note})
    assert ("n" in scores) is lifted
    if lifted:
        assert scores["n"] > 0


def test_a_passage_s_context_counts_with_each_of_its_lines() -> None:
    """A line holding "backoff" under a trail holding "nightli" covers both: a note holding
    "retri backoff" covers less than that line (retri's idf is the smallest) and is left."""
    query = ["retri", "backoff", "nightli"]
    note = {"n": "A retry backoff of 30 seconds."}
    assert own_line_scores(query, COUNTS, {"p": ("backoff grow", "")}, note)
    assert not own_line_scores(query, COUNTS, {"p": ("backoff grow", "nightli guid")}, note)


def test_note_line_is_the_stems_the_line_lane_stores() -> None:
    assert note_line("Nightly Crawls wait") == "nightli crawl wait"


def test_a_store_of_documents_alone_answers_as_without_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(_docs(tmp_path))
        first = [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS]
        monkeypatch.setattr(pipeline, "with_own_lines", lambda _s, lanes, *_a: lanes)
        assert [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS] == first


def test_the_same_store_gives_the_same_bytes(tmp_path: Path) -> None:
    memory, _, _ = _mixed(tmp_path)
    with memory:
        first = [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS]
        again = [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS]
    assert first == again


def test_the_warm_index_gives_the_cold_answers(tmp_path: Path) -> None:
    memory, _, _ = _mixed(tmp_path)
    memory.close()
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as warm, Memory(db, root=tmp_path) as cold:
        assert warm.store.build_warm()
        for question in QUESTIONS:
            assert warm.retrieve(question) == cold.retrieve(question)


def test_postgresql_gives_the_sqlite_answers(tmp_path: Path) -> None:
    memory, _, _ = _mixed(tmp_path / "src")
    with memory:
        records = exported_records(memory, tmp_path / "mixed.jsonl")
    outputs = []
    with postgres_store() as url:
        for location in (tmp_path / "copy.db", url):
            with Memory(location, root=tmp_path / "src") as copy:
                copy.import_records(records)
                outputs.append([json.dumps(result_json(copy.retrieve(q))) for q in QUESTIONS])
    assert outputs[0] == outputs[1]
    assert NOTE in outputs[0][0]


def test_the_step_reads_what_the_line_lane_read_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One retrieve reads ``line_counts`` and ``passage_lines`` once each, though the step
    scores a note from them (fails before day-warm66: the step read both again, ~40% of its
    cost in a store of docs and notes)."""
    memory, note, _ = _mixed(tmp_path)
    with memory:
        reads: list[str] = []
        store = memory.store
        for name in ("line_counts", "passage_lines"):
            plain = getattr(store, name)

            def counted(*args: object, _name: str = name, _plain: object = plain) -> object:
                reads.append(_name)
                return _plain(*args)  # type: ignore[operator]

            monkeypatch.setattr(store, name, counted)
        ids = _ask(memory)
    assert ids[0] == note
    assert sorted(reads) == ["line_counts", "passage_lines"]
