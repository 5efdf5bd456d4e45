"""The folder a store's file paths are relative to: chosen once, remembered in ``_meta``.

The rules (summed up in the README, "The store's root"):

- **Remembered.** A store keeps its root under the ``_meta`` key ``root``. Every later
  ingest, ``doctor`` (and ``--fix``), ``link``, ``anchors --doc``, the hook and the linker
  resolve paths against it, whatever the current folder. A SQLite store that lies inside
  its root keeps it relative to the store file's folder (``..`` for a work tree's
  ``.credo/memory.db``), so moving or copying the project moves the root with it; any
  other root is kept as an absolute path. A backup file keeps it absolute, and a restore
  relative again (store/backup.py). A relative root whose folder holds none of the ledger's
  files is the store file's, moved out of its project (``mv .credo/memory.db ~/stores/``:
  ``..`` now names ``~``): it is not used (the root is resolved as for a store made before),
  and the next such write keeps the root it used instead, absolute.
- **Chosen** by the first write that stores a file path relative to the root (an ingest, a
  ``link`` or ``remember --doc`` of a local file, an import of anchored records), from the
  first path it names (else the current folder): the git work tree holding that path; else
  the store's own folder (the folder holding ``.credo/`` for ``.credo/memory.db``) or the
  current folder, when it holds the path; else the folder ingested itself (a file's
  folder). The first two are what credo did before the root was remembered, so a store's
  paths keep their shape.
- **Stores made before** (no ``root`` kept): the root is the candidate (the work tree and
  the folders above the current folder, the store's folder and those above it) under which
  most of the ledger's (else the anchors') relative paths name existing files, so no anchor
  is lost; the default above when none does. It is remembered by the next such write.
- **A root that is gone** (an absolute root on another machine: a team's PostgreSQL store
  read from another checkout, or a copied store) is not used: the process resolves the root
  as for a store made before, and keeps the remembered one (another user's is as true).
- **Outside the root**, a file is stored as an absolute ``file:///`` URI (SYSTEM.md): it
  stays the same file from any folder, ``doctor`` checks it where it is, and a store can
  hold a second tree (notes beside a project) without refusing it.
- An explicit ``Memory(root=...)`` is the caller's choice for that object: used as given,
  remembered nowhere (a benchmark or a test names its root each time).
"""

from __future__ import annotations

import os
from pathlib import Path

from credo.config import STORE_DIR, git_root
from credo.store import Store
from credo.store.kept_root import PROBE, beside, holds_ledger

META_ROOT = "root"


class RootKeeper:
    """One ``Memory``'s view of its store's root (``explicit``: its ``root=`` argument)."""

    def __init__(self, store: Store, location: object, workdir: Path, explicit: Path | None):
        self.store, self.location, self.workdir = store, location, workdir
        self.explicit = explicit
        self.home = store_home(location)
        self._inferred: tuple[Path | None] | None = None  # (for a store made before)

    def current(self) -> Path:
        """The root now: a read's, or a write's that names no file first."""
        return self.for_write(None)

    def for_write(self, target: Path | None) -> Path:
        """The root a write of ``target`` (the first path it names) stores paths against."""
        if self.explicit is not None:
            return self.explicit
        kept = remembered(self.store, self.location)
        if kept is not None:
            return kept
        if self._inferred is None:
            self._inferred = (inferred_root(self.store, self.workdir, self.home),)
        found = self._inferred[0]
        return found if found is not None else default_root(target, self.workdir, self.home)

    def source(self) -> str:
        """Where ``current()`` comes from: "given" (``root=``), "kept" (the store's own),
        "inferred" (a store made before, from where its paths exist) or "default" (none
        yet: the first write of a path will keep one)."""
        if self.explicit is not None:
            return "given"
        if remembered(self.store, self.location) is not None:
            return "kept"
        self.current()  # (fills the inference)
        return "inferred" if self._inferred and self._inferred[0] is not None else "default"

    def for_doc(self, doc: object) -> Path | None:
        """The root a document reference is stored against; None for a web URL (or what is
        no reference: the caller's check refuses it), which names no file and so chooses
        no root."""
        target = local_target(doc, self.workdir) if isinstance(doc, str) else None
        return None if target is None else self.for_write(target)

    def keep(self, root: Path) -> None:
        """Remember ``root`` as the store's, unless ``root=`` was given or one is kept."""
        kept = self.store.meta_get(META_ROOT)
        if self.explicit is None and not _usable(self.store, kept, self.location):
            remember_root(self.store, self.location, root)
            self._inferred = None


def _usable(store: Store, value: str | None, location: object) -> bool:
    """Whether a kept value can name a root for this store (a relative one needs a store
    file: one copied into a PostgreSQL store by ``credo migrate`` names none, and is
    replaced; so is one whose folder holds none of the ledger's files: `remembered`)."""
    if not value:
        return False
    if Path(value).is_absolute():
        return True
    return isinstance(location, Path) and holds_ledger(store, beside(location, value))


def store_home(location: object) -> Path | None:
    """The folder a SQLite store file belongs to: its own, or the one holding ``.credo/``;
    None for a PostgreSQL store or a store in memory."""
    if not isinstance(location, Path) or str(location) == ":memory:":
        return None
    folder = Path(os.path.abspath(location)).parent
    return folder.parent if folder.name == STORE_DIR else folder


def remembered(store: Store, location: object) -> Path | None:
    """The root the store keeps, when it keeps one that exists here (a relative one: that
    holds one of the ledger's files, else the store file was moved out of its project)."""
    value = store.meta_get(META_ROOT)
    if not value:
        return None
    path = Path(value)
    if path.is_absolute():
        path = path.resolve()
        return path if path.is_dir() else None
    if not isinstance(location, Path):
        return None
    path = beside(location, value)
    return path if path.is_dir() and holds_ledger(store, path) else None


def remember_root(store: Store, location: object, root: Path) -> None:
    """Keep ``root`` as the store's (relative to the store file when the file lies in it)."""
    root = root.resolve()
    value = root.as_posix()
    if isinstance(location, Path) and str(location) != ":memory:":
        file = location.resolve()
        if root in file.parents:
            value = Path(os.path.relpath(root, file.parent)).as_posix()
    with store.transaction(), store.write_errors():  # (one the read caches see)
        if not _usable(store, store.meta_get(META_ROOT), location):  # (another may have chosen)
            store.meta_set(META_ROOT, value)


def default_root(target: Path | None, workdir: Path, home: Path | None) -> Path:
    """The root a store takes at its first write of ``target`` (see the module rules)."""
    here = Path(os.path.abspath(target)) if target is not None else workdir
    found = git_root(here)
    if found is not None:
        return found
    for base in (home, workdir):
        if base is not None and (here == base or base in here.parents):
            return base
    return here if here.is_dir() else here.parent


def inferred_root(store: Store, workdir: Path, home: Path | None) -> Path | None:
    """The folder under which most of a store's relative paths exist (None: no path does,
    or the store holds none)."""
    paths = _relative_paths(store)
    if not paths:
        return None
    best, best_count = None, 0
    for candidate in _candidates(workdir, home):
        count = sum(os.path.lexists(candidate / p) for p in paths)
        if count > best_count:
            best, best_count = candidate, count
    return best


def _relative_paths(store: Store) -> list[str]:
    # (the ledger's first paths, not all of it: 3,000 rows read cost a capture 25 ms)
    found = store.relative_file_paths(PROBE)
    if found:
        return found
    seen: dict[str, None] = {}
    for anchor in store.iter_anchors():
        base = anchor.doc_uri.partition("#")[0]
        if base and "://" not in base:
            seen.setdefault(base, None)
            if len(seen) >= PROBE:
                break
    return list(seen)


def _candidates(workdir: Path, home: Path | None) -> list[Path]:
    """The work tree first (the old default), then the folders from the current one up,
    then the store's folder and those above it; each once."""
    ordered: dict[Path, None] = {}
    found = git_root(workdir)
    if found is not None:
        ordered[found] = None
    for start in (workdir, home):
        if start is not None:
            for folder in (start, *start.parents):
                ordered.setdefault(folder, None)
    return list(ordered)


def local_target(doc: str, workdir: Path) -> Path | None:
    """The local file a document reference names (a relative one taken from ``workdir``),
    None for a web URL: only a file path needs a root."""
    base = doc.strip().partition("#")[0]
    if base.lower().startswith("file://"):
        from urllib.parse import unquote, urlsplit

        try:
            return Path(unquote(urlsplit(base).path))
        except ValueError:  # (an unclosed '[': normalise_doc_uri refuses it)
            return None
    if not base or "://" in base:
        return None
    path = Path(base).expanduser()
    return path if path.is_absolute() else workdir / path
