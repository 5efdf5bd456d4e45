"""Parity: the same records imported into a SQLite file and a PostgreSQL store give the
same retrieval, byte for byte (result JSON) and score for score (the keyword lane's exact
doubles), over LoCoMo dev questions and a document corpus (SYSTEM.md § Backends)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from credo import Memory
from credo.store.fts import query_terms
from credo.surfaces.render import result_json
from tests.conftest import SHARED, postgres_store

LOCOMO = SHARED / "datasets" / "locomo" / "locomo-dev.json"
DOCS = Path(__file__).resolve().parent / "corpus" / "doc_linker"


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[str | Path, str | Path]]:
    with postgres_store() as url:
        yield tmp_path / "parity.db", url


def _same_answers(
    locations: tuple[str | Path, str | Path],
    root: Path,
    records: Sequence[dict[str, Any]],
    questions: Sequence[str],
    **options: Any,
) -> int:
    """Import ``records`` into both stores and compare every question's answer; returns
    how many answers held at least one keyword hit."""
    outputs: list[list[str]] = []
    scores: list[list[str]] = []
    for location in locations:
        with Memory(location, root=root) as memory:
            memory.import_records(records)
            outputs.append(
                [json.dumps(result_json(memory.retrieve(q, **options))) for q in questions]
            )
            scores.append(
                [repr(memory.store.keyword_search(query_terms(q), limit=40)) for q in questions]
            )
    sqlite, postgres = outputs
    for question, a, b in zip(questions, sqlite, postgres, strict=True):
        assert a == b, question
    assert scores[0] == scores[1]
    return sum(1 for s in scores[0] if s != "[]")


@pytest.mark.skipif(not LOCOMO.is_file(), reason="the LoCoMo dev set is not on this machine")
def test_locomo_dev_questions_give_the_same_result_json(tmp_path: Path) -> None:
    from bench.locomo import load_conversations

    for conversation in load_conversations(LOCOMO):  # the whole dev set: 996 questions
        questions = [q.text for q in conversation.questions]
        assert len(questions) > 50
        with postgres_store() as url:
            hit = _same_answers(
                (tmp_path / f"{conversation.sample_id}.db", url),
                tmp_path,
                conversation.records(),
                questions,
            )
        assert hit > len(questions) // 2  # the comparison saw real rankings


def test_a_document_corpus_gives_the_same_result_json(
    pair: tuple[str | Path, str | Path], tmp_path: Path
) -> None:
    from bench.doc_linker import load_queries

    # The corpus as records: ingested once, exported (so both stores get the same times).
    with Memory(tmp_path / "ingest.db", root=DOCS) as memory:
        memory.ingest(DOCS / "docs")
        memory.export_records(tmp_path / "docs.jsonl")
    lines = (tmp_path / "docs.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) > 200
    questions = [q.text for q in load_queries(DOCS / "queries.jsonl")]
    hit = _same_answers(pair, DOCS, records, questions, with_doc_anchors=True)
    assert hit == len(questions)
