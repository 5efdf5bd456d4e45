"""``credo doctor`` on a fresh ingest of documents whose roles glue to the words beside them.

MyST writes a plural or a suffix straight after a role ("{class}`~pkg.Column`s") and a
superscript straight after a word ("compatible{sup}`1`"): the passage reads "pkg.Columns",
the file's words are "column" and "s". Such an anchor is where its text is, so doctor must
not call it shifted (nor exit 1 for it). reST's "`Column`\\ s" is read as "Column s".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

MYST = """\
# Console

## Explicit columns

For that {class}`~structlog.dev.ConsoleRenderer` accepts the *columns* parameter that
takes a list of {class}`~structlog.dev.Column`s.
Any version compatible{sup}`1` with `3.1` works.
"""

RST = """\
Console
=======

The renderer takes a list of :class:`~structlog.dev.Column`\\ s and sorts them.
"""


def test_a_fresh_ingest_of_glued_roles_is_healthy(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "console.md").write_text(MYST, encoding="utf-8")
    (docs / "console.rst").write_text(RST, encoding="utf-8")
    run("ingest", "docs", check=True)
    done = run("doctor", "--json")
    report = json.loads(done.stdout)
    assert report["shifted"] == [], report["shifted"]
    assert report["healthy"] and done.returncode == 0


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (
            "takes a list of {class}`~structlog.dev.Column`s.",
            "takes a list of structlog.dev.Columns.",
        ),
        ("a list of :class:`Column`\\ s here", "a list of Column s here"),  # as chunk/rst reads it
        ("any version compatible{sup}`1` with `3.1`", "any version compatible1 with 3.1"),
        ("Store ``License-File``\\s here", "Store `License-File`s here"),  # reST's escape
        # An escaped space after a literal joins (chunk/rst: "`code`s"); after a role it
        # separates (above). The first was a false shift from probe71 to 0ec8201.
        ("``code``\\ s, *em*", "`code`s, em"),
        ("x = `a`b", "x = `a`b"),  # verbatim text (code) still holds itself
        # A regex quantifier before a template literal's backtick is no MyST role (a role's
        # name starts with a letter, as chunk/inline reads it): zod's types.ts, probe74.
        ("// const re = `\\d{4}-\\d{2}`;", "const re = \\d{4}-\\d{2};"),
        # A backslash escape's argument in a code span is no role glued to a word: regex's
        # lib.rs, "`\p{Age:6.0}`", was a false shift on a fresh ingest (probe81).
        ("like `\\p{Age:6.0}` to refer", "like \\p{Age:6.0} to refer"),
        ("`\\p{Greek}` or `\\mathbb{R}`", "\\p{Greek} or \\mathbb{R}"),
        # An entity reads as its character on both sides (chunk/inline decodes it, a code
        # block keeps it as written), however often it was escaped (reading76).
        ("Caf&eacute; &mdash; ok", "Café — ok"),
        ("Caf&eacute; ok", "Caf&eacute; ok"),
        ("x &amp;eacute; y", "x &eacute; y"),
        ("x &amp;eacute; y", "x é y"),
    ],
)
def test_glued_markup_holds_its_rendered_words(line: str, text: str) -> None:
    assert range_holds([line], 1, 1, text)


def test_a_fresh_ingest_of_entities_is_healthy(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "README.md").write_text(
        "# Anyhow&ensp;¯\\_(°ペ)_/¯\n\nA caf&eacute; &mdash; open.\n\n"
        "```html\n<p>caf&eacute; &amp;eacute;</p>\n```\n",
        encoding="utf-8",
    )
    (docs / "lib.rs").write_text(
        "/// Caf&eacute; &mdash; `&amp;` here.\npub fn f() {}\n", encoding="utf-8"
    )
    run("ingest", "docs", check=True)
    done = run("doctor", "--json")
    report = json.loads(done.stdout)
    assert report["shifted"] == [], report["shifted"]
    assert report["healthy"] and done.returncode == 0


def test_a_fresh_ingest_of_rust_regex_escapes_is_healthy(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lib.rs").write_text(
        "//! * **unicode-age** -\n//!   Provide the data for the Age property. This makes it\n"
        "//!   possible to use classes like `\\p{Age:6.0}` to refer to all codepoints.\n"
        "//!\n//! Use `\\p{Greek}` for Greek letters.\n\npub fn f() {}\n",
        encoding="utf-8",
    )
    run("ingest", "docs", check=True)
    done = run("doctor", "--json")
    report = json.loads(done.stdout)
    assert report["shifted"] == [], report["shifted"]
    assert report["healthy"] and done.returncode == 0


def test_a_glued_word_still_differs_where_the_text_does() -> None:
    assert not range_holds(["compatible{sup}`1`"], 1, 1, "compatible2")
