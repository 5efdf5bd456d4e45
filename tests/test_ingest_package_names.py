"""A bare file name in a package's file names a file of that package: mitt's "Set "strict":
true in your tsconfig.json" is about the reader's tsconfig.json, not the one other package
of the monorepo that has one (ingest/package.py). A file in no package below the root keeps
the tree-wide rule: a name found once in the tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge.ingest.package import MANIFESTS, Packages
from tests.conftest import BACKENDS

_MITT = '# mitt\n\nSet `"strict": true` in your tsconfig.json to get improved inference.\n'


def _write(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def _derived(tmp_path: Path, root: Path, source: str) -> list[str]:
    """The derived anchors of the beliefs read from ``source``, after ingesting ``root``."""
    return _derived_in(tmp_path / "m.db", root, source)


def _derived_in(location: str | Path, root: Path, source: str) -> list[str]:
    """The same, ingesting into the store at ``location``."""
    with Memory(location, root=root) as memory:
        memory.ingest(root)
        ids = {a.belief_id for a in memory.beliefs_for_doc(source)}
        return sorted(
            a.doc_uri
            for belief_id in ids
            for a in memory.anchors(belief_id)
            if a.anchor_type == "derived"
        )


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_a_bare_name_does_not_link_into_another_package(tmp_path: Path, manifest: str) -> None:
    root = _write(
        tmp_path / "mono",
        {
            f"packages/mitt/{manifest}": "{}\n",
            "packages/mitt/README.md": _MITT,
            "services/api/package.json": "{}\n",
            "services/api/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
        },
    )
    assert _derived(tmp_path, root, "packages/mitt/README.md") == []


def test_a_bare_name_links_within_its_package(tmp_path: Path) -> None:
    """Found once in the package, though twice in the tree: the package's own."""
    root = _write(
        tmp_path / "mono",
        {
            "packages/mitt/package.json": "{}\n",
            "packages/mitt/tsconfig.json": "{}\n",
            "packages/mitt/docs/README.md": _MITT,
            "services/api/package.json": "{}\n",
            "services/api/tsconfig.json": "{}\n",
        },
    )
    assert _derived(tmp_path, root, "packages/mitt/docs/README.md") == [
        "packages/mitt/tsconfig.json"
    ]


@pytest.mark.parametrize("root_manifest", [None, "package.json"])
def test_outside_any_package_the_tree_wide_rule_holds(
    tmp_path: Path, root_manifest: str | None
) -> None:
    """No package below the root (none at all, or only the root's): as before."""
    files = {
        "docs/README.md": _MITT,
        "services/api/tsconfig.json": "{}\n",
    }
    if root_manifest:
        files[root_manifest] = "{}\n"
    root = _write(tmp_path / "mono", files)
    assert _derived(tmp_path, root, "docs/README.md") == ["services/api/tsconfig.json"]


def test_a_path_with_a_folder_still_resolves_from_the_root(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "mono",
        {
            "packages/mitt/package.json": "{}\n",
            "packages/mitt/README.md": "# mitt\n\nSee services/api/tsconfig.json for ours.\n",
            "services/api/package.json": "{}\n",
            "services/api/tsconfig.json": "{}\n",
        },
    )
    assert _derived(tmp_path, root, "packages/mitt/README.md") == ["services/api/tsconfig.json"]


def test_packages_of_finds_the_nearest_manifest_below_the_root(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "package.json": "{}\n",
            "a/go.mod": "module a\n",
            "a/b/c/x.go": "package c\n",
            "d/e/y.md": "# y\n",
        },
    )
    files = [root / "a/b/c/x.go", root / "d/e/y.md", root / "a/go.mod"]
    packages = Packages(root, files, lambda p: Path(p).is_file())
    assert packages.of(root / "a/b/c") == root / "a"
    assert packages.of(root / "d/e") is None  # only the root's manifest above it
    assert packages.of(root) is None
    assert packages.of(tmp_path.parent) is None  # outside the root
    assert packages.names(root / "a") == {"x.go": root / "a/b/c/x.go", "go.mod": root / "a/go.mod"}


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("appears", [True, False])
def test_a_manifest_that_appears_or_goes_re_derives_the_links(
    tmp_path: Path, store_location: str | Path, appears: bool
) -> None:
    """The package a file sits in decides what its bare names link to, so an unchanged file
    whose package changed is read again: the incremental store ends as a fresh ingest."""
    files = {
        "packages/mitt/README.md": _MITT,
        "services/api/package.json": "{}\n",
        "services/api/tsconfig.json": "{}\n",
    }
    manifest = "packages/mitt/package.json"
    root = _write(tmp_path / "mono", {**files, **({} if appears else {manifest: "{}\n"})})
    source = "packages/mitt/README.md"
    before = _derived_in(store_location, root, source)
    assert before == (["services/api/tsconfig.json"] if appears else [])
    if appears:
        (root / manifest).write_text("{}\n")
    else:
        (root / manifest).unlink()
    expected = _derived_in(tmp_path / "fresh.db", root, source)
    assert expected == ([] if appears else ["services/api/tsconfig.json"])
    assert _derived_in(store_location, root, source) == expected
