"""Ingest with worker processes (`credo.knowledge.ingest.pool`): the store is the serial
path's, byte for byte; dead workers, failed splits, files changed under the pool, hostile
files and Ctrl-C lose nothing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.knowledge.ingest import ingest_paths, pool, worker
from credo.knowledge.ingest.split import split_passages
from credo.knowledge.ingest.walk import MAX_FILE_BYTES, read_file
from credo.store.index_text import register

RST = """\
Title
=====

Some text with a `link <other.md>`_ and *emphasis*.

.. note::

   A note that says something.

+------+------+
| a    | b    |
+======+======+
| one  | two  |
+------+------+
"""


def _tree(root: Path) -> None:
    """Every kind of file ingest reads, links between them, and hostile ones."""
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "README.md").write_text("# Readme\n\nSee [the guide](docs/guide.md).\n")
    (root / "docs" / "guide.md").write_text(
        "# Guide\n\nBack to [readme](../README.md) and [later](deep/z.md).\n\n## Part\n\nText.\n"
    )
    (root / "docs" / "deep" / "z.md").write_text("# Zed\n\nThe last file, cited earlier.\n")
    (root / "docs" / "index.rst").write_text(RST)
    (root / "docs" / "broken.rst").write_text("Title\n===\n\n+---+\n| x\n\n.. bad::\n" * 20)
    (root / "tool.py").write_text('"""Tools."""\n\n\ndef f(x):\n    """Double x."""\n')
    (root / "bad.py").write_text("def (:\n    # a comment that stays\n")
    (root / "notes.txt").write_text("First paragraph.\n\nSecond paragraph.\n")
    (root / "empty.md").write_text("")
    (root / "binary.md").write_bytes(b"# x\x00\x01\x02")
    (root / "latin1.md").write_bytes("# caf\xe9\n".encode("latin-1"))  # (read as cp1252)
    (root / "noise.md").write_bytes(bytes(range(0x80, 0x100)) * 4)  # not_utf8
    (root / "huge.txt").write_bytes(b"a" * (MAX_FILE_BYTES + 1))
    (root / "we#ird.md").write_text("# hash\n")
    os.symlink(root / "missing.md", root / "dangling.md")
    for i in range(12):  # enough files to fill every worker's window more than once
        (root / "docs" / f"page{i:02}.md").write_text(f"# Page {i}\n\nBody {i} [g](guide.md).\n")


def _mask(value: Any) -> Any:
    # Clock times (created_at, ingested_at, the log's times) differ between two runs.
    return "T" if isinstance(value, float) and 1.5e9 < value < 2.5e9 else value


def _tables(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in rowid order (FTS shadow tables and the ledger included)."""
    conn = sqlite3.connect(db)
    register(conn)  # reading beliefs_fts reads its view, which calls it (m013)
    try:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            n: [tuple(map(_mask, r)) for r in conn.execute(f'SELECT * FROM "{n}"')] for n in names
        }
    finally:
        conn.close()


def _ingest(db: Path, root: Path, workers: int) -> Any:
    with Memory(db, root=root) as memory:
        return ingest_paths(memory.store, [root], root=root, workers=workers)


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[pool._Worker]:
    """Every worker the runs start, to check none is left running."""
    started: list[pool._Worker] = []
    real = pool._start

    def recording() -> pool._Worker | None:
        found = real()
        if found is not None:
            started.append(found)
        return found

    monkeypatch.setattr(pool, "_start", recording)
    return started


def test_pooled_ingest_writes_the_serial_store(tmp_path: Path, starts: list[Any]) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _tree(root)
    serial = _ingest(tmp_path / "s.db", root, workers=0)
    pooled = _ingest(tmp_path / "p.db", root, workers=3)
    assert len(starts) == 3
    assert all(w.process.returncode is not None for w in starts)
    assert (
        serial.skipped
        == pooled.skipped
        == {
            "binary": 1,
            "not_utf8": 1,
            "too_large": 1,
            "unsupported": 1,
            "unreadable": 1,
        }
    )
    assert (serial.files_ingested, serial.edges_added) == (
        pooled.files_ingested,
        pooled.edges_added,
    )
    assert _tables(tmp_path / "s.db") == _tables(tmp_path / "p.db")
    # A second run over an edited tree: unchanged, changed, new and vanished files.
    (root / "docs" / "guide.md").write_text("# Guide\n\nRewritten, see [zed](deep/z.md).\n")
    (root / "docs" / "page03.md").unlink()
    (root / "docs" / "new.rst").write_text(RST.replace("Title", "Other"))
    os.utime(root / "notes.txt")  # touched: likely changed, the same bytes
    serial = _ingest(tmp_path / "s.db", root, workers=0)
    pooled = _ingest(tmp_path / "p.db", root, workers=2)
    assert (serial.files_unchanged, serial.files_removed) == (pooled.files_unchanged, 1)
    assert _tables(tmp_path / "s.db") == _tables(tmp_path / "p.db")


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edits=st.lists(st.tuples(st.integers(0, 11), st.text(max_size=40)), max_size=6),
    workers=st.integers(1, 3),
)
def test_any_edits_give_the_serial_store(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[int, str]], workers: int
) -> None:
    base = tmp_path_factory.mktemp("prop")
    root = base / "project"
    root.mkdir()
    _tree(root)
    _ingest(base / "s.db", root, workers=0)
    _ingest(base / "p.db", root, workers=workers)
    for page, text in edits:
        (root / "docs" / f"page{page:02}.md").write_text(f"# Page\n\n{text}\n")
    _ingest(base / "s.db", root, workers=0)
    _ingest(base / "p.db", root, workers=workers)
    assert _tables(base / "s.db") == _tables(base / "p.db")


def _pages(root: Path, count: int) -> list[Path]:
    root.mkdir(exist_ok=True)
    paths = []
    for i in range(count):
        path = root / f"p{i:02}.{'rst' if i % 2 else 'md'}"
        path.write_text(RST if i % 2 else f"# Page {i}\n\nText {i}.\n")
        paths.append(path)
    return paths


def _run_splitter(splitter: pool.Splitter, paths: list[Path]) -> None:
    for path in paths:
        splitter.reached(path)
        read = read_file(path)
        assert not isinstance(read, str)
        assert splitter.split(path, read.digest, read.text) == split_passages(path.name, read.text)


def test_a_dead_worker_loses_no_file(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "t", 10)
    splitter = pool.PooledSplitter(2, [(p, p.stat().st_size) for p in paths])
    splitter.workers[0].process.kill()
    splitter.workers[0].process.wait()
    _run_splitter(splitter, paths)
    assert not splitter.workers[0].alive and splitter.workers[1].alive
    splitter.close()
    assert all(w.process.returncode is not None for w in splitter.workers)


def test_every_worker_dead_the_writer_splits_all(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "t", 6)
    splitter = pool.PooledSplitter(2, [(p, p.stat().st_size) for p in paths])
    for w in splitter.workers:
        w.process.kill()
        w.process.wait()
    _run_splitter(splitter, paths)
    splitter.close()


def test_a_file_changed_after_it_was_sent_is_split_as_read(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "t", 6)
    splitter = pool.PooledSplitter(2, [(p, p.stat().st_size) for p in paths])
    paths[3].write_text("# Changed under the pool\n\nNew text.\n")
    _run_splitter(splitter, paths)  # compares with the split of what the writer read
    splitter.close()


def test_files_the_writer_finds_unchanged_are_skipped_over(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "t", 9)
    splitter = pool.PooledSplitter(2, [(p, p.stat().st_size) for p in paths])
    for path in paths[::3]:  # the writer asks for every third file only
        for skipped in paths[paths.index(path) - 2 : paths.index(path)]:
            splitter.reached(skipped)
        splitter.reached(path)
        read = read_file(path)
        assert not isinstance(read, str)
        assert splitter.split(path, read.digest, read.text) == split_passages(path.name, read.text)
    splitter.close()


def test_a_split_that_raises_in_the_worker_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def boom(name: str, text: str) -> Any:
        raise RecursionError("too deep")

    path = _pages(tmp_path / "t", 1)[0]
    monkeypatch.setattr(worker, "split_passages", boom)
    assert worker.answer(os.fspath(path)) == ("error", "RecursionError: too deep")
    assert worker.answer(os.fspath(tmp_path / "none.md")) is None


def test_ctrl_c_stops_the_workers_and_leaves_the_store_consistent(
    tmp_path: Path, starts: list[Any]
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _tree(root)

    def interrupt(done: int, total: int, path: str) -> None:
        if done == 7:
            raise KeyboardInterrupt

    with Memory(tmp_path / "p.db", root=root) as memory, pytest.raises(KeyboardInterrupt):
        ingest_paths(memory.store, [root], root=root, workers=2, progress=interrupt)
    assert starts and all(w.process.returncode is not None for w in starts)
    _ingest(tmp_path / "p.db", root, workers=2)  # the next run finishes the job
    _ingest(tmp_path / "s.db", root, workers=0)
    assert _tables(tmp_path / "s.db") == _tables(tmp_path / "p.db")


def test_progress_is_called_in_walk_order(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _tree(root)
    seen: dict[int, list[tuple[int, int, str]]] = {0: [], 2: []}
    for workers, calls in seen.items():
        with Memory(tmp_path / f"{workers}.db", root=root) as memory:
            ingest_paths(
                memory.store,
                [root],
                root=root,
                workers=workers,
                progress=lambda *a, c=calls: c.append(a),
            )
    assert seen[0] == seen[2]
    assert [done for done, _, _ in seen[2]] == list(range(1, len(seen[2]) + 1))


@pytest.mark.parametrize(
    ("env", "requested", "idle", "expected"),
    [
        ("", None, 4, 5),
        ("", None, 0, 0),
        ("", None, 64, pool.MAX_WORKERS),
        ("0", None, 4, 0),
        ("3", None, 0, 3),
        ("many", None, 4, 0),
        ("3", 1, 4, 1),
        ("", -2, 4, 0),
    ],
)
def test_worker_count(
    monkeypatch: pytest.MonkeyPatch, env: str, requested: int | None, idle: int, expected: int
) -> None:
    monkeypatch.setenv(pool.WORKERS_ENV, env)
    monkeypatch.setattr(pool, "_usable_cpus", lambda: 64)
    monkeypatch.setattr(pool, "_load", lambda: 64.0 - idle)
    assert pool.worker_count(requested) == expected


def test_small_or_unchanged_runs_stay_serial(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(pool.WORKERS_ENV, raising=False)
    monkeypatch.setattr(pool, "_usable_cpus", lambda: 4)
    monkeypatch.setattr(pool, "_load", lambda: 0.0)
    root = tmp_path / "project"
    paths = _pages(root, 20)
    with Memory(tmp_path / "m.db", root=root) as memory:
        uris = [p.name for p in paths]
        assert (
            type(pool.splitter(memory.store, paths, uris, None)) is pool.Splitter
        )  # 20 small files
        monkeypatch.setattr(pool, "POOL_MIN_BYTES", 1)
        big = pool.splitter(memory.store, paths, uris, None)
        assert isinstance(big, pool.PooledSplitter)
        big.close(abort=True)
        ingest_paths(memory.store, [root], root=root, workers=0)
        # Everything in the ledger with the same size and mtime: nothing to split ahead.
        assert type(pool.splitter(memory.store, paths, uris, None)) is pool.Splitter
        monkeypatch.setenv(pool.WORKERS_ENV, "0")
        os.utime(paths[0], (1, 1))
        assert type(pool.splitter(memory.store, paths, uris, None)) is pool.Splitter


@given(st.lists(st.integers(0, 10_000), max_size=30), st.integers(1, 8))
def test_send_order_puts_large_files_first_and_keeps_walk_order(
    sizes: list[int], count: int
) -> None:
    ahead = [(Path(f"f{i}"), size) for i, size in enumerate(sizes)]
    order = pool._send_order(ahead, count)
    assert sorted(order) == sorted(ahead)
    large = sum(sizes) / (count * pool.AHEAD_PER_WORKER)
    flags = [size > large for _, size in order]
    assert flags == sorted(flags, reverse=True)  # every large file before every other
    for big in (True, False):  # each group in walk order
        group = [p for p, size in order if (size > large) is big]
        assert group == [p for p, size in ahead if (size > large) is big]


def test_a_large_file_sent_first_is_answered_early_and_used(tmp_path: Path) -> None:
    paths = _pages(tmp_path / "t", 12)
    paths[9].write_text(RST * 60)  # larger than a worker's share: sent before the others
    splitter = pool.PooledSplitter(1, [(p, p.stat().st_size) for p in paths])
    assert splitter.ahead[0][0] == paths[9]
    _run_splitter(splitter, paths)
    assert not splitter.early and all(w.alive for w in splitter.workers)
    splitter.close()


@pytest.mark.parametrize(
    ("cpus", "load", "expected"),
    [
        (2, 0.0, 2),  # idle: every CPU
        (2, 1.1, 2),  # one run just ended: still both
        (2, 1.4, 2),
        (2, 1.6, 0),
        (2, 3.4, 0),  # busy: no worker takes a core from anyone
        (1, 0.0, 1),
        (16, 4.0, 8),  # at most MAX_WORKERS
        (16, 15.2, 2),
    ],
)
def test_automatic_count_follows_idle_cpus(cpus: int, load: float, expected: int) -> None:
    assert pool._automatic_count(cpus, load) == expected


def test_a_file_the_worker_skipped_but_the_writer_reads_is_split_without_waiting(
    tmp_path: Path,
) -> None:
    paths = _pages(tmp_path / "t", 12)
    paths[9].write_bytes(b"\x00" * 20_000)  # large, binary when the worker reads it
    splitter = pool.PooledSplitter(1, [(p, p.stat().st_size) for p in paths])
    assert splitter.ahead[0][0] == paths[9]
    _run_splitter(splitter, paths[:1])  # reads the worker's early answer for paths[9]
    assert splitter.early == {paths[9]: None}
    paths[9].write_text("# Now text\n\nThe writer reads this.\n")
    _run_splitter(splitter, paths[1:10])
    assert not splitter.early  # the later files' answers were not read ahead of time
    _run_splitter(splitter, paths[10:])
    splitter.close()
