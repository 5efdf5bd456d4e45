"""`credo export -` writes the records to stdout, as `credo import -` reads stdin: the pipe
`credo export - | credo --db copy import -` copies a store. It wrote a file named '-'."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import CliRun


def test_export_dash_writes_stdout_and_pipes_into_import(run: CliRun, tmp_path: Path) -> None:
    made = run("remember", "The staging database lives on db-staging.internal", check=True)
    belief_id = made.stdout.split()[0]
    done = run("export", "-", check=True)
    lines = done.stdout.splitlines()
    assert any(json.loads(line).get("id") == belief_id for line in lines)
    assert "exported 1 beliefs" in done.stderr  # the report never mixes with the records
    assert not (tmp_path / "-").exists()
    # The same bytes as an export to a file.
    run("export", str(tmp_path / "out.jsonl"), check=True)
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == done.stdout
    copy = run("--db", str(tmp_path / "copy.db"), "import", "-", stdin=done.stdout, check=True)
    assert "imported 1 beliefs" in copy.stdout
    found = run("--db", str(tmp_path / "copy.db"), "search", "staging database", check=True)
    assert "db-staging.internal" in found.stdout


def test_export_dash_json_report_goes_to_stderr(run: CliRun) -> None:
    run("remember", "Releases are cut on Thursdays", check=True)
    done = run("export", "-", "--json", check=True)
    assert json.loads(done.stderr)["beliefs"] == 1
    assert json.loads(done.stdout.splitlines()[0])["kind"] == "belief"
