"""What one ingest run knows: its report, the caches of URIs, links and file checks it
fills as it goes, and the changed files whose CITES wait for files read later in the run."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote

from credo.edge_types import Edge
from credo.knowledge.docuri import normalise_doc_uri
from credo.knowledge.identity import MAX_CONTENT_CHARS
from credo.knowledge.ingest.package import Packages
from credo.store.edge_files import EdgeSource
from credo.store.rows import IngestedFile

if TYPE_CHECKING:  # (annotations only: the protocol's class costs ~1 ms to build)
    from credo.store import Store

LogRow = tuple[float, str, str | None, str | None, dict[str, Any] | None]
# Any "x:" link (http:, mailto:, file: ...) names no file of the tree.
_ANY_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


# The run's records are a plain class and a NamedTuple, not dataclasses: an ingest of a
# code tree loads no `dataclasses` (~29M instructions to import, ~3.5M to build each class).
_REPORT_FIELDS = (
    "files_seen",
    "files_ingested",
    "files_unchanged",
    "files_removed",
    "skipped",
    "skipped_files",
    "beliefs_added",
    "beliefs_kept",
    "beliefs_moved",
    "beliefs_revived",
    "beliefs_corroborated",
    "beliefs_stale",
    "edges_added",
    "edges_removed",
    "anchors_added",
    "chunks_rejected",  # chunks belief validation refused (e.g. over the size limit)
    "chunks_rejected_at",  # where each was: FILE#Lstart-Lend
    "seconds",
)


# Vendored folders (and secret files) a report's summary names; past them, it counts the rest.
_LISTED_VENDORED = 5
# Skip reasons a walk gives to whole folders (their URIs end in "/"): counted as folders.
_FOLDERS = frozenset({"vendored", "sphinx_build"})


class IngestReport:
    """What one ``ingest_paths`` run did.

    ``beliefs_kept`` counts beliefs of changed files whose text and lines are unchanged,
    ``beliefs_moved`` those whose text survived at other lines (their anchor moved),
    ``beliefs_stale`` those marked stale. ``skipped`` maps a reason of `SKIP_REASONS` to a
    count; ``skipped_files`` lists (path, reason). Every counter starts at zero; the
    fields are listed in ``_fields`` (what ``--json`` prints, in that order).
    """

    __slots__ = _REPORT_FIELDS
    _fields = _REPORT_FIELDS

    def __init__(self) -> None:
        self.files_seen = 0
        self.files_ingested = 0
        self.files_unchanged = 0
        self.files_removed = 0
        self.skipped: dict[str, int] = {}
        self.skipped_files: list[tuple[str, str]] = []
        self.beliefs_added = 0
        self.beliefs_kept = 0
        self.beliefs_moved = 0
        self.beliefs_revived = 0
        self.beliefs_corroborated = 0
        self.beliefs_stale = 0
        self.edges_added = 0
        self.edges_removed = 0
        self.anchors_added = 0
        self.chunks_rejected = 0
        self.chunks_rejected_at: list[str] = []
        self.seconds = 0.0

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"IngestReport({values})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IngestReport):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._fields)

    __hash__ = None  # type: ignore[assignment]  # (mutable, as the dataclass was)

    @property
    def files_skipped(self) -> int:
        return sum(self.skipped.values())

    def skip(self, path: str, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        self.skipped_files.append((path, reason))

    def _found_again(self) -> str:
        """The passages whose text the store already held, said only when there are some: a
        renamed file's passages are all of them (its old file's anchors left with it), and a
        summary without them accounts for none of its passages."""
        known = self.beliefs_corroborated
        said = (
            f", {known} read before (the same text in another file, or before a rename)"
            if known
            else ""
        )
        return said + (f", {self.beliefs_revived} revived" if self.beliefs_revived else "")

    def summary(self) -> str:
        """The report in two lines, as `credo ingest` prints it."""
        skipped = ", ".join(
            f"{n} {reason}" + (" folder" + "s" * (n > 1) if reason in _FOLDERS else "")
            for reason, n in sorted(self.skipped.items())
            if n
        )
        vendored = [path for path, reason in self.skipped_files if reason == "vendored"]
        built = [path for path, reason in self.skipped_files if reason == "sphinx_build"]
        # (a file left out for its name, .netrc or .env, may be one the user meant to read)
        secret = [path for path, reason in self.skipped_files if reason == "secrets"]
        return (
            f"{_count(self.files_ingested, 'file')} ingested, {self.files_unchanged} unchanged"
            + (f", {self.files_removed} removed" if self.files_removed else "")
            + (f", skipped: {skipped}" if skipped else "")
            + f"\nbeliefs: {self.beliefs_added} added, {self.beliefs_kept} kept, "
            f"{self.beliefs_moved} moved, {self.beliefs_stale} stale"
            + self._found_again()
            + f"; {_count(self.edges_added, 'edge')}, {_count(self.anchors_added, 'anchor')}"
            f" in {self.seconds:.1f} s"
            + (
                "\nleft out as vendored (name a folder, or use --vendored, to read it): "
                + _listed(vendored)
                if vendored
                else ""
            )
            + (
                "\nleft out as a Sphinx build's copies (name a folder to read it): "
                + _listed(built)
                if built
                else ""
            )
            + ("\nleft out as holding secrets: " + _listed(secret) if secret else "")
            + (
                f"\n{self.chunks_rejected} passage{'s' * (self.chunks_rejected > 1)} left out "
                f"(over {MAX_CONTENT_CHARS} characters or holding a NUL)"
                + (": " + _listed(self.chunks_rejected_at) if self.chunks_rejected_at else "")
                if self.chunks_rejected
                else ""
            )
        )


def _count(n: int, noun: str) -> str:
    """``"1 file"``, ``"2 files"``, ``"0 files"``."""
    return f"{n} {noun}" + "s" * (n != 1)


def _listed(paths: list[str]) -> str:
    """The first few ``paths``, and how many more."""
    more = len(paths) - _LISTED_VENDORED
    return ", ".join(paths[:_LISTED_VENDORED]) + (f" and {more} more" if more > 0 else "")


class Deferred(NamedTuple):
    """A changed file whose CITES wait for targets ingested later in the run."""

    ledger: IngestedFile
    cites: list[tuple[str, str]]  # (citing belief id, target file URI)
    stated: dict[EdgeSource, Edge]  # the file's other edges (`writer.FileWriter.stated`)
    pending: set[tuple[str, str]]  # its links with no target so far (`FileWriter.pending`)


class Run:
    def __init__(self, store: Store, root: Path) -> None:
        self.store = store
        self.root = root  # resolved by the caller (`ingest_paths`): URIs rely on it
        self.root_name = os.fspath(root)
        self.report = IngestReport()
        self.tree: dict[str, Path] = {}  # URI -> path of every walked file
        self.names: dict[str, Path] = {}
        self.packages = Packages(root, (), self.is_file)  # (the walked files: `ingest_paths`)
        self.first_belief: dict[str, str | None] = {}  # URI -> cite target, once known
        self.added: set[str] = set()  # URIs of the files the ledger did not know (`_prepare`)
        self.unchanged: set[str] = set()  # URIs of the files found unchanged
        self.deferred: list[Deferred] = []
        self.outside: set[str] = set()  # URIs of files reached by a link out of the tree
        self.stubs: set[str] = set()  # URIs of .pyi stubs left out beside their .py (walk)
        # (belief id, file URI): a passage that left the file while a copy elsewhere holds it
        self.unhoused: list[tuple[str, str]] = []
        self.walked: list[str] = []  # URI prefixes of the folders walked ("": the root)
        self._uris: dict[Path, str] = {}
        self._exists: dict[str, bool] = {}  # keyed by the path's text: most are built as text
        self._links: dict[tuple[str, Path], Path | None] = {}
        # (bare word, folder of the file holding it) -> the file it names (writer._mentions)
        self.bare_paths: dict[tuple[str, Path], Path | None] = {}
        self.urls: dict[str, str | None] = {}  # link -> its document URI, None if refused

    def uri(self, path: Path) -> str:
        found = self._uris.get(path)
        if found is None:
            found = self._uris[path] = file_uri(path, self.root)
        return found

    def link_path(self, link: str, folder: Path) -> Path | None:
        """The local file `link`, written in a file of `folder`, names (`_link_path`)."""
        key = (link, folder)
        if key not in self._links:
            self._links[key] = _link_path(link, folder, self.root)
        return self._links[key]

    def leaving(self, uri: str) -> bool:
        """Whether the file of ``uri`` is one this run's walk no longer reads (retired at
        its end: `run._retire_vanished`), though it may still be on the disk."""
        return uri not in self.tree and any(uri.startswith(p) for p in self.walked)

    def is_file(self, path: str | Path) -> bool:
        key = os.fspath(path)
        found = self._exists.get(key)
        if found is None:
            found = self._exists[key] = os.path.isfile(key)
        return found

    def cite_target(self, uri: str) -> str | None:
        """The belief a link to ``uri`` cites, if that file's ingest is already written."""
        if uri not in self.first_belief:
            row = self.store.get_ingested_file(uri)
            if row is None:
                return None
            self.first_belief[uri] = row.first_belief
        return self.first_belief[uri]


def file_uri(path: Path, root: Path) -> str:
    """The document URI of ``path`` under ``root``, which is already resolved (`Run`)."""
    return normalise_doc_uri(os.fspath(path), root=root, root_resolved=True).uri


def _link_path(link: str, folder: Path, root: Path) -> Path | None:
    """The local file a link target written in a file of `folder` names, or None for URLs
    and in-page links."""
    if _ANY_SCHEME.match(link):
        return None  # http:, mailto:, file: ... are not files of the tree
    target = unquote(link.split("#", 1)[0].split("?", 1)[0]).strip()
    if not target:
        return None
    base = root if target.startswith("/") else folder
    return Path(os.path.normpath(base / target.lstrip("/")))


def file_exists(uri: str, root: Path) -> bool:
    """Whether the file a ledger or anchor URI (no fragment) names is on the disk."""
    if uri.startswith("file://"):
        return os.path.lexists(unquote(uri[len("file://") :]))
    return os.path.lexists(root / uri)
