"""The package a file of the tree belongs to, for the file names its text mentions.

A monorepo holds several packages, each a folder with its own manifest (``package.json``,
``pyproject.toml``, ``go.mod``, ``Cargo.toml``, ``setup.py``), and each package's README
speaks of its own files: mitt's "Set "strict": true in your tsconfig.json" means the
tsconfig.json of the project using mitt, never another package's. So a bare file name (no
``/``) in a file inside a package names a file of that package only: one found once in the
package (`Packages.names`), not in the whole tree. A file in no package below the project
root (a root that is itself the nearest package counts as none) keeps the tree-wide rule.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from credo.knowledge.ingest.walk import by_this_reader, unique_names

MANIFESTS = ("package.json", "pyproject.toml", "go.mod", "Cargo.toml", "setup.py")


class Packages:
    """The packages of one run's tree, found on demand and kept."""

    def __init__(self, root: Path, files: Iterable[Path], is_file: Callable[[str], bool]) -> None:
        self._root = root
        self._files = list(files)
        self._is_file = is_file  # (the run's cached check)
        self._of: dict[Path, Path | None] = {}
        self._names: dict[Path, dict[str, Path]] = {}

    def of(self, folder: Path) -> Path | None:
        """The folder of the package holding ``folder`` (the nearest, itself included, up
        to the root, with a manifest), or None when there is none below the root."""
        if folder in self._of:
            return self._of[folder]
        found: Path | None = None
        if folder != self._root and self._root in folder.parents:
            if any(self._is_file(os.path.join(folder, name)) for name in MANIFESTS):
                found = folder
            else:
                found = self.of(folder.parent)
        self._of[folder] = found
        return found

    def names(self, package: Path) -> dict[str, Path]:
        """File name -> path, for names found exactly once among the package's files."""
        if package not in self._names:
            self._names[package] = unique_names(f for f in self._files if package in f.parents)
        return self._names[package]


def ledger_key_in(key: str, package: Path | None, root: Path) -> str:
    """The ledger key (`walk.ledger_key`) of a file read inside ``package``: what its bare
    names link to depends on the package, so a manifest that appears or goes above an
    unchanged file has it read again. A file in no package keeps the plain key."""
    if package is None or not by_this_reader(key):
        return key
    mark = hashlib.sha256(package.relative_to(root).as_posix().encode()).hexdigest()[:12]
    digest, _, reader = key.rpartition("/")
    return f"{digest}/p{mark}/{reader}"
