"""A Sphinx HTML build shipped beside a project's docs (alembic's sdist: docs/*.html,
docs/_sources/ and docs/_static/ next to the reST source in docs/build/): the walk leaves its
``_sources`` (copies of the pages) and ``_static`` (Sphinx's scripts) out and says so, so a
docs hit names the page a person edits; a docs *source* folder's own ``_static`` is read; a
copy read before is retired; a run that names one reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge.ingest import walk

from .conftest import CliRun

_PAGE = (
    "Batch Migrations\n================\n\n"
    "SQLite cannot alter a column in place, so batch mode copies the table and moves the data.\n"
)


def _tree(root: Path) -> Path:
    """alembic's layout: the source in docs/build, the HTML build in docs itself."""
    (root / "docs" / "build" / "_static").mkdir(parents=True)
    (root / "docs" / "_sources").mkdir(parents=True)
    (root / "docs" / "_static").mkdir(parents=True)
    (root / "docs" / "build" / "batch.rst").write_text(_PAGE)
    (root / "docs" / "build" / "_static" / "site.js").write_text(
        "// Highlights the version switcher of our docs site.\nfunction switcher() {}\n"
    )
    (root / "docs" / "_sources" / "batch.rst").write_text(_PAGE)
    (root / "docs" / "_static" / "searchtools.js").write_text(
        "// Removes excluded terms from the search results.\nfunction exclude() {}\n"
    )
    (root / "docs" / "batch.html").write_text("<html><body>Batch</body></html>\n")
    (root / "docs" / "searchindex.js").write_text('Search.setIndex({"docnames": ["batch"]})\n')
    return root


def _uris(memory: Memory) -> list[str]:
    return sorted(row.path for row in memory.store.ingested_files())


_READ = ["docs/build/_static/site.js", "docs/build/batch.rst", "docs/searchindex.js"]


def test_a_walk_leaves_a_sphinx_build_s_copies_out_and_says_so(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root)
        assert _uris(memory) == _READ
        hits = memory.retrieve("alter a column in SQLite batch mode").beliefs
        assert hits and hits[0].trail.startswith("docs/build/batch.rst"), hits
    assert report.skipped["sphinx_build"] == 2
    assert ("docs/_sources/", "sphinx_build") in report.skipped_files
    assert ("docs/_static/", "sphinx_build") in report.skipped_files
    summary = report.summary()
    assert "2 sphinx_build folders" in summary
    assert "copies (name a folder to read it): docs/_sources/, docs/_static/" in summary


def test_without_a_search_index_the_folders_are_read(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    (root / "docs" / "searchindex.js").unlink()
    (root / "docs" / "_static" / "searchindex.js").write_text("// a search page's own script\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root, vendored=True)
        assert "docs/_sources/batch.rst" in _uris(memory)
        assert "docs/_static/searchtools.js" in _uris(memory)
    assert "sphinx_build" not in report.skipped


def test_a_named_copy_is_read(tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root, root / "docs" / "_sources")
        assert "docs/_sources/batch.rst" in _uris(memory)
        assert "docs/_static/searchtools.js" not in _uris(memory)
    assert report.skipped_files.count(("docs/_sources/", "sphinx_build")) == 0


def test_cli_retires_copies_read_before(run: CliRun, tmp_path: Path) -> None:
    root = _tree(tmp_path / "repo")
    run("ingest", str(root / "docs" / "_sources"), str(root / "docs" / "_static"), check=True)
    done = json.loads(run("ingest", "--json", str(root), check=True).stdout)
    assert done["files_removed"] == 2
    assert done["skipped"] == {"sphinx_build": 2, "unsupported": 1}  # (batch.html)
    assert run("doctor", check=True).returncode == 0
    hits = run("search", "--json", "alter a column in SQLite batch mode", check=True)
    trails = [b["trail"] for b in json.loads(hits.stdout)["beliefs"]]
    assert trails and all("docs/build/" in t for t in trails), trails  # (not the copy's)


@pytest.mark.parametrize(
    ("relative", "hidden"),
    [
        ("docs/_sources/batch.rst", True),
        ("docs/_static/searchtools.js", True),
        ("docs/build/_static/site.js", False),
        ("docs/build/batch.rst", False),
        ("docs/searchindex.js", False),
    ],
)
def test_hidden_by_walk_agrees_with_the_walk(tmp_path: Path, relative: str, hidden: bool) -> None:
    root = _tree(tmp_path / "repo")
    assert walk.hidden_by_walk(root / relative, root, root) is hidden
    assert walk.hidden_by_walk(root / relative, root, root, vendored=True) is hidden
