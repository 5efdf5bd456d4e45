"""Development corpora for docs and code retrieval: sets a ranking change may be studied on.

    python bench/devsets/corpora.py [--list]   # fetch every development corpus, print where

The same form and cache as ``bench/docs_corpora.py``. Unlike ``bench/heldout``, these sets
may be read query by query to find what to change; a change found here is then checked
once on the held-out sets (see README.md).

Code: sqlparse (Python), ws (JavaScript), urfave/cli (Go) and semver (Rust), the last two
from Debian's packages (``apt-get download``, so a Debian machine after ``apt-get update``).
Documentation: pymdown-extensions' guide (Markdown, MkDocs, with its changelog and release
notes) and Pygments' (reStructuredText, Sphinx). Focused (``FOCUSED``, apart from the
means): fastify's examples and tests (module-level routes, hooks and test blocks); ESLint,
Tailwind and Docusaurus configuration modules (key blocks of ``module.exports = {...}`` and
``export default config``); svgo's tables as named exports (``export const`` and
``exports.x = {...}``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docs_corpora
from docs_corpora import Corpus

DEV: tuple[Corpus, ...] = (
    Corpus(
        name="sqlparse",
        kind="code",
        project="sqlparse",
        version="0.5.3",
        licence="BSD-3-Clause",
        url="pypi:sqlparse==0.5.3",
        sha256="09f67787f56a0b16ecdbde1bfc7f5d9c3371ca683cfeaa8e6ff60b4807ec9272",
        include=("sqlparse/*.py", "sqlparse/*/*.py"),
    ),
    Corpus(
        name="ws",
        kind="code",
        project="ws",
        version="8.18.3",
        licence="MIT",
        url="https://registry.npmjs.org/ws/-/ws-8.18.3.tgz",
        sha256="424be604c8e7926fc29a1f067bf2dac256af3bcea62fe30395018bbaf8a9be2a",
        include=("lib/*.js", "index.js"),
    ),
    Corpus(
        name="pymdown",
        kind="docs",
        project="pymdown-extensions",
        version="13.1.2",
        licence="MIT",
        url="pypi:pymdown-extensions==13.1.2",
        sha256="724701395585d027fb18a6ad3377636570bac4f2917ed809f06cbc811d7e60bb",
        include=(
            "docs/src/markdown/*.md",
            "docs/src/markdown/*/*.md",
            "docs/src/markdown/*/*/*.md",
            "docs/src/markdown/*/*/*/*.md",
        ),
    ),
    Corpus(
        name="pygments",
        kind="docs",
        project="Pygments",
        version="2.21.0",
        licence="BSD-2-Clause",
        url="pypi:pygments==2.21.0",
        sha256="610ca751c9bc2492b38eb9a38a7fbc93edbbb2d7182edaf34e66ae493dee5c8c",
        include=("doc/*.rst", "doc/docs/*.rst"),
    ),
    # Go and Rust (issue #14, langs67): Debian's -dev packages, fetched by apt-get.
    Corpus(
        name="urfave-cli",
        kind="code",
        project="urfave/cli",
        version="1.22.9-2",
        licence="MIT",
        url="deb:golang-github-urfave-cli-dev=1.22.9-2",
        sha256="ed1e942459d1f07bf74e1e4f64b9c37551b20d461e03014bbdf4dbfb0f83913d",
        top="usr/share/gocode/src/github.com/urfave/cli",
        # Every file but the five largest tests: the library, its flag types (one file
        # each, near twins), and tests with build tags and helpers.
        include=tuple(
            f"{name}.go"
            for name in (
                *("app", "build", "category", "cli", "command", "context", "docs", "errors"),
                *("fish", "flag", "flag_bool", "flag_bool_t", "flag_duration", "flag_float64"),
                *("flag_generic", "flag_int", "flag_int64", "flag_int64_slice", "flag_int_slice"),
                *("flag_string", "flag_string_slice", "flag_uint", "flag_uint64", "funcs"),
                *("help", "parse", "sort", "template"),
                *("command_test", "docs_test", "errors_test", "fish_test", "go116_test"),
                *("helpers_test", "helpers_unix_test", "sort_test"),
            )
        ),
    ),
    Corpus(
        name="semver",
        kind="code",
        project="semver",
        version="1.0.14-1",
        licence="MIT OR Apache-2.0",
        url="deb:librust-semver-dev=1.0.14-1",
        sha256="bf3719b7aac4b7f16f0d68a7037306dbc1532758fe7a5dea01254e85cecaca8c",
        top="usr/share/cargo/registry/semver-1.0.14",
        include=("src/*.rs", "tests/*.rs", "tests/*/mod.rs", "build.rs"),
    ),
)

# Focused sets probe one construct a change is about; they have fewer questions of one type
# (no multi-fact ones), so they run apart (``run.py --focused``) and never enter the dev
# sets' means.
FOCUSED: tuple[Corpus, ...] = (
    Corpus(
        name="fastify",
        kind="code",
        project="fastify",
        version="5.12.8",
        licence="MIT",
        url="https://registry.npmjs.org/fastify/-/fastify-5.12.8.tgz",
        sha256="459048aabd9311309f4f95b36e8ca065e3a4613ded292bcf50442926931e4748",
        # Module-level routes, hooks and test blocks (issue #14, js65): the examples and
        # three test files; fnmatch's * spans folders, so examples/benchmark/ is in.
        include=(
            "examples/*.js",
            "examples/*.mjs",
            "examples/*.ts",
            "test/set-error-handler.test.js",
            "test/url-rewriting.test.js",
            "test/has-route.test.js",
        ),
    ),
    # Configuration modules read by key (issue #14, js67): ESLint rules as ``module.exports =
    # {rules: {...}}``, Tailwind's full default configuration (function values among the
    # keys), a Docusaurus site config (``const config = {...}; export default config``).
    Corpus(
        name="airbnb",
        kind="code",
        project="eslint-config-airbnb-base",
        version="15.0.0",
        licence="MIT",
        url="https://registry.npmjs.org/eslint-config-airbnb-base/-/eslint-config-airbnb-base-15.0.0.tgz",
        sha256="4b4b1f81fef005af58c59468acbbef22b809bf4909d5b8623fb49c5152046fd2",
        include=("rules/*.js", "index.js", "legacy.js"),
    ),
    Corpus(
        name="tailwind",
        kind="code",
        project="tailwindcss",
        version="3.4.9",
        licence="MIT",
        url="https://registry.npmjs.org/tailwindcss/-/tailwindcss-3.4.9.tgz",
        sha256="60e98d9704b03b43d44f4bc2aad1f266968479194e4cae96a0c3fb557c676480",
        include=("stubs/*.js", "stubs/*.cjs", "stubs/*.ts", "src/util/*.js"),
    ),
    Corpus(
        name="docusaurus",
        kind="code",
        project="create-docusaurus",
        version="3.10.2",
        licence="MIT",
        url="https://registry.npmjs.org/create-docusaurus/-/create-docusaurus-3.10.2.tgz",
        sha256="49c322e8e0a2763948d3390d8074ebb93542baf3d3f39db922dc1050459687c2",
        # (fnmatch's * spans folders: the template's src/**/*.js is in)
        include=("templates/classic/*.js",),
    ),
    # Named exports read by key (issue #14, jsconf69): svgo's SVG tables as ``export const
    # elems = {...}`` (4.x, ES modules) and as ``exports.elems = {...}`` (3.x, CommonJS),
    # among the plugins that read them.
    Corpus(
        name="svgo",
        kind="code",
        project="svgo",
        version="4.0.2",
        licence="MIT",
        url="https://registry.npmjs.org/svgo/-/svgo-4.0.2.tgz",
        sha256="a554a16a67cb6b7d6460116fe1840a9495073bebfcd02c71059900eace2c6610",
        include=("plugins/*.js",),
    ),
    Corpus(
        name="svgo3",
        kind="code",
        project="svgo",
        version="3.3.4",
        licence="MIT",
        url="https://registry.npmjs.org/svgo/-/svgo-3.3.4.tgz",
        sha256="0fadd7a8a9e64589a6a2052748b973a18e5ba6539ccd3bdff957c5365c4a6c9e",
        include=("plugins/*.js",),
    ),
)

BY_NAME = {corpus.name: corpus for corpus in DEV}


def main(argv: list[str] | None = None) -> int:
    return docs_corpora.main(argv, DEV + FOCUSED)


if __name__ == "__main__":
    sys.exit(main())
