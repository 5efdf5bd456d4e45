"""Held-out corpora: projects no ranking change was made on, fetched at bench time.

    python bench/heldout/corpora.py [--list]   # fetch every held-out corpus, print where

The same form and cache as ``bench/docs_corpora.py`` (one pinned release each, checked by
sha256, only the files ``include`` names kept, never committed). None of these projects
was used by an earlier bench or held-out set (see README.md here for the rule).

Documentation: pip's user guide (Markdown, MyST) and setuptools' (reStructuredText,
Sphinx, with its 4,000-line NEWS.rst changelog); since stop 47 (pip and setuptools
having been used to choose between changes), scikit-build-core's (Markdown, MyST, with a
2,000-line changelog) and Scrapy's (reStructuredText, Sphinx, with a 10,500-line
news.rst). Code: attrs (Python) and commander (JavaScript, from npm); since stop 47
(attrs and commander having been used to choose between changes), mistune (Python, a
Markdown parser) and postcss (JavaScript, from npm). Since stop 58 (mistune having been
used to choose between changes): cibuildwheel's docs (Markdown, MkDocs, with a 1,500-line
changelog), Trio's (reStructuredText, Sphinx, with a 1,900-line history.rst) and go-chi/chi
(Go, from Debian's golang-github-go-chi-chi-dev, fetched by apt-get like bench/devsets').
Also since stop 58, written blind as a reserve and moved into the check the same stop, when
scikit-build-core, scrapy and postcss were spent: invoke (Python code), immer (TypeScript
from npm) and undici's docs (Markdown of a JavaScript project, from npm). Since stop 61,
written blind: lark (Python, a parsing toolkit), ignore (Rust, from Debian's
librust-ignore-dev, fetched by apt-get), Babel's docs (Sphinx) and eslint-plugin-import's
(Markdown, from npm), @tanstack/query-core (TypeScript from npm) and griffe's docs
(Markdown, MkDocs, with a 2,000-line changelog). Since stop 62, in the reserve: mypy's docs
(reStructuredText, Sphinx, with a 5,800-line CHANGELOG.md) and BurntSushi/toml (Go, from
Debian's golang-github-burntsushi-toml-dev, fetched by apt-get).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docs_corpora
from docs_corpora import Corpus

HELDOUT: tuple[Corpus, ...] = (
    Corpus(
        name="pip",
        kind="docs",
        project="pip",
        version="25.2",
        licence="MIT",
        url="pypi:pip==25.2",
        sha256="578283f006390f85bb6282dffb876454593d637f5d1be494b5202ce4877e71f2",
        include=("docs/html/*.md", "docs/html/*/*.md", "docs/html/*/*/*.md"),
    ),
    Corpus(
        name="setuptools",
        kind="docs",
        project="setuptools",
        version="80.9.0",
        licence="MIT",
        url="pypi:setuptools==80.9.0",
        sha256="f36b47402ecde768dbfafc46e8e4207b4360c654f1f3bb84475f0a28628fb19c",
        include=("docs/*.rst", "docs/*/*.rst", "NEWS.rst"),
    ),
    Corpus(
        name="scikit-build-core",
        kind="docs",
        project="scikit-build-core",
        version="1.1.2",
        licence="Apache-2.0",
        url="pypi:scikit-build-core==1.1.2",
        sha256="7893709119c5ab1be75cd10442383132c9433b9f104dacef5185949efbea7974",
        include=("docs/*.md",),  # fnmatch's * spans folders: every page, changelog included
    ),
    Corpus(
        name="scrapy",
        kind="docs",
        project="Scrapy",
        version="2.19.0",
        licence="BSD-3-Clause",
        url="pypi:scrapy==2.19.0",
        sha256="34130726582b64c91531162ab277c4053e558876d49ba219cb43679e71d80a87",
        include=("docs/*.rst",),  # topics/, intro/ and the 10,500-line news.rst
    ),
    Corpus(
        name="attrs",
        kind="code",
        project="attrs",
        version="25.4.0",
        licence="MIT",
        url="pypi:attrs==25.4.0",
        sha256="16d5969b87f0859ef33a48b35d55ac1be6e42ae49d5e853b597db70c35c57e11",
        include=("src/attr/*.py", "src/attrs/*.py"),
    ),
    Corpus(
        name="commander",
        kind="code",
        project="commander",
        version="14.0.0",
        licence="MIT",
        url="https://registry.npmjs.org/commander/-/commander-14.0.0.tgz",
        sha256="eaef3a697e7173c7347ca4c1e60dd2bc1d38214d2aaecce89d70881a51d7fde7",
        include=("lib/*.js", "index.js"),
    ),
    Corpus(
        name="mistune",
        kind="code",
        project="mistune",
        version="3.1.4",
        licence="BSD-3-Clause",
        url="pypi:mistune==3.1.4",
        sha256="b5a7f801d389f724ec702840c11d8fc48f2b33519102fc7ee739e8177b672164",
        include=("src/mistune/*.py", "src/mistune/*/*.py"),
    ),
    Corpus(
        name="postcss",
        kind="code",
        project="postcss",
        version="8.5.34",
        licence="MIT",
        url="https://registry.npmjs.org/postcss/-/postcss-8.5.34.tgz",
        sha256="524cdd605965ab2d602c9b1bc9387a2747b84a6f7ca6bb7dd6462e86168aada8",
        include=("lib/*.js",),
    ),
    # Since stop 58 (issue #14, blind81): a MkDocs tree with a 1,468-line changelog, a
    # Sphinx tree with a 1,936-line history.rst, and Go from Debian's -dev package.
    Corpus(
        name="cibuildwheel",
        kind="docs",
        project="cibuildwheel",
        version="4.3.5",
        licence="BSD-2-Clause",
        url="pypi:cibuildwheel==4.3.5",
        sha256="43c30292b9ec8d08a8eb3873436e64d4d1434c5dcbc855fb0afbfc69732048f1",
        include=("docs/*.md",),  # fnmatch's * spans folders: _internal/ and changelog.md
    ),
    Corpus(
        name="trio",
        kind="docs",
        project="trio",
        version="0.35.0",
        licence="MIT OR Apache-2.0",
        url="pypi:trio==0.35.0",
        sha256="7efb295c78a0ecd1235c5759e620b5da564ca80d2efcb0055423588547248b96",
        include=("docs/source/*.rst",),  # the reference pages, tutorial and history.rst
    ),
    Corpus(
        name="chi",
        kind="code",
        project="go-chi/chi",
        version="5.0.7-1",
        licence="MIT",
        url="deb:golang-github-go-chi-chi-dev=5.0.7-1",
        sha256="70beea5ca4f20af122e8083c91b56b6055df895595c7d9dcf286fadd4ad26f9b",
        top="usr/share/gocode/src/github.com/go-chi/chi",
        # The router and middleware/, tests included (fnmatch's * spans folders; the
        # leading letter leaves _examples/ out)
        include=("[a-z]*.go",),
    ),
    # Since stop 58 (issue #14, blind82), written as a reserve: Python code with real logic
    # (invoke's task runner, parser and config; its vendored PyYAML left out), TypeScript
    # sources from npm (immer's src/, not its .d.ts), and a JavaScript project's Markdown
    # docs from npm (undici's docs/ folder: API pages and best practices).
    Corpus(
        name="invoke",
        kind="code",
        project="invoke",
        version="2.2.1",
        licence="BSD-2-Clause",
        url="pypi:invoke==2.2.1",
        sha256="515bf49b4a48932b79b024590348da22f39c4942dff991ad1fb8b8baea1be707",
        # fnmatch's * spans folders: completion/ and parser/ come in, vendor/ stays out
        include=("invoke/[!v]*.py",),
    ),
    Corpus(
        name="immer",
        kind="code",
        project="immer",
        version="11.2.14",
        licence="MIT",
        url="https://registry.npmjs.org/immer/-/immer-11.2.14.tgz",
        sha256="590d2d7d6b5a114cbbe07af2ca99ee9c4fd362f135d1757b14c869c445e9dc22",
        include=("src/*.ts",),  # fnmatch's * spans folders: core/, plugins/, types/, utils/
    ),
    Corpus(
        name="undici",
        kind="docs",
        project="undici",
        version="8.14.1",
        licence="MIT",
        url="https://registry.npmjs.org/undici/-/undici-8.14.1.tgz",
        sha256="9819815615cee4bb63cdab40ae6cc46b5956970c001ba6b27670338de42c1979",
        include=("docs/docs/*.md",),  # api/, best-practices/, getting-started.md, index.md
    ),
    # Since stop 61 (issue #14, heldout87a), written blind: Python code with real
    # logic (lark: grammar loader, lexers, Earley/LALR/CYK parsers) and Rust from Debian's
    # -dev package (ripgrep's ignore crate: gitignore matching and a parallel directory walker).
    Corpus(
        name="lark",
        kind="code",
        project="lark",
        version="1.3.1",
        licence="MIT",
        url="pypi:lark==1.3.1",
        sha256="b426a7a6d6d53189d318f2b6236ab5d6429eaf09259f1ca33eb716eed10d2905",
        include=("lark/*.py",),  # fnmatch's * spans folders: parsers/, tools/, __pyinstaller/
    ),
    Corpus(
        name="ignore",
        kind="code",
        project="ignore",
        version="0.4.18-2+b1",
        licence="Unlicense OR MIT",
        url="deb:librust-ignore-dev=0.4.18-2+b1",
        sha256="9b193694e88b3c8533c4fe1553ed0f3aae8bd06ff1f3ee652ca3b738d2959204",
        top="usr/share/cargo/registry/ignore-0.4.18",
        # src/ and the one integration test (a distractor); examples/ and the .gitignore
        # fixture stay out
        include=("src/*.rs", "tests/*.rs"),
    ),
    # Since stop 61 (issue #14, heldout87b), written blind: a Sphinx tree with a
    # 1,234-line changelog (Babel's user docs, API pages and CHANGES.rst) and the plain
    # Markdown docs of a JavaScript project from npm (eslint-plugin-import's one page per
    # rule, its README and a 2,083-line CHANGELOG.md; many pages share the same headings).
    Corpus(
        name="babel",
        kind="docs",
        project="Babel",
        version="2.19.0",
        licence="BSD-3-Clause",
        url="pypi:babel==2.19.0",
        sha256="fddd2cbbbac7c299af3c2880be23609c331bd94f0912baca6cb0abfe054dfc27",
        include=("docs/*.rst", "CHANGES.rst"),  # fnmatch's * spans folders: api/, api/messages/
    ),
    Corpus(
        name="eslint-plugin-import",
        kind="docs",
        project="eslint-plugin-import",
        version="2.32.0",
        licence="MIT",
        url="https://registry.npmjs.org/eslint-plugin-import/-/eslint-plugin-import-2.32.0.tgz",
        sha256="4c122b593c52e40f3167a89b388d0b9a155aaddc08f05935ccece7b4ff51ecde",
        include=("docs/rules/*.md", "README.md", "CHANGELOG.md"),
    ),
    # Since stop 61 (issue #14, heldout87c), written blind: TypeScript sources
    # with real logic from npm (TanStack Query's framework-free core: cache, observers,
    # retryer, hydration) and a Python project's MkDocs pages with a 2,036-line changelog.
    Corpus(
        name="query-core",
        kind="code",
        project="@tanstack/query-core",
        version="5.108.4",
        licence="MIT",
        url="https://registry.npmjs.org/@tanstack/query-core/-/query-core-5.108.4.tgz",
        sha256="7660b37f747ce33f1e5456299009dbe217a08514f402c13e633ae95727e361e0",
        include=("src/*.ts",),  # 23 files, types.ts included; the tarball ships no tests
    ),
    Corpus(
        name="griffe",
        kind="docs",
        project="griffe",
        version="1.9.0",
        licence="ISC",
        url="pypi:griffe==1.9.0",
        sha256="b5531cf45e9b73f0842c2121cc4d4bcbb98a55475e191fc9830e7aef87a920a0",
        # The guide, extension and docstring-reference pages and the root CHANGELOG.md (the
        # docs' changelog.md only includes it); docs/reference/api/ (pages of '::: object'
        # directives rendered from code), the reference.md and api.md link lists and
        # docs/insiders/ stay out (fnmatch's * spans folders)
        include=(
            "docs/[!ir]*.md",
            "docs/index.md",
            "docs/installation.md",
            "docs/introduction.md",
            "docs/reference/[!a]*.md",
            "CHANGELOG.md",
        ),
    ),
    # Since stop 62 (issue #14, heldout88), written blind as a reserve: a Sphinx tree with a
    # 5,814-line Markdown changelog (mypy's user docs: type system, configuration, error
    # codes) and Go from Debian's -dev package (BurntSushi/toml: lexer, parser, decoder and
    # encoder with real logic; the toml-test harness under internal/ and the tests come too).
    Corpus(
        name="mypy",
        kind="docs",
        project="mypy",
        version="2.4.1",
        licence="MIT",
        url="pypi:mypy==2.4.1",
        sha256="63b590965691e540a335fa74dadf31a7069142f6b72e234689bbd244edf55623",
        # 36 pages and the root CHANGELOG.md (docs/source/changelog.md only includes it)
        include=("docs/source/*.rst", "CHANGELOG.md"),
    ),
    Corpus(
        name="burntsushi-toml",
        kind="code",
        project="BurntSushi/toml",
        version="1.2.0-2",
        licence="MIT",
        url="deb:golang-github-burntsushi-toml-dev=1.2.0-2",
        sha256="eb0bc9f96d02b33034311604f787ca7ab071de026c9abdffa6ae40a63362f7b8",
        top="usr/share/gocode/src/github.com/BurntSushi/toml",
        # The package's *.go, tests included, and internal/ (fnmatch's * spans folders);
        # toml-test's .toml/.json fixtures stay out
        include=("[a-z]*.go",),
    ),
)

BY_NAME = {corpus.name: corpus for corpus in HELDOUT}

# The held-out check: the sets no change has been chosen on yet (README.md says which are
# spent and why). A set leaves this tuple the first time its figures choose between changes.
UNSPENT: tuple[str, ...] = (
    *("lark", "ignore", "query-core"),  # code: Python, Rust, TypeScript
    *("babel", "eslint-plugin-import", "griffe"),  # docs: Sphinx, npm Markdown, MkDocs
)

# Written blind but not yet part of the check: the lead moves a set into UNSPENT when a
# decision first needs it (stop 61 wrote six and moved them in when stop 58's six were
# spent; stop 62 wrote two ahead of need).
RESERVE: tuple[str, ...] = ("mypy", "burntsushi-toml")  # docs: Sphinx; code: Go


def main(argv: list[str] | None = None) -> int:
    return docs_corpora.main(argv, HELDOUT)


if __name__ == "__main__":
    sys.exit(main())
