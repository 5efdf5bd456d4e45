"""What every ``credo setup`` does before it writes: the server it registers must answer
``tools/list`` (through the SDK's own stdio client), and credo's package is byte-compiled so
the hook never compiles sources in a fresh process."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from credo.errors import SetupError
from credo.surfaces import install
from credo.surfaces.claude_setup import setup_claude
from credo.surfaces.install import check_server, compile_package, credo_argv

PACKAGE = Path(install.__file__).resolve().parents[1]
SDK_FIX = "-m pip install 'mcp>=2,<3'"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CREDO_DB", raising=False)
    return root


# -- the server check -----------------------------------------------------------------------------
def test_the_real_server_answers_and_leaves_no_store_behind(repo: Path) -> None:
    tools = check_server([*credo_argv(), "mcp"], cwd=repo)
    assert "search_memory" in tools and len(tools) >= 8
    assert sorted(p.name for p in repo.iterdir()) == [".git"]  # no .credo/ made by the check


def test_a_server_without_the_sdk_is_refused_with_the_pip_fix(repo: Path) -> None:
    # What `credo mcp` did before mcp was a core dependency: the import fails, the process exits.
    no_sdk = "import sys; sys.path[:] = [p for p in sys.path if 'packages' not in p]; import mcp"
    command = [sys.executable, "-c", no_sdk]
    with pytest.raises(SetupError) as caught:
        check_server(command, cwd=repo)
    message = str(caught.value)
    assert "did not start (ModuleNotFoundError: No module named 'mcp')" in message
    assert message.endswith(f"fix: {sys.executable} {SDK_FIX}")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (["/nonexistent/bin/credo", "mcp"], "FileNotFoundError"),
        ([sys.executable, "-c", "import sys; sys.exit(3)"], "Connection closed"),
        ([sys.executable, "-c", "print('hello, not JSON-RPC'); import time; time.sleep(30)"], ""),
        (
            [sys.executable, "-c", "import time; time.sleep(30)"],
            "no answer to tools/list within 2 s",
        ),
    ],
    ids=["missing", "exits", "garbage", "silent"],
)
def test_a_server_that_does_not_answer_is_refused_in_one_line(
    repo: Path, command: list[str], why: str
) -> None:
    with pytest.raises(SetupError) as caught:
        check_server(command, cwd=repo, timeout=2)
    message = str(caught.value)
    assert message.startswith("the MCP server `") and "did not start (" in message
    assert why in message and "--skip-check" in message and "\n" not in message


def test_a_refused_check_writes_nothing(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".credo.toml").write_text("[retrieval]\nno_such_key = 1\n")  # the server refuses it
    with pytest.raises(SetupError, match="no_such_key"):
        setup_claude("project", cwd=repo)
    assert sorted(p.name for p in repo.iterdir()) == [".credo.toml", ".git"]


# -- the byte-compile -----------------------------------------------------------------------------
def fresh_pyc(source: Path) -> bool:
    """A .pyc the running interpreter's import system takes without recompiling: its magic
    number, timestamp-checked, with the source's mtime and size."""
    cache = Path(importlib.util.cache_from_source(str(source)))
    if not cache.is_file():
        return False
    head = cache.read_bytes()[:16]
    stat = source.stat()
    return (
        head[:4] == importlib.util.MAGIC_NUMBER
        and int.from_bytes(head[4:8], "little") == 0
        and int.from_bytes(head[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(head[12:16], "little") == stat.st_size & 0xFFFFFFFF
    )


def test_cli_setup_compiles_every_module_even_with_dont_write_bytecode(tmp_path: Path) -> None:
    """On a copy of the package with no .pyc at all, under PYTHONDONTWRITEBYTECODE (so the
    setup process's own imports write none): every module gets one, and the hook command
    setup writes starts from the copy."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "credo", ignore=shutil.ignore_patterns("__pycache__"))
    sources = sorted((site / "credo").rglob("*.py"))
    assert sources and not any(fresh_pyc(s) for s in sources)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CLAUDE_"))}
    env |= {"HOME": str(tmp_path), "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    env |= {"SOURCE_DATE_EPOCH": "1700000000"}  # would make py_compile write hash-checked files
    done = subprocess.run(
        [sys.executable, "-m", "credo", "setup", "claude", "--skip-check", "--json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["notes"] == []  # stdout is one JSON document
    stale = [s.relative_to(site).as_posix() for s in sources if not fresh_pyc(s)]
    assert stale == []
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert str(site / "credo" / "hookstart.py") in command


def test_setup_from_a_source_tree_records_a_server_that_runs_that_tree(tmp_path: Path) -> None:
    """``PYTHONPATH=src python -m credo setup claude`` in a checkout (day-probe77, probe78):
    the hooks ran the checkout's hookstart.py, the server the interpreter's installed
    ``credo`` script (another version on the same store), or, with none installed, a
    ``python -m credo`` that a client, started without that PYTHONPATH, could not import.
    Through the real entry point, server check on: the recorded command, started with its
    own env and without the setup's PYTHONPATH, runs the copy."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "credo", ignore=shutil.ignore_patterns("__pycache__"))
    marker = tmp_path / "ran.txt"
    with (site / "credo" / "__init__.py").open("a", encoding="utf-8") as init:
        init.write(  # (the copy says which credo a process imported)
            "\nimport os as _os\nif _os.environ.get('RAN_AT'):\n"
            "    open(_os.environ['RAN_AT'], 'w').write(__file__)\n"
        )
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CLAUDE_"))}
    env |= {"HOME": str(tmp_path), "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "credo", "setup", "claude", "--json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["credo"]
    assert entry["env"] == {"PYTHONPATH": str(site)}
    assert entry["args"][-1] == "mcp"
    client = {k: v for k, v in env.items() if k != "PYTHONPATH"} | entry["env"]
    ran = subprocess.run(
        [entry["command"], *entry["args"][:-1], "--version"],
        cwd=project,
        env=client | {"RAN_AT": str(marker)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert marker.read_text() == str(site / "credo" / "__init__.py")


def test_the_source_folder_is_told_only_when_the_interpreter_would_not_find_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src"
    monkeypatch.setattr(install, "package_folder", lambda: src / "credo")
    site = str(tmp_path / "site-packages")
    monkeypatch.setenv("PYTHONPATH", str(src))
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(src), site])
    assert install.source_folder() == src.resolve()
    assert install.credo_argv()[1:] == ["-m", "credo"]
    assert install.server_env() == {"PYTHONPATH": str(src.resolve())}
    assert install.server_env(["/opt/venv/bin/credo"]) == {}
    # started from the folder itself (python -m credo in src/): the same
    monkeypatch.delenv("PYTHONPATH")
    monkeypatch.setattr(sys, "path", ["", site])
    src.mkdir()
    monkeypatch.chdir(src)
    assert install.source_folder() == src.resolve()
    # an editable install's path entry (a .pth), or an import hook: the interpreter's own
    monkeypatch.setattr(sys, "path", [str(tmp_path), site, str(src)])
    assert install.source_folder() is None
    monkeypatch.setattr(sys, "path", [str(tmp_path), site])
    assert install.source_folder() is None


def test_an_unwritable_folder_is_one_note_and_setup_goes_on(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file where __pycache__ should be: unwritable even for root, who ignores chmod.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text("X = 1\n")
    (package / "__pycache__").write_text("not a folder")
    note = compile_package(package)
    assert note is not None and str(package) in note and "\n" not in note

    monkeypatch.setattr(install, "package_folder", lambda: package)
    report = setup_claude("project", cwd=repo, argv=["/opt/venv/bin/credo"], check=False)
    assert report.notes == [note]
    assert (repo / ".claude" / "settings.json").is_file()


def test_compile_package_defaults_to_credos_own_folder() -> None:
    assert install.package_folder() == PACKAGE
    assert compile_package() is None
    assert all(fresh_pyc(s) for s in PACKAGE.rglob("*.py"))
