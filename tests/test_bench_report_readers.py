"""The tools that read the benches' ``--json`` reports answer an unreadable one alike: one
line naming the tool, exit 2 (nothing else is read or written)."""

import importlib
from pathlib import Path

import pytest


@pytest.mark.parametrize("tool", ["section_misses", "baseline_wins", "group_misses"])
def test_an_unreadable_report_is_one_line_and_exit_2(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main = importlib.import_module(f"bench.{tool}").main
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tool}: cannot read")
    assert err.count("\n") == 1
