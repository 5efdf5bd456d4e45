"""One ingest run (``ingest_paths``): walk, write each changed file in commit groups, retire
the files that vanished and the derived anchors to them, then write the CITES that waited
for later files."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote

from credo.edge_types import Edge, EdgeType
from credo.errors import InvalidInputError
from credo.knowledge.ingest.edges import ingest_edge, settle
from credo.knowledge.ingest.package import Packages, ledger_key_in
from credo.knowledge.ingest.pool import Splitter, splitter
from credo.knowledge.ingest.split import Split
from credo.knowledge.ingest.state import IngestReport, LogRow, Run, file_exists
from credo.knowledge.ingest.walk import (
    STALE_REASONS,
    Read,
    hidden_by_walk,
    read_file,
    start_path,
    stubs_beside_sources,
    unique_names,
    walk_files,
)
from credo.knowledge.ingest.writer import FileWriter
from credo.store.edge_files import UNSETTLED, EdgeSource
from credo.types import trail_of

if TYPE_CHECKING:  # (annotations only: the protocol's class costs ~1 ms to build)
    from credo.store import Store

CITES = EdgeType.CITES.value

# A commit is shared by at most this many files or this many seconds of work (see
# `CommitGroups`): enough to amortise the fsync, short enough not to hold the write lock.
GROUP_FILES = 64
GROUP_SECONDS = 0.5

ProgressFn = Callable[[int, int, str], None]


def ingest_paths(
    store: Store,
    paths: Iterable[str | os.PathLike[str]],
    *,
    root: str | os.PathLike[str],
    progress: ProgressFn | None = None,
    workers: int | None = None,
    vendored: bool = False,
) -> IngestReport:
    """Ingest files and folders into ``store`` (the rules: `credo.knowledge.ingest`).

    Args:
        store: the open store; each file is written in its own transaction.
        paths: files and folders; relative ones are taken from the current folder.
        root: the project root that document URIs are relative to.
        progress: called as ``progress(done, total, path)`` after each file.
        workers: processes that split changed files ahead of the writer (`ingest.pool`);
            None chooses: `pool.WORKERS_ENV`, else the idle CPUs when the changed files
            are worth it; 0 splits in this process.
        vendored: walk into vendored folders (``vendor/``, ``third_party/``...:
            `walk.VENDORED_DIRS`) too; by default a folder's walk leaves them out and
            reports each (reason ``vendored``). A folder named in ``paths`` is read anyway.

    Raises:
        InvalidInputError: a given path does not exist (nothing is written then).
    """
    started = time.perf_counter()
    run = Run(store, Path(root).resolve())
    starts = [start_path(p) for p in paths]
    files, outside, left_out, agent, built = walk_files(starts, run.root, vendored=vendored)
    run.report.files_seen = len(files) + len(outside) + len(agent)
    for folders, reason in ((left_out, "vendored"), (built, "sphinx_build")):
        for folder in folders:  # (a folder: its URI ends in "/")
            with contextlib.suppress(InvalidInputError):  # (a name no URI can hold: not said)
                run.report.skip(run.uri(folder) + "/", reason)
    for path in agent:  # (a name no URI can hold was never stored: not said)
        with contextlib.suppress(InvalidInputError):
            run.report.skip(run.uri(path), "agent_config")
    for path in outside:  # (by the link's own path: where the user sees it)
        run.report.skip(os.fspath(path), "outside")
        with contextlib.suppress(InvalidInputError):  # (such a name was never stored)
            run.outside.add(run.uri(path))
    stubs = set(stubs_beside_sources(files))
    for path in stubs:  # (the .py beside each is read: the stub only repeats it)
        with contextlib.suppress(InvalidInputError):  # (such a name was never stored)
            run.report.skip(run.uri(path), "stub")
            run.stubs.add(run.uri(path))
    files = _nameable(run, [f for f in files if f not in stubs])
    run.tree = {run.uri(f): f for f in files}
    run.walked = _walked(run, starts)
    run.names = unique_names(files)
    run.packages = Packages(run.root, files, run.is_file)
    split = splitter(store, files, [run.uri(f) for f in files], workers)
    try:
        group = CommitGroup(run, progress, len(files))
        for path in files:
            split.reached(path)
            group.add(_prepare(run, path, split))
        group.write()
    except BaseException:
        split.close(abort=True)  # Ctrl-C or a failed write: the workers' files are moot
        raise
    split.close()
    _read_namers_again(run)
    _retire_vanished(run, starts, vendored=vendored)
    _read_copies_again(run)
    _drop_gone_mentions(run, starts)
    _flush_deferred(run)
    _retarget_cites(run)
    _settle_off_ledger(run)
    run.report.seconds = time.perf_counter() - started
    return run.report


def _nameable(run: Run, files: list[Path]) -> list[Path]:
    """The files an anchor can name. A name with control characters or non-UTF-8 bytes
    cannot be stored as a document URI: that file is skipped as one credo does not read,
    and the run goes on (it used to fail whole on such a name). Each URI is made once here
    and kept by the run."""
    kept: list[Path] = []
    for path in files:
        try:
            run.uri(path)
        except InvalidInputError:
            run.report.skip(repr(os.fspath(path)), "unsupported")
        else:
            kept.append(path)
    return kept


class Prepared(NamedTuple):
    """A file read, checked against the ledger and split, waiting for its group's write:
    ``read`` is the read or the reason the file is skipped; ``done`` its split (None: the
    file is unchanged, or skipped); ``first`` an unchanged file's first belief, which the
    run learns only at its turn to write, as it did when each file was read at its turn."""

    path: Path
    uri: str
    read: Read | str
    done: Split | None
    first: str | None = None


class CommitGroup:
    """Several files' writes share one commit; the files are read and split before it
    begins.

    Each file still writes inside its own ``store.transaction()`` scope, which joins the
    group's: a file is all or nothing, and a failure rolls back the whole group (those
    files are simply re-read next run, their ledger rows went with them). Why a group: a
    durable commit costs an fsync, which for small files costs more than the file's own
    writes. Why split first: the write lock is then held only while the group writes.
    Begun before the group's first file, the transaction held it through every split of
    the group too, and the moment between one commit and the next BEGIN was too short for
    another writer's busy wait to find: a ``credo remember`` or a hook's capture during a
    long ingest waited for its end, or failed after the 10 s busy timeout (probe69).
    """

    def __init__(self, run: Run, progress: ProgressFn | None, total: int) -> None:
        self.run, self.progress, self.total = run, progress, total
        self.files: list[Prepared] = []
        self.started = time.perf_counter()
        self.done = 0

    def add(self, prepared: Prepared) -> None:
        self.files.append(prepared)
        if len(self.files) >= GROUP_FILES or time.perf_counter() - self.started >= GROUP_SECONDS:
            self.write()

    def write(self) -> None:
        files, self.files = self.files, []
        if any(f.done is not None or _stale(f.read) for f in files):
            with self.run.store.transaction():
                for prepared in files:
                    _write_one(self.run, prepared)
        else:  # (unchanged and skipped files: nothing to write, no lock to take)
            for prepared in files:
                _write_one(self.run, prepared)
        for prepared in files:
            self.done += 1
            if self.progress is not None:
                self.progress(self.done, self.total, prepared.uri)
        self.started = time.perf_counter()


def _stale(read: Read | str) -> bool:
    """A skip reason that retires what an earlier read of the file wrote (`_write_one`)."""
    return isinstance(read, str) and read in STALE_REASONS


def _prepare(run: Run, path: Path, split: Splitter, *, again: bool = False) -> Prepared:
    """Read ``path``, check it against the ledger and split it if it changed (or, with
    ``again``, in any case): no write, so no lock (`CommitGroup`)."""
    uri = run.uri(path)
    read = read_file(path)
    if isinstance(read, str):
        return Prepared(path, uri, read, None)
    prior = run.store.get_ingested_file(uri)
    if prior is None:
        run.added.add(uri)
    key = ledger_key_in(read.digest, run.packages.of(path.parent), run.root)
    if prior is not None and prior.content_hash == key and not again:
        return Prepared(path, uri, read, None, prior.first_belief)
    done = split.split(path, read.digest, read.text)  # (the workers key the bytes alone)
    return Prepared(path, uri, read._replace(digest=key), done)


def _write_one(run: Run, prepared: Prepared) -> None:
    path, uri, read, done, first = prepared
    if isinstance(read, str):
        run.report.skip(uri, read)
        if _stale(read) and run.store.get_ingested_file(uri) is not None:
            _retire(run, uri)  # what was read from it before is not what it holds now
        return
    if done is None:
        run.report.files_unchanged += 1
        run.unchanged.add(uri)
        run.first_belief[uri] = first
        return
    with run.store.transaction(), run.store.write_errors():
        FileWriter(run, path, uri, read, done.chunks, done.definitions, done.scopes).write()
    run.report.files_ingested += 1


# Passages that name a new file, looked at per file: a name every page holds (README.md)
# reads this many again at most.
MAX_NAMING_PASSAGES = 1000


def _walked(run: Run, starts: Sequence[Path]) -> list[str]:
    """The URI prefixes of the folders among ``starts`` (as `_retire_vanished` reads them)."""
    prefixes: list[str] = []
    for start in starts:
        if os.path.isdir(start):
            with contextlib.suppress(InvalidInputError):  # (a folder out of the root)
                prefixes.append("" if start == run.root else run.uri(start) + "/")
    return prefixes


def _read_namers_again(run: Run) -> None:
    """Files found unchanged whose passages name a file this run read for the first time
    are read again: a derived anchor is written when the page naming the file is read,
    and the file did not exist then (left71). Which pages: a link that waits for the file
    (`pending_cites`), or the file's name in a passage (the index finds it; the reading
    decides, by `writer`'s rules). A fresh ingest of the tree gives the same anchors."""
    if not run.added or not run.unchanged:
        return
    namers: set[str] = set()
    for uri in sorted(run.added):
        namers.update(file for file, _ in run.store.pending_cites_to(uri))
    for name in sorted({uri.rsplit("/", 1)[-1] for uri in run.added}):  # (index.js: once)
        hits = run.store.keyword_search([name], limit=MAX_NAMING_PASSAGES)
        for anchors in run.store.anchors_for([hit.belief_id for hit in hits]).values():
            namers.update(a.doc_uri.partition("#")[0] for a in anchors if a.anchor_type == "ingest")
    _read_again(run, namers)


def _read_copies_again(run: Run) -> None:
    """Files found unchanged that hold a passage whose context names a file it left in
    this run (deleted, edited away, left out by the walk) are read again: the context,
    which every hit's trail prints and BM25F reads, named a file that no longer holds the
    text, and no later run would move it while the copies stay unchanged (`writer`'s
    `_rehome` does it for a copy read in the run). Read, a copy places it in its file."""
    if not run.unhoused or not run.unchanged:
        return
    left: dict[str, set[str]] = {}
    for belief_id, uri in run.unhoused:
        left.setdefault(belief_id, set()).add(uri)
    named = [
        belief.id
        for belief in run.store.get_beliefs(left).values()
        if any(_names_file(trail_of(belief.context), uri) for uri in left[belief.id])
    ]
    copies = {
        anchor.doc_uri.partition("#")[0]
        for anchors in run.store.anchors_for(named).values()
        for anchor in anchors
        if anchor.anchor_type == "ingest"
    }
    _read_again(run, copies)


def _names_file(trail: str, uri: str) -> bool:
    # "docs/a.md › Setup L3-L9", "src/x.py L1-L4": the file, then a space
    return trail == uri or trail.startswith(uri + " ")


def _read_again(run: Run, uris: set[str]) -> None:
    """The files of ``uris`` found unchanged in this run, read now (as if changed)."""
    again = sorted(uri for uri in uris & run.unchanged if uri in run.tree)
    if not again:
        return
    paths = [run.tree[uri] for uri in again]
    split = splitter(run.store, paths, again, 0)
    group = CommitGroup(run, None, len(paths))  # (the progress shown ended with the walk)
    for path in paths:
        split.reached(path)
        group.add(_prepare(run, path, split, again=True))
        run.unchanged.discard(run.uri(path))
        run.report.files_unchanged -= 1  # (counted once: as read now)
    group.write()
    split.close()


def _retire_vanished(run: Run, starts: Sequence[Path], *, vendored: bool) -> None:
    """Files the ledger knows under a walked folder that its walk no longer reads: gone
    from the disk, reached through a link out of the tree, or left out by the walk rules
    (a ``.gitignore`` written since, a folder never entered, a vendored folder unless
    ``vendored``, a Sphinx build's copies, a ``.pyi`` stub beside its ``.py``). A file
    named in this run is in ``run.tree``, and kept."""
    for start in starts:
        if not os.path.isdir(start):
            continue
        prefix = "" if start == run.root else run.uri(start) + "/"
        loaded: dict[Path, object] = {}
        for row in run.store.ingested_files(prefix):
            if row.path in run.tree:
                continue
            if (
                row.path not in run.outside
                and row.path not in run.stubs
                and file_exists(row.path, run.root)
                and not hidden_by_walk(
                    _ledger_path(run, row.path), start, run.root, loaded, vendored=vendored
                )
            ):
                continue
            _retire(run, row.path)


def _drop_gone_mentions(run: Run, starts: Sequence[Path]) -> None:
    """The ``derived`` anchors to files under a walked folder that are gone from the disk.
    A fresh ingest never writes one (a file is anchored only while it exists), and no
    re-read takes it: the passage that names the file may be unchanged, or live on in a
    copy elsewhere (``docs/v1`` removed, ``docs`` kept), so its derived anchors stayed,
    shown under its hits and failing ``doctor`` (probe69)."""
    gone: set[tuple[str, str]] = set()
    there: dict[str, bool] = {}  # (a file is named by many passages: asked once)
    for start in starts:
        if os.path.isdir(start):
            prefix = "" if start == run.root else run.uri(start) + "/"
            for mention in run.store.file_mentions(prefix):
                uri = mention[1]
                if uri not in there:
                    there[uri] = file_exists(uri, run.root)
                if not there[uri]:
                    gone.add(mention)
    if not gone:
        return
    now = time.time()
    log: list[LogRow] = []
    with run.store.transaction(), run.store.write_errors():
        for belief_id, uri in sorted(gone):
            _logger(log, now, uri)(belief_id, {"action": "unanchor", "doc_uri": uri})
        run.store.delete_anchors(sorted(gone))
        run.store.append_log(log)


def _ledger_path(run: Run, uri: str) -> Path:
    if uri.startswith("file://"):
        return Path(unquote(uri[len("file://") :]))
    return run.root / uri


def _retire(run: Run, uri: str) -> None:
    with run.store.transaction(), run.store.write_errors():
        FileWriter(run, _ledger_path(run, uri), uri, None, []).write_vanished()
    run.report.files_removed += 1


def _flush_deferred(run: Run) -> None:
    """The CITES that waited for later files, settled with the rest of their files' edges
    (`edges.settle`), and the ledger rows of those files."""
    if not run.deferred:
        return
    now = time.time()
    with run.store.transaction(), run.store.write_errors():
        log: list[LogRow] = []
        for item in run.deferred:
            stated, pending = dict(item.stated), set(item.pending)
            for src, target_uri in item.cites:
                target = run.cite_target(target_uri)
                if target is not None and target != src:
                    stated.setdefault(
                        (src, target, CITES, target_uri), ingest_edge(src, target, CITES, now)
                    )
                else:
                    pending.add((src, target_uri))
            path = item.ledger.path
            added, removed = settle(run.store, path, stated, _logger(log, now, path))
            run.store.set_pending_cites(path, sorted(pending))
            run.report.edges_added += added
            run.report.edges_removed += removed
        run.store.record_ingested_files(item.ledger for item in run.deferred)
        run.store.append_log(log)
    run.deferred.clear()


def _retarget_cites(run: Run) -> None:
    """The links to files whose cite target (first belief) changed, that vanished, or that
    now have a target some link waited for: each linking file's CITES to such a file is
    settled to the file's target now, or waits for one (`pending_cites`) when it has none
    (the rule "Edges" of `credo.knowledge.ingest`). The links of files read in this run are
    already settled; those of the others are what this settles. Which files those are is
    asked of the store (`unsettled_cited_files`), so a run stopped before this step, or
    another process's run writing the same store, is made good by the next run."""
    for cited, target in run.store.unsettled_cited_files():
        links: dict[str, tuple[set[str], set[str]]] = {}  # file -> (src of edges, pending)
        for file, src, dst in run.store.citing_sources(cited):
            if dst != target:
                links.setdefault(file, (set(), set()))[0].add(src)
        for file, src in run.store.pending_cites_to(cited):
            if target is not None and src != target:
                links.setdefault(file, (set(), set()))[1].add(src)
            elif file in links:  # still waiting: kept when the file's links to it are set anew
                links[file][1].add(src)
        for file, (moved, waiting) in sorted(links.items()):
            with run.store.transaction(), run.store.write_errors():
                _settle_links(run, file, cited, target, moved, waiting)


def _settle_links(
    run: Run, file: str, cited: str, target: str | None, moved: set[str], waiting: set[str]
) -> None:
    """``file``'s links to ``cited`` (from ``moved``: CITES to another target; from
    ``waiting``: pending) made CITES to ``target``, or pending when there is none."""
    now = time.time()
    log: list[LogRow] = []
    stated = {
        source: _stated_edge(source, now)
        for source in run.store.edge_sources_of_file(file)
        if not (source[3] == cited and source[0] in moved)
    }
    pending = []
    for src in sorted(moved | waiting):
        if target is not None and src != target:
            stated.setdefault((src, target, CITES, cited), ingest_edge(src, target, CITES, now))
        else:
            pending.append(src)
    added, removed = settle(run.store, file, stated, _logger(log, now, file))
    run.store.set_pending_cites_to(file, cited, pending)
    run.report.edges_added += added
    run.report.edges_removed += removed
    run.store.append_log(log)


def _stated_edge(source: EdgeSource, now: float) -> Edge:
    # An edge a file already states: settle only reads its key (it is stored already).
    return ingest_edge(source[0], source[1], source[2], now)


def _settle_off_ledger(run: Run) -> None:
    """m012 backfilled the edges of files that had vanished before it (the ledger no longer
    holds them), or an import brought such rows (knowledge/ingest_records.py): they are
    retired like a vanished file's, once, by the next run."""
    if run.store.meta_get(UNSETTLED) is None:
        return
    with run.store.transaction(), run.store.write_errors():
        log: list[LogRow] = []
        now = time.time()
        for file in run.store.edge_files_off_ledger():
            run.report.edges_removed += settle(run.store, file, {}, _logger(log, now, file))[1]
        run.store.meta_set(UNSETTLED, None)
        run.store.append_log(log)


def _logger(log: list[LogRow], now: float, path: str) -> Callable[[str, dict[str, Any]], None]:
    def note(belief_id: str, payload: dict[str, Any]) -> None:
        log.append((now, "ingest", belief_id, path, payload))

    return note
