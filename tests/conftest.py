from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import credo
from credo import Memory

# Property tests check behaviour, never time (timings are the benchmarks' job): hypothesis'
# default 200 ms deadline per example failed runs on a loaded 2-core machine.
settings.register_profile("credo", deadline=None)
settings.load_profile("credo")

# A "<" that could close the memory block, or any tag around it, or open one like it
# (tokens.escape's rule, written again here): what no stored text may put in the block.
# Between the "<" and the tag, and inside its name, anything that is not a word character,
# white space or an angle bracket may stand: an invisible character a reader may drop
# (zero-width, bidi, a soft hyphen, a combining mark: day-review73).
_GAP = r"[^\w\s<>]*"
# An HTML comment's opener is none (``<!-- markdownlint-disable -->``), unless a "/", a credo
# name or the end follows it.
_NOT_COMMENT = rf"(?!!--(?![^\w<>]*(?:$|/|{_GAP.join('credo')})))"
TAG_REFERENCE = rf"<{_NOT_COMMENT}(?=[^\w<>]*(?:$|/|[a-z][^\s<>/]*-|{_GAP.join('credo')}))"
TAG_START = re.compile(TAG_REFERENCE, re.IGNORECASE)


def tag_start(line: str) -> re.Match[str] | None:
    """``TAG_START`` in ``line`` as a reader that drops invisible characters sees it: format
    characters (zero-width space, soft hyphen), combining marks and controls are left out
    first, so ``<`` U+200B ``/credo-memory>`` is a closing tag (unicodedata's categories: an
    independent reading, not tokens.escape's pattern)."""
    seen = "".join(c for c in line if unicodedata.category(c)[0] not in "CM")
    return TAG_START.search(seen)


# ../shared sits beside the checkout (CI's layout); a worktree nested deeper finds it higher up.
SHARED = next(
    (
        folder / "shared"
        for folder in Path(__file__).resolve().parents[1:]
        if (folder / "shared" / "datasets").is_dir()
    ),
    Path(__file__).resolve().parents[2] / "shared",
)

# Subprocesses (the CLI, the hook, the MCP server) run the credo this session imported, from any
# working folder: a relative PYTHONPATH (``src``, as a worktree's run sets it) would otherwise
# fall through to whichever checkout is installed, and test that one instead.
_PATHS = [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
os.environ["PYTHONPATH"] = os.pathsep.join(
    dict.fromkeys([str(Path(credo.__file__).resolve().parents[1]), *_PATHS])
)


@pytest.fixture(autouse=True)
def _private_global_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the user's own global store (~/.local/share/credo/global.db):
    each points CREDO_GLOBAL_DB at a file of its own, which does not exist until a test
    writes it. Subprocesses (the CLI, the hook, the MCP server) inherit it through the
    environment; tests that build a clean environment keep it (``keep_global``)."""
    path = tmp_path / "user-global" / "global.db"
    monkeypatch.setenv("CREDO_GLOBAL_DB", str(path))
    return path


def keep_global(env: dict[str, str]) -> dict[str, str]:
    """``env`` with this test's CREDO_GLOBAL_DB, for tests that drop every CREDO_ variable."""
    return {**env, "CREDO_GLOBAL_DB": os.environ["CREDO_GLOBAL_DB"]}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh HOME with no client config folder set elsewhere (the setup tests: Claude
    Code's CLAUDE_CONFIG_DIR, Codex's CODEX_HOME)."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return folder


@pytest.fixture
def project(tmp_path: Path, home: Path) -> Path:
    """A git work tree under a fresh HOME, where `credo setup --project` writes (modules
    with a project of their own define their own fixture, which wins)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


# A PostgreSQL server for the tests (.ci/postgres prints one; .ci/run always sets it). Where
# it is unset the PostgreSQL half of the shared suite is skipped, never failed.
POSTGRES = os.environ.get("CREDO_TEST_POSTGRES", "").strip()
BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The shared suite: in a module that sets ``BOTH_BACKENDS = True``, every test that
    opens a store through the ``backend`` fixture (``memory``, ``store_location``) runs
    against SQLite and PostgreSQL, unless marked ``sqlite_only``."""
    if (
        "backend" in metafunc.fixturenames
        and getattr(metafunc.module, "BOTH_BACKENDS", False)
        and not metafunc.definition.get_closest_marker("sqlite_only")
    ):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


def postgres_schema_url(base: str, schema: str) -> str:
    """``base`` with its search_path set to ``schema``: one store per schema."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(base)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    return urlunsplit(parts._replace(query=urlencode(query)))


@contextlib.contextmanager
def postgres_store() -> Iterator[str]:
    """A fresh, empty PostgreSQL store (a schema of its own), dropped afterwards."""
    if not POSTGRES:
        pytest.skip("CREDO_TEST_POSTGRES is unset (.ci/run starts a server and sets it)")
    import uuid

    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield postgres_schema_url(POSTGRES, schema)
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def store_location(backend: str, tmp_path: Path) -> Iterator[str | Path]:
    """Where a test's store lives: a file, or an empty PostgreSQL store."""
    if backend == "sqlite":
        yield tmp_path / "memory.db"
        return
    with postgres_store() as url:
        yield url


@pytest.fixture
def memory(store_location: str | Path, tmp_path: Path) -> Iterator[Memory]:
    with Memory(store_location, root=tmp_path) as mem:
        yield mem


@pytest.fixture
def mem_memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(":memory:", root=tmp_path) as mem:
        yield mem


def exported_records(memory: Memory, path: Path) -> list[dict[str, object]]:
    """``memory``'s export, written to ``path``, as the records it holds (one dict a line)."""
    memory.export_records(path)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def credo_command() -> list[str]:
    exe = shutil.which("credo")
    return [exe] if exe else [sys.executable, "-m", "credo"]


def credo_in(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real ``credo`` entry point run in ``cwd`` with no ``CREDO_DB``: the store is the
    one that folder resolves to (its .credo.toml, its git work tree, the user data dir)."""
    environment = {k: v for k, v in os.environ.items() if k != "CREDO_DB"}
    environment.update(env or {})
    return subprocess.run(
        [*credo_command(), *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


class CliRun:
    """Runs the real ``credo`` entry point in a fresh process against one store."""

    def __init__(self, db: Path, cwd: Path) -> None:
        self.db, self.cwd = db, cwd

    def __call__(
        self,
        *args: str,
        stdin: str | None = None,
        check: bool = False,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        environment = {**os.environ, "CREDO_DB": str(self.db), **(env or {})}
        environment.pop("CREDO_DEBUG", None)
        done = subprocess.run(
            [*credo_command(), *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.cwd,
            env=environment,
            timeout=120,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"credo {' '.join(args)} failed: {done.stderr}")
        return done


@pytest.fixture
def run(tmp_path: Path) -> CliRun:
    return CliRun(tmp_path / "cli.db", tmp_path)


def write_topic_pages(docs: Path, topics: tuple[str, ...]) -> None:
    """A page per topic under ``docs``, four short sections each, that share no word with
    the notes' questions the own-line tests ask: the docs a note must rank against."""
    for topic in topics:
        parts = [f"# {topic.title()}\n"]
        for n in range(4):
            parts.append(
                f"## {topic.title()} part {n}\n\nThe {topic} setting number {n} changes how "
                f"{topic} behave in a project.\n\nSet {topic} in the settings module before "
                "the engine starts.\n"
            )
        (docs / f"{topic}.md").write_text("\n".join(parts), encoding="utf-8")
