"""Ingesting configuration files: what is read, what is skipped, anchors and re-ingest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge.ingest.walk import is_lock_file
from tests.conftest import CliRun

CI = """\
name: CI
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        # The versions the trove classifiers name.
        python-version: ["3.10", "3.11", "3.12", "3.13"]
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - name: Set up Python ${{ matrix.python-version }}
        uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
          allow-prereleases: true
      - name: Run the test suite
        # tox picks the environment from the interpreter's version.
        run: tox -e py -- -v --color=yes
      - name: Upload coverage to Coveralls
        if: github.repository == 'demo/demo' && matrix.os == 'ubuntu-latest'
        uses: coverallsapp/github-action@v2
        with:
          github-token: ${{ secrets.GITHUB_TOKEN }}
          parallel: true
          flag-name: py${{ matrix.python-version }}
"""

PYPROJECT = """\
[project]
name = "demo"
requires-python = ">=3.10"

# The API client's rate limit, in requests per minute.
[tool.demo.client]
rate-limit = 120
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def project(root: Path) -> Path:
    write(root / ".github" / "workflows" / "ci.yml", CI)
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "package.json", json.dumps({"name": "demo", "scripts": {"test": "jest"}}))
    write(root / "package-lock.json", json.dumps({"lockfileVersion": 3, "packages": {}}))
    write(root / "pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
    write(root / "yarn.lock", "# yarn lockfile v1\n")
    write(root / "Cargo.lock", "version = 3\n")
    records = [{"id": i, "name": f"record {i}", "value": i * 3} for i in range(3000)]
    write(root / "data" / "records.json", json.dumps(records, indent=1))
    write(root / "dist" / "bundle.json", json.dumps({f"key{i}": i for i in range(400)}))
    write(root / "broken.yaml", "rate: [1, 2\nlimits: {\nthe words still count\n")
    return root


def anchors_of(memory: Memory) -> dict[str, str]:
    """Belief id -> its ingest anchor's URI."""
    return {
        a.belief_id: a.doc_uri for a in memory.store.iter_anchors() if a.anchor_type == "ingest"
    }


def test_config_files_are_read_and_lock_files_and_dumps_are_skipped(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root)
        assert report.skipped == {"lock": 4, "generated": 1, "minified": 1}
        assert dict(report.skipped_files)["data/records.json"] == "generated"
        assert dict(report.skipped_files)["dist/bundle.json"] == "minified"
        files = {uri.partition("#")[0] for uri in anchors_of(memory).values()}
        read = {".github/workflows/ci.yml", "pyproject.toml", "package.json", "broken.yaml"}
        assert files == read

        found = memory.retrieve("what is the rate limit of the client").beliefs
        assert "rate-limit = 120" in found[0].content
        assert anchors_of(memory)[found[0].id] == "pyproject.toml#L1-L7"  # one small block


def test_a_broken_config_file_is_read_as_lines(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        uris = anchors_of(memory)
        broken = [b for b, uri in uris.items() if uri.startswith("broken.yaml")]
        assert [uris[b] for b in broken] == ["broken.yaml#L1-L3"]


def test_reingest_after_an_edit_keeps_what_did_not_change(tmp_path: Path) -> None:
    root = tmp_path / "p"
    write(root / "pyproject.toml", PYPROJECT)
    ci = write(root / ".github" / "workflows" / "ci.yml", CI)
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        before = anchors_of(memory)
        # A line above the matrix: the strategy block moves, the steps block is unchanged
        # text at new lines, and the workflow's name changes.
        ci.write_text(CI.replace("name: CI\n", "name: Tests\n# Runs on every push.\n"))
        report = memory.ingest(root)
        assert (report.files_ingested, report.files_unchanged) == (1, 1)
        after = anchors_of(memory)
        moved = {b for b in before.keys() & after.keys() if before[b] != after[b]}
        assert moved, "a block whose text survived keeps its belief at its new lines"
        assert report.beliefs_moved == len(moved)
        assert all(uri.startswith(".github/") for b, uri in after.items() if b in moved)
        assert report.beliefs_stale >= 1  # the old head ("name: CI") is gone


def test_cli_search_finds_a_yaml_key_with_its_trail(run: CliRun, tmp_path: Path) -> None:
    root = tmp_path / "p"
    write(root / ".github" / "workflows" / "ci.yml", CI)
    write(root / "README.md", "# Demo\n\nA demo project that tests on Python.\n")
    run("ingest", str(root), check=True)
    # (Asked "which python versions does CI test", the steps block ranks first: it says
    # ``matrix.python-version`` three times: a known limit of keyword ranking.)
    done = run("search", "which python versions are in the strategy matrix", "--json")
    assert done.returncode == 0, done.stderr
    top = json.loads(done.stdout)["beliefs"][0]
    assert top["place"]["file"].endswith(".github/workflows/ci.yml")
    assert 'python-version: ["3.10", "3.11", "3.12", "3.13"]' in top["content"]
    assert top["place"]["section"].startswith("jobs")


@pytest.mark.parametrize(
    ("name", "lock"),
    [
        ("package-lock.json", True),
        ("npm-shrinkwrap.json", True),
        ("pnpm-lock.yaml", True),
        ("yarn.lock", True),
        ("poetry.lock", True),
        ("Cargo.lock", True),
        ("composer.lock", True),
        ("uv.lock", True),
        ("bun.lockb", True),
        ("packages.lock.json", True),
        ("go.sum", True),  # (probe90: was "unsupported")
        ("go.mod", False),
        ("package.json", False),
        ("lockfile.yaml", False),
        ("Cargo.toml", False),
    ],
)
def test_lock_files_by_name(name: str, lock: bool) -> None:
    assert is_lock_file(name) is lock


def test_a_config_that_becomes_a_dump_has_its_beliefs_retired(tmp_path: Path) -> None:
    root = tmp_path / "p"
    data = write(root / "fixtures.json", json.dumps({"retries": 3, "timeout": 30}, indent=2))
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        assert memory.retrieve("retries timeout").beliefs
        rows = [{"id": i, "name": f"row {i}"} for i in range(3000)]
        data.write_text(json.dumps(rows, indent=1), encoding="utf-8")
        report = memory.ingest(root)
        assert report.skipped == {"generated": 1}
        assert report.beliefs_stale == 1
        assert not memory.retrieve("retries timeout").beliefs


def test_pooled_ingest_of_config_writes_the_serial_store(tmp_path: Path) -> None:
    from tests.test_ingest_pool import _ingest, _tables

    root = project(tmp_path / "p")
    for number in range(6):  # enough files that the pool splits ahead
        write(root / "config" / f"service{number}.yaml", CI.replace("CI", f"Service {number}"))
    serial = _ingest(tmp_path / "s.db", root, workers=0)
    pooled = _ingest(tmp_path / "p.db", root, workers=2)
    assert serial.skipped == pooled.skipped == {"lock": 4, "generated": 1, "minified": 1}
    assert _tables(tmp_path / "s.db") == _tables(tmp_path / "p.db")


def test_credos_own_settings_are_not_read_by_a_folder_walk(tmp_path: Path) -> None:
    root = tmp_path / "p"
    write(root / ".credo.toml", '[store]\nlocation = "postgresql://me:s3cret@db/credo"\n')
    write(root / "pyproject.toml", PYPROJECT)
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root)
        assert report.files_seen == 1
        assert not memory.retrieve("postgresql store location").beliefs


COMPOSE = """\
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: hunter2-s3cret
  web:
    environment:
      DATABASE_URL: postgres://app:pw-in-url-77@db:5432/app
      STRIPE_API_KEY: "sk_live_abcdefghijklmnop1234"
"""


def test_secrets_in_configuration_never_reach_the_store(run: CliRun, tmp_path: Path) -> None:
    """A compose file's passwords and keys are redacted before the passage is stored, so no
    search, show or export prints them; the key and its line stay findable."""
    root = tmp_path / "p"
    write(root / "docker-compose.yml", COMPOSE)
    run("ingest", str(root), check=True)
    done = run("search", "database password for the db service", "--json")
    assert done.returncode == 0, done.stderr
    assert "POSTGRES_PASSWORD: [redacted]" in done.stdout
    exported = run("export", "-", check=True).stdout
    for secret in ("hunter2-s3cret", "pw-in-url-77", "sk_live_abcdefghijklmnop1234"):
        assert secret not in done.stdout
        assert secret not in exported
    # The anchors still hold: the marker stands where the file holds the secret.
    doctor = run("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "shifted: 0" in doctor.stdout


K8S = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: web
          command: ["redis-server", "--requirepass", "redisPassw0rd"]
          env:
            - name: DB_PASSWORD
              value: "k8s-plain-pass-123"
            - name: DB_HOST
              value: db.internal
            - name: API_TOKEN
              valueFrom:
                secretKeyRef: {name: api, key: token}
"""


def test_kubernetes_env_secrets_never_reach_the_store(run: CliRun, tmp_path: Path) -> None:
    """A manifest's env list names the secret in one key and holds it in the next: the
    value is redacted, the non-secret neighbour and the secretKeyRef stay readable."""
    root = tmp_path / "p"
    write(root / "deploy.yaml", K8S)
    run("ingest", str(root), check=True)
    exported = run("export", "-", check=True).stdout
    assert "k8s-plain-pass-123" not in exported
    assert "redisPassw0rd" not in exported
    assert "db.internal" in exported and "secretKeyRef" in exported
    doctor = run("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr


BABEL = """\
module.exports = function (api) {
  api.cache(true);
  const config = {
    presets: ['@babel/preset-env'],
    password: 'hunter2-babel-pass',
    token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  };
  return config;
};
"""


def test_secrets_in_a_returned_configuration_never_reach_the_store(
    run: CliRun, tmp_path: Path
) -> None:
    """A configuration a function returns is redacted in its passage; the function's own
    definition (its context words, its definition terms) must not keep the secret either:
    `credo search` for it found the function, and the store file held it."""
    root = tmp_path / "p"
    write(root / "babel.config.js", BABEL)
    run("ingest", str(root), check=True)
    for secret in ("hunter2", "abcdefghijklmnopqrstuvwxyz0123456789"):
        done = run("search", secret, "--json", check=True)
        assert json.loads(done.stdout)["beliefs"] == [], done.stdout
    run("checkpoint", check=False)  # (a WAL store: the pages may sit in -wal)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("cli.db*"))
    assert b"hunter2" not in stored
    assert b"abcdefghijklmnopqrstuvwxyz0123456789" not in stored
    assert "presets" in run("export", "-", check=True).stdout
