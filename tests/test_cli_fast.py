"""``credo search``'s click-free path: it takes only the plain forms, prints exactly what the
click command prints, and hands everything else (help, other options, errors) to click."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.surfaces.cli.commands import cli
from credo.surfaces.cli.fast import SearchArgs, parse_search, run_search
from credo.types import EdgeType


@pytest.mark.parametrize(
    ("argv", "parsed"),
    [
        (["search", "deploy"], SearchArgs("deploy", None, None, False, False, False)),
        (["search", "a b", "--json"], SearchArgs("a b", None, None, True, False, False)),
        (
            ["--db", "x.db", "search", "--budget", "300", "q", "--explain", "--no-anchors"],
            SearchArgs("q", "x.db", 300, False, True, True),
        ),
        (["--db=x.db", "search", "q"], SearchArgs("q", "x.db", None, False, False, False)),
        (["search", "q", "--budget", "5", "--budget", "7"], SearchArgs("q", None, 7, *[False] * 3)),
    ],
)
def test_plain_forms_are_taken(argv: list[str], parsed: SearchArgs) -> None:
    assert parse_search(argv) == parsed


@pytest.mark.parametrize(
    "argv",
    [
        ["search"],
        ["search", "--help"],
        ["search", "-h", "q"],
        ["search", "q", "extra"],
        ["search", "q", "--lane", "heat=off"],
        ["search", "q", "--no-cluster"],
        ["search", "q", "--budget"],
        ["search", "q", "--budget", "-5"],
        ["search", "q", "--budget", "lots"],
        ["search", "q", "--budget", "²"],
        ["search", "-", "q"],
        ["search", "--", "-q"],
        ["--db", "", "search", "q"],
        ["--db", ".", "search", "q"],
        ["--db"],
        ["remember", "search"],
        ["--version"],
    ],
)
def test_anything_else_is_left_to_click(argv: list[str]) -> None:
    assert parse_search(argv) is None


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fast")
    path = root / "memory.db"
    with Memory(path, root=root) as memory:
        memory.remember("Deploys go through the staging cluster first", lock=True, id="l1")
        memory.remember("The staging cluster runs on spot instances", id="s1", doc="ops.md")
        memory.remember("Spot instances can vanish with two minutes notice", id="s2")
        memory.remember("Rollbacks use the previous image tag", id="r1")
        memory.relate("s1", "s2", EdgeType.SUPPORTS)
    return path


def both(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert run_search(argv) == 0
    fast = capsys.readouterr().out
    clicked = CliRunner().invoke(cli, argv, catch_exceptions=False)
    assert clicked.exit_code == 0, clicked.output
    return fast, clicked.stdout


@pytest.mark.parametrize(
    "tail",
    [[], ["--json"], ["--explain"], ["--no-anchors", "--json"], ["--budget", "40"]],
)
def test_prints_what_the_click_command_prints(
    store: Path, tail: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    fast, clicked = both(["--db", str(store), "search", "staging spot instances", *tail], capsys)
    assert fast == clicked
    assert fast.strip()


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(min_size=1, max_size=40).filter(lambda q: not q.startswith("-")))
def test_any_query_prints_the_same(
    store: Path, query: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fast, clicked = both(["--db", str(store), "search", query, "--json"], capsys)
    assert fast == clicked


def test_a_failure_is_left_to_click_and_reported_its_way(tmp_path: Path) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database at all" * 100)
    assert run_search(["--db", str(broken), "search", "q"]) is None
    done = subprocess.run(
        [sys.executable, "-m", "credo", "--db", str(broken), "search", "q"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1


def test_the_real_entry_point_does_not_load_click(store: Path) -> None:
    script = (
        "import sys\n"
        "from credo.entry import console_main\n"
        f"sys.argv = ['credo', '--db', {str(store)!r}, 'search', 'staging']\n"
        "try:\n    console_main()\nexcept SystemExit as done:\n    code = done.code\n"
        "print('click' in sys.modules, code, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stderr.strip() == "False 0"
    assert "[l1 locked]" in done.stdout or "l1" in done.stdout
