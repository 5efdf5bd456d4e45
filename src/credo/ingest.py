"""Document ingest: files and folders become beliefs anchored to their exact lines.

The rules (quoted in the docs):

- **Walk.** Folders are walked in name order. ``.gitignore`` files are honoured the way git
  reads them (a deeper file overrides a shallower one, ``!`` re-includes), including those
  in the folders between the project root and a folder given on the command line. The
  folders ``.git``, ``.credo``, ``__pycache__``, ``node_modules`` and ``.venv`` are never
  entered. Symbolic links are followed, but a folder already visited (by its device and
  inode) is not entered twice, so link loops end. A file named explicitly is read even if
  a ``.gitignore`` lists it: the user asked for it.
- **Skips** (counted by reason in the report, never an error): ``unsupported`` (an
  extension no splitter reads, see `credo.chunk.EXTENSIONS`, or a ``#`` in the path, which
  a document URI cannot hold), ``too_large`` (over `MAX_FILE_BYTES`), ``binary`` (a NUL
  byte in the first `SNIFF_BYTES`), ``not_utf8`` (not valid UTF-8) and ``unreadable`` (not
  a regular file, a dangling link, no permission, or an I/O error).
- **Unchanged files** (same sha256 as the ``ingested_files`` ledger records) are skipped.
- **Beliefs.** Each chunk of `credo.chunk.split_file` becomes one belief (origin
  ``document``, kind ``factual``) whose id derives from its normalised text the way
  ``Memory.remember`` derives it, so the same text anywhere is one belief: a belief whose
  text survives an edit keeps its id, and text found in several files is one belief with
  an anchor per file (each new file adds a corroboration). Within one file the first
  occurrence anchors the belief.
- **Anchors.** Each belief gets one ``ingest`` anchor per file, ``relpath#Lstart-Lend``
  with position_hint ``Lstart-Lend`` (a file outside the root is a ``file:///`` URI). On
  re-ingest the row is updated in place when the lines move. A path, file name or URL
  mentioned in a chunk (a link target or a bare word) becomes a ``derived`` anchor: URLs
  (``http``, ``https``, ``ftp``) as given, paths normalised and only when the file exists
  (relative to the chunk's file, then to the root; a bare file name also matches a file
  of that name found once in the walked tree).
- **Edges.** Every chunk is DERIVED_FROM its section's heading chunk, and every heading
  DERIVED_FROM its parent heading; in code, the scope's docstring plays the heading
  (method -> class -> module, comments -> their scope's docstring). A Markdown link to
  another file of the ingested tree (relative to the linking file, ``/`` meaning the root;
  ``#fragment`` and ``?query`` dropped) CITES that file's first top-level heading, else
  its first chunk. Edges are added, never removed, by ingest.
- **Vanished text.** After a file changes, a belief whose text left it loses nothing if it
  is still in the file elsewhere; otherwise it is marked stale (soft-deleted, the anchor
  kept for audit) when it is a ``document`` belief, unlocked, with no ``ingest`` anchor
  into another file; a belief that stands on another file, a locked one or one a person
  stated keeps living and only loses this file's anchor. A file that vanished from a
  folder being ingested is treated as emptied.
- **Atomicity and audit.** Each file is written in one transaction scope, all or nothing
  (consecutive files share a commit, at most `GROUP_FILES` files or `GROUP_SECONDS`, to
  amortise the fsync; a failure rolls the group back and its files are re-read next run);
  every write is logged
  in ``ingest_log`` (op ``ingest``, ``source_path`` the file's URI, the action in the
  payload). A file whose links point at files ingested later in the same run has its
  CITES edges and its ledger row written in one last transaction, so an interrupted run
  re-reads it next time instead of losing the edges.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pathspec

from credo import identity
from credo.chunk import Chunk, language_for, split_file
from credo.docuri import line_hint, normalise_doc_uri
from credo.edge_types import EDGE_VALENCE, Edge, EdgeType
from credo.errors import InvalidInputError
from credo.store import Store
from credo.store.rows import FileAnchor, IngestedFile, NewBelief
from credo.types import DocAnchor

# Larger files are logs, dumps or generated code, not documentation worth a belief per line.
MAX_FILE_BYTES = 2 * 1024 * 1024
# git's own binary test: a NUL byte within the first 8 KB.
SNIFF_BYTES = 8192
# Never entered: version control, credo's own store, caches and dependency trees.
SKIP_DIRS = frozenset({".git", ".credo", "__pycache__", "node_modules", ".venv"})
# A commit is shared by at most this many files or this many seconds of work (see
# `_CommitGroups`): enough to amortise the fsync, short enough not to hold the write lock.
GROUP_FILES = 64
GROUP_SECONDS = 0.5
SKIP_REASONS = ("unsupported", "too_large", "binary", "not_utf8", "unreadable")

ProgressFn = Callable[[int, int, str], None]
LogRow = tuple[float, str, str | None, str | None, dict[str, Any] | None]

# Schemes whose links are web documents; other "x:" links (mailto:, tel:) are not anchors.
_URL = re.compile(r"^(?:https?|ftp)://", re.I)
_ANY_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# A bare word that may name a file: it holds a "/" or ends in a short extension.
_PATHLIKE = re.compile(r"^(?:[\w.~-]+/)*[\w.-]+(?:/|\.[A-Za-z0-9]{1,10})$")
_WORD_EDGE = "`'\"()[]{}<>,;:!?*"


@dataclass(slots=True)
class IngestReport:
    """What one ``ingest_paths`` run did.

    ``beliefs_kept`` counts beliefs of changed files whose text and lines are unchanged,
    ``beliefs_moved`` those whose text survived at other lines (their anchor moved),
    ``beliefs_stale`` those marked stale. ``skipped`` maps a reason of `SKIP_REASONS` to a
    count; ``skipped_files`` lists (path, reason).
    """

    files_seen: int = 0
    files_ingested: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    skipped_files: list[tuple[str, str]] = field(default_factory=list)
    beliefs_added: int = 0
    beliefs_kept: int = 0
    beliefs_moved: int = 0
    beliefs_revived: int = 0
    beliefs_corroborated: int = 0
    beliefs_stale: int = 0
    edges_added: int = 0
    anchors_added: int = 0
    chunks_rejected: int = 0  # chunks belief validation refused (e.g. over the size limit)
    seconds: float = 0.0

    @property
    def files_skipped(self) -> int:
        return sum(self.skipped.values())

    def skip(self, path: str, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        self.skipped_files.append((path, reason))


def ingest_paths(
    store: Store,
    paths: Iterable[str | os.PathLike[str]],
    *,
    root: str | os.PathLike[str],
    progress: ProgressFn | None = None,
) -> IngestReport:
    """Ingest files and folders into ``store`` (see the module docstring for the rules).

    Args:
        store: the open store; each file is written in its own transaction.
        paths: files and folders; relative ones are taken from the current folder.
        root: the project root that document URIs are relative to.
        progress: called as ``progress(done, total, path)`` after each file.

    Raises:
        InvalidInputError: a given path does not exist (nothing is written then).
    """
    started = time.perf_counter()
    run = _Run(store, Path(root).resolve())
    starts = [_start_path(p) for p in paths]
    files = walk_files(starts, run.root)
    run.tree = {_uri(f, run.root): f for f in files}
    run.names = _unique_names(files)
    run.report.files_seen = len(files)
    with _CommitGroups(store) as group:
        for done, path in enumerate(files, 1):
            group.open()
            _ingest_one(run, path)
            group.file_done()
            if progress is not None:
                progress(done, len(files), run.uri(path))
    _retire_vanished(run, starts)
    _flush_deferred(run)
    run.report.seconds = time.perf_counter() - started
    return run.report


class _CommitGroups:
    """Several files' transactions share one commit.

    Each file still writes inside its own ``store.transaction()`` scope, which joins the
    group's: a file is all or nothing, and a failure rolls back the whole group (those
    files are simply re-read next run, their ledger rows went with them). Why: a durable
    commit costs an fsync, which for small files costs more than the file's own writes.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.scope: contextlib.AbstractContextManager[object] | None = None
        self.files = 0
        self.started = 0.0

    def __enter__(self) -> _CommitGroups:
        return self

    def open(self) -> None:
        if self.scope is None:
            self.scope = self.store.transaction()
            self.scope.__enter__()
            self.files = 0
            self.started = time.perf_counter()

    def file_done(self) -> None:
        self.files += 1
        if self.files >= GROUP_FILES or time.perf_counter() - self.started >= GROUP_SECONDS:
            self.__exit__(None, None, None)

    def __exit__(self, *exc: Any) -> None:
        scope, self.scope = self.scope, None
        if scope is not None:
            scope.__exit__(*exc)


# -- walking -------------------------------------------------------------------------------


def _start_path(raw: str | os.PathLike[str]) -> Path:
    # abspath, not resolve: a symlinked file keeps the path the user sees.
    path = Path(os.path.abspath(os.fspath(raw)))
    if not os.path.lexists(path):
        raise InvalidInputError(f"cannot ingest {os.fspath(raw)!r}: no such file or folder")
    return path


Specs = tuple[tuple[Path, pathspec.GitIgnoreSpec], ...]


def walk_files(starts: Sequence[Path], root: Path) -> list[Path]:
    """Candidate files under ``starts``, in walk order, each once (see the module rules)."""
    seen: dict[Path, None] = {}
    visited: set[tuple[int, int]] = set()
    for start in starts:
        if os.path.isdir(start):
            for path in _walk_dir(start, _ancestor_specs(start, root), visited):
                seen.setdefault(path, None)
        else:
            seen.setdefault(start, None)
    return list(seen)


def _ancestor_specs(folder: Path, root: Path) -> Specs:
    """The .gitignore files of the folders from the root down to ``folder``'s parent."""
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        return ()
    specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
    current = root
    for part in ("", *parts[:-1]):
        current = current / part if part else current
        spec = _load_spec(current)
        if spec is not None:
            specs.append((current, spec))
    return tuple(specs)


def _load_spec(folder: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        text = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


def _ignored(path: Path, is_dir: bool, specs: Specs) -> bool:
    # The deepest .gitignore with a matching pattern decides, as in git.
    for base, spec in reversed(specs):
        relative = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        verdict = spec.check_file(relative).include
        if verdict is not None:
            return verdict
    return False


def _walk_dir(top: Path, specs: Specs, visited: set[tuple[int, int]]) -> Iterator[Path]:
    stack: list[tuple[Path, Specs]] = [(top, specs)]
    while stack:
        folder, inherited = stack.pop()
        try:
            info = os.stat(folder)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in visited:
            continue  # a symlink loop or a second link to the same folder
        visited.add((info.st_dev, info.st_ino))
        own = _load_spec(folder)
        active = (*inherited, (folder, own)) if own is not None else inherited
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subfolders: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            is_dir = _is_dir(entry)
            if is_dir and entry.name in SKIP_DIRS:
                continue
            if _ignored(path, is_dir, active):
                continue
            if is_dir:
                subfolders.append(path)
            elif entry.name != ".gitignore":
                yield path  # files, and links that lead nowhere (reported unreadable)
        stack.extend((sub, active) for sub in reversed(subfolders))


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _unique_names(files: Iterable[Path]) -> dict[str, Path]:
    """File name -> path, for names found exactly once in the tree."""
    counts: dict[str, list[Path]] = {}
    for path in files:
        counts.setdefault(path.name, []).append(path)
    return {name: paths[0] for name, paths in counts.items() if len(paths) == 1}


# -- one run -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Deferred:
    """A changed file whose CITES wait for targets ingested later in the run."""

    ledger: IngestedFile
    cites: list[tuple[str, str]]  # (citing belief id, target file URI)


class _Run:
    def __init__(self, store: Store, root: Path) -> None:
        self.store = store
        self.root = root
        self.report = IngestReport()
        self.tree: dict[str, Path] = {}  # URI -> path of every walked file
        self.names: dict[str, Path] = {}
        self.first_belief: dict[str, str | None] = {}  # URI -> cite target, once known
        self.deferred: list[_Deferred] = []
        self._uris: dict[Path, str] = {}
        self._exists: dict[Path, bool] = {}
        self._links: dict[tuple[str, Path], Path | None] = {}

    def uri(self, path: Path) -> str:
        found = self._uris.get(path)
        if found is None:
            found = self._uris[path] = _uri(path, self.root)
        return found

    def link_path(self, link: str, source: Path) -> Path | None:
        key = (link, source.parent)
        if key not in self._links:
            self._links[key] = _link_path(link, source, self.root)
        return self._links[key]

    def is_file(self, path: Path) -> bool:
        found = self._exists.get(path)
        if found is None:
            found = self._exists[path] = os.path.isfile(path)
        return found

    def cite_target(self, uri: str) -> str | None:
        """The belief a link to ``uri`` cites, if that file's ingest is already written."""
        if uri not in self.first_belief:
            row = self.store.get_ingested_file(uri)
            if row is None:
                return None
            self.first_belief[uri] = row.first_belief
        return self.first_belief[uri]


def _uri(path: Path, root: Path) -> str:
    return normalise_doc_uri(os.fspath(path), root=root).uri


@dataclass(frozen=True, slots=True)
class _Read:
    text: str
    digest: str
    size: int
    mtime: float


def _read(path: Path) -> _Read | str:
    """The file's text, or the reason it is skipped."""
    if "#" in path.as_posix() or language_for(path.name) is None:
        return "unsupported"
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return "unreadable"  # a FIFO would block, a device would never end
        if info.st_size > MAX_FILE_BYTES:
            return "too_large"
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return "unreadable"
    if len(data) > MAX_FILE_BYTES:
        return "too_large"
    if b"\x00" in data[:SNIFF_BYTES]:
        return "binary"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "not_utf8"
    return _Read(text, hashlib.sha256(data).hexdigest(), len(data), info.st_mtime)


def _ingest_one(run: _Run, path: Path) -> None:
    uri = run.uri(path)
    read = _read(path)
    if isinstance(read, str):
        run.report.skip(uri, read)
        return
    prior = run.store.get_ingested_file(uri)
    if prior is not None and prior.content_hash == read.digest:
        run.report.files_unchanged += 1
        run.first_belief[uri] = prior.first_belief
        return
    chunks = split_file(path.name, read.text)
    with run.store.transaction(), run.store.write_errors():
        _FileWriter(run, path, uri, read, chunks).write()
    run.report.files_ingested += 1


# -- writing one file ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Piece:
    index: int  # position in the chunk list
    chunk: Chunk
    content: str
    digest: str


class _FileWriter:
    """Writes one changed file inside the caller's transaction."""

    def __init__(
        self, run: _Run, path: Path, uri: str, read: _Read | None, chunks: list[Chunk]
    ) -> None:
        self.run = run
        self.store = run.store
        self.report = run.report
        self.path = path
        self.uri = uri
        self.read = read
        self.chunks = chunks
        self.now = time.time()
        self.log: list[LogRow] = []
        self.ids: dict[int, str] = {}  # chunk index -> belief id

    def note(self, belief_id: str | None, payload: dict[str, Any]) -> None:
        self.log.append((self.now, "ingest", belief_id, self.uri, payload))

    def write(self) -> None:
        """Beliefs, anchors, edges, the ledger row and the log of one changed file."""
        pieces = self._pieces()
        old = {a.belief.id: a for a in self.store.ingest_anchors_of_file(self.uri)}
        self._write_beliefs(pieces, old)
        self._retire(old, keep=set(self.ids.values()))
        cites = self._write_structure_and_cites()
        self._write_derived_anchors(pieces)
        assert self.read is not None
        ledger = IngestedFile(
            self.uri,
            self.read.digest,
            self.read.size,
            self.read.mtime,
            self.now,
            len(set(self.ids.values())),
            self._cite_target_id(),
        )
        self.run.first_belief[self.uri] = ledger.first_belief
        if cites:
            self.run.deferred.append(_Deferred(ledger, cites))
        else:
            self.store.record_ingested_files([ledger])
        self.store.append_log(self.log)

    def write_vanished(self) -> None:
        """The file is gone from its folder: retire its beliefs as if it were emptied."""
        old = {a.belief.id: a for a in self.store.ingest_anchors_of_file(self.uri)}
        self._retire(old, keep=set())
        self.store.drop_ingested_file(self.uri)
        self.note(None, {"action": "vanished"})
        self.store.append_log(self.log)

    # -- beliefs and their ingest anchors --------------------------------------------------
    def _pieces(self) -> list[_Piece]:
        pieces: list[_Piece] = []
        for index, chunk in enumerate(self.chunks):
            try:
                content = identity.clean_content(chunk.text)
            except InvalidInputError:
                self.report.chunks_rejected += 1
                continue
            pieces.append(_Piece(index, chunk, content, identity.content_hash(content)))
        return pieces

    def _write_beliefs(self, pieces: list[_Piece], old: dict[str, FileAnchor]) -> None:
        firsts: dict[str, _Piece] = {}
        for piece in pieces:
            firsts.setdefault(piece.digest, piece)  # the first occurrence anchors the belief
        found = self.store.beliefs_by_hash(firsts)
        fresh = _free_ids(self.store, [d for d in firsts if d not in found])
        ids = {d: (found[d].id if d in found else fresh[d]) for d in firsts}
        self.ids = {piece.index: ids[piece.digest] for piece in pieces}
        new_beliefs = [self._new_belief(ids[d], firsts[d]) for d in fresh]
        self.store.insert_beliefs(new_beliefs)
        self._revive([key.id for key in found.values() if key.deleted_at is not None])
        unanchored: list[tuple[str, _Piece]] = []
        for digest, piece in firsts.items():
            anchor = old.get(ids[digest])
            if anchor is not None:
                self._keep_or_move(anchor, piece)
                continue
            unanchored.append((ids[digest], piece))
            if digest in found:
                self._corroborate(ids[digest])
        self._add_ingest_anchors(unanchored)

    def _revive(self, ids: list[str]) -> None:
        """Stale beliefs whose text is back. Their ingest anchors into other files were
        kept for audit of files the text had left (a stale belief stands on no file), so
        they go now: a live belief's anchors must be true."""
        if not ids:
            return
        self.store.set_deleted_many(ids, None, self.now)
        self.report.beliefs_revived += len(ids)
        for belief_id in ids:
            self.note(belief_id, {"action": "revive"})
        leftovers = self.store.ingest_anchors_elsewhere(ids, self.uri)
        self.store.delete_anchors(leftovers)
        for belief_id, doc_uri in leftovers:
            self.note(belief_id, {"action": "unanchor", "doc_uri": doc_uri})

    def _new_belief(self, belief_id: str, piece: _Piece) -> NewBelief:
        self.report.beliefs_added += 1
        self.note(
            belief_id,
            {
                "action": "add",
                "content": piece.content,
                "kind": "factual",
                "origin": "document",
                "lines": _hint(piece.chunk),
            },
        )
        return NewBelief(
            belief_id,
            piece.content,
            piece.digest,
            "factual",
            "document",
            False,
            1.0,
            1.0,
            None,
            self.now,
            self.now,
        )

    def _corroborate(self, belief_id: str) -> None:
        # Text already known from elsewhere: this file is one more witness for it.
        self.store.add_corroboration(belief_id, self.uri, None, self.now)
        self.report.beliefs_corroborated += 1
        self.note(belief_id, {"action": "corroborate"})

    def _keep_or_move(self, anchor: FileAnchor, piece: _Piece) -> None:
        new_uri = self._anchor_uri(piece.chunk)
        if anchor.doc_uri == new_uri:
            self.report.beliefs_kept += 1
            return
        self.store.move_anchor(anchor.belief.id, anchor.doc_uri, new_uri, _hint(piece.chunk))
        self.report.beliefs_moved += 1
        self.note(anchor.belief.id, {"action": "move", "from": anchor.doc_uri, "to": new_uri})

    def _add_ingest_anchors(self, anchors: list[tuple[str, _Piece]]) -> None:
        rows = [
            DocAnchor(belief_id, self._anchor_uri(p.chunk), "ingest", _hint(p.chunk), self.now)
            for belief_id, p in anchors
        ]
        self._insert_anchors(rows)

    def _insert_anchors(self, rows: list[DocAnchor]) -> None:
        # A manual anchor may already hold the same URI; it stays, and nothing is logged.
        present = self.store.existing_anchor_keys((a.belief_id, a.doc_uri) for a in rows)
        rows = [a for a in rows if (a.belief_id, a.doc_uri) not in present]
        self.store.insert_anchors(rows)
        self.report.anchors_added += len(rows)
        for a in rows:
            self.note(
                a.belief_id,
                {
                    "action": "anchor",
                    "doc_uri": a.doc_uri,
                    "anchor_type": a.anchor_type,
                    "position_hint": a.position_hint,
                },
            )

    def _anchor_uri(self, chunk: Chunk) -> str:
        return f"{self.uri}#{_hint(chunk)}"

    def _retire(self, old: dict[str, FileAnchor], keep: set[str]) -> None:
        """Beliefs whose text left the file: stale, or only unanchored (module rules)."""
        gone = [a for a in old.values() if a.belief.id not in keep and a.belief.deleted_at is None]
        if not gone:
            return
        elsewhere = {
            belief_id
            for belief_id, _ in self.store.ingest_anchors_elsewhere(
                [a.belief.id for a in gone], self.uri
            )
        }
        stale: list[str] = []
        unanchor: list[tuple[str, str]] = []
        for anchor in gone:
            belief = anchor.belief
            if belief.origin == "document" and not belief.locked and belief.id not in elsewhere:
                stale.append(belief.id)
                self.note(belief.id, {"action": "stale", "doc_uri": anchor.doc_uri})
            else:
                unanchor.append((belief.id, anchor.doc_uri))
                self.note(belief.id, {"action": "unanchor", "doc_uri": anchor.doc_uri})
        self.store.set_deleted_many(stale, self.now, self.now)
        self.store.delete_anchors(unanchor)
        self.report.beliefs_stale += len(stale)

    # -- edges ------------------------------------------------------------------------------
    def _write_structure_and_cites(self) -> list[tuple[str, str]]:
        """Write DERIVED_FROM and the CITES whose target is known; return deferred CITES."""
        edges: list[Edge] = []
        deferred: list[tuple[str, str]] = []
        for index, belief_id in self.ids.items():
            chunk = self.chunks[index]
            if chunk.heading_index is not None and chunk.heading_index in self.ids:
                edges.append(self._edge(belief_id, self.ids[chunk.heading_index], "DERIVED_FROM"))
            for target_uri in self._cited_files(chunk):
                if target_uri in self.run.first_belief or target_uri not in self.run.tree:
                    target = self.run.cite_target(target_uri)
                    if target is not None:
                        edges.append(self._edge(belief_id, target, "CITES"))
                else:
                    deferred.append((belief_id, target_uri))  # ingested later in this run
        for edge in _insert_new_edges(self.store, edges):
            self.report.edges_added += 1
            self.note(edge.src, _edge_payload(edge))
        return deferred

    def _edge(self, src: str, dst: str, type_name: str) -> Edge:
        edge_type = EdgeType(type_name)
        return Edge(src, dst, edge_type, EDGE_VALENCE[edge_type], None, self.now)

    def _cited_files(self, chunk: Chunk) -> list[str]:
        """URIs of the other files of the ingested tree this chunk links to."""
        cited: list[str] = []
        for link in chunk.links:
            path = self.run.link_path(link, self.path)
            if path is None:
                continue
            uri = self.run.uri(path)
            if uri != self.uri and uri not in cited:
                cited.append(uri)
        return cited

    def _cite_target_id(self) -> str | None:
        """What links to this file cite: the first top-level heading, else the first chunk."""
        for index, belief_id in self.ids.items():
            chunk = self.chunks[index]
            if chunk.role == "heading" and chunk.heading_index is None:
                return belief_id
        return next(iter(self.ids.values()), None)

    # -- derived anchors --------------------------------------------------------------------
    def _write_derived_anchors(self, pieces: list[_Piece]) -> None:
        rows: dict[tuple[str, str], DocAnchor] = {}
        for piece in pieces:
            belief_id = self.ids[piece.index]
            for uri in self._mentions(piece.chunk):
                rows.setdefault(
                    (belief_id, uri), DocAnchor(belief_id, uri, "derived", None, self.now)
                )
        self._insert_anchors(list(rows.values()))

    def _mentions(self, chunk: Chunk) -> list[str]:
        """URLs and existing files the chunk names, as document URIs, each once."""
        found: dict[str, None] = {}
        for link in chunk.links:
            if _URL.match(link):
                self._add_url(found, link)
            else:
                path = self.run.link_path(link, self.path)
                if path is not None and self.run.is_file(path):
                    found.setdefault(self.run.uri(path), None)
        for word in chunk.text.split():
            path = self._bare_path(word)
            if path is not None:
                found.setdefault(self.run.uri(path), None)
        return list(found)

    def _add_url(self, found: dict[str, None], link: str) -> None:
        # A URL too long or with control characters is not worth an anchor.
        with contextlib.suppress(InvalidInputError):
            found.setdefault(normalise_doc_uri(link).uri, None)

    def _bare_path(self, word: str) -> Path | None:
        """The existing file a bare word names, if any (see the module rules)."""
        if "/" not in word and "." not in word:
            return None  # most words: no regex, no disk
        word = word.strip(_WORD_EDGE).rstrip(".")
        if "://" in word or not _PATHLIKE.match(word):
            return None
        relative = word.lstrip("/")
        for base in (self.path.parent, self.run.root):
            candidate = Path(os.path.normpath(base / relative))
            if self.run.is_file(candidate):
                return candidate
        return self.run.names.get(word) if "/" not in word else None


# -- helpers -------------------------------------------------------------------------------


def _hint(chunk: Chunk) -> str:
    return line_hint(chunk.start_line, chunk.end_line)


def _free_ids(store: Store, digests: list[str]) -> dict[str, str]:
    """New belief ids for new texts: 'b' + hash prefix, lengthened until unused (as
    ``Memory.remember`` does), checked for the whole file in one query."""
    ids = {d: identity.derived_id(d) for d in digests}
    taken = store.content_hashes(ids.values())
    used: set[str] = set()
    for digest, belief_id in ids.items():
        width = len(belief_id)
        while (taken.get(belief_id) not in (None, digest)) or belief_id in used:
            width += 4  # a 60-bit prefix collision: extend the prefix until it is unique
            belief_id = "b" + digest[: width - 1]
            taken.update(store.content_hashes([belief_id]))
        ids[digest] = belief_id
        used.add(belief_id)
    return ids


def _link_path(link: str, source: Path, root: Path) -> Path | None:
    """The local file a Markdown link target names, or None for URLs and in-page links."""
    if _ANY_SCHEME.match(link):
        return None  # http:, mailto:, file: ... are not files of the tree
    target = unquote(link.split("#", 1)[0].split("?", 1)[0]).strip()
    if not target:
        return None
    base = root if target.startswith("/") else source.parent
    return Path(os.path.normpath(base / target.lstrip("/")))


def _edge_payload(edge: Edge) -> dict[str, Any]:
    return {"action": "edge", "dst": edge.dst, "type": edge.type.value, "weight": edge.weight}


def _insert_new_edges(store: Store, edges: list[Edge]) -> list[Edge]:
    """Insert the edges not yet stored (self-edges dropped); return those inserted."""
    unique: dict[tuple[str, str, str], Edge] = {}
    for edge in edges:
        if edge.src != edge.dst:
            unique.setdefault((edge.src, edge.dst, edge.type.value), edge)
    present = store.existing_edge_keys(unique)
    added = [edge for key, edge in unique.items() if key not in present]
    store.insert_edges(added)
    return added


def _retire_vanished(run: _Run, starts: Sequence[Path]) -> None:
    """Files the ledger knows under a walked folder that are gone from the disk."""
    for start in starts:
        if not os.path.isdir(start):
            continue
        prefix = "" if start == run.root else run.uri(start) + "/"
        for row in run.store.ingested_files(prefix):
            if row.path in run.tree or _ledger_path_exists(row.path, run.root):
                continue
            with run.store.transaction(), run.store.write_errors():
                _FileWriter(run, run.root / row.path, row.path, None, []).write_vanished()
            run.report.files_removed += 1


def _ledger_path_exists(uri: str, root: Path) -> bool:
    if uri.startswith("file://"):
        return os.path.lexists(unquote(uri[len("file://") :]))
    return os.path.lexists(root / uri)


def _flush_deferred(run: _Run) -> None:
    """The CITES that waited for later files, and the ledger rows of their files."""
    if not run.deferred:
        return
    now = time.time()
    with run.store.transaction(), run.store.write_errors():
        log: list[LogRow] = []
        for item in run.deferred:
            edges = []
            for src, target_uri in item.cites:
                target = run.cite_target(target_uri)
                if target is not None:
                    edges.append(Edge(src, target, EdgeType.CITES, EDGE_VALENCE[EdgeType.CITES]))
            for edge in _insert_new_edges(run.store, [_at(e, now) for e in edges]):
                run.report.edges_added += 1
                log.append((now, "ingest", edge.src, item.ledger.path, _edge_payload(edge)))
        run.store.record_ingested_files(item.ledger for item in run.deferred)
        run.store.append_log(log)
    run.deferred.clear()


def _at(edge: Edge, now: float) -> Edge:
    return Edge(edge.src, edge.dst, edge.type, edge.weight, edge.anchor_text, now)
