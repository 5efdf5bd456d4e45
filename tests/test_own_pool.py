"""The user's own beliefs reach the keyword lane wherever BM25F ranks them
(store/own_pool.py): in a store of documents and notes, the ``own_limit`` best live,
unlocked beliefs whose origin is not ``document`` are added to the ``keyword_limit`` best
hits, with the scores the passage query gives them; a store of documents alone or of notes
alone answers exactly as without the pool; the cold SQL, the warm index and PostgreSQL
give the same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.retrieval import pipeline
from credo.retrieval.options import Options
from credo.store.fts import query_terms
from credo.surfaces.render import result_json
from tests.conftest import exported_records, postgres_store

NOTE = "Our staging box sets the timeout to 45 seconds for every upstream call we make."
QUESTION = "what client handler timeout do we use"
NOTES = (
    NOTE,
    "We decided to log every request as JSON lines with its request id.",
    "Never open a client per request; the shared client handler lives in app state.",
    "The retry limit for our crawls is 5, with a timeout of 10 seconds between tries.",
)


def _docs(root: Path, pages: int = 12, sections: int = 8) -> Path:
    """A docs tree of ``pages * sections`` passages, each naming the question's words
    more often than any note does."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    for page in range(pages):
        parts = [f"# Guide {page}\n"]
        for section in range(sections):
            parts.append(
                f"## Client handler {page}.{section}\n\n"
                f"The client handler timeout {page}{section} is set per client. A client "
                f"handler reads its timeout when the client handler {section} starts.\n"
            )
        (docs / f"guide{page}.md").write_text("\n".join(parts), encoding="utf-8")
    return docs


def _mixed(tmp_path: Path, location: str | Path | None = None) -> Memory:
    memory = Memory(location or tmp_path / "m.db", root=tmp_path)
    memory.ingest(_docs(tmp_path))
    for text in NOTES:
        memory.remember(text)
    return memory


def _note_id(memory: Memory, text: str) -> str:
    return next(b.id for b in memory.store.iter_beliefs() if b.content == text)


def test_a_note_ranked_past_the_keyword_cut_is_a_candidate(tmp_path: Path) -> None:
    """The failing case: 96 passages outrank the note by BM25F; without the pool the
    engine never sees it (it is in no result, at any budget)."""
    with _mixed(tmp_path) as memory:
        every = memory.store.keyword_search(query_terms(QUESTION), limit=-1)
        note = _note_id(memory, NOTE)
        rank = [h.belief_id for h in every].index(note) + 1
        assert rank > Options().keyword_limit
        result = memory.retrieve(QUESTION, token_budget=100_000)
        assert note in [b.id for b in result.beliefs]
        without = Options(token_budget=100_000, own_limit=0)
        assert note not in [
            b.id for b in pipeline.retrieve(memory.store, QUESTION, without).beliefs
        ]


def test_the_pool_follows_the_hits_with_their_own_scores(tmp_path: Path) -> None:
    """``keyword_beliefs``: the 50 best hits as before, then the best notes the cut left
    out, each with the score the whole ranking gives it, in that ranking's order."""
    with _mixed(tmp_path) as memory:
        terms = query_terms(QUESTION)
        every = memory.store.keyword_search(terms, limit=-1)
        hits, rows = memory.store.keyword_beliefs(terms, limit=50, own=10)
        plain, _ = memory.store.keyword_beliefs(terms, limit=50)
        notes = {_note_id(memory, text) for text in NOTES}
        later = [(h.belief_id, h.score) for h in every[50:] if h.belief_id in notes][:10]
        assert later  # (the case holds: a note past the cut)
        assert list(hits.items()) == [*plain.items(), *later]
        assert set(rows) == set(hits)
        assert memory.store.keyword_beliefs(terms, limit=50, own=1)[0] == {
            **plain,
            **dict(later[:1]),
        }


def _same_with_and_without_pool(memory: Memory, questions: list[str]) -> None:
    for question in questions:
        terms = query_terms(question)
        assert memory.store.keyword_beliefs(terms, limit=5, own=10) == (
            memory.store.keyword_beliefs(terms, limit=5)
        )
        on = pipeline.retrieve(memory.store, question, Options())
        off = pipeline.retrieve(memory.store, question, Options(own_limit=0))
        assert on == off


def test_a_store_of_notes_alone_answers_as_without_the_pool(tmp_path: Path) -> None:
    """LoCoMo's shape: every belief a conversation turn; the pool's best are among the
    hits already (here a cut of 5, so that the notes pass it)."""
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        for i in range(30):
            memory.remember(
                f"turn {i}: the client handler timeout came up again", origin="conversation"
            )
        memory.remember(NOTE)
        _same_with_and_without_pool(memory, [QUESTION, "staging timeout", "turn 7"])


def test_a_store_of_documents_alone_answers_as_without_the_pool(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(_docs(tmp_path))
        _same_with_and_without_pool(memory, [QUESTION, "guide 3 client", "timeout"])


def test_a_locked_or_forgotten_note_leaves_the_pool(tmp_path: Path) -> None:
    with _mixed(tmp_path) as memory:
        terms = query_terms(QUESTION)
        note = _note_id(memory, NOTE)
        assert note in memory.store.keyword_beliefs(terms, limit=50, own=10)[0]
        memory.lock(note)
        assert note not in memory.store.keyword_beliefs(terms, limit=50, own=10)[0]
        memory.unlock(note)
        assert note in memory.store.keyword_beliefs(terms, limit=50, own=10)[0]
        memory.forget(note)
        assert note not in memory.store.keyword_beliefs(terms, limit=50, own=10)[0]


QUESTIONS = [
    QUESTION,
    "how many retries for our crawls",
    "client handler request id",
    "where does the shared client live",
    "timeout seconds",
]


def test_the_warm_index_gives_the_cold_answers(tmp_path: Path) -> None:
    """Cold SQL and the warm index's arrays: the same pool, and the same results, before
    and after writes that move a note in or out of it (each write: a new index)."""
    db = tmp_path / "m.db"
    with _mixed(tmp_path, db) as writer:
        note = _note_id(writer, NOTE)
        with Memory(db, root=tmp_path) as warm, Memory(db, root=tmp_path) as cold:
            for step in ("first", "lock", "unlock", "forget", "remember"):
                if step == "lock":
                    writer.lock(note)
                elif step == "unlock":
                    writer.unlock(note)
                elif step == "forget":
                    writer.forget(note)
                elif step == "remember":
                    writer.remember("The client handler timeout in our gateway is 30 seconds.")
                assert warm.store.build_warm()
                warm.retrieve("warm up")  # (the mirror checked against FTS5 once)
                ranks = warm.store._warm.mirror.ranks  # type: ignore[union-attr]
                assert ranks is not None and ranks.own is not None
                for question in QUESTIONS:
                    terms = query_terms(question)
                    got = warm.store.keyword_beliefs(terms, limit=50, own=10)
                    assert got == cold.store.keyword_beliefs(terms, limit=50, own=10)
                    assert warm.retrieve(question) == cold.retrieve(question)


def test_the_same_store_gives_the_same_bytes(tmp_path: Path) -> None:
    with _mixed(tmp_path) as memory:
        first = [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS]
        again = [json.dumps(result_json(memory.retrieve(q))) for q in QUESTIONS]
        assert first == again


def test_postgresql_gives_the_sqlite_answers(tmp_path: Path) -> None:
    """Documents and notes as records, into a SQLite file and a PostgreSQL store: the same
    pool (ids and scores) and the same result JSON."""
    with _mixed(tmp_path / "src") as memory:
        records = exported_records(memory, tmp_path / "mixed.jsonl")
    outputs = []
    with postgres_store() as url:
        for location in (tmp_path / "copy.db", url):
            with Memory(location, root=tmp_path / "src") as memory:
                memory.import_records(records)
                answers = []
                for question in QUESTIONS:
                    terms = query_terms(question)
                    answers.append(repr(memory.store.keyword_beliefs(terms, limit=50, own=10)))
                    answers.append(json.dumps(result_json(memory.retrieve(question))))
                outputs.append(answers)
    assert outputs[0] == outputs[1]
    assert any(NOTE in answer for answer in outputs[0][::2])


@pytest.mark.parametrize("own", [0, 1, 10])
def test_the_pool_never_removes_a_hit(tmp_path: Path, own: int) -> None:
    with _mixed(tmp_path) as memory:
        for question in QUESTIONS:
            terms = query_terms(question)
            plain = memory.store.keyword_beliefs(terms, limit=50)[0]
            pooled = memory.store.keyword_beliefs(terms, limit=50, own=own)[0]
            assert list(pooled)[: len(plain)] == list(plain)
            assert len(pooled) <= len(plain) + own
