"""bench/group_misses.py: why a multi-fact question misses a group in the first ten."""

import json
from pathlib import Path
from typing import Any

import pytest
from bench.group_misses import classify_group, main, study_corpus, summary


class _Tree:
    """A corpus as the bench registries give one: its files under a root."""

    def files(self, root: Path) -> list[Path]:
        return sorted(root.glob("*.md"))


def _report(tmp_path: Path) -> dict[str, Any]:
    """Twelve pages on alpha and beta, and one page that says none of the question's words:
    a two-group question whose second group is that page."""
    root = tmp_path / "tree"
    root.mkdir()
    for n in range(12):
        (root / f"p{n:02}.md").write_text(
            f"# Page {n}\n\nAlpha and beta, told the {n}th way.\n", encoding="utf-8"
        )
    (root / "target.md").write_text("# Target\n\nOmega words only.\n", encoding="utf-8")
    queries = {
        "queries": [
            {
                "id": "m1",
                "type": "multi",
                "query": "How does alpha work, and where is beta set?",
                "groups": [
                    [{"path": "p00.md", "start": 3, "end": 3}],
                    [{"path": "target.md", "start": 3, "end": 3}],
                ],
            }
        ]
    }
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(queries), encoding="utf-8")
    return {
        "corpus": "toy",
        "kind": "docs",
        "root": str(root),
        "query_file": {"file": str(qfile)},
        "per_query": {"credo": {"m1": {"all_groups@10": 0.0}}},
        "top": {"credo": {"m1": []}},
    }


def test_a_group_whose_page_holds_no_question_word_is_no_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = study_corpus(_report(tmp_path), _Tree())
    assert len(questions) == 1
    q = questions[0]
    assert q.found == [0]
    [miss] = q.missing
    assert (miss.group, miss.cls, miss.rank, miss.held) == (1, "no-word", None, 0)
    assert q.hits[0]["groups"] in ([0], [])  # kept for offline simulation
    assert "first ten differ" in capsys.readouterr().err  # the toy report's top is empty
    lines = summary("toy", questions)
    assert lines[0] == "toy: 1 questions miss 1 groups"
    assert any(line.strip().startswith("no-word") for line in lines)


def test_a_question_with_every_group_found_is_not_studied(tmp_path: Path) -> None:
    result = _report(tmp_path)
    result["per_query"]["credo"]["m1"]["all_groups@10"] = 1.0
    assert study_corpus(result, _Tree()) == []


@pytest.mark.parametrize(
    ("rank", "ids", "dropped", "superseded", "probes", "expected"),
    [
        (11, set(), set(), set(), [], ("11-20", 11)),
        (20, set(), set(), set(), [], ("11-20", 20)),
        (21, set(), set(), set(), [], ("21-50", 21)),
        (51, set(), set(), set(), [], ("past-50", 51)),
        (None, {"a"}, {"a"}, set(), [("floor", 3)], ("budget", None)),
        (None, {"a"}, set(), {"a"}, [], ("superseded", None)),
        (None, set(), set(), set(), [("floor", 12), ("keyword-limit", 9)], ("floor", 12)),
        (
            None,
            set(),
            set(),
            set(),
            [("floor", None), ("keyword-limit", 80)],
            ("keyword-limit", 80),
        ),
        (
            None,
            set(),
            set(),
            set(),
            [("floor", None), ("keyword-limit", None)],
            ("no-candidate", None),
        ),
    ],
)
def test_the_first_class_that_holds(
    rank: int | None,
    ids: set[str],
    dropped: set[str],
    superseded: set[str],
    probes: list[tuple[str, int | None]],
    expected: tuple[str, int | None],
) -> None:
    assert classify_group(0, rank, ids, dropped, superseded, probes) == expected


@pytest.mark.parametrize("where", ["name", "root"])
def test_a_held_out_set_s_report_is_refused(tmp_path: Path, where: str) -> None:
    result = _report(tmp_path)
    if where == "name":
        result["corpus"] = "lark"
    else:
        held = tmp_path / "griffe-1.9.0"
        (tmp_path / "tree").rename(held)
        result["root"] = str(held)
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"config": {}, "corpora": [result]}), encoding="utf-8")
    with pytest.raises(SystemExit, match="held out"):
        main([str(path)])


def test_a_hit_s_place_is_read_from_its_last_range() -> None:
    """A path holding "#L" ("docs/C#Lib.md") kept its range whole (int() raised before)."""
    from bench.group_misses import _locs
    from bench.section_misses import _loc

    assert _locs(["docs/C#Lib.md#L3-L9", "docs/a.md"]) == (
        _loc("docs/C#Lib.md#L3-L9"),
        _loc("docs/a.md"),
    )
    got = _loc("docs/C#Lib.md#L3-L9")
    assert (got.path, got.start, got.end) == ("docs/C#Lib.md", 3, 9)
    whole = _loc("docs/a.md")
    assert (whole.path, whole.start, whole.end) == ("docs/a.md", 0, 0)
