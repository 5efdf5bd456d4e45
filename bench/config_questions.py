"""Configuration questions: credo against the FTS5 baselines on projects' config files.

    python bench/config_questions.py [--corpus NAME ...] [--per-query] [--json OUT]
                                     [--match overlap|within]

"Where is the rate limit configured", "which Python versions does CI test", "what does
ruff ignore": questions a developer asks about a project's ``pyproject.toml``, GitHub
workflows, pre-commit and Read the Docs YAML and JSON schema, with the project's README
and changelog beside them (the pages that mention the same keys). Three PyPI sdists,
pinned by sha256 and fetched at bench time (``docs_corpora.fetch``; nothing committed):
attrs 25.4.0, black 26.10.1, urllib3 2.8.0. Their cache folders are ``<name>-<version>``
under ``~/.cache/credo-bench``, apart from the docs and code corpora of the same releases.

Queries: ``config_questions/<name>.json`` (``bench/docs_multi/``'s format), written from
the files alone before credo or any baseline ran on them (``written_by``); each label is
the lines that answer. The systems, metrics and tables are ``bench/docs_multi.py``'s
(``heldout/run.py``'s ``run_set``); the corpora are of kind "docs", so the baselines are
fts5-para, fts5-trail and fts5-trail2 (a config file has no headings: its trail is its
path words). Use ``--match overlap``: a config label is a key's lines, not a section, and
"within" measures a hit's spill against a Markdown section this kind of file has none of.
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

QUERIES = Path(__file__).resolve().parent / "config_questions"

# The same pinned releases as the docs, code and held-out sets (one sdist identity each), with
# the configuration files and the pages that mention their keys.
CONFIG: tuple[Corpus, ...] = (
    replace(
        HELDOUT_BY_NAME["attrs"],
        name="attrs-config",
        kind="docs",
        include=(
            "pyproject.toml",
            ".pre-commit-config.yaml",
            ".readthedocs.yaml",
            ".github/*.yml",
            "README.md",
            "CHANGELOG.md",
        ),
    ),
    replace(
        DOCS_BY_NAME["black"],
        name="black-config",
        include=(
            "pyproject.toml",
            ".pre-commit-config.yaml",
            ".pre-commit-hooks.yaml",
            ".readthedocs.yaml",
            "action.yml",
            ".github/*.yml",
            "docs/compatible_configs/*.toml",
            "src/black/resources/black.schema.json",
            "README.md",
            "CHANGES.md",
        ),
    ),
    replace(
        DOCS_BY_NAME["urllib3"],
        name="urllib3-config",
        kind="docs",
        include=("pyproject.toml", "README.md", "CHANGES.rst"),
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    return run_set(argv, CONFIG, QUERIES, "config_questions", __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
