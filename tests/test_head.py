"""A named file's head first when the question asks for the file and nothing else
(retrieval/head.py): the gate, the rule over given rankings, and the CLI on a small
project."""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.head import asked_files, by_line_in_ties, first_line, head_first, names_only
from credo.retrieval.rank import Scored, as_scored
from credo.retrieval.specific import sections

from .conftest import credo_in

TRAILS = {
    "a-short": "proj/src/pkg/dev.py L120-L120",
    "b-class": "proj/src/pkg/dev.py › Column L20-L40",
    "c-doc": "proj/src/pkg/dev.py L1-L12",
    "d-other": "proj/docs/api.md › API L3-L9",
}


def _ranked(*pairs: tuple[str, float]) -> list[Scored]:
    ranked = [Scored(i, s, {"doc": s}) for i, s in pairs]
    ranked.sort(key=lambda s: (-s.score, s.id))
    return ranked


@pytest.mark.parametrize(
    ("terms", "paths", "expected"),
    [
        (["src", "pkg", "dev", "py"], ["src/pkg/dev.py"], True),
        (["explain", "src", "pkg", "dev", "py"], ["src/pkg/dev.py"], True),
        (["conftest", "py", "conft", "confter"], ["conftest.py"], True),  # its base words
        (["explain"], ["src/pkg/dev.py"], False),  # no word of the file's
        (["how", "padded", "dev", "py"], ["src/pkg/dev.py"], False),  # a topic in it
        (["src", "pkg", "dev", "py"], [], False),
        ([], ["src/pkg/dev.py"], False),
    ],
)
def test_names_only(terms: list[str], paths: list[str], expected: bool) -> None:
    assert names_only(terms, paths) is expected


@pytest.mark.parametrize(
    ("question", "paths", "expected"),
    [
        ("what does src/pkg/dev.py do", ["src/pkg/dev.py"], ["src/pkg/dev.py"]),
        ("what does dev.py do", [], ["dev.py"]),
        ("explain src/pkg/dev.py", ["src/pkg/dev.py"], ["src/pkg/dev.py"]),
        ("what is conftest.py for", [], ["conftest.py"]),
        ("describe the purpose of setup.cfg", [], ["setup.cfg"]),
        ("how does dev.py pad a row?", [], []),
        ("what does the README say about tokens", [], []),
        ("which page explains the cache", [], []),
    ],
)
def test_asked_files(question: str, paths: list[str], expected: list[str]) -> None:
    # the terms ``_rank`` gives the gate (retrieval/pipeline.py)
    from credo.retrieval.base_terms import base_terms
    from credo.store.identifier import with_identifier_phrases

    terms = with_identifier_phrases(base_terms(question), question)
    assert asked_files(terms, paths, question) == expected


def test_a_bare_name_leads_each_file_of_that_name_with_its_head() -> None:
    trails = {
        **TRAILS,
        "e-other-dev": "proj/tools/dev.py L30-L40",
        "f-head": "proj/tools/dev.py L1-L5",
    }
    ranked = _ranked(
        ("a-short", 1.9), ("e-other-dev", 1.8), ("d-other", 1.5), ("c-doc", 1.2), ("f-head", 1.0)
    )
    out = as_scored(head_first(ranked, trails, ["dev.py"]))
    assert [s.id for s in out] == ["c-doc", "a-short", "f-head", "e-other-dev", "d-other"]


@pytest.mark.parametrize(
    ("trail", "line"),
    [("a.py › C › f L4-L9", 4), ("a.py L1220-L1220", 1220), ("a.py", None), ("x Lz-L2", None)],
)
def test_first_line(trail: str, line: int | None) -> None:
    assert first_line(trail) == line


def test_head_goes_just_above_the_files_best() -> None:
    ranked = _ranked(("a-short", 1.9), ("b-class", 1.9), ("d-other", 1.5), ("c-doc", 1.2))
    out = as_scored(head_first(ranked, TRAILS, ["src/pkg/dev.py"]))
    assert [s.id for s in out] == ["c-doc", "a-short", "b-class", "d-other"]
    head = out[0]
    assert head.score == round(1.9 + 1e-9, 9)
    assert head.lanes["head"] == round(head.score - 1.2, 9)  # the parts add up
    assert abs(sum(head.lanes.values()) - head.score) < 1e-9


def test_nothing_moves_when_the_head_leads_or_nothing_is_named() -> None:
    leads = _ranked(("c-doc", 2.0), ("a-short", 1.9))
    assert head_first(leads, TRAILS, ["src/pkg/dev.py"]) is leads
    ranked = _ranked(("a-short", 1.9), ("c-doc", 1.2))
    assert head_first(ranked, TRAILS, []) is ranked
    assert head_first(ranked, TRAILS, ["src/pkg/"]) is ranked  # a folder has no one head
    assert head_first(ranked, TRAILS, ["src/pkg/other.py"]) is ranked


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.1, 3.0), min_size=4, max_size=4))
def test_head_leads_its_file_and_nothing_else_moves(scores: list[float]) -> None:
    ranked = _ranked(*zip(sorted(TRAILS), scores, strict=True))
    out = as_scored(head_first(ranked, TRAILS, ["src/pkg/dev.py"]))
    assert sorted(s.id for s in out) == sorted(TRAILS)
    assert out == sorted(out, key=lambda s: (-s.score, s.id))  # the pipeline's order
    mine = [s.id for s in out if s.id != "d-other"]
    assert mine[0] == "c-doc"
    before = [s.id for s in ranked if s.id not in ("c-doc", "d-other")]
    assert [i for i in mine if i != "c-doc"] == before


MODULE = '''"""Helpers that turn a tally of votes into a table a person can read at a glance.

The table is padded to the widest candidate's name and sorted by votes, most first.
"""

import sys

_WIDTH = 30


def pad(name: str, width: int) -> str:
    """Pad ``name`` with spaces to ``width`` characters."""
    return name.ljust(width)


def row(name: str, votes: int) -> str:
    """One line of the table: the name, padded, then its votes."""
    return pad(name, _WIDTH) + str(votes)


def table(tally: dict[str, int]) -> str:
    """Every candidate's line, most votes first, ties by name."""
    ordered = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    return "\\n".join(row(name, votes) for name, votes in ordered)


def show(tally: dict[str, int]) -> None:
    """Print the table to standard output."""
    sys.stdout.write(table(tally) + "\\n")
'''


def test_what_does_a_file_do_leads_with_its_docstring(tmp_path: Path) -> None:
    # Before: the short functions' bm25f (the path's words in their context, lifted by
    # BM25's length norm) put ``show`` and ``table`` above the module docstring.
    db = _tally_store(tmp_path, MODULE)
    beliefs = _search(tmp_path, db, "what does src/tally/render.py do")
    assert beliefs[0]["content"].startswith("Helpers that turn a tally")
    assert "head" in beliefs[0]["lanes"]
    # A question about something in the file is not this question: nothing moves.
    other = _search(tmp_path, db, "src/tally/render.py: how is a row padded?")
    assert all("head" not in b["lanes"] for b in other)


# A long docstring and short definitions: BM25's length norm lifts the short ones, which
# the path's words (in every passage's context) match alike.
LONG_HEAD = '''"""Helpers that turn a tally of votes into a table a person can read at a glance.

The table is padded to the widest candidate's name and sorted by votes, most first. Ties
are broken by name, so two runs over the same tally print the same table, line for line,
which is what the nightly report's diff relies on. Names longer than the column are kept
whole: the column grows rather than cutting a candidate's name, since a cut name can read
as another candidate's. Votes are printed as integers; a tally of floats is rounded first.
"""

_SENTINEL = object()
_WIDTH = 30


def pad(name: str, width: int) -> str:
    return name.ljust(width)


def row(name: str, votes: int) -> str:
    return pad(name, _WIDTH) + str(votes)
'''


@pytest.mark.parametrize(
    "question",
    ["what does render.py do", "explain src/tally/render.py", "what is render.py for"],
)
def test_a_file_named_bare_or_with_a_verb_leads_with_its_docstring(
    tmp_path: Path, question: str
) -> None:
    # Before: the gate wanted every word a word of a full path, so "explain" and a bare
    # name (a guess: the doc lane scores it 0.8) left ``pad`` and ``row`` first.
    beliefs = _search(tmp_path, _tally_store(tmp_path, LONG_HEAD), question)
    assert beliefs[0]["content"].startswith("Helpers that turn a tally"), [
        b["content"][:40] for b in beliefs
    ]
    assert "head" in beliefs[0]["lanes"]


def _tally_store(root: Path, module: str) -> str:
    """A project of src/tally/render.py (``module``) and a README, ingested by the CLI."""
    (root / "src" / "tally").mkdir(parents=True)
    (root / "src" / "tally" / "render.py").write_text(module)
    (root / "README.md").write_text("# tally\n\nRender votes with `src/tally/render.py`.\n")
    db = str(root / "store.db")
    done = credo_in(root, "--db", db, "ingest", ".")
    assert done.returncode == 0, done.stderr
    return db


def _search(root: Path, db: str, question: str) -> list[dict[str, object]]:
    found = credo_in(root, "--db", db, "search", question, "--json")
    assert found.returncode == 0, found.stderr
    return json.loads(found.stdout)["beliefs"]


def _reference(ranked: list[Scored], trails: dict[str, str]) -> list[Scored]:
    """Each run of equal scores: each file's places filled by (first line, id)."""
    out: list[Scored] = []
    for _, group in groupby(ranked, key=lambda s: s.score):
        run = list(group)
        files = [sections(trails[s.id])[0] if s.id in trails else None for s in run]
        for file in set(files) - {None}:
            places = [at for at, f in enumerate(files) if f == file]
            mine = sorted(
                (run[at] for at in places),
                key=lambda s: (first_line(trails[s.id]) or 1 << 62, s.id),
            )
            for at, s in zip(places, mine, strict=True):
                run[at] = s
        out += run
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([1.0, 0.8, 0.5]),
            st.sampled_from(["a.py", "b.md", None]),
            st.integers(1, 50),
        ),
        max_size=12,
    )
)
def test_ties_break_by_line_within_a_file(rows: list[tuple[float, str | None, int]]) -> None:
    trails = {
        f"id{n:02d}": f"{f} › S L{line}-L{line + 2}" for n, (_, f, line) in enumerate(rows) if f
    }
    ranked = _ranked(*((f"id{n:02d}", score) for n, (score, _, _) in enumerate(rows)))
    out = by_line_in_ties(ranked, trails)
    assert out == _reference(ranked, trails)
    assert [s.score for s in out] == [s.score for s in ranked]  # only ties move
    if out == ranked:
        assert out is ranked


EDITORCONFIG = """root = true

[*]
indent_size = 4
max_line_length = 80

[*.py]
max_line_length = 100

[*.pyi]
max_line_length = 100

[*.rst]
max_line_length = 79
"""


def test_a_tie_in_one_file_goes_by_line_through_the_cli(tmp_path: Path) -> None:
    # ``[*.py]`` and ``[*.pyi]`` score alike; by id alone ``[*.pyi]`` came first.
    (tmp_path / ".editorconfig").write_text(EDITORCONFIG)
    db = str(tmp_path / "store.db")
    done = credo_in(tmp_path, "--db", db, "ingest", ".")
    assert done.returncode == 0, done.stderr
    query = "what max line length do editors use for python files"
    found = credo_in(tmp_path, "--db", db, "search", query, "--json")
    assert found.returncode == 0, found.stderr
    beliefs = json.loads(found.stdout)["beliefs"]
    assert beliefs[0]["score"] == beliefs[1]["score"]
    assert beliefs[0]["content"].startswith("[*.py]"), [b["content"] for b in beliefs]
