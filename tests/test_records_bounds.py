"""Numbers in import records that no store can use (found by probe60, a new user's session):
a corroboration count that would write rows for hours, and times no date can show. Each is
refused with its line before anything is written, through the real ``credo`` entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import RecordsError
from credo.knowledge.records import MAX_CORROBORATIONS, MAX_TIMESTAMP
from tests.conftest import CliRun


def _write(path: Path, *records: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


GOOD = {"kind": "belief", "id": "g1", "content": "a good first line"}


@pytest.mark.parametrize(
    ("record", "says"),
    [
        ({"corroborations": 10**22}, "corroborations"),
        ({"corroborations": MAX_CORROBORATIONS + 1}, "corroborations"),
        ({"created_at": 1e300}, "created_at"),
        ({"created_at": -1e300}, "created_at"),
        ({"updated_at": MAX_TIMESTAMP + 1}, "updated_at"),
        ({"deleted_at": -1}, "deleted_at"),
    ],
    ids=["huge-count", "count-over", "far-future", "far-past", "updated-over", "deleted-neg"],
)
def test_cli_refuses_unusable_belief_numbers_with_the_line(
    run: CliRun, tmp_path: Path, record: dict[str, object], says: str
) -> None:
    bad = {"kind": "belief", "id": "b1", "content": "a second line", **record}
    records = _write(tmp_path / "bad.jsonl", GOOD, bad)
    done = run("import", str(records))  # before: 10**22 looped on inserts for hours
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
    assert ":2:" in done.stderr and says in done.stderr and "Traceback" not in done.stderr
    assert json.loads(run("stats", "--json", check=True).stdout)["beliefs"] == 0


@pytest.mark.parametrize("kind", ["edge", "anchor"])
def test_edge_and_anchor_times_are_bounded_too(memory: Memory, kind: str) -> None:
    other = {"kind": "belief", "id": "g2", "content": "another good line"}
    bad: dict[str, object] = (
        {"kind": "edge", "src": "g1", "dst": "g2", "type": "CITES", "created_at": 1e300}
        if kind == "edge"
        else {"kind": "anchor", "belief_id": "g1", "doc_uri": "a.md", "created_at": 1e300}
    )
    with pytest.raises(RecordsError, match=r":3: .*created_at"):
        memory.import_records([GOOD, other, bad])
    assert memory.stats().beliefs == 0


def test_times_a_store_shows_and_a_count_at_the_limit_are_kept(run: CliRun, tmp_path: Path) -> None:
    record = {
        "kind": "belief",
        "id": "b1",
        "content": "an old belief with many witnesses",
        "created_at": 0,
        "updated_at": MAX_TIMESTAMP,
        "corroborations": 3,
    }
    run("import", str(_write(tmp_path / "ok.jsonl", record)), check=True)
    shown = run("show", "b1", check=True).stdout  # before: 1e300 made show an internal error
    assert "1970-01-01" in shown and "9999-" in shown
    assert (
        json.loads(run("show", "b1", "--json", check=True).stdout)["belief"]["corroborations"] == 3
    )
    assert run("history", "b1", check=True).returncode == 0
