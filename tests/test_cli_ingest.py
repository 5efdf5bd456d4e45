"""`credo ingest` and `credo migrate` from the CLI: a progress bar only where someone can see it.

A piped or ``--json`` run (an agent's) never imports rich's progress module, whose import
costs about as much as ingesting a few dozen pages; the report is the same either way."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import credo
from credo import Memory
from credo.surfaces.cli.progress import ingest_with_bar, migrate_with_bar

# Runs the CLI's ingest in this process, then prints whether rich's progress was loaded.
PROBE = """
import sys
from credo.surfaces.cli.commands import cli
try:
    cli(sys.argv[1:], standalone_mode=False)
finally:
    sys.stderr.write("rich.progress loaded: %s" % ("rich.progress" in sys.modules))
"""


def _docs(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nWe deploy the service with make deploy.\n")
    (docs / "notes.rst").write_text("Notes\n=====\n\nThe service reads config.toml.\n")
    return docs


def _cli_ingest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _cli(tmp_path, "ingest", *args)


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    # This tree's credo, whatever the cwd (a relative PYTHONPATH would miss it).
    env["PYTHONPATH"] = str(Path(credo.__file__).resolve().parents[1])
    return subprocess.run(
        [sys.executable, "-c", PROBE, "--db", str(tmp_path / "m.db"), *args],
        cwd=tmp_path,
        env={**env, "CREDO_INGEST_WORKERS": "0"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )


def test_piped_ingest_loads_no_progress_bar(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    done = _cli_ingest(tmp_path, str(docs))
    assert done.stdout.startswith("2 files ingested, 0 unchanged"), done.stdout
    assert done.stderr.endswith("rich.progress loaded: False"), done.stderr


def test_json_ingest_loads_no_progress_bar(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    done = _cli_ingest(tmp_path, str(docs), "--json")
    assert json.loads(done.stdout)["files_ingested"] == 2
    assert done.stderr.endswith("rich.progress loaded: False"), done.stderr


def test_the_bar_reports_what_a_plain_ingest_reports(tmp_path: Path) -> None:
    """The terminal's path (`ingest_with_bar`) and the piped one write the same store."""
    docs = _docs(tmp_path)
    with Memory(tmp_path / "bar.db", root=tmp_path) as memory:
        with_bar = ingest_with_bar(memory, (str(docs),))
        bar_ids = sorted(b.id for b in memory.store.iter_beliefs())
    with Memory(tmp_path / "plain.db", root=tmp_path) as memory:
        plain = memory.ingest(str(docs))
        plain_ids = sorted(b.id for b in memory.store.iter_beliefs())
    assert (with_bar.files_ingested, with_bar.beliefs_added) == (2, plain.beliefs_added)
    assert bar_ids == plain_ids and bar_ids


def test_piped_migrate_loads_no_progress_bar(tmp_path: Path) -> None:
    _cli_ingest(tmp_path, str(_docs(tmp_path)))
    done = _cli(tmp_path, "migrate", "--to", str(tmp_path / "copy.db"))
    assert done.stdout.startswith("copied "), done.stdout
    assert done.stderr.endswith("rich.progress loaded: False"), done.stderr


def test_the_migrate_bar_copies_what_a_plain_migrate_copies(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(str(docs))
        ids = sorted(b.id for b in memory.store.iter_beliefs())
    report = migrate_with_bar(tmp_path / "m.db", tmp_path / "copy.db")
    assert report.rows["beliefs"] == len(ids) > 0
    with Memory(tmp_path / "copy.db", root=tmp_path) as memory:
        assert sorted(b.id for b in memory.store.iter_beliefs()) == ids


def test_the_bar_draws_on_a_terminal_stderr_and_leaves_a_piped_report_clean(
    tmp_path: Path,
) -> None:
    docs = _docs(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["PYTHONPATH"] = str(Path(credo.__file__).resolve().parents[1])
    leader, follower = pty.openpty()  # stderr is a terminal, stdout a pipe
    try:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, "--db", str(tmp_path / "m.db"), "ingest", str(docs)],
            cwd=tmp_path,
            env={**env, "CREDO_INGEST_WORKERS": "0"},
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            check=True,
            timeout=120,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.stdout.startswith("2 files ingested, 0 unchanged"), done.stdout
