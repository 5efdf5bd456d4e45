"""A store remembers the root its file paths are relative to (credo.knowledge.root): every
later ingest, doctor, link, ``anchors --doc`` and the hook resolve paths against it, whatever
the current folder. Issue #14: outside a git work tree, ingesting one file from two folders
gave it two anchors, and ``doctor`` called the first one missing."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.root import META_ROOT
from tests.conftest import credo_in

BOTH_BACKENDS = True
OLD_COMMIT = "efc5717"  # main before stores kept a root (stop 50's last commit)
TEXT = "The deploy uses a blue green rollout with canary checks before the switch.\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``x/proj/docs/a.md`` in a folder that is no git work tree."""
    folder = tmp_path / "x"
    (folder / "proj" / "docs").mkdir(parents=True)
    (folder / "proj" / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    return folder


def cli(cwd: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = credo_in(cwd, "--db", str(db), *args)
    assert done.returncode == 0, done.stderr
    return done


def uris(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return sorted(r[0] for r in conn.execute("SELECT doc_uri FROM belief_documents"))


def kept_root(db: Path) -> str | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT value FROM _meta WHERE key = ?", (META_ROOT,)).fetchone()
    return None if row is None else str(row[0])


def forget_root(db: Path) -> None:
    """The store as credo before this change left it: no root kept."""
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM _meta WHERE key = ?", (META_ROOT,))


def test_the_issue_one_file_ingested_from_two_folders_has_one_anchor(tree: Path) -> None:
    db = tree / "m.db"
    cli(tree, db, "ingest", "proj")
    cli(tree / "proj", db, "ingest", "docs")
    assert uris(db) == ["proj/docs/a.md#L1-L3"]
    assert kept_root(db) == "."  # (the store's own folder: it moves with the store)
    doctor = json.loads(cli(tree / "proj", db, "doctor", "--json").stdout)
    assert doctor["missing_files"] == [] and doctor["ok"] == 1


def test_paths_typed_in_a_subfolder_are_read_from_there(tree: Path) -> None:
    db = tree / "m.db"
    cli(tree, db, "ingest", "proj")
    here = tree / "proj"
    found = json.loads(cli(here, db, "anchors", "--doc", "docs/a.md", "--json").stdout)
    assert [a["doc_uri"] for a in found] == ["proj/docs/a.md#L1-L3"]
    folder = json.loads(cli(here, db, "anchors", "--doc", "docs/", "--json").stdout)
    assert len(folder) == 1
    belief = json.loads(cli(here, db, "remember", "Rollbacks take ten minutes.", "--json").stdout)
    linked = json.loads(cli(here, db, "link", belief["id"], "docs/a.md#L3", "--json").stdout)
    assert linked["doc_uri"] == "proj/docs/a.md#L3-L3"
    noted = cli(here, db, "remember", "Canary checks run first.", "--doc", "docs/a.md", "--json")
    shown = json.loads(cli(tree, db, "show", json.loads(noted.stdout)["id"], "--json").stdout)
    assert [a["doc_uri"] for a in shown["anchors"]] == ["proj/docs/a.md"]
    # A path as credo prints it (root-relative) whose file is gone is still found.
    (tree / "proj" / "docs" / "a.md").unlink()
    gone = json.loads(cli(here, db, "anchors", "--doc", "proj/docs/a.md", "--json").stdout)
    assert len(gone) == 3  # the ingest anchor, the link and the remembered one


def test_a_store_made_before_keeps_its_anchors_from_any_folder(tree: Path) -> None:
    db = tree / "m.db"
    cli(tree, db, "ingest", "proj")
    forget_root(db)
    here = tree / "proj"
    doctor = json.loads(cli(here, db, "doctor", "--json").stdout)
    assert doctor["missing_files"] == []
    assert kept_root(db) is None  # (a read remembers nothing)
    cli(here, db, "ingest", "docs")
    assert uris(db) == ["proj/docs/a.md#L1-L3"]
    assert kept_root(db) == "."  # inferred from the ledger's paths, remembered by the write


@pytest.fixture(scope="module")
def old_src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``src`` of `OLD_COMMIT`, from this checkout's history."""
    repo = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", OLD_COMMIT, "src"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        pytest.skip(f"{OLD_COMMIT} is not in this checkout's history (a shallow clone)")
    target = tmp_path_factory.mktemp("old")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


def test_a_store_made_by_an_older_credo_is_opened_by_this_one(tree: Path, old_src: Path) -> None:
    db = tree / "m.db"
    env = {**os.environ, "PYTHONPATH": str(old_src)}
    env.pop("CREDO_DB", None)
    made = subprocess.run(
        [sys.executable, "-m", "credo", "--db", str(db), "ingest", "proj"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert kept_root(db) is None
    here = tree / "proj"
    assert json.loads(cli(here, db, "doctor", "--json").stdout)["ok"] == 1
    cli(here, db, "ingest", "docs")
    assert uris(db) == ["proj/docs/a.md#L1-L3"]
    assert kept_root(db) == "."


def test_the_first_ingest_chooses_the_folder_it_names_when_nothing_else_holds_it(
    tmp_path: Path, tree: Path
) -> None:
    db = tmp_path / "stores" / "m.db"
    db.parent.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli(elsewhere, db, "ingest", str(tree / "proj"))
    assert uris(db) == ["docs/a.md#L1-L3"]
    assert kept_root(db) == (tree / "proj").resolve().as_posix()
    cli(tree / "proj" / "docs", db, "ingest", ".")
    assert uris(db) == ["docs/a.md#L1-L3"]


def test_a_file_outside_the_root_is_an_absolute_uri_from_every_folder(
    tmp_path: Path, tree: Path
) -> None:
    db = tree / "m.db"
    cli(tree, db, "ingest", "proj")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nThe staging cluster is rebuilt on Fridays.\n", encoding="utf-8")
    cli(tree / "proj", db, "ingest", str(notes))
    cli(tmp_path, db, "ingest", "notes.md")
    outside = "file://" + notes.resolve().as_posix() + "#L1-L3"
    assert uris(db) == sorted(["proj/docs/a.md#L1-L3", outside])
    doctor = json.loads(cli(tmp_path, db, "doctor", "--json").stdout)
    assert doctor["ok"] == 2


def test_a_work_tree_store_keeps_its_root_relative_and_moves_with_it(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    done = credo_in(project / "docs", "ingest", ".")
    assert done.returncode == 0, done.stderr
    db = project / ".credo" / "memory.db"
    assert kept_root(db) == ".."
    moved = tmp_path / "moved"
    shutil.move(project, moved)
    db = moved / ".credo" / "memory.db"
    doctor = json.loads(cli(tmp_path, db, "doctor", "--json").stdout)
    assert doctor["ok"] == 1 and doctor["missing_files"] == []


def test_a_store_file_moved_out_of_its_work_tree_keeps_its_anchors(tmp_path: Path) -> None:
    """probe69: ``mv .credo/memory.db ~/stores/proj.db`` left the kept root ``..`` naming
    the new folder's parent, which holds none of the store's files: every anchor was
    missing, and the next ingest from the project anchored each passage a second time
    (``repo/docs/a.md`` beside ``docs/a.md``)."""
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    assert credo_in(project, "ingest", ".").returncode == 0
    stores = tmp_path / "stores"
    stores.mkdir()
    db = stores / "proj.db"
    shutil.move(project / ".credo" / "memory.db", db)
    stats = cli(project, db, "stats").stdout
    assert f"root:       {project.resolve()}  (inferred)" in stats
    cli(project, db, "ingest", ".")
    assert uris(db) == ["docs/a.md#L1-L3"]
    assert kept_root(db) == project.resolve().as_posix()  # the file no longer lies in it
    for cwd in (tmp_path, stores):  # from any folder now
        doctor = json.loads(cli(cwd, db, "doctor", "--json").stdout)
        assert doctor["ok"] == 1 and doctor["missing_files"] == []


def test_a_store_migrated_to_another_file_names_the_same_files(tmp_path: Path) -> None:
    """probe69: ``credo migrate --to`` copied the kept root ``..`` as it was, so the copy
    took the parent of its own folder for the root: from outside the project every anchor
    was missing (``doctor``), and an ingest would anchor each passage again."""
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    assert credo_in(project, "ingest", ".").returncode == 0
    copy = tmp_path / "elsewhere" / "copy.db"
    copy.parent.mkdir()
    cli(project, project / ".credo" / "memory.db", "migrate", "--to", str(copy))
    assert kept_root(copy) == project.resolve().as_posix()
    assert f"root:       {project.resolve()}  (kept)" in cli(tmp_path, copy, "stats").stdout
    doctor = json.loads(cli(copy.parent, copy, "doctor", "--json").stdout)
    assert doctor["ok"] == 1 and doctor["missing_files"] == []
    # A copy made inside the project keeps it relative, so it moves with the project.
    inside = project / "store" / "copy.db"
    cli(project, project / ".credo" / "memory.db", "migrate", "--to", str(inside))
    assert kept_root(inside) == ".."


def test_a_moved_store_migrated_elsewhere_does_not_pin_the_wrong_folder(tmp_path: Path) -> None:
    """A store moved out of its project keeps ``..``, which names a folder holding none of
    its files (root.py no longer uses it). ``migrate --to`` made that folder absolute in
    the copy, which root.py takes on trust: the next ingest from the project anchored each
    passage again (``repo/docs/a.md`` beside ``docs/a.md``) and doctor said missing."""
    project = tmp_path / "work" / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    assert credo_in(project, "ingest", ".").returncode == 0
    stores = tmp_path / "work" / "stores"
    stores.mkdir()
    db = stores / "proj.db"
    shutil.move(project / ".credo" / "memory.db", db)  # (its '..' now names work/)
    copy = tmp_path / "elsewhere" / "copy.db"
    copy.parent.mkdir()
    cli(stores, db, "migrate", "--to", str(copy))
    assert kept_root(copy) != (tmp_path / "work").resolve().as_posix()
    cli(project, copy, "ingest", ".")
    assert uris(copy) == ["docs/a.md#L1-L3"]
    doctor = json.loads(cli(project, copy, "doctor", "--json").stdout)
    assert doctor["ok"] == 1 and doctor["missing_files"] == []


def test_the_hook_resolves_against_the_kept_root(tree: Path) -> None:
    from credo.surfaces import hook

    db = tree / "m.db"
    cli(tree, db, "ingest", "proj")
    with hook.open_memory({"cwd": str(tree / "proj" / "docs")}, str(db)) as memory:
        assert memory.root == tree.resolve()


def test_an_explicit_root_is_used_and_remembered_nowhere(tmp_path: Path, tree: Path) -> None:
    db = tmp_path / "api.db"
    with Memory(db, root=tree / "proj") as memory:
        memory.ingest(tree / "proj")
        assert memory.root == (tree / "proj").resolve()
    assert uris(db) == ["docs/a.md#L1-L3"] and kept_root(db) is None
    # A later CLI write finds the root the paths name and keeps it.
    cli(tree / "proj" / "docs", db, "ingest", ".")
    assert uris(db) == ["docs/a.md#L1-L3"]
    assert kept_root(db) == (tree / "proj").resolve().as_posix()


def test_the_root_is_kept_on_both_backends(store_location: str | Path, tree: Path) -> None:
    with Memory(store_location, workdir=tree) as first:
        first.ingest(tree / "proj")
        root = first.root
        assert first.store.meta_get(META_ROOT) is not None
        stored = [a.doc_uri for a in first.beliefs_for_doc(str(tree / "proj" / "docs" / "a.md"))]
    assert len(stored) == 1
    with Memory(store_location, workdir=tree / "proj" / "docs") as second:
        assert second.root == root
        second.ingest(tree / "proj" / "docs")
        found = second.beliefs_for_doc(str(tree / "proj" / "docs" / "a.md"))
        assert [a.doc_uri for a in found] == stored
        assert second.doctor().healthy


def test_a_kept_root_that_is_gone_here_falls_back_to_the_paths(
    store_location: str | Path, tree: Path
) -> None:
    """A team's store read from another checkout: the kept root names a folder this machine
    does not have; the root that holds the paths is used, and the kept one stays."""
    with Memory(store_location, workdir=tree) as first:
        first.ingest(tree / "proj")
        root = first.root
        with first.store.transaction():
            first.store.meta_set(META_ROOT, "/nowhere/on/this/machine")
    with Memory(store_location, workdir=tree / "proj") as second:
        assert second.root == root
        second.ingest(tree / "proj" / "docs")
        assert second.doctor().healthy and second.stats().anchors == 1
        assert second.store.meta_get(META_ROOT) == "/nowhere/on/this/machine"


def test_a_relative_root_copied_into_a_postgres_store_is_replaced(
    backend: str, store_location: str | Path, tree: Path
) -> None:
    """``credo migrate`` copies ``_meta``: a SQLite store's ``.`` names no folder on a
    server, so the next write of a path keeps the root it used instead."""
    if backend != "postgres":
        pytest.skip("a SQLite store reads '.' against its file")
    with Memory(store_location, workdir=tree) as memory:
        with memory.store.transaction():
            memory.store.meta_set(META_ROOT, ".")
        memory.ingest(tree / "proj")
        assert memory.store.meta_get(META_ROOT) == tree.resolve().as_posix()
        assert [a.doc_uri for a in memory.beliefs_for_doc("proj/docs/a.md")] == [
            "proj/docs/a.md#L1-L3"
        ]


FOLDERS = ("x", "x/proj", "x/proj/docs", "elsewhere")
TARGETS = ("x/proj", "x/proj/docs", "x/proj/docs/a.md")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(st.tuples(st.sampled_from(FOLDERS), st.sampled_from(TARGETS)), min_size=2),
    forget=st.booleans(),
)
def test_any_order_of_folders_and_targets_gives_one_anchor(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str]], forget: bool
) -> None:
    """However a file is reached (from which folder, through which folder or by its own
    name), and whether the store kept its root or is one made before, it has one anchor
    and doctor finds it."""
    base = tmp_path_factory.mktemp("any")
    (base / "x" / "proj" / "docs").mkdir(parents=True)
    (base / "elsewhere").mkdir()
    (base / "x" / "proj" / "docs" / "a.md").write_text(f"# A\n\n{TEXT}", encoding="utf-8")
    db = base / "x" / "m.db"
    for folder, target in steps:
        with Memory(db, workdir=base / folder) as memory:
            memory.ingest(base / target)
            assert memory.doctor().healthy
        if forget:
            forget_root(db)
    assert len(uris(db)) == 1


def test_stats_names_the_root_and_where_it_comes_from(tree: Path) -> None:
    db = tree / "m.db"
    cli(tree, db, "remember", "No path written yet")
    before = json.loads(cli(tree / "proj", db, "stats", "--json").stdout)
    assert before["root_source"] == "default"
    cli(tree, db, "ingest", "proj")
    for folder in (tree, tree / "proj" / "docs"):  # the same answer from any folder
        shown = json.loads(cli(folder, db, "stats", "--json").stdout)
        assert (shown["root"], shown["root_source"]) == (str(tree.resolve()), "kept")
    assert f"root:       {tree.resolve()}  (kept)" in cli(tree, db, "stats").stdout


def test_a_store_made_before_infers_its_root_from_a_sample_of_the_ledger(
    store_location: str | Path, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inference reads the first paths it needs, not every ledger row: a capture in a
    store made before asks for the root, and 3,000 files cost it 25 ms of rows read."""
    with Memory(store_location, workdir=tree) as first:
        first.ingest(tree / "proj")
        root = first.root
        with first.store.transaction():
            first.store.meta_set(META_ROOT, None)
    with Memory(store_location, workdir=tree / "proj") as second:

        def whole_ledger(prefix: str = "") -> object:
            raise AssertionError("the whole ledger was read")

        monkeypatch.setattr(second.store, "ingested_files", whole_ledger)
        assert second.root == root


def test_a_backup_opened_where_it_lies_names_the_stores_files_and_restores_relative(
    tree: Path, tmp_path: Path
) -> None:
    """Before, a backup kept the store's relative root (``.``) and, opened from another
    folder, read it against its own: ``doctor`` called every file missing."""
    db = tree / "proj" / "m.db"
    cli(tree / "proj", db, "ingest", "docs")
    assert kept_root(db) == "."
    elsewhere = tmp_path / "backups"
    elsewhere.mkdir()
    copy = elsewhere / "b.db"
    cli(tree, db, "backup", str(copy))
    assert kept_root(copy) == (tree / "proj").resolve().as_posix()
    doctor = json.loads(cli(elsewhere, copy, "doctor", "--json").stdout)
    assert doctor["missing_files"] == [] and doctor["ok"] == 1
    cli(tree, db, "remember", "A belief the restore takes away.")
    cli(tree, db, "restore", str(copy))
    assert kept_root(db) == "."  # (the store moves with its project again)
    with sqlite3.connect(db) as conn:
        keys = {r[0] for r in conn.execute("SELECT key FROM _meta")}
    assert "root_in_store" not in keys
    other = tmp_path / "elsewhere" / "m.db"  # restored into another folder's store
    cli(tmp_path, other, "remember", "A store of its own first.")
    cli(tmp_path, other, "restore", str(copy))
    assert kept_root(other) == (tree / "proj").resolve().as_posix()  # not its own folder
    doctor = json.loads(cli(tmp_path, other, "doctor", "--json").stdout)
    assert doctor["missing_files"] == [] and doctor["ok"] == 1
