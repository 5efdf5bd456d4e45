"""A ``derived`` anchor (a file a passage names) lives while that file does: a folder's
re-ingest drops the ones whose file is gone, as a fresh ingest would never write them
(probe69: a deleted runbook stayed anchored to the guide that linked it, shown under the
guide's hits and failing ``doctor`` until the guide itself changed)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.conftest import credo_in

GUIDE = "# Guide\n\nThe deploy steps are described in [the runbook](runbook.md) for operators.\n"
RUNBOOK = "# Runbook\n\nRestart the workers with the restart script.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    (folder / "docs").mkdir()
    (folder / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (folder / "docs" / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    return folder


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = credo_in(cwd, *args)
    assert done.returncode in (0, 1), done.stderr
    return done


def derived(project: Path) -> list[str]:
    with sqlite3.connect(project / ".credo" / "memory.db") as conn:
        found = conn.execute(
            "SELECT doc_uri FROM belief_documents WHERE anchor_type = 'derived' ORDER BY 1"
        )
        return [str(r[0]) for r in found]


def test_a_deleted_file_is_no_longer_anchored_to_the_passages_that_named_it(
    project: Path,
) -> None:
    run(project, "ingest", ".")
    assert derived(project) == ["docs/runbook.md"]
    (project / "docs" / "runbook.md").unlink()
    run(project, "ingest", ".")
    assert derived(project) == []
    assert run(project, "anchors", "--doc", "docs/runbook.md").stdout.strip() == "no anchors"
    doctor = run(project, "doctor", "--json")
    assert doctor.returncode == 0 and json.loads(doctor.stdout)["missing_files"] == []
    hits = json.loads(run(project, "search", "deploy steps", "--json").stdout)["beliefs"]
    assert [a["doc_uri"] for a in hits[0]["doc_anchors"]] == ["docs/guide.md#L1-L3"]
    # Re-ingest now equals a fresh ingest of the same tree.
    shutil.rmtree(project / ".credo")
    run(project, "ingest", ".")
    assert derived(project) == []


def test_a_removed_copy_of_a_folder_takes_the_anchors_its_links_gave(project: Path) -> None:
    """Versioned docs: ``docs/v1`` a copy of ``docs``, its passages the same beliefs. Its
    links anchored them to ``docs/v1/...``; after ``rm -r docs/v1`` those went nowhere."""
    shutil.copytree(project / "docs", project / "docs" / "v1")
    run(project, "ingest", ".")
    assert derived(project) == ["docs/runbook.md", "docs/v1/runbook.md"]
    shutil.rmtree(project / "docs" / "v1")
    run(project, "ingest", "docs")
    assert derived(project) == ["docs/runbook.md"]


def test_a_file_that_is_there_but_left_out_keeps_its_mentions(project: Path) -> None:
    """A file named in a passage need not be one credo reads (``settings.conf``, a file a
    ``.gitignore`` hides): it is anchored while it exists."""
    (project / ".gitignore").write_text("docs/runbook.md\n", encoding="utf-8")
    run(project, "ingest", ".")
    assert derived(project) == ["docs/runbook.md"]
    run(project, "ingest", ".")
    assert derived(project) == ["docs/runbook.md"]


NAMES = "# Names\n\nOn call, read escalation.md first; the pager rota sits in the wiki.\n"


def test_a_file_created_after_the_page_that_names_it_gets_its_anchor(project: Path) -> None:
    """left71: the guide was read while its runbook did not exist; a re-ingest that adds
    the runbook gives the guide's passage the anchor a fresh ingest gives, by a link and
    by a bare name, with the guide unchanged (not read again for anything else)."""
    (project / "docs" / "runbook.md").unlink()
    (project / "docs" / "names.md").write_text(NAMES, encoding="utf-8")
    run(project, "ingest", ".")
    assert derived(project) == []
    (project / "docs" / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    (project / "docs" / "escalation.md").write_text("# Escalation\n\nPage the lead.\n")
    report = json.loads(run(project, "ingest", ".", "--json").stdout)
    assert derived(project) == ["docs/escalation.md", "docs/runbook.md"]
    assert report["files_ingested"] + report["files_unchanged"] == 4, report
    again = json.loads(run(project, "ingest", ".", "--json").stdout)
    assert again["files_unchanged"] == 4 and again["files_ingested"] == 0
    # The same as a fresh ingest of the tree.
    shutil.rmtree(project / ".credo")
    run(project, "ingest", ".")
    assert derived(project) == ["docs/escalation.md", "docs/runbook.md"]


def test_a_passage_naming_its_own_file_holds_no_anchor_to_it(tmp_path: Path) -> None:
    """alembic's templates/multidb/env.py: a comment on "the needs of env.py" gave the
    passage a derived anchor to env.py itself, shown as "(from .../env.py)" under its hit."""
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    (folder / "migrations").mkdir()
    (folder / "migrations" / "env.py").write_text(
        "# other values from the config, defined by the needs of env.py,\n"
        "# can be acquired from the main option of the config.\n"
        "target_metadata = None\n",
        encoding="utf-8",
    )
    (folder / "README.md").write_text(
        "# Setup\n\nThe migrations read migrations/env.py before each run.\n", encoding="utf-8"
    )
    run(folder, "ingest", ".")
    assert derived(folder) == ["migrations/env.py"]  # (README's mention: kept)
    block = run(folder, "search", "needs of env.py config values").stdout
    assert "(from migrations/env.py)" not in block
