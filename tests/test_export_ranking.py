"""An exported store, imported into a fresh one, ranks exactly as the original before any
re-ingest: the line statistics, definitions, acronyms and per-file contexts ingest derives
travel as records (knowledge/derived_records.py). Through the real CLI, on both backends."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import credo_command, postgres_store

BOTH_BACKENDS = True

GUIDE = """# Deploying

Deploys go through ops/deploy.sh, which builds the image and pushes it.
The script refuses to run with uncommitted changes.

## Staging

Staging mirrors production and runs the smoke tests first.
A failed smoke test stops the deploy and pages the on-call engineer.
Staging data is reset every night from an anonymised snapshot.

## Rollback

A rollback re-runs the previous release's deploy script, then purges the CDN.
Keep the last three images: older ones are pruned by the registry.
"""

NOTES = """# Caching

The HTTP cache keeps responses for five minutes, behind a content delivery network (CDN).
Cache keys include the user's locale and the API version.

## Invalidation

A deploy clears the cache for the changed routes only.
The admin page has a button that clears everything; use it sparingly.
"""

CODE = '''"""Retry helpers for the deploy client."""


def backoff(attempt: int, base: float = 0.5) -> float:
    """The delay before retry ``attempt``: exponential, capped at thirty seconds."""
    return min(30.0, base * 2**attempt)


class DeployClient:
    """Talks to the deploy service; retries a failed push with backoff."""

    def push(self, image: str) -> None:
        """Push ``image`` to the registry, retrying on a timeout."""
        for attempt in range(5):
            if self._try(image):
                return

    def _try(self, image: str) -> bool:
        """One push attempt; False on a timeout."""
        return bool(image)
'''

QUERIES = [
    "how do deploys work",
    "rollback previous release",
    "smoke test fails on staging",
    "cache invalidation after a deploy",
    "retry backoff delay",
    "push image to the registry",
    "purge the content delivery network",  # the rollback says "CDN" (store/acronyms.py)
    "vendored retry backoff",  # the copy's own file answers first (m019 anchor_contexts)
]


@pytest.fixture
def second_location(backend: str, tmp_path: Path) -> Iterator[str | Path]:
    if backend == "sqlite":
        yield tmp_path / "imported.db"
        return
    with postgres_store() as url:
        yield url


def _credo(cwd: Path, db: str | Path, *args: str) -> str:
    env = {**os.environ, "CREDO_DB": str(db)}
    env.pop("CREDO_DEBUG", None)
    done = subprocess.run(
        [*credo_command(), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def test_an_imported_store_ranks_as_the_original(
    store_location: str | Path, second_location: str | Path, tmp_path: Path
) -> None:
    (tmp_path / ".git").mkdir()
    tree = tmp_path / "tree"
    (tree / "docs").mkdir(parents=True)
    (tree / "docs" / "deploy.md").write_text(GUIDE, encoding="utf-8")
    (tree / "docs" / "cache.md").write_text(NOTES, encoding="utf-8")
    (tree / "retry.py").write_text(CODE, encoding="utf-8")
    (tree / "vendored").mkdir()
    (tree / "vendored" / "retry.py").write_text(CODE, encoding="utf-8")  # (one text, two files)
    _credo(tmp_path, store_location, "ingest", str(tree))
    before = {q: _credo(tmp_path, store_location, "search", q, "--json") for q in QUERIES}
    records = tmp_path / "out.jsonl"
    _credo(tmp_path, store_location, "export", str(records))
    _credo(tmp_path, second_location, "import", str(records))
    for query in QUERIES:
        assert _credo(tmp_path, second_location, "search", query, "--json") == before[query], query
    kinds = [json.loads(line)["kind"] for line in records.read_text("utf-8").splitlines()]
    assert kinds.count("passage_lines") >= 5 and kinds.count("definitions") == 2
    assert kinds.count("acronyms") == 1 and kinds.count("anchor_context") >= 2
    # Exported again, the copy gives the same bytes: nothing was lost on the way.
    again = tmp_path / "again.jsonl"
    _credo(tmp_path, second_location, "export", str(again))
    derived = ("passage_lines", "definitions", "acronyms", "anchor_context")
    assert [
        line
        for line in again.read_text("utf-8").splitlines()
        if json.loads(line)["kind"] in derived
    ] == [
        line
        for line in records.read_text("utf-8").splitlines()
        if json.loads(line)["kind"] in derived
    ]


BELIEF = '{"kind":"belief","id":"b1","content":"Deploys go through ops/deploy.sh"}'


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            '{"kind":"passage_lines","belief_id":"nope","lines":"deploy"}',
            "belief 'nope' is not a known belief id",
        ),
        (
            '{"kind":"definitions","file":"a.py","definitions":[[1,2,"x",1]],'
            '"passages":[["b1",3,4]]}',
            "passage 'b1' sits in no definition of the file",
        ),
        (
            '{"kind":"definitions","file":"a.py","definitions":[[1,"2","x",1]]}',
            "each item of 'definitions' must be a list [int, int, str, int]",
        ),
        (  # a length is never negative: a constant's row says so in a fifth item
            '{"kind":"definitions","file":"a.py","definitions":[[1,2,"x",-1]]}',
            "each item of 'definitions' must be a list [int, int, str, int]",
        ),
        (
            '{"kind":"definitions","file":"a.py","definitions":[[1,2,"x",1,false]]}',
            "[int, int, str, int] (a constant's: a fifth item, true), got [1, 2, 'x', 1, False]",
        ),
        (  # review84: a flagged row is named whole, not as the four items checked
            '{"kind":"definitions","file":"a.py","definitions":[[true,2,"x",1,true]]}',
            "fifth item, true), got [True, 2, 'x', 1, True]",
        ),
        ('{"kind":"passage_lines","belief_id":"b1"}', "missing required field 'lines'"),
        (
            '{"kind":"definitions","file":"a.py","passages":{}}',
            "field 'passages' must be a list",
        ),
        (
            '{"kind":"anchor_context","belief_id":"b1","file":"a.py"}',
            "missing required field 'context'",
        ),
        (
            '{"kind":"anchor_context","belief_id":"b1","file":"a.py","context":"x","y":1}',
            "unknown field 'y' in an anchor_context record",
        ),
        (
            '{"kind":"acronyms","file":"a.md","pairs":[["cdn"]]}',
            "each item of 'pairs' must be a list [str, str]",
        ),
    ],
)
def test_a_bad_ranking_record_names_its_line_and_imports_nothing(
    tmp_path: Path, record: str, message: str
) -> None:
    from credo.errors import RecordsError
    from credo.memory import Memory

    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        with pytest.raises(RecordsError, match=r":2: .*nothing was imported") as raised:
            memory.import_records([BELIEF, record])
        assert message in str(raised.value)
        assert memory.stats().beliefs == 0
