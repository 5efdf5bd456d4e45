"""Vendored folders (``vendor/``, ``third_party/``, ``bower_components/``...: GitHub
Linguist's vendor rules) are copies of other projects' code: a folder's walk leaves them
out and reports each, a run that names one reads it, ``--vendored`` reads them all, and a
vendored folder read before is retired at the next walk that leaves it out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge.ingest import walk

from .conftest import CliRun

_OWN = "// Config is where the rate limit is configured.\ntype Config struct{ Burst int }\n"
_COPY = (
    "// VendoredTokenBucketAllow takes one token: where the rate limit is enforced.\n"
    "func VendoredTokenBucketAllow(b *Bucket) bool { return b.Allow() }\n"
)


def _tree(root: Path, folder: str = "vendor") -> Path:
    (root / "svc" / folder / "tokenbucket").mkdir(parents=True)
    (root / "svc" / "limiter.go").write_text("package svc\n\n" + _OWN)
    (root / "svc" / folder / "tokenbucket" / "bucket.go").write_text("package tb\n\n" + _COPY)
    return root


def _uris(memory: Memory) -> list[str]:
    return sorted(row.path for row in memory.store.ingested_files())


@pytest.mark.parametrize("folder", sorted(walk.VENDORED_DIRS))
def test_a_folder_walk_leaves_vendored_folders_out_and_says_so(tmp_path: Path, folder: str) -> None:
    root = _tree(tmp_path / "repo", folder)
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root)
        assert _uris(memory) == ["svc/limiter.go"]
    assert report.skipped == {"vendored": 1}
    assert report.skipped_files == [(f"svc/{folder}/", "vendored")]
    assert "1 vendored folder" in report.summary()
    assert f"svc/{folder}/" in report.summary()


def test_named_folder_and_flag_read_it(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    copy = "svc/vendor/tokenbucket/bucket.go"
    with Memory(tmp_path / "a.db", root=root) as memory:
        report = memory.ingest(root / "svc" / "vendor")
        assert _uris(memory) == [copy]
        assert report.skipped == {}
    with Memory(tmp_path / "b.db", root=root) as memory:  # the tree and the folder: not said
        report = memory.ingest(root, root / "svc" / "vendor" / "tokenbucket")
        assert _uris(memory) == ["svc/limiter.go", copy]
        assert report.skipped == {}
    with Memory(tmp_path / "c.db", root=root) as memory:
        report = memory.ingest(root, vendored=True)
        assert _uris(memory) == ["svc/limiter.go", copy]
        assert report.skipped == {}


def test_a_file_named_vendor_is_read(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "vendor.md").write_text("# Vendor\n\nWe buy our tokens from a vendor.\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        assert _uris(memory) == ["vendor.md"]


def test_cli_leaves_vendor_out_retires_what_was_read_and_flag_reads_it(
    run: CliRun, tmp_path: Path
) -> None:
    root = _tree(tmp_path / "repo")
    run("ingest", str(root / "svc" / "vendor"), check=True)
    done = run("ingest", str(root), check=True)
    assert "1 removed" in done.stdout and "1 vendored folder" in done.stdout
    assert "svc/vendor/" in done.stdout
    hits = run("search", "--json", "where is the rate limit configured", check=True)
    trails = [b["trail"] for b in json.loads(hits.stdout)["beliefs"]]
    assert trails and not any("vendor" in t for t in trails), trails
    again = json.loads(run("ingest", "--json", "--vendored", str(root), check=True).stdout)
    assert again["files_ingested"] == 1 and again["skipped"] == {}
    hits = run("search", "--json", "VendoredTokenBucketAllow", check=True)
    assert any("vendor" in b["trail"] for b in json.loads(hits.stdout)["beliefs"])


@pytest.mark.parametrize(
    ("relative", "vendored", "hidden"),
    [
        ("svc/vendor/tb/bucket.go", False, True),
        ("svc/vendor/tb/bucket.go", True, False),
        ("svc/third_party/x.c", False, True),
        ("svc/limiter.go", False, False),
        ("svc/vendor.go", False, False),
    ],
)
def test_hidden_by_walk_agrees_with_the_walk(
    tmp_path: Path, relative: str, vendored: bool, hidden: bool
) -> None:
    path = tmp_path / relative
    assert walk.hidden_by_walk(path, tmp_path, tmp_path, vendored=vendored) is hidden
