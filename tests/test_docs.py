"""The docs stay true: the CLI reference is what the commands say about themselves, and the
README's quick start is exactly the two set-up commands CI runs."""

from __future__ import annotations

from pathlib import Path

from tests.cli_reference import render

ROOT = Path(__file__).resolve().parents[1]


def test_cli_reference_is_current() -> None:
    written = (ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert written == render(), "regenerate: python -m tests.cli_reference > docs/CLI.md"


def test_readme_quick_start_matches_ci() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -e . && credo demo" in readme
    # The second set-up command is CI's own script: it installs the test and postgres
    # extras and starts a throwaway server (.ci/postgres), so the PostgreSQL tests, skipped
    # where CREDO_TEST_POSTGRES is unset, always run there.
    blocks = readme.split("```bash\n")
    assert blocks[2].startswith(".ci/run\n```")
    assert "python3 -m pip install --quiet -e '.[test,postgres]'" in ci
    assert "python3 -m pytest" in ci and ".ci/postgres start" in ci


def test_no_merge_conflict_is_left_in_the_docs() -> None:
    """A merge's markers once stayed in docs/BENCHMARKS.md (stop 66)."""
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        lines = page.read_text(encoding="utf-8").splitlines()
        left = [
            n
            for n, line in enumerate(lines, 1)
            if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "======="
        ]
        assert not left, f"{page.name}: merge conflict markers at lines {left}"
