"""Splitting a run's changed files: in the writer's process, or ahead of the writer in
worker processes when there is enough to split to pay for starting them.

The writer (`run.ingest_paths`) still reads each file, checks it against the ledger and
writes it, in walk order, in its own process; a worker only reads a file and splits it
(`split.split_passages`, the pure part), so the store is the one the serial path makes. A
worker's answer is used only when the bytes it read are the ones the writer read (the same
ledger key); otherwise (the file changed in between, the split raised, the worker died)
the writer splits the file itself, as the serial path does: no file is lost or written
twice, and a failure is the serial path's.

Workers are fresh interpreters (``python -m credo.knowledge.ingest.worker``) speaking
over their stdin and stdout, not `multiprocessing`'s: ``fork`` would hand a child the
writer's open SQLite connection and other threads' locks (and is unsafe on macOS), and
``spawn``/``forkserver`` re-run the caller's main script in every worker (a script that
ingests without an ``if __name__ == "__main__":`` guard ingested again from inside each
worker, racing the writer for the store's lock: tried, see docs/BENCHMARKS.md).
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from credo.knowledge.chunk import language_for
from credo.knowledge.ingest.split import Split, split_passages
from credo.knowledge.ingest.walk import MAX_FILE_BYTES, by_this_reader, is_lock_file

if TYPE_CHECKING:
    import subprocess

    from credo.store import Store  # (annotations only: the protocol costs ~1 ms to build)

# pickle and subprocess are imported where a worker is started or read: a run that starts
# none (most: small or unchanged trees) does not pay for their imports (~1% of a small run).

# Forces the worker count: 0 splits in the writer's process, N > 0 starts N workers
# whatever the size of the run.
WORKERS_ENV = "CREDO_INGEST_WORKERS"
# More workers than this would wait on the one writer (a third of a Sphinx tree's CPU).
MAX_WORKERS = 8
# Workers start only for at least this many likely-changed bytes: a worker costs ~0.2 s of
# CPU to start (an interpreter importing the splitters), repaid by splitting ~0.3 MB of a
# Sphinx tree (~1.5 MB/s of CPU) on another core; see docs/BENCHMARKS.md (day-pool19).
POOL_MIN_BYTES = 1024 * 1024
# Files sent ahead of the writer, per worker: enough to keep a worker busy while the writer
# catches up on a large file, few enough to bound the answers held in pipes and memory.
AHEAD_PER_WORKER = 4
# A worker still running this long after its stdin closed is killed.
_EXIT_SECONDS = 10.0


# A frame on a worker's pipes: a 4-byte big-endian length, then a pickle.
_HEADER = struct.Struct(">I")


def read_frame(stream: IO[bytes]) -> Any:
    """The next object on ``stream``; EOFError when it ends (cleanly or mid-frame)."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError
    (size,) = _HEADER.unpack(head)
    body = stream.read(size)
    if len(body) < size:
        raise EOFError
    import pickle

    return pickle.loads(body)


def write_frame(stream: IO[bytes], value: Any) -> None:
    import pickle

    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(body)) + body)
    stream.flush()


# An answer not read yet (a worker's answer may itself be None: a file it would skip).
_UNREAD: Any = object()


class Splitter:
    """Splits the files the writer asks for, in the writer's process."""

    def reached(self, path: Path) -> None:
        """The writer is at ``path`` (called for every walked file, in walk order)."""

    def split(self, path: Path, digest: str, text: str) -> Split:
        """The passages of ``path``, whose bytes have ledger key ``digest``."""
        return split_passages(path.as_posix(), text)

    def close(self, *, abort: bool = False) -> None:
        """Stops the workers (``abort``: now, without waiting for their current file)."""


class _Worker:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.queue: deque[Path] = deque()  # sent, answer not read yet, in order
        self.pending_bytes = 0
        self.alive = True


class PooledSplitter(Splitter):
    """Sends the likely-changed files to workers a window ahead of the writer; reads each
    answer when the writer reaches its file."""

    def __init__(self, count: int, ahead: Sequence[tuple[Path, int]]) -> None:
        self.ahead = _send_order(ahead, count)
        self.sizes = dict(self.ahead)
        self.window = count * AHEAD_PER_WORKER
        self.next = 0  # the first file of `ahead` not sent yet
        self.sent: dict[Path, _Worker] = {}  # sent and not reached by the writer yet
        # The file the writer is at: its worker, and its answer if it was read early.
        self.taken: tuple[Path, _Worker, Any] | None = None
        self.early: dict[Path, Any] = {}  # answers read before the writer reached them
        self.workers = [w for w in (_start() for _ in range(count)) if w is not None]
        self._fill()

    def reached(self, path: Path) -> None:
        worker = self.sent.pop(path, None)
        self.taken = None if worker is None else (path, worker, self.early.pop(path, _UNREAD))
        self._fill()

    def split(self, path: Path, digest: str, text: str) -> Split:
        taken, self.taken = self.taken, None
        if taken is not None and taken[0] == path:
            answer = taken[2] if taken[2] is not _UNREAD else self._answer(taken[1], path)
            if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == digest:
                return answer[1]
        return split_passages(path.as_posix(), text)  # as the serial path does, here

    def _answer(self, worker: _Worker, path: Path) -> Any:
        """The answer for ``path`` (answers for files sent before it and never asked for
        are read and dropped); None when the worker died."""
        while worker.alive and worker.queue:
            head = worker.queue.popleft()
            worker.pending_bytes -= self.sizes.get(head, 0)
            try:
                answer = read_frame(_stdout(worker))
            except (EOFError, OSError, ValueError, ImportError, AttributeError, TypeError):
                self._lost(worker)  # a dead worker, or a frame it never finished
                return None
            if head == path:
                return answer
            if head in self.sent:  # sent out of walk order (`_send_order`), not reached yet
                self.early[head] = answer
        return None

    def _fill(self) -> None:
        while len(self.sent) < self.window and self.next < len(self.ahead):
            path, size = self.ahead[self.next]
            self.next += 1
            live = [w for w in self.workers if w.alive]
            if not live:
                return  # every worker died: the writer splits the rest itself
            worker = min(live, key=lambda w: w.pending_bytes)
            try:
                write_frame(_stdin(worker), os.fspath(path))
            except OSError:
                self._lost(worker)
                continue
            worker.queue.append(path)
            worker.pending_bytes += size
            self.sent[path] = worker

    def _lost(self, worker: _Worker) -> None:  # its answers read early stay good
        worker.alive = False
        for path in worker.queue:
            self.sent.pop(path, None)
        worker.queue.clear()
        _stop(worker, kill=True)

    def close(self, *, abort: bool = False) -> None:
        for worker in self.workers:
            _stop(worker, kill=abort)


def _send_order(ahead: Sequence[tuple[Path, int]], count: int) -> list[tuple[Path, int]]:
    """Walk order, save that a file larger than a worker's share of a window is sent first.

    The writer waits at each file until its split is done; a file sent just before the
    writer reaches it makes the writer wait for its whole split, and one file of a tenth of
    the run (a Sphinx tree's changelog) is a tenth of the run's wall clock. Sent first, it
    is split while the writer writes everything before it."""
    total = sum(size for _, size in ahead)
    large = total / (count * AHEAD_PER_WORKER)
    first = [item for item in ahead if item[1] > large]
    return first + [item for item in ahead if item[1] <= large]


def splitter(
    store: Store, files: Sequence[Path], uris: Sequence[str], workers: int | None
) -> Splitter:
    """Workers when the run's likely-changed files are worth them, else the serial splitter.

    A file is likely changed when the ledger has no row for it, or its size, its mtime or
    the reader that read it differ; a wrong guess costs one split in a worker (a touched
    file) or one in the writer (an edit that kept size and mtime), never a different
    store."""
    count = worker_count(workers)
    if count < 1 or not sys.executable:
        return Splitter()
    ahead: list[tuple[Path, int]] = []
    for path, uri in zip(files, uris, strict=True):
        size = _likely_changed(store, path, uri)
        if size is not None:
            ahead.append((path, size))
    forced = workers is not None or os.environ.get(WORKERS_ENV, "").strip() != ""
    total = sum(size for _, size in ahead)
    if not ahead or (total < POOL_MIN_BYTES and not forced):
        return Splitter()
    pooled = PooledSplitter(min(count, len(ahead)), ahead)
    if not pooled.workers:
        return Splitter()  # no interpreter would start
    return pooled


def worker_count(requested: int | None) -> int:
    """The workers a run may use (0: none): ``requested``, else `WORKERS_ENV`, else
    `_automatic_count`."""
    if requested is None:
        raw = os.environ.get(WORKERS_ENV, "").strip()
        if raw:
            try:
                requested = int(raw)
            except ValueError:
                requested = 0  # a value we cannot read: the safe choice
    if requested is not None:
        return max(0, min(requested, 64))
    return _automatic_count(_usable_cpus(), _load())


def _automatic_count(cpus: int, load: float) -> int:
    """None while no CPU sits idle (the load average at least ``cpus - 0.5``), else the idle
    CPUs plus the writer's own, at most ``cpus`` and `MAX_WORKERS`.

    Why: a worker on a core other processes keep busy only takes turns with them, and the
    run pays its start for nothing (pytest's docs on 2 cores at load 2.5-3.4: 4.0-5.1 s of
    wall clock with workers, 4.1-4.7 s without). The writer's own core counts: with workers
    the writer mostly waits (its CPU 3.5 -> 1.3 s), and the 1-minute load still counts a run
    that just ended (at load ~1 on 2 cores one worker gained 6-16%, two 23-32%)."""
    idle = cpus - load
    if idle < 0.5:
        return 0
    return min(cpus, MAX_WORKERS, int(idle + 0.5) + 1)


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform
        return 0.0


def _usable_cpus() -> int:
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13: the affinity mask
    if counter is not None:
        return int(counter() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _likely_changed(store: Store, path: Path, uri: str) -> int | None:
    """The file's size when it is worth splitting ahead, else None (skipped or unchanged)."""
    if "#" in path.as_posix() or language_for(path.as_posix()) is None or is_lock_file(path.name):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    if info.st_size > MAX_FILE_BYTES:
        return None
    row = store.get_ingested_file(uri)
    if (
        row is not None
        and row.size == info.st_size
        and row.mtime == info.st_mtime
        and by_this_reader(row.content_hash)
    ):
        return None
    return info.st_size


def _start() -> _Worker | None:
    # The worker imports the credo this process runs, wherever it was imported from.
    here = os.fspath(Path(__file__).resolve().parents[3])  # the folder holding credo/
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
    import subprocess

    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "credo.knowledge.ingest.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
    except OSError:
        return None
    return _Worker(process)


def _stdin(worker: _Worker) -> IO[bytes]:
    assert worker.process.stdin is not None
    return worker.process.stdin


def _stdout(worker: _Worker) -> IO[bytes]:
    assert worker.process.stdout is not None
    return worker.process.stdout


def _stop(worker: _Worker, *, kill: bool) -> None:
    import subprocess

    process = worker.process
    if kill and process.poll() is None:
        process.kill()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):  # a pipe whose worker is gone
                stream.close()
    try:
        process.wait(timeout=_EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
