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
from tests.conftest import CliRun

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


def _deploy_hit(run: CliRun) -> tuple[str, list[str]]:
    """The trail and anchors of the one hit about `make deploy` (guide.md's passage)."""
    found = json.loads(run("search", "deploy service", "--json", check=True).stdout)["beliefs"]
    (hit,) = [b for b in found if "make deploy" in b["content"]]
    return hit["trail"], sorted(a["doc_uri"].split("#")[0] for a in hit["doc_anchors"])


def test_a_moved_file_s_passages_show_their_new_path(run: CliRun, tmp_path: Path) -> None:
    # Found by probe60 on httpx: after `mv httpx httpx_renamed` and a re-ingest, the hits'
    # anchors named the new files but their trails (printed as "in httpx/_config.py" by
    # search, the hook and MCP, and indexed) still named the old ones.
    project = tmp_path / "project"
    project.mkdir()
    _docs(project)
    run("ingest", "project", check=True)
    assert _deploy_hit(run)[0].startswith("project/docs/guide.md ›")
    (project / "docs").rename(project / "manual")
    done = json.loads(run("ingest", "project", "--json", check=True).stdout)
    assert done["beliefs_added"] == 0 and done["beliefs_stale"] == 0
    trail, files = _deploy_hit(run)
    assert files == ["project/manual/guide.md"]
    assert trail.startswith("project/manual/guide.md ›"), trail
    shown = run("search", "deploy service", check=True).stdout
    assert "in project/manual/guide.md" in shown and "project/docs" not in shown


def test_the_summary_accounts_for_a_renamed_file_s_passages(run: CliRun, tmp_path: Path) -> None:
    # Found by probe75 (structlog, `git mv docs/recipes.md docs/cookbook.md`): the summary
    # read "beliefs: 0 added, 0 kept, 0 moved, 0 stale; 0 edges, 12 anchors": the twelve
    # passages found again under the new name (JSON: beliefs_corroborated) were nowhere.
    project = tmp_path / "project"
    project.mkdir()
    docs = _docs(project)
    run("ingest", "project", check=True)
    (docs / "guide.md").rename(docs / "handbook.md")
    said = run("ingest", "project", check=True).stdout
    assert "0 added, 0 kept, 0 moved, 0 stale, 1 read before" in said, said
    assert "(the same text in another file, or before a rename)" in said, said
    (docs / "handbook.md").write_text("# Guide\n\nNothing about deploys.\n")
    run("ingest", "project", check=True)
    (docs / "ops.md").write_text("# Guide\n\nWe deploy the service with make deploy.\n")
    said = run("ingest", "project", check=True).stdout
    assert "1 revived" in said, said
    unchanged = run("ingest", "project", check=True).stdout
    assert "read before" not in unchanged and "revived" not in unchanged, unchanged


def test_text_back_in_another_file_shows_that_file(run: CliRun, tmp_path: Path) -> None:
    # A passage whose text left its file goes stale; the same text written into another
    # file later revives it, placed where it now stands.
    project = tmp_path / "project"
    project.mkdir()
    docs = _docs(project)
    text = (docs / "guide.md").read_text()
    run("ingest", "project", check=True)
    (docs / "guide.md").write_text("# Guide\n\nNothing about releases any more.\n")
    run("ingest", "project", check=True)
    (docs / "ops.md").write_text(text)
    done = json.loads(run("ingest", "project", "--json", check=True).stdout)
    assert done["beliefs_revived"] == 1
    trail, files = _deploy_hit(run)
    assert files == ["project/docs/ops.md"]
    assert trail.startswith("project/docs/ops.md ›"), trail


def test_a_copy_keeps_the_first_file_s_trail(run: CliRun, tmp_path: Path) -> None:
    # The same text in two live files: one belief, both anchors, the first file's trail.
    project = tmp_path / "project"
    project.mkdir()
    docs = _docs(project)
    run("ingest", "project", check=True)
    (docs / "copy.md").write_text((docs / "guide.md").read_text())
    run("ingest", "project", check=True)
    trail, files = _deploy_hit(run)
    assert files == ["project/docs/copy.md", "project/docs/guide.md"]
    assert trail.startswith("project/docs/guide.md ›"), trail


def test_one_file_ingested_is_said_in_the_singular(run: CliRun) -> None:
    # day-probe83: `credo ingest FILE` printed "1 files ingested".
    (run.cwd / "notes.md").write_text("# Notes\n\nDeploys go through staging.\n", encoding="utf-8")
    said = run("ingest", "notes.md", check=True).stdout
    assert said.startswith("1 file ingested, 0 unchanged"), said
    assert "; 0 edges, " in said, said
