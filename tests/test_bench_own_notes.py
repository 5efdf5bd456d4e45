"""bench/own_notes.py: its data files are well formed, and the runner's figures on a tiny
tree with three notes (seconds, no corpus fetched) are right and the same twice."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from bench.docs_match import Loc
from bench.docs_multi import Query
from bench.own_notes import (
    DATA,
    NOT_HERE,
    SETS,
    Ask,
    Note,
    NoteSet,
    corpus_of,
    doc_questions,
    load,
    mean_of,
    problems,
    render,
    render_verbose,
    run_corpus,
)

PAGES = {
    "docs/retry.md": "# Retries\n\nThe retry middleware retries a failed request.\n\n"
    "## Limits\n\nRETRY_TIMES sets how many times a request is retried.\n",
    "docs/proxy.md": "# Proxies\n\nSet the proxy of a request in its meta dictionary.\n",
}


def _tiny(tmp_path: Path) -> tuple[Path, list[Path], NoteSet, list[Query]]:
    root = tmp_path / "tree"
    for rel, text in PAGES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    notes = (
        Note(
            "n01",
            "Our warehouse keeps every scraped price in Postgres.",
            "factual",
            "user_stated",
            "team",
        ),
        Note(
            "n02", "The lighthouse keeper feeds the cat at noon.", "factual", "user_stated", "team"
        ),
        Note(
            "n03",
            "Correction: the cat is fed at six now, not at noon.",
            "correction",
            "user_corrected",
            "team",
        ),
    )
    data = NoteSet(
        corpus="tiny",
        set="docs",
        query_file="",
        doc_questions=1,
        earlier=(),
        notes=notes,
        questions=(
            Ask("q01", "where does the warehouse keep scraped prices", ("n01",)),
            Ask("q02", "when does the lighthouse keeper feed the cat", ("n02",)),
            Ask("q03", "zebra xylophone", ("n03",)),
        ),
        pairs=(Ask("p01", "warehouse prices and the lighthouse cat", ("n01", "n02")),),
        sha256="0" * 64,
    )
    docs = [
        Query(
            "d01",
            "topical",
            "how many times is a request retried",
            ((Loc("docs/retry.md", 5, 7),),),
        )
    ]
    return root, sorted(root.rglob("*.md")), data, docs


def test_the_runner_on_a_tiny_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDO_GLOBAL_DB", "off")
    root, files, data, docs = _tiny(tmp_path)
    result = run_corpus("tiny", root, files, data, docs)
    notes = result["per_query"]["notes"]
    for system in ("credo", "fts5-all", "fts5-two-pools"):
        assert notes[system]["q01"]["rank"] == 1
        # no word of q03 is anywhere: found by none, ranked by none
        assert notes[system]["q03"]["rank"] is None
        assert notes[system]["q03"]["found"] == 0.0
        assert result["pairs"][system] == 1.0
        assert result["docs"][system]["section_hit@5"] == 1.0
    assert notes["credo"]["q01"]["cli"] == notes["credo"]["q01"]["hook"] == 1.0
    summary = result["notes"]["fts5-all"]
    assert summary["hit@1"] == summary["mrr@10 team"] == pytest.approx(2 / 3)
    assert summary["cli"] is None and summary["mrr@10 library"] is None
    assert result["docs"]["credo-docs"]["section_hit@5"] == 1.0
    # the same figures twice (the JSON holds no timing)
    again = run_corpus("tiny", root, files, data, docs)
    assert again == result
    table = render([result], mean_of([result]))
    assert "fts5-two-pools" in table and "docs only" in table
    assert "q01" in render_verbose(result, data)


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: p.stem)
def test_data_files(path: Path) -> None:
    data = load(path)
    assert len(data.notes) == len(data.questions) == 30 and len(data.pairs) == 6
    words = [n.words for n in data.notes]
    assert set(words) == {"library", "team"} and 12 <= words.count("library") <= 18
    corrections = [n for n in data.notes if n.kind == "correction"]
    assert corrections and all(n.origin == "user_corrected" for n in corrections)
    assert data.corpus not in NOT_HERE and corpus_of(data).kind == "docs"
    assert len(doc_questions(data)) == data.doc_questions == 20


def test_problems_are_named() -> None:
    _, _, data, _ = _tiny(Path("/nonexistent"))
    assert problems(data) == []
    bad = replace(
        data,
        questions=(*data.questions[:2], Ask("q03", "x", ("n09",))),
        pairs=(Ask("p01", "x", ("n01", "n01")),),
        corpus=sorted(NOT_HERE)[0],
    )
    found = problems(bad)
    assert "q03: names no note of 'notes'" in found
    assert "p01: needs two distinct notes of 'notes'" in found
    assert "notes without a question: n03" in found
    assert any("held-out" in p for p in found)
    assert set(SETS) == {"docs", "dev", "heldout"}
