"""Doc comments read as their reader sees them (issue #14, docstr71).

Rust's ``///``, Go's and JSDoc's doc comments are Markdown: ```x```, ``[`Foo`]`` and
``[text](target)`` kept their backticks, brackets and targets in the belief text, shown
and charged in the hook block. A rendered page shows the code, the name and the link's
text; a target that is no URL (``crate::Spec``) stays searchable in the chunk's context,
a URL is a link. A Python docstring's directive (``.. versionadded:: 2.0``) shows as its
name; a code block's directive and language are no words of the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.code import split_code
from credo.knowledge.chunk.doc_markup import link_targets, read_markdown, read_rest
from credo.knowledge.doctor import words
from tests.conftest import CliRun


@pytest.mark.parametrize(
    ("language", "source", "text", "context", "links"),
    [
        pytest.param(
            "rust",
            "/// Parses a [`Version`] per [the spec](crate::spec::Spec), see `parse`.\n"
            "pub fn parse(s: &str) -> Version { todo() }\n",
            "Parses a Version per the spec, see parse. pub fn parse(s: &str) -> Version",
            "todo crate::spec::Spec",
            (),
            id="rust-intra-doc-and-inline-link",
        ),
        pytest.param(
            "go",
            "package cli\n\n// Run runs the `App` as [the docs](https://example.org/run) say.\n"
            "func Run() error { return nil }\n",
            "Run runs the App as the docs say. func Run() error",
            "",
            ("https://example.org/run",),
            id="go-url-link-is-a-link",
        ),
        pytest.param(
            "js",
            "/**\n * Closes the `WebSocket` with a `code`.\n */\nfunction close(code) {}\n",
            "Closes the WebSocket with a code. function close(code)",
            "",
            (),
            id="jsdoc-code-spans",
        ),
        pytest.param(
            "js",
            "/**\n * Serializes errors (see {@link https://example.org/api#err}), or use\n"
            " * {@link Logger#child a child logger} as {@link pino} does.\n */\n"
            "function err(e) {}\n",
            "Serializes errors (see https://example.org/api#err), or use a child logger as pino"
            " does. function err(e)",
            "Logger#child",
            ("https://example.org/api#err",),
            id="jsdoc-inline-links",
        ),
        pytest.param(
            "rust",
            "/// Context &mdash; the cause:&ensp;`a &amp;&amp; b` &lt; `c`.\npub fn context() {}\n",
            "Context — the cause: a &amp;&amp; b < c. pub fn context()",
            "",
            (),
            id="rust-entities-outside-code-spans",
        ),
        pytest.param(  # rustdoc shows a code block's text as written: "&amp;" is literal
            "rust",
            "/// Joins them.\n///\n/// ```\n/// let both = a &amp;&amp; b; // &lt;\n/// ```\n"
            "/// Not &lt; here.\npub fn join() {}\n",
            "Joins them. let both = a &amp;&amp; b; // &lt; Not < here. pub fn join()",
            "",
            (),
            id="rust-entities-in-a-code-block-stay",
        ),
    ],
)
def test_a_doc_comment_reads_as_markdown_renders(
    language: str, source: str, text: str, context: str, links: tuple[str, ...]
) -> None:
    (head,) = [c for c in split_code(source, language) if c.role == "definition"]
    assert (head.text, head.context, head.links) == (text, context, links)


def test_a_docstring_directive_reads_as_its_name_and_a_code_block_goes() -> None:
    source = (
        'def fetch(url):\n    """Fetch a URL.\n\n    .. versionadded:: 2.0\n\n'
        "    .. deprecated:: 3.1 Use get.\n\n    .. code-block:: python\n\n"
        '        fetch("x")\n    """\n'
    )
    texts = [c.text for c in split_code(source, "python")]
    assert texts[:3] == [
        "def fetch(url): Fetch a URL.",
        "versionadded 2.0",
        "deprecated 3.1 Use get.",
    ]
    assert not any("code-block" in t or "::" in t for t in texts)


def test_roles_and_literals_of_a_docstring_stay_as_written() -> None:
    # Measured and left (docs/BENCHMARKS.md § "Stop 54"): cutting them moved urllib3.
    source = 'def f():\n    """Return a :class:`~a.B`, or ``None``."""\n'
    assert split_code(source, "python")[0].text == "def f(): Return a :class:`~a.B`, or ``None``."


def test_a_comment_of_a_markdown_language_reads_as_markdown() -> None:
    source = "fn f() {\n    // `repr as i64 == -1`, see [the layout](crate::Layout)\n    g();\n}\n"
    (comment,) = [c for c in split_code(source, "rust") if c.role == "code_comment"]
    assert (comment.text, comment.context) == ("repr as i64 == -1, see the layout", "crate::Layout")


def test_a_python_comment_is_not_read_as_markdown() -> None:
    chunks = split_code("x = 1\n# keep `this` as [written](here)\n", "python")
    assert "# keep" not in chunks[-1].text and "`this`" in chunks[-1].text


def test_targets_of_a_capped_tail_stay_out_of_the_context() -> None:
    filler = " ".join(["A sentence that fills the doc comment up."] * 16)
    source = (
        f"/// Head.\n///\n/// {filler}\n///\n/// See [late](crate::late::Target).\nfn f() {{}}\n"
    )
    (head,) = [c for c in split_code(source, "rust") if c.role == "definition"]
    assert "late" not in head.text and "crate::late::Target" not in head.context


_PIECE = st.sampled_from(
    [*"ab1 `[]()::.~\n-<>/&;{}|", "&amp;", "&eacute;", "&ensp;", "&#65;", "{@link ", "{@linkcode "]
)
_TEXT = st.lists(_PIECE, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(raw=_TEXT)
@example(raw="{@link a}a")  # a link's word glued to the next one was a new word (probe80)
@example(raw="&eacute;{@link a}")  # and to an entity's character before it
@example(raw="{@link a}{@link a}")  # and to the next link's
def test_reading_only_removes_words_in_order(raw: str) -> None:
    # Anchors hold when a belief's words are a subsequence of its lines' (doctor.range_holds).
    for read in (read_markdown, read_rest):
        shown = iter(words(raw))
        assert all(word in shown for word in words(read(raw)))


_CODE_PIECE = st.sampled_from([*"ab1 =;&", "&amp;", "&lt;", "&eacute;", "&#65;", "&&"])


@settings(max_examples=200, deadline=None)
@given(
    code=st.lists(_CODE_PIECE, max_size=20).map("".join),
    language=st.sampled_from(["rust", "cpp", "csharp"]),
)
def test_a_doc_code_block_line_reads_as_written(code: str, language: str) -> None:
    # The page shows a code block's text as written: no entity decoded, in any language's
    # "///" docs; a "# " line is hidden by rustdoc alone (tidy78).
    shown, line = f"let value = {code}", f"# hidden stub {code}"
    source = f"/// Does it.\n///\n/// ```\n/// {shown}\n/// {line}\n/// ```\nfn f() {{}}\n"
    text = " ".join(c.text for c in split_code(source, language))
    assert " ".join(shown.split()) in text
    assert (" ".join(line.split()) in text) is (language != "rust")


@settings(max_examples=200, deadline=None)
@given(
    text=st.from_regex(r"[A-Za-z][a-z ]{0,10}[a-z]", fullmatch=True),
    target=st.from_regex(r"[a-z]{1,6}(::[A-Za-z]{1,6}){1,3}", fullmatch=True),
)
def test_a_link_shows_its_text_and_keeps_its_target(text: str, target: str) -> None:
    raw = f"See [{text}]({target}) now."
    assert read_markdown(raw) == f"See {text} now."
    assert link_targets(raw) == [target]


@settings(max_examples=200, deadline=None)
@given(
    text=st.from_regex(r"[A-Za-z][a-z ]{0,10}[a-z]", fullmatch=True),
    target=st.from_regex(r"[a-z]{1,6}([.#][A-Za-z]{1,6}){1,3}", fullmatch=True),
    bar=st.booleans(),
)
def test_a_jsdoc_link_shows_its_text_and_keeps_its_target(
    text: str, target: str, bar: bool
) -> None:
    raw = f"See {{@link {target}{' | ' if bar else ' '}{text}}} now."
    assert read_markdown(raw) == f"See {text} now."
    assert link_targets(raw) == [target]
    assert read_markdown(f"See {{@link {target}}} now.") == f"See {target} now."


def test_an_ingested_rust_doc_shows_no_markup_and_finds_the_target(
    run: CliRun, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "lib.rs").write_text(
        "/// Compares with [`Version`] as [the ordering](crate::semantics::Ordering) says.\n"
        "pub fn cmp_precedence(a: &Version) -> bool { true }\n",
        encoding="utf-8",
    )
    run("ingest", str(src), check=True)
    # "semantics" is in the context only: the link target.
    found = json.loads(run("search", "semantics", "--json", check=True).stdout)["beliefs"]
    assert [b["content"] for b in found] == [
        "Compares with Version as the ordering says. pub fn cmp_precedence(a: &Version) -> bool"
    ]
    shown = run("search", "compares ordering", check=True).stdout
    assert "`" not in shown and "](" not in shown
