"""Configuration files (YAML, TOML, JSON) split by their key structure (chunk/config.py)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import Chunk, language_for, source_lines, split_file
from credo.knowledge.chunk.config import split_config
from credo.knowledge.chunk.passage import PASSAGE_CAP, passages
from credo.knowledge.doctor import range_holds

PYPROJECT = """\
# Example configuration.

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "demo"
requires-python = ">=3.10"

[tool.ruff]
line-length = 79

[tool.ruff.lint]
select = ["ALL"]
ignore = [
  "A001",    # shadowing is fine
  "ANN",     # Mypy is better at this
  "ARG",     # unused arguments are normal when implementing interfaces
  "C901",    # we're complex software
  "COM",     # ruff format takes care of our commas
  "D",       # We prefer our own docstring style.
  "E501",    # leave line-length enforcement to ruff format
  "ERA001",  # we need to keep around some notes
  "FBT",     # we don't hate bool args around here
  "FIX",     # Yes, we want XXX as a marker.
  "ISC001",  # conflicts with ruff format
  "N",       # we need more naming freedom
  "PD",      # we're not pandas
  "PLR0913", # yes, many arguments, but most have defaults
  "PLR2004", # numbers are sometimes fine
]

# The rate limit the API client applies, per minute.
[tool.demo.client]
rate-limit = 120
"""

WORKFLOW = """\
name: CI
on:
  push:
    branches: [main]
jobs:
  test:
    name: Tests on ${{ matrix.python-version }}
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        # The versions the classifiers name, and the next one.
        python-version: ["3.10", "3.11", "3.12", "3.13", "3.14", "3.15", "pypy3.11"]
        os: [ubuntu-latest, macOS-latest, windows-latest, windows-11-arm]
        exclude:
          # setup-python only supports CPython 3.11+ on arm64 windows
          - os: windows-11-arm
            python-version: "3.10"
    steps:
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
        with:
          persist-credentials: false
      - name: Set up Python ${{ matrix.python-version }}
        uses: actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97 # v7.0.0
        with:
          python-version: ${{ matrix.python-version }}
          allow-prereleases: true
      - name: Unit tests
        run: tox -e ci-py$(echo ${{ matrix.python-version }} | tr -d '.') -- -v --color=yes
      - name: Upload coverage to Coveralls
        if: github.repository == 'psf/black' && matrix.os == 'ubuntu-latest'
        uses: AndreMiras/coveralls-python-action@ac868b9540fad490f7ca82b8ca00480fd751ed19
        with:
          github-token: ${{ secrets.GITHUB_TOKEN }}
          parallel: true
"""

TSCONFIG = """\
{
  // Strict checks: the codebase was migrated in 2023.
  "compilerOptions": {
    "strictNullChecks": true,
    "target": "es2020", /* what the oldest supported browser runs */
    "moduleResolution": "bundler",
  },
  "include": ["src"],
}
"""


def by_trail(chunks: list[Chunk]) -> dict[tuple[str, ...], Chunk]:
    return {c.section: c for c in chunks}


def assert_exact(text: str, chunks: list[Chunk]) -> None:
    """Every chunk's text is found, word by word, in its own lines (what anchors check)."""
    lines = source_lines(text)
    for chunk in chunks:
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("pyproject.toml", "toml"),
        (".github/workflows/ci.yml", "yaml"),
        ("docker-compose.yaml", "yaml"),
        ("package.json", "json"),
        ("tsconfig.json", "json"),
        (".vscode/settings.jsonc", "json"),
        ("Cargo.toml", "toml"),
        ("config.json5", None),  # bare keys: not JSON to its grammar
    ],
)
def test_config_extensions(path: str, language: str | None) -> None:
    assert language_for(path) == language


def test_toml_tables_are_sections_with_their_key_path() -> None:
    chunks = split_file("pyproject.toml", PYPROJECT)
    assert_exact(PYPROJECT, chunks)
    assert all(c.role == "config" for c in chunks)
    trails = by_trail(chunks)
    # A small table header goes with the keys it opens; comments stay on their lines.
    lint = next(c for c in chunks if "[tool.ruff.lint]" in c.text)
    assert lint.section == ("tool", "ruff")
    assert '"ANN",     # Mypy is better at this' in lint.text
    assert (lint.start_line, lint.end_line) == (11, 32)
    # The comment above a table is part of it: it is often the explanation.
    client = trails[("tool", "demo", "client")]
    assert (client.start_line, client.end_line) == (34, 36)
    assert client.text == (
        "# The rate limit the API client applies, per minute.\n[tool.demo.client]\nrate-limit = 120"
    )


def test_tiny_tables_join_with_the_key_path_they_share() -> None:
    chunks = split_file("pyproject.toml", PYPROJECT)
    head = chunks[0]
    # The header comment, [build-system], [project] and [tool.ruff] are each under the floor.
    assert head.start_line == 1
    assert "[build-system]" in head.text and "[project]" in head.text
    assert head.section == ()


def test_yaml_workflow_keys_give_the_trail_and_keep_comments() -> None:
    chunks = split_file("ci.yml", WORKFLOW)
    assert_exact(WORKFLOW, chunks)
    strategy = next(c for c in chunks if "fail-fast" in c.text)
    # "jobs:" and "test:" are heads: they go with the strategy they open.
    assert strategy.section == ("jobs",)
    assert strategy.text.startswith("jobs:\n  test:\n")
    assert "# setup-python only supports CPython 3.11+ on arm64 windows" in strategy.text
    # A step is named by its name (or action) in the trail.
    assert chunks[-1].section == ("jobs", "test", "steps", "Upload coverage to Coveralls")
    lines = source_lines(WORKFLOW)
    covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= covered


def test_json_with_comments_and_trailing_commas_is_read_as_json() -> None:
    chunks = split_file("tsconfig.json", TSCONFIG)
    assert len(chunks) == 1
    (chunk,) = chunks
    assert (chunk.start_line, chunk.end_line) == (1, 9)  # the whole file: under the cap
    assert "// Strict checks: the codebase was migrated in 2023." in chunk.text
    assert chunk.context == "compilerOptions strictNullChecks moduleResolution"
    assert chunk.text.splitlines()[1] == '"compilerOptions": {'  # dedented, braces dropped


def test_json_member_blocks_split_past_the_cap() -> None:
    members = ",\n".join(
        f'    "option{i}": {{\n      "type": "boolean",\n'
        f'      "description": "Enable the feature number {i} of the formatter."\n    }}'
        for i in range(30)
    )
    text = '{\n  "title": "schema",\n  "properties": {\n' + members + "\n  }\n}\n"
    chunks = split_file("schema.json", text)
    assert_exact(text, chunks)
    assert len(chunks) > 3
    assert all(len(c.text) <= PASSAGE_CAP for c in chunks)
    assert all(c.section[:1] in ((), ("properties",)) for c in chunks)
    starts = [c.start_line for c in chunks]
    assert starts == sorted(starts)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("broken.toml", "[tool.x\nfoo = = 1\nname = 'still words here'\n"),
        ("broken.yaml", "a: [1, 2\nb: {\nwords: still here\n"),
        ("broken.json", '{"a": 1,, "words": "still here"'),
    ],
)
def test_a_broken_file_is_read_as_plain_lines(name: str, text: str) -> None:
    chunks = split_file(name, text)
    assert [(c.section, c.start_line) for c in chunks] == [((), 1)]
    assert "still" in chunks[0].text


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", "[" * 100_000),
        ("deep2.json", '{"a":' * 20_000 + "1" + "}" * 20_000),
        ("nested.toml", "a = " + "[" * 50_000 + "]" * 50_000 + "\n"),
        ("empty.yaml", ""),
        ("nul.json", '{"a":\x00 1}'),
        ("long.yml", "a: " + "word " * 100_000),
        ("astral.yaml", "a: \U0002c800{\nb: 1\n"),
    ],
)
def test_hostile_config_never_raises(name: str, text: str) -> None:
    for chunk in split_file(name, text):
        assert len(chunk.text) <= 2 * PASSAGE_CAP + 1
        assert 1 <= chunk.start_line <= chunk.end_line


@pytest.mark.parametrize(
    "text",
    [
        "".join("  " * i + f"k{i}:\n" for i in range(300)),
        "".join(" " * i + f"k{i}:\n" for i in range(300)),
        "- " * 300 + "x\n",
        "? " * 300 + "x\n",
    ],
)
def test_yaml_nested_past_the_grammar_limit_does_not_crash_the_process(text: str) -> None:
    # tree-sitter-yaml 0.7 dies with SIGSEGV past ~255 levels: run it where a crash shows.
    code = (
        "import sys; from credo.knowledge.chunk import split_file;"
        "print(len(split_file('deep.yaml', sys.stdin.read())))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_passages_keep_config_chunks_as_they_are() -> None:
    chunks = split_file("pyproject.toml", PYPROJECT)
    assert passages(chunks) == chunks


_KEY = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_", min_size=1, max_size=12)
_VALUE = st.one_of(
    st.integers(-1000, 1000), st.text(alphabet="abc xyz.,:#'", max_size=40), st.booleans()
)
_TREE = st.recursive(
    st.dictionaries(_KEY, _VALUE, max_size=6),
    lambda inner: st.dictionaries(_KEY, st.one_of(_VALUE, inner, st.lists(inner, max_size=3))),
    max_leaves=60,
)


@settings(max_examples=60, deadline=None)
@given(_TREE)
def test_any_json_document_splits_into_exact_ordered_ranges(tree: dict[str, object]) -> None:
    import json

    text = json.dumps(tree, indent=2)
    chunks = split_config(text, "json")
    assert_exact(text, chunks)
    spans = [(c.start_line, c.end_line) for c in chunks]
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))  # no overlap
    assert split_config(text, "json") == chunks  # deterministic
    assert all(len(c.text) <= 2 * PASSAGE_CAP for c in chunks)


def assert_ordered_exact(text: str, chunks: list[Chunk]) -> None:
    assert_exact(text, chunks)
    spans = [(c.start_line, c.end_line) for c in chunks]
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))


@settings(max_examples=40, deadline=None)
@given(_TREE)
def test_any_yaml_document_splits_into_exact_ordered_ranges(tree: dict[str, object]) -> None:
    yaml = pytest.importorskip("yaml")
    text = yaml.safe_dump(tree, sort_keys=False, default_flow_style=False)
    chunks = split_config(text, "yaml")
    assert_ordered_exact(text, chunks)
    assert split_config(text, "yaml") == chunks


_SCALAR = st.one_of(st.integers(-1000, 1000), st.text(alphabet="abc xyz.,:#", max_size=30))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(_KEY, min_size=1, max_size=3),
            st.dictionaries(_KEY, _SCALAR, max_size=8),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_any_toml_document_splits_into_exact_ordered_ranges(
    tables: list[tuple[list[str], dict[str, int | str], bool]],
) -> None:
    import json

    text = "".join(
        f"{'[[' if many else '['}{'.'.join(json.dumps(k) for k in path)}{']]' if many else ']'}\n"
        + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in pairs.items())
        + "\n"
        for path, pairs, many in tables
    )
    chunks = split_config(text, "toml")
    assert_ordered_exact(text, chunks)
