"""bench/warm_instructions.py's own logic: placements, the spread of a tree's figures, the
comparison of two trees, and the scratch folder (measure70). valgrind is not run here."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from bench.warm_instructions import Spread, at_each, placements, versus, work_folder
from hypothesis import given
from hypothesis import strategies as st


def test_each_placement_is_a_path_of_its_own_length_to_the_same_tree(tmp_path: Path) -> None:
    tree = tmp_path / "tree" / "src"
    (tree / "credo").mkdir(parents=True)
    (tree / "credo" / "__init__.py").write_text("X = 1\n")
    folder = tmp_path / "work"
    folder.mkdir()
    paths = placements(folder, tree, 3)
    assert len({len(str(p)) for p in paths}) == 3
    for path in paths:
        assert path.resolve() == tree.resolve()
        assert (path / "credo" / "__init__.py").read_text() == "X = 1\n"
    # a second tree takes the same paths: both are measured at the same placements
    other = tmp_path / "other"
    other.mkdir()
    assert placements(folder, other, 3) == paths
    assert all(p.resolve() == other.resolve() for p in paths)


def test_the_spread_is_the_low_median_and_high_of_the_placements() -> None:
    assert Spread.of([7.0, 5.0, 9.0]) == Spread(5.0, 7.0, 9.0)
    assert Spread.of([4.0]) == Spread(4.0, 4.0, 4.0)
    with pytest.raises(ValueError, match="no figures"):
        Spread.of([])


@given(st.lists(st.integers(1, 10**9), min_size=1, max_size=9))
def test_the_spread_holds_every_figure_and_ignores_their_order(values: list[int]) -> None:
    figures = [float(v) for v in values]
    spread = Spread.of(figures)
    assert spread.low <= spread.median <= spread.high
    assert spread == Spread.of(sorted(figures, reverse=True))
    assert spread.median == statistics.median(figures)


def test_a_comparison_states_the_medians_and_the_placements_extremes() -> None:
    base = Spread(99.0, 100.0, 101.0)
    other = Spread(97.0, 98.0, 100.0)
    # medians -2%; 97 against 101 at one end, 100 against 99 at the other
    assert versus(base, other) == "-2.00% (medians; placements -3.96% .. +1.01%)"


def test_each_placement_compares_the_two_trees_at_the_same_path() -> None:
    assert at_each([100.0, 200.0], [99.0, 202.0]) == "-1.00%, +1.00%"
    with pytest.raises(ValueError):
        at_each([100.0], [99.0, 98.0])


def test_the_scratch_folder_has_the_same_name_each_run_and_is_removed(tmp_path: Path) -> None:
    with work_folder(tmp_path) as first:
        (first / "x").write_text("x")
        # a run beside it (another helper's) takes the next free name
        with work_folder(tmp_path) as second:
            assert second != first
    assert not first.exists()
    assert not second.exists()
    with work_folder(tmp_path) as again:
        assert again == first


def test_the_output_gives_each_tree_s_median_and_the_comparison(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bench.warm_instructions as bench

    figures = iter([100.0, 104.0, 102.0, 97.0, 99.0, 98.0])
    monkeypatch.setattr(bench.shutil, "which", lambda _name: "/usr/bin/valgrind")
    monkeypatch.setattr(bench, "per_query", lambda *_args, **_kw: next(figures))
    monkeypatch.setattr(bench.tempfile, "gettempdir", lambda: str(tmp_path))
    db = tmp_path / "x.db"
    db.write_bytes(b"")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    monkeypatch.setattr("sys.argv", ["w", str(a), str(b), "--db", str(db), "--first"])
    bench.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"{a}: median 102 instructions a first-pass query"
        " (100 queries; at 3 placements: 100, 104, 102)"
    )
    assert lines[2] == (
        f"{b} against {a}: -3.92% (medians; placements -6.73% .. -1.00%);"
        " at each placement -3.00%, -4.81%, -3.92%"
    )
