"""tree-sitter's parse budget (`parse_budget`) counts work, not wall time: the same file is read
the same way on an idle machine and a loaded one, and hostile input is still cancelled after a
number of tree-sitter's progress calls that its size sets (or past a backstop of CPU time far
above real code's, which benches under valgrind turn off)."""

from __future__ import annotations

import os
import sysconfig
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import code_treesitter, parse_budget, split_code
from tests.test_chunk_markdown import real_files

pytest.importorskip("tree_sitter")
from tree_sitter import Parser, Tree

_BENCH = Path(os.environ.get("CREDO_BENCH_CACHE", Path.home() / ".cache" / "credo-bench"))
_AXIOS = _BENCH / "axios-1.21.1" / "lib"


class _Counting:
    """A parser that counts the progress calls tree-sitter makes while `_parse` uses it."""

    def __init__(self, grammar: str) -> None:
        loaded = code_treesitter._load(grammar)
        if loaded is None:
            pytest.skip(f"no {grammar} grammar")
        self.parser, self.calls = Parser(loaded.language), 0

    def parse(self, read: Callable[..., bytes], progress_callback: Callable[..., bool]) -> Tree:
        def counted(offset: int, has_error: bool) -> bool:
            self.calls += 1
            return progress_callback(offset, has_error)

        return self.parser.parse(read, progress_callback=counted)


def _budget(source: bytes) -> float:
    return parse_budget.PARSE_CALLS + len(source) * parse_budget.PARSE_CALLS_PER_BYTE


@pytest.fixture
def jumping_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every wall clock `time` offers jumps 1,000 s at each reading: a machine so loaded that
    any wall-time budget runs out at its first check (this process's CPU time is the backstop's,
    turned off here: the count alone is tested)."""
    monkeypatch.setattr(parse_budget, "PARSE_SECONDS", 1e9)
    for name in ("monotonic", "perf_counter", "time"):
        real = getattr(time, name)
        jumps = iter(range(1, 1 << 62))

        def jumped(real: Callable[[], float] = real, jumps: Iterator[int] = jumps) -> float:
            return real() + 1_000.0 * next(jumps)

        monkeypatch.setattr(time, name, jumped)
    yield


_CODE = "".join(
    f"/** Step {i}. */\nexport function step{i}(a, b) {{\n  return a.map((x) => x + b * {i});\n}}\n"
    for i in range(3_000)
)


def test_a_parse_is_not_cancelled_by_the_clock(jumping_clock: None) -> None:
    # (fails before parse87: the first progress call read the clock past its deadline)
    parser, source = _Counting("typescript"), _CODE.encode()
    assert parse_budget.parse_within_budget(parser, source) is not None  # type: ignore[arg-type]
    assert 0 < parser.calls < _budget(source) / 2


def test_chunks_do_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    calm = split_code(_CODE, "js")
    ticks = iter(range(1, 1 << 62))
    monkeypatch.setattr(time, "monotonic", lambda: 1_000.0 * next(ticks))
    assert split_code(_CODE, "js") == calm
    assert sum(c.role == "definition" for c in calm) == 3_000


_HOSTILE = [
    # (tree-sitter's error recovery: ~0.25 ms a progress call on these, ~0.02 on code)
    ("typescript", '"""' * 100_000, True),
    ("tsx", '"""' * 100_000, True),
    ("tsx", "<[{(" * 60_000, True),
    ("go", "<[{(" * 60_000, False),  # (7,800 calls: done within the budget)
    ("cpp", "{[(" * 100_000, False),
    ("rust", "<[{(" * 60_000, False),
    ("python", "(" * 100_000, False),
]


@pytest.mark.parametrize(("grammar", "text", "cancelled"), _HOSTILE, ids=lambda v: str(v)[:8])
def test_hostile_input_is_bounded_by_its_count_of_work(
    grammar: str, text: str, cancelled: bool, jumping_clock: None
) -> None:
    # (fails before parse87: the clock cancelled each at its first progress call)
    parser, source = _Counting(grammar), text.encode()
    tree = parse_budget.parse_within_budget(parser, source)  # type: ignore[arg-type]
    assert (tree is None) is cancelled
    assert parser.calls <= _budget(source) + 1
    if cancelled:  # at exactly the call past the budget, on any machine
        assert parser.calls == int(_budget(source)) + 1


def test_a_hostile_read_is_the_same_whatever_the_clock(jumping_clock: None) -> None:
    text = '"""' * 100_000
    chunks = split_code(text, "typescript")
    assert chunks == split_code(text, "typescript")


# -- real code never comes near the budget ---------------------------------------------------


def _stdlib() -> list[Path]:
    return sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[::4]


_REAL: list[tuple[str, Path]] = [("python", p) for p in _stdlib()]
_REAL += [("typescript", p) for p in sorted(_AXIOS.rglob("*.js"))] if _AXIOS.is_dir() else []
_REAL += [("cpp", p) for p in real_files((".c", ".h"), limit=20)]
_REAL += [("typescript", p) for p in real_files((".js",), limit=20)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(_REAL),
    st.floats(min_value=0.0, max_value=1.0),
    st.floats(min_value=0.0, max_value=1.0),
)
def test_a_slice_of_real_code_is_far_from_the_budget(
    real: tuple[str, Path], start: float, end: float
) -> None:
    grammar, path = real
    whole = path.read_bytes()
    first, last = sorted((int(start * len(whole)), int(end * len(whole))))
    source = whole[first:last]
    parser = _Counting(grammar)
    assert parse_budget.parse_within_budget(parser, source) is not None  # type: ignore[arg-type]
    assert parser.calls <= _budget(source) / 2


def test_the_cpu_backstop_cancels_a_parse_whose_cpu_time_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (the lead, stop 61: dense hostile input takes as many calls a byte as a numeric table;
    # this process's CPU time bounds it, other processes' load does not count)
    ticks = iter(range(1, 1 << 62))
    monkeypatch.setattr(time, "thread_time", lambda: 100.0 * next(ticks))
    parser, source = _Counting("typescript"), _CODE.encode()
    assert parse_budget.parse_within_budget(parser, source) is None  # type: ignore[arg-type]
    assert parser.calls == 1


def test_other_threads_cpu_time_does_not_cancel_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # (review88: a server's other threads spend this process's CPU time, not the parse's)
    ticks = iter(range(1, 1 << 62))
    monkeypatch.setattr(time, "process_time", lambda: 100.0 * next(ticks))
    parser, source = _Counting("typescript"), _CODE.encode()
    assert parse_budget.parse_within_budget(parser, source) is not None  # type: ignore[arg-type]
