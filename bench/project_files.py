"""Project-file questions: credo against the FTS5 baselines on the files a project keeps
beside its code that credo used to skip (Dockerfile, Makefile, tox.ini, setup.cfg,
.flake8, .editorconfig, .python-version, an extension-less CHANGELOG).

    python bench/project_files.py [--corpus NAME ...] [--per-query] [--json OUT]
                                  [--match overlap|within]

"What does make test run", "what does tox run for lint", "which base image does the Docker
build use", "what is flake8's max line length". Five PyPI sdists, pinned by sha256 and
fetched at bench time (``docs_corpora.fetch``; nothing committed): attrs 25.4.0, black
26.10.1 and requests 2.32.3 (the releases of the other sets), coverage 7.18.0 and sqlparse
0.5.3, each with the pages and ``pyproject.toml`` beside its files (what mentions the
same words). Their cache folders are ``<name>-files-<version>`` under
``~/.cache/credo-bench``.

Queries: ``project_files/<name>.json``, written by helper files65 from the files alone
before credo or any baseline ran on them; each label is the lines that answer. Systems,
metrics and tables are ``bench/config_questions.py``'s (``heldout/run.py``'s ``run_set``);
use ``--match overlap``, as there.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "heldout"))

from corpora import BY_NAME as HELDOUT_BY_NAME
from run import run_set

from docs_corpora import BY_NAME as DOCS_BY_NAME
from docs_corpora import Corpus

QUERIES = Path(__file__).resolve().parent / "project_files"

PROJECT: tuple[Corpus, ...] = (
    replace(
        DOCS_BY_NAME["black"],
        name="black-files",
        include=("Dockerfile", ".flake8", "tox.ini", "pyproject.toml", "README.md", "CHANGES.md"),
    ),
    replace(
        HELDOUT_BY_NAME["attrs"],
        name="attrs-files",
        kind="docs",
        include=("tox.ini", "pyproject.toml", "README.md", "CHANGELOG.md"),
    ),
    replace(
        DOCS_BY_NAME["requests"],
        name="requests-files",
        kind="docs",
        include=("setup.cfg", "pyproject.toml", "README.md", "HISTORY.md"),
    ),
    Corpus(
        name="coverage-files",
        kind="docs",
        project="coverage",
        version="7.18.0",
        licence="Apache-2.0",
        url="pypi:coverage==7.18.0",
        sha256="dd7258fab7dbc3bedcc94d6e9d4431408e390f080687b3463dbee3147715867f",
        include=(
            "Makefile",
            "tox.ini",
            "setup.cfg",
            ".editorconfig",
            "pyproject.toml",
            "README.rst",
            "CHANGES.rst",
        ),
    ),
    Corpus(
        name="sqlparse-files",
        kind="docs",
        project="sqlparse",
        version="0.5.3",
        licence="BSD-3-Clause",
        url="pypi:sqlparse==0.5.3",
        sha256="09f67787f56a0b16ecdbde1bfc7f5d9c3371ca683cfeaa8e6ff60b4807ec9272",
        include=(
            "Makefile",
            ".flake8",
            ".python-version",
            "CHANGELOG",
            "pyproject.toml",
            "README.rst",
            "CONTRIBUTING.md",
        ),
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    return run_set(argv, PROJECT, QUERIES, "project_files", __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
