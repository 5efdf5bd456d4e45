"""Project files credo used to skip (chunk/config_lines.py): INI by section, Dockerfile by
build stage, Makefile and Justfile by rule, dotenv examples by variable (redacted), version
pins with the words their names mean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import language_for, source_lines, split_file
from credo.knowledge.chunk.passage import PASSAGE_CAP, passages

from .conftest import credo_in

TOX = """\
# SPDX-License-Identifier: MIT

[tox]
env_list = py312, lint

[testenv]
deps = pytest
commands =
    pytest {posargs}

; ruff, through pre-commit
[testenv:lint]
skip_install = true
commands = pre-commit run --all-files
"""

DOCKERFILE = """\
# syntax=docker/dockerfile:1
ARG PY=3.12
FROM python:${PY}-slim AS builder
RUN pip install --no-cache-dir build && \\
    python -m build
RUN <<EOF
FROM inside a heredoc is no stage
EOF

FROM python:3.12-slim
COPY --from=builder /dist /dist
CMD ["python", "-m", "app"]
"""

MAKEFILE = """\
# Development tasks.
PY ?= python3

.PHONY: test lint
test: build
\t$(PY) -m pytest -q

lint:
\truff check src

define HELP
x: not a rule
endef
"""

ENV_EXAMPLE = """\
# Database
DATABASE_URL=postgres://app:hunter2hunter@localhost/app
DB_PASSWORD=changeme
# Third parties
STRIPE_API_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc
SENTRY_DSN=
"""


def _by_trail(path: str, text: str) -> dict[str, tuple[int, int, str]]:
    return {
        " › ".join(c.section): (c.start_line, c.end_line, c.text)
        for c in passages(split_file(path, text))
    }


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("Dockerfile", "dockerfile"),
        ("Containerfile", "dockerfile"),
        ("Dockerfile.dev", "dockerfile"),
        ("api.dockerfile", "dockerfile"),
        ("Makefile", "make"),
        ("GNUmakefile", "make"),
        ("rules.mk", "make"),
        ("justfile", "just"),
        ("tox.ini", "ini"),
        ("setup.cfg", "ini"),
        (".flake8", "ini"),
        (".coveragerc", "ini"),
        (".editorconfig", "ini"),
        (".env.example", "dotenv"),
        (".env.sample", "dotenv"),
        (".env.template", "dotenv"),
        ("Procfile", "procfile"),
        (".nvmrc", "lines"),
        (".python-version", "lines"),
        (".tool-versions", "lines"),
        ("CODEOWNERS", "lines"),
        ("README", "text"),
        ("CHANGELOG", "text"),
        # never read: a real .env holds the secrets themselves; licence texts are noise
        (".env", None),
        (".env.local", None),
        ("LICENSE", None),
        ("COPYING", None),
        ("LICENSE.txt", None),
        ("LICENSE.md", None),
        ("LICENSE-MIT.txt", None),
        ("NOTICE.txt", None),
        ("license.txt", None),
        ("docs/_static/scripts/bootstrap.js.LICENSE.txt", None),
        ("dist/main.mjs.LICENSE.txt", None),
        ("notes/bootstrap.js.license.md", "markdown"),
        # a docs site's own page and a module named so are read
        ("docs/license.rst", "rst"),
        ("docs/license.md", "markdown"),
        ("billing/license.py", "python"),
        (".bashrc", None),
        # pip-tools' inputs, read as their compiled requirements*.txt are; other ".in"
        # files are templates or setuptools' manifest (day-probe77)
        ("requirements.in", "text"),
        ("dev-requirements.in", "text"),
        ("requirements-docs.in", "text"),
        ("requirements/typing.in", "text"),
        ("Requirements/Dev.IN", "text"),
        ("MANIFEST.in", None),
        ("Makefile.in", None),
        ("include/config.h.in", None),
        # templates of a page or configuration file, read as text (day-probe78)
        ("alembic/templates/generic/alembic.ini.mako", "text"),
        ("pyproject.toml.mako", "text"),
        ("roles/web/templates/config.yaml.j2", "text"),
        ("README.md.jinja", "text"),
        ("settings.json.jinja2", "text"),
        ("script.py.mako", None),
        ("templates/base.html.j2", None),
        ("nginx.conf.j2", None),
        ("layout.j2", None),
    ],
)
def test_language_by_name(name: str, language: str | None) -> None:
    assert language_for(f"project/{name}") == language


def test_ini_by_section_with_exact_lines() -> None:
    found = _by_trail("tox.ini", TOX)
    assert found["tox"][:2] == (3, 4)
    assert found["testenv"][:2] == (6, 9)
    # the ; comment directly above a section goes with it
    assert found["testenv:lint"] == (
        11,
        14,
        "; ruff, through pre-commit\n[testenv:lint]\nskip_install = true\n"
        "commands = pre-commit run --all-files",
    )


def test_editorconfig_glob_names_its_language() -> None:
    text = "root = true\n\n[*.py]\nmax_line_length = 100\n\n[*.{yml,yaml}]\nindent_size = 2\n"
    contexts = {c.section: c.context for c in split_file(".editorconfig", text)}
    assert "python" in contexts[("*.py",)].split()
    assert "yaml" in contexts[("*.{yml,yaml}",)].split()


def test_dockerfile_by_stage() -> None:
    found = _by_trail("Dockerfile", DOCKERFILE)
    assert found["stage builder"][:2] == (3, 8)
    assert "FROM inside a heredoc" in found["stage builder"][2]
    assert found["stage python:3.12-slim"][:2] == (10, 12)
    assert found[""][:2] == (1, 2)  # the directive and ARG before the first stage
    chunks = split_file("Dockerfile", DOCKERFILE)
    assert all("docker" in c.context.split() for c in chunks)


def test_dockerfile_shift_is_no_heredoc() -> None:
    text = 'FROM a AS one\nRUN echo "1 << two"\nFROM b AS two\nRUN true\n'
    found = _by_trail("Dockerfile", text)
    assert found["stage one"][:2] == (1, 2)
    assert found["stage two"][:2] == (3, 4)


def test_makefile_by_rule_recipes_kept() -> None:
    found = _by_trail("Makefile", MAKEFILE)
    assert found["test"] == (5, 6, "test: build\n\t$(PY) -m pytest -q")
    assert found["lint"][:2] == (8, 9)
    assert "x" not in found  # a define's body is text, not a rule
    first = passages(split_file("Makefile", MAKEFILE))[0]
    assert (first.section, first.start_line, first.end_line) == ((), 1, 4)  # variables, .PHONY


def test_justfile_by_recipe() -> None:
    text = "set dotenv-load\n\ntest *args:\n    pytest {{args}}\n\nlint:\n    ruff check .\n"
    found = _by_trail("justfile", text)
    assert found["test *args"][:2] == (3, 4)
    assert found["lint"][:2] == (6, 7)


def test_dotenv_example_redacted() -> None:
    chunks = split_file(".env.example", ENV_EXAMPLE)
    text = "\n".join(c.text for c in chunks)
    for secret in ("hunter2hunter", "changeme", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"):
        assert secret not in text
    for name in ("DATABASE_URL", "DB_PASSWORD", "STRIPE_API_KEY", "SENTRY_DSN"):
        assert name in text
    assert all("environment variables" in c.context for c in chunks)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        (".nvmrc", "20.11.1\n", "node version nvm"),
        (".python-version", "3.12\n", "python version pyenv"),
        (".tool-versions", "nodejs 20.11.1\npython 3.12.2\n", "tool versions asdf"),
    ],
)
def test_version_pin_one_passage_named(name: str, text: str, words: str) -> None:
    [chunk] = passages(split_file(name, text))
    assert (chunk.start_line, chunk.end_line) == (1, len(text.splitlines()))
    assert words in chunk.context


def test_procfile_by_process() -> None:
    found = split_file("Procfile", "web: gunicorn app:app\nworker: celery -A app worker\n")
    assert [c.text for c in found] == ["web: gunicorn app:app\nworker: celery -A app worker"]


_ROWS = st.lists(
    st.sampled_from(
        [
            "[a]",
            "[",
            "]",
            "key = v",
            "  cont",
            "\tcmd",
            "x: y",
            "FROM a AS b",
            "RUN x \\",
            "RUN <<E",
            "E",
            "define X",
            "endef",
            "ifeq (a,b)",
            "endif",
            "A=b",
            "# c",
            "; c",
            "",
            "\x00",
            "é" * 3,
            "w" * 2000,
        ]
    ),
    max_size=40,
)


@pytest.mark.parametrize(
    "name", ["tox.ini", "Dockerfile", "Makefile", "justfile", ".env.example", "Procfile", ".nvmrc"]
)
@settings(max_examples=60, deadline=None)
@given(rows=_ROWS)
def test_never_raises_and_lines_are_the_files(name: str, rows: list[str]) -> None:
    text = "\n".join(rows)
    lines = source_lines(text)
    for chunk in passages(split_file(name, text)):
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        assert len(chunk.text) <= 2 * PASSAGE_CAP * (chunk.end_line - chunk.start_line + 1)


def test_cli_ingest_reads_project_files(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "tox.ini").write_text(TOX)
    (tmp_path / ".nvmrc").write_text("20.11.1\n")
    (tmp_path / ".env").write_text("PAYMENTS=livesecretvalue\n")
    (tmp_path / ".env.local").write_text("PAYMENTS=livesecretvalue\n")
    (tmp_path / ".npmrc").write_text("//registry.npmjs.org/:_authToken=npm_abc\n")
    (tmp_path / ".env.example").write_text(ENV_EXAMPLE)
    env = {"CREDO_DB": str(tmp_path / "store.db")}
    done = credo_in(tmp_path, "--db", env["CREDO_DB"], "ingest", ".", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # Reported skipped as what they are, never read, even when named on the command line.
    skipped = {k: v for k, v in report["skipped_files"] if k.startswith(".")}
    assert skipped == {".env": "secrets", ".env.local": "secrets", ".npmrc": "secrets"}
    named = credo_in(tmp_path, "--db", env["CREDO_DB"], "ingest", ".env", "--json")
    assert json.loads(named.stdout)["files_ingested"] == 0
    assert "livesecretvalue" not in (tmp_path / "store.db").read_bytes().decode("latin-1")
    search = credo_in(tmp_path, "--db", env["CREDO_DB"], "search", "which node version", "--json")
    assert search.returncode == 0, search.stderr
    assert ".nvmrc" in search.stdout
    search = credo_in(
        tmp_path, "--db", env["CREDO_DB"], "search", "what does make test run", "--json"
    )
    assert "pytest -q" in search.stdout
    out = tmp_path / "dump.jsonl"
    dump = credo_in(tmp_path, "--db", env["CREDO_DB"], "export", str(out))
    assert dump.returncode == 0, dump.stderr
    records = out.read_text()
    assert "livesecretvalue" not in records
    assert "hunter2hunter" not in records
    assert "[testenv:lint]" in records


def test_a_walk_reads_pip_tools_inputs_and_leaves_other_in_files_out(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "requirements").mkdir(parents=True)
    (project / "requirements" / "docs.in").write_text("# the docs' own pins\nsphinx>=7\n")
    (project / "requirements" / "docs.txt").write_text("sphinx==7.2.6\n    # via -r docs.in\n")
    (project / "dev-requirements.in").write_text("# linters\nruff\npre-commit\n")
    (project / "MANIFEST.in").write_text("include README.rst\ngraft docs\n")
    db = str(tmp_path / "store.db")
    done = credo_in(project, "--db", db, "ingest", ".", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert dict(report["skipped_files"]) == {"project/MANIFEST.in": "unsupported"}
    assert report["files_ingested"] == 3
    search = credo_in(project, "--db", db, "search", "sphinx docs pins", "--json")
    assert "requirements/docs.in" in search.stdout


def test_dockerfile_and_ini_secrets_redacted() -> None:
    docker = "FROM python:3.12\nENV API_TOKEN=abcdef123456 DB_PASS=root\nRUN make\n"
    ini = "[alembic]\nsqlalchemy.url = postgresql://app:s3cretpw@db/app\npassword = hunter\n"
    text = "\n".join(c.text for c in split_file("Dockerfile", docker) + split_file("a.ini", ini))
    for secret in ("abcdef123456", "root", "s3cretpw", "hunter"):
        assert secret not in text
    assert "API_TOKEN=[redacted]" in text


def test_makefile_and_dockerfile_own_assignments_redacted() -> None:
    # Make's ``?=``/``:=`` and Dockerfile's ``ENV NAME value`` set a variable as ``=`` does
    docker = "FROM postgres:16\nENV POSTGRES_PASSWORD hunter2xyz\nENV PGDATA /data\n"
    make = "DB_PASSWORD ?= devpass99\nAPI_TOKEN := abcdef123456\n\ntest:\n\tpytest\n"
    chunks = split_file("Dockerfile", docker) + split_file("Makefile", make)
    text = "\n".join(c.text for c in chunks)
    for secret in ("hunter2xyz", "devpass99", "abcdef123456"):
        assert secret not in text, text
    assert "ENV PGDATA /data" in text


def test_reingest_skips_unchanged_project_files_and_reads_a_changed_one(tmp_path: Path) -> None:
    from credo import Memory

    root = tmp_path / "project"
    root.mkdir()
    (root / "tox.ini").write_text(TOX)
    (root / "Dockerfile").write_text(DOCKERFILE)
    (root / "Makefile").write_text(MAKEFILE)
    (root / ".env").write_text("PAYMENTS=livesecretvalue\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        first = memory.ingest(root)
        assert first.files_ingested == 3
        assert dict(first.skipped_files) == {".env": "secrets"}
        assert memory.ingest(root).files_ingested == 0
        (root / "tox.ini").write_text(TOX.replace("py312", "py313"))
        again = memory.ingest(root)
        assert again.files_ingested == 1
        found = memory.retrieve("tox env_list", token_budget=400).beliefs
        assert any("py313" in b.content for b in found)
        assert not any("py312" in b.content for b in found)


@pytest.mark.parametrize("name", ["setup.cfg", "Makefile", "Justfile"])
def test_a_long_line_without_a_key_is_read_in_linear_time(name: str) -> None:
    # A key's pattern tried every split of a run of spaces before giving up: one line of
    # 40k spaces took 16 s in an INI file, so a 2 MB file (MAX_FILE_BYTES) hung the ingest.
    import time

    text = "[s]\n" * (name == "setup.cfg") + "a" + " " * 40_000 + "x\n"
    split_file(name, "")  # (the readers' imports and patterns: not what is timed)
    started = time.process_time()
    split_file(name, text)
    assert time.process_time() - started < 1.0


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        (".env", True),
        (".env.local", True),
        (".ENV.PRODUCTION", True),
        (".env.json", True),  # a dotenv in JSON is still the secrets themselves
        (".npmrc", True),
        (".pypirc", True),
        (".env.example", False),
        (".env.sample", False),
        (".env.template", False),
        ("env.ts", False),
        ("environment.yml", False),
    ],
)
def test_files_that_hold_credentials_are_known_by_name(name: str, secret: bool) -> None:
    from credo.knowledge.ingest.walk import holds_secrets

    assert holds_secrets(name) is secret
