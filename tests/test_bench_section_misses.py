"""bench/section_misses.py: what ranks first when a question's labelled section does not."""

import json
from pathlib import Path
from typing import Any

import pytest
from bench.section_misses import classify, main, read_corpus

GUIDE = """# Guide

Intro of the guide.

## Install

Install it with pip.

### From source

Clone, then build.

## Usage

Run it.
Configure it.
"""

CODE = '''"""A module."""

LIMIT = 3


class Pool:
    """A pool."""

    # Take one.
    def get(self):
        return 1

    # Put one back.
    def put(self, item):
        return item


def helper():
    return 2
'''


def _report(tmp_path: Path, kind: str, top: dict[str, list[list[str]]]) -> dict[str, Any]:
    """A one-corpus report of ``kind`` (the match rule's: a section's extent in docs, a
    definition's lead in code) over a guide, a module and another page."""
    root = tmp_path / "tree"
    root.mkdir(exist_ok=True)
    (root / "guide.md").write_text(GUIDE, encoding="utf-8")
    (root / "pool.py").write_text(CODE, encoding="utf-8")
    (root / "other.md").write_text("# Other\n\nText.\n", encoding="utf-8")
    queries = {
        "queries": [
            # the Install section's own paragraph (line 7)
            {
                "id": "d",
                "type": "topical",
                "query": "x",
                "sections": [{"path": "guide.md", "start": 7, "end": 7}],
            },
            # Pool.put, lines 14-15 (its lead comment on 13)
            {
                "id": "c",
                "type": "code",
                "query": "x",
                "sections": [{"path": "pool.py", "start": 14, "end": 15}],
            },
            # Usage's second line only (line 16)
            {
                "id": "u",
                "type": "path",
                "query": "x",
                "sections": [{"path": "guide.md", "start": 16, "end": 16}],
            },
        ]
    }
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(queries), encoding="utf-8")
    rows = {q: {"rank": 2} for q in top}
    return {
        "corpus": "demo",
        "kind": kind,
        "root": str(root),
        "query_file": {"file": str(qfile)},
        "query_types": {"d": "topical", "c": "code", "u": "path"},
        "per_query": {"credo": rows},
        "top": {"credo": top},
    }


@pytest.mark.parametrize(
    ("query", "first", "expected"),
    [
        ("d", ["other.md#L1-L3"], "other-file"),
        ("d", ["guide.md#L1-L3"], "parent"),  # the page's introduction
        ("d", ["guide.md#L9-L11"], "child"),  # "From source", under Install
        ("d", ["guide.md#L13-L16"], "sibling"),  # Usage, beside Install
        ("d", ["other.md#L1-L3", "guide.md#L13-L16"], "sibling"),  # any location counts
        ("d", ["guide.md#L5-L6"], "same-section"),  # Install's heading, not the label's line
        ("u", ["guide.md#L15-L15"], "same-section"),  # Usage's other line
        ("d", [], "none"),
        ("c", ["pool.py#L6-L16"], "wide"),  # the class over its method
        ("c", ["pool.py#L6-L7"], "parent"),  # the class head alone
        ("c", ["pool.py#L9-L11"], "sibling"),  # Pool.get with its lead comment
        ("c", ["pool.py#L13-L13"], "same-section"),  # the label's lead alone
        ("c", ["pool.py#L18-L19"], "far"),  # a function beside the class
        ("c", ["pool.py#L3-L3"], "far"),  # module-level code
    ],
)
def test_the_first_hit_is_placed_against_the_labels(
    tmp_path: Path, query: str, first: list[str], expected: str
) -> None:
    result = _report(tmp_path, "code" if query == "c" else "docs", {query: [first]})
    corpus = read_corpus(result)
    assert classify(corpus, corpus.queries[query], first) == expected


def test_the_tables_count_misses_and_what_they_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = _report(
        tmp_path, "code", {"d": [["guide.md#L1-L3"], ["guide.md#L5-L8"]], "c": [["pool.py#L9-L11"]]}
    )
    result["per_query"]["credo"]["c"] = {"rank": None}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"corpora": [result]}), encoding="utf-8")
    assert main([str(path), "--list"]) == 0
    out = capsys.readouterr().out
    assert "credo, code corpora:" in out
    assert (
        "  parent           1     1     0       1       0       0       0      0.50  0.2500" in out
    )
    assert (
        "  sibling          1     0     1       0       0       0       1      1.00  0.5000" in out
    )
    assert "d                          topical   2 parent        guide.md#L1-L3" in out
    assert "c                          code      - sibling       pool.py#L9-L11" in out


@pytest.mark.parametrize("where", ["name", "root", "query_file"])
def test_a_held_out_set_s_report_is_refused_before_its_files_are_read(
    tmp_path: Path, where: str
) -> None:
    """Before (review67): a report of the lead's held-out run had its query file and tree
    read like any other (the audits refuse held-out sets: bench/code_audit.py)."""
    result = _report(tmp_path, "docs", {"d": [["guide.md#L1-L3"]]})
    if where == "name":
        result["corpus"] = "lark"
    elif where == "root":
        held = tmp_path / "griffe-1.9.0"
        (tmp_path / "tree").rename(held)
        result["root"] = str(held)
    else:
        result["query_file"]["file"] = str(tmp_path / "mypy" / "queries.json")
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"corpora": [result]}), encoding="utf-8")
    with pytest.raises(SystemExit, match="held out"):
        main([str(path)])
