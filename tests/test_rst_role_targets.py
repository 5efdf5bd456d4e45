"""reST roles with an explicit target read as the page shows them (issue #14).

A project's default role (``\\`from_dict <marshmallow.Schema.from_dict>\\```, a
cross-reference where Sphinx's ``default_role`` is set), ``:pep:`` and ``:rfc:`` kept
``title <target>`` in the belief text: in the hook block ``&lt;...&gt;`` noise, charged in
tokens. The text keeps the title; the target goes to the chunk's context, where its words
stay searchable, or to its links when it is a URL. A command quoted in single backticks
(```pip install <pkg>```) is left as written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_rst
from tests.conftest import CliRun


@pytest.mark.parametrize(
    ("source", "text", "context"),
    [
        pytest.param(
            "Use `from_dict <marshmallow.Schema.from_dict>` to build one.\n",
            "Use from_dict to build one.",
            "marshmallow.Schema.from_dict",
            id="default-role",
        ),
        pytest.param(
            "See PEP :pep:`639 <639#add-license>` and :rfc:`RFC 7231 <7231#section-4>`.\n",
            "See PEP 639 and RFC 7231.",
            "639#add-license 7231#section-4",
            id="pep-and-rfc",
        ),
        pytest.param(
            "Read `the site <https://example.org/a>` first.\n",
            "Read the site first.",
            "",
            id="url-out-of-the-text",
        ),
        pytest.param(
            "Run `scrapy crawl <spider>`, `-e <name>` or `Schema's <Schema>`.\n",
            "Run scrapy crawl <spider>, -e <name> or Schema's.",
            "Schema",
            id="a-command-with-a-placeholder-is-left-as-written",
        ),
        pytest.param(
            "Plain `title reference`, :pep:`8` and `Label <https://x.example/>`_.\n",
            "Plain title reference, PEP 8 and Label.",
            "",
            id="no-explicit-title-unchanged",
        ),
        pytest.param(
            "Escaped `a \\<b>` stays.\n",
            "Escaped a <b> stays.",
            "",
            id="escaped-bracket-is-text",
        ),
    ],
)
def test_an_explicit_title_is_the_text_and_its_target_the_context(
    source: str, text: str, context: str
) -> None:
    chunks = split_rst(source)
    assert [(c.text, c.context) for c in chunks] == [(text, context)]


def test_a_url_target_is_a_link_not_text() -> None:
    chunks = split_rst("Read `the site <https://example.org/a>` first.\n")
    assert [c.links for c in chunks] == [("https://example.org/a",)]


def test_targets_follow_their_chunk_heading_term_and_sentence() -> None:
    long = " ".join(["Words that fill a long paragraph up to its sentence cut."] * 6)
    source = (
        "Guide `G <pkg.G>`\n=================\n\n"
        "term `T <pkg.T>`\n   The definition.\n\n"
        f"{long} Then `load <pkg.Schema.load>` reads it. {long}\n"
    )
    found = {c.text: c.context for c in split_rst(source) if c.context}
    assert found["Guide G"] == "pkg.G"
    assert found["term T: The definition."] == "pkg.T"
    sentences = [text for text, context in found.items() if context == "pkg.Schema.load"]
    assert len(sentences) == 1 and "Then load reads it." in sentences[0]


_NAME = st.from_regex(r"[a-z][a-z_]{0,8}(\.[a-z][a-z_]{0,8}){1,3}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(title=st.from_regex(r"[A-Za-z][a-z ]{0,12}[a-z]", fullmatch=True), target=_NAME)
def test_no_explicit_target_is_left_in_the_text(title: str, target: str) -> None:
    chunks = split_rst(f"Before `{title} <{target}>` after.\n")
    assert [c.text for c in chunks] == [f"Before {' '.join(title.split())} after."]
    assert chunks[0].context == target


def test_a_read_rst_page_shows_the_title_and_finds_the_target(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "nesting.rst").write_text(
        "Nesting\n=======\n\nPass a callable to `Nested <marshmallow.fields.Nested>` "
        "to resolve declaration order.\n",
        encoding="utf-8",
    )
    run("ingest", str(docs), check=True)
    # The target's words are searchable: "fields" is in the context only.
    found = json.loads(run("search", "fields", "--json", check=True).stdout)["beliefs"]
    assert [b["content"] for b in found] == [
        "Nesting\nPass a callable to Nested to resolve declaration order."
    ]
    shown = run("search", "callable nested", check=True).stdout
    assert "<marshmallow" not in shown and "&lt;" not in shown
