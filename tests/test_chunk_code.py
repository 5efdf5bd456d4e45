"""split_code and split_file on code: rule tables per language, the fallback reader,
hostile input, properties, and real source files."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.knowledge.chunk import Chunk, code_treesitter, language_for, split_code, split_file
from credo.knowledge.chunk.code_grammars import GRAMMARS, Grammar
from credo.knowledge.chunk.code_names import (
    MAX_CONTEXT_WORDS,
    MAX_STRING_WORDS,
    context_words,
    names,
    own_segments,
)
from credo.knowledge.chunk.code_outline import is_commented_out_code, signature
from credo.knowledge.chunk.model import MAX_PARAGRAPH_CHARS, is_meaningful
from credo.knowledge.doctor import belief_words, range_holds
from credo.store.stem import stem, tokens
from tests.test_chunk_markdown import brief, check_chunks, lines_of, real_files

# Lower-case words of two characters or more, of any script with a case (fold86: "Grüße" in
# a message is the word grüße, no longer the fragments "gr" and "rld").
_CONTEXT_WORD = re.compile(r"(?:[^\W_]|\u0307){2,}")  # ("İ" lower-cased: i, a combining dot)


def check(chunks: Sequence[Chunk], text: str) -> None:
    """`check_chunks` plus what code adds: definitions, trails, context, order.

    Two rules of `check_chunks` predate definitions: code scopes hang from docstrings, and
    a docstring with a section starts with its ``qualified.name: `` label. Code scopes now
    hang from definitions and the trail is the section (indexed as context), so those two
    are checked here and the rest is handed to `check_chunks`.
    """
    lines = lines_of(text)
    for index, chunk in enumerate(chunks):
        if chunk.heading_index is not None:
            assert 0 <= chunk.heading_index < index, chunk
            assert chunks[chunk.heading_index].role in ("docstring", "definition"), chunk
        if chunk.role == "definition":
            assert chunk.section, chunk
        elif chunk.role == "config":  # an exported configuration object's key block:
            assert "\n" not in chunk.context, chunk  # its camelCase keys as context
            assert chunk.text == chunk.text.strip(), chunk  # its lines as written, dedented
            if "[redacted]" not in chunk.text:
                assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
            continue
        elif chunk.role == "statement":  # module-level code: outside every definition
            assert not chunk.section, chunk
            # and its context repeats no word its text gives the index already
            written = {stem(t) for t in tokens(chunk.text)}
            assert not any(stem(w) in written for w in chunk.context.split()), chunk
        else:
            assert not chunk.context, chunk
        words = chunk.context.split()
        distinct = list(dict.fromkeys(words))
        assert len(distinct) <= MAX_CONTEXT_WORDS + MAX_STRING_WORDS, chunk
        # Each word once, then the salient names once more, in the same order.
        again = words[len(distinct) :]
        assert words[: len(distinct)] == distinct, chunk
        assert len(set(again)) == len(again) and set(again) <= set(distinct), chunk
        assert all(_CONTEXT_WORD.fullmatch(word) and word == word.lower() for word in words), chunk
        # What the doctor checks of every anchor: the text's words, in order, in its lines.
        if belief_words(chunk.text):
            assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text), chunk
    # Document order: by first line; on one line, definitions first, outer before inner.
    keys = [
        (c.start_line, 0, -c.end_line) if c.role == "definition" else (c.start_line, 1, 0)
        for c in chunks
    ]
    assert keys == sorted(keys)
    # A constant's chunk (store/values.py) repeats its lines: the module's code and
    # comments are read as without it, and it links nowhere, nor does anything link to it.
    for chunk in chunks:
        if chunk.value:
            assert chunk.role == "definition" and chunk.heading_index is None, chunk
        elif chunk.heading_index is not None:
            assert not chunks[chunk.heading_index].value, chunk
    definitions = [c for c in chunks if c.role == "definition" and not c.value]
    for chunk in chunks:  # a chunk in a scope lies within a definition of that trail
        if chunk.section and chunk.role not in ("definition", "config"):  # (a key path)
            # (a field's comment: its holder's trail and the field's name, code_fields)
            owners = (chunk.section, chunk.section[:-1]) if chunk.role == "code_comment" else ()
            assert any(
                _holds(d, chunk) and d.section in (chunk.section, *owners) for d in definitions
            )
        if chunk.role == "statement":  # and module-level code within none
            assert not any(_overlaps(d, chunk) for d in definitions), chunk
    check_chunks(
        [
            c._replace(heading_index=None, section=() if c.role == "docstring" else c.section)
            for c in chunks
            if c.role != "config"  # (its lines as written: checked above)
        ],
        text,
    )


def _holds(outer: Chunk, inner: Chunk) -> bool:
    return outer.start_line <= inner.start_line and inner.end_line <= outer.end_line


def _overlaps(one: Chunk, other: Chunk) -> bool:
    return one.start_line <= other.end_line and other.start_line <= one.end_line


def full(chunks: Sequence[Chunk]) -> list[tuple[str, int, int, str, tuple[str, ...]]]:
    return [(c.text, c.start_line, c.end_line, c.role, c.section) for c in chunks]


@pytest.fixture
def no_grammars(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every grammar as if not installed: the fallback reader reads all but valid Python."""
    monkeypatch.setattr(code_treesitter, "_LOADED", dict.fromkeys(GRAMMARS))


# -- Python --------------------------------------------------------------------------------

PYTHON = textwrap.dedent(
    '''\
    #!/usr/bin/env python3
    # -*- coding: utf-8 -*-
    """Load and check settings.

    Reads https://example.com/spec first.
    """
    import os  # noqa: F401

    # Why a cache: parsing is slow
    # on large trees.
    #
    # Second paragraph of the block.
    cache = {}  # type: dict[str, int]
    url = "http://x # not a comment"
    block = """
    # not a comment either
    """


    class Config:
        """Settings holder."""

        def parse(self, path):  # trailing note
            """Read the settings file.

            >>> Config().parse("a")
            {}

            Args:
                path: Where the file lives.
            """
            # inside parse
            return load_json(path).get("settings words", DEFAULT_SETTINGS)
    '''
)


def test_python_rules() -> None:
    chunks = split_code(PYTHON, "python")
    assert full(chunks) == [
        ("Load and check settings.", 3, 3, "docstring", ()),
        ("Reads https://example.com/spec first.", 5, 5, "docstring", ()),
        ("Why a cache: parsing is slow on large trees.", 9, 10, "code_comment", ()),
        ("Second paragraph of the block.", 12, 12, "code_comment", ()),
        # Module-level code as written, its comment left out (a pragma here: dropped).
        ("cache = {}", 13, 13, "statement", ()),
        ('url = "http://x # not a comment"', 14, 14, "statement", ()),
        ('block = """ # not a comment either """', 15, 17, "statement", ()),
        ("class Config: Settings holder.", 20, 33, "definition", ("Config",)),
        (
            # A comment in a header stays where it is written: the text keeps the file's order.
            "def parse(self, path): # trailing note: Read the settings file.",
            23,
            33,
            "definition",
            ("Config", "parse"),
        ),
        ("Args: path: Where the file lives.", 29, 30, "docstring", ("Config", "parse")),
        ("inside parse", 32, 32, "code_comment", ("Config", "parse")),
    ]
    assert chunks[1].links == ("https://example.com/spec",)
    # A statement's context is what it names and its short strings' words, as a body's,
    # but for those its text holds as the index reads them: here, all of them.
    assert [c.context for c in chunks[4:7]] == ["", "", ""]
    assert chunks[5].links == ("http://x",)
    # A class's context is what its body names outside its methods' bodies: their headers.
    assert chunks[7].context == "parse path"
    # Names first, then the words of its short strings ("settings" is there already).
    assert chunks[8].context == "load json path get default settings words"
    assert [c.heading_index for c in chunks] == [None, 0, 0, 0, 0, 0, 0, 0, 7, 8, 8]
    check(chunks, PYTHON)


DECORATED = textwrap.dedent(
    """\
    @dataclass(frozen=True)
    class Point(Base, metaclass=Meta):
        x: int

        @property
        async def fetch(
            self,
            url: str,  # where from
            *,
            timeout: float = 1.0,
        ) -> bytes:
            def inner(): return session.get(url)
            return await inner()
    """
)


def test_python_decorators_signatures_and_nesting() -> None:
    chunks = split_code(DECORATED, "python")
    assert full(chunks) == [
        ("class Point(Base, metaclass=Meta)", 1, 13, "definition", ("Point",)),
        (
            "async def fetch(self, url: str, # where from *, timeout: float = 1.0) -> bytes",
            5,
            13,
            "definition",
            ("Point", "fetch"),
        ),
        ("def inner()", 12, 12, "definition", ("Point", "fetch", "inner")),
    ]
    # fetch's own body names inner twice (its header and the call): all it works on.
    contexts = ["property fetch url str timeout bytes", "inner inner", "session get url"]
    assert [c.context for c in chunks] == contexts
    assert [c.heading_index for c in chunks] == [None, 0, 1]
    check(chunks, DECORATED)


CLICK_COMMAND = textwrap.dedent(
    """\
    @click.command()
    @click.option("--follow-redirects", is_flag=True, help="Automatically follow redirects.")
    @click.option("--verify/--no-verify", default=True, help=(
        "Verify the SSL certificate. "
        "[Default: True]"
    ))
    @pytest.mark.parametrize("fixture_value", ["never indexed"])
    def main(follow_redirects: bool, verify: bool) -> None:
        '''An HTTP command line client.'''
        send(follow_redirects)
    """
)


def test_option_help_of_a_command_is_in_its_context() -> None:
    # A click (or typer) command's documentation is its options' help, written in decorators
    # above the def and outside its body: no field indexed it, and a search for the help's
    # own words missed the command. A decorator without help= (test data) stays out.
    [main] = split_code(CLICK_COMMAND, "python")
    assert main.text == "def main(follow_redirects: bool, verify: bool) -> None: " + (
        "An HTTP command line client."
    )
    words = main.context.split()
    assert {"automatically", "redirects", "verify", "certificate", "ssl"} <= set(words)
    assert "never" not in words and "fixture" not in words
    check([main], CLICK_COMMAND)


COMMENTS_ABOVE = textwrap.dedent(
    """\
    class Buffer:
        '''Bytes received.'''

        # Reject early: a TLS handshake
        # starts with a 0x16 byte.
        @property
        def invalid(self):
            return self.data[:1] == b"\\x16"

        # apart: a blank line follows

        def other(self):
            pass
        x = 1  # a remark on x
        # above a docstring: it leads
        def third(self):
            '''Third.'''

    # ----------------
    # module level, over g
    def g():
        pass
    # x = compute(1)
    def h():
        pass
    # Copyright 2020 Example Corp, MIT licence.
    def k():
        pass
    """
)


def test_python_comments_directly_above_a_definition_lead_its_text() -> None:
    """The comment block right above a definition (its own lines, the definition's column,
    no blank line; above its decorators) is the definition's: its lines start there and
    the comment leads the text, before the signature and any docstring (the file's order).
    A blank line, code or a separator line ends the block; a trailing remark stays a
    comment; commented-out code and a licence notice stay as they were."""
    chunks = split_code(COMMENTS_ABOVE, "python")
    assert full(chunks) == [
        ("class Buffer: Bytes received.", 1, 17, "definition", ("Buffer",)),
        (
            "Reject early: a TLS handshake starts with a 0x16 byte. def invalid(self)",
            4,
            8,
            "definition",
            ("Buffer", "invalid"),
        ),
        ("apart: a blank line follows", 10, 10, "code_comment", ("Buffer",)),
        ("def other(self)", 12, 13, "definition", ("Buffer", "other")),
        ("a remark on x", 14, 14, "code_comment", ("Buffer",)),
        (
            "above a docstring: it leads def third(self): Third.",
            15,
            17,
            "definition",
            ("Buffer", "third"),
        ),
        ("module level, over g def g()", 20, 22, "definition", ("g",)),
        # Commented-out code and a licence stay as they were (skipped; a comment).
        ("def h()", 24, 25, "definition", ("h",)),
        ("Copyright 2020 Example Corp, MIT licence.", 26, 26, "code_comment", ()),
        ("def k()", 27, 28, "definition", ("k",)),
    ]
    check(chunks, COMMENTS_ABOVE)


FIRST_IN_ITS_BODY = textwrap.dedent(
    """\
    class Cached:
        @property
        def size(self):
            return 0

    def outer():
        @wraps(f)
        def inner():
            pass
    """
)


def test_the_decorators_of_a_body_s_first_definition_are_its_own() -> None:
    """A class or function without a docstring whose body opens with a decorated definition:
    the decorators are the inner definition's lines, not the outer one's header."""
    chunks = split_code(FIRST_IN_ITS_BODY, "python")
    assert full(chunks) == [
        ("class Cached", 1, 4, "definition", ("Cached",)),
        ("def size(self)", 2, 4, "definition", ("Cached", "size")),
        ("def outer()", 6, 9, "definition", ("outer",)),
        ("def inner()", 7, 9, "definition", ("outer", "inner")),
    ]
    check(chunks, FIRST_IN_ITS_BODY)


LEAD_FIRST_IN_ITS_BODY = textwrap.dedent(
    """\
    class Buffer:
        # Reject early: a TLS handshake
        # starts with a 0x16 byte.
        @property
        def invalid(self):
            return False

    def outer():
        # the helper parses a header
        def inner():
            pass

    class Plain:
        # x = compute(1)
        def m(self):
            pass
    """
)


def test_the_comment_above_a_body_s_first_definition_leads_it() -> None:
    """The comment block directly above a definition is its own even when that definition
    opens the body of a class or function without a docstring (not the outer header's);
    commented-out code there stays in the header, as it was."""
    chunks = split_code(LEAD_FIRST_IN_ITS_BODY, "python")
    assert full(chunks) == [
        ("class Buffer", 1, 6, "definition", ("Buffer",)),
        (
            "Reject early: a TLS handshake starts with a 0x16 byte. def invalid(self)",
            2,
            6,
            "definition",
            ("Buffer", "invalid"),
        ),
        ("def outer()", 8, 11, "definition", ("outer",)),
        ("the helper parses a header def inner()", 9, 11, "definition", ("outer", "inner")),
        ("class Plain: # x = compute(1)", 13, 16, "definition", ("Plain",)),
        ("def m(self)", 15, 16, "definition", ("Plain", "m")),
    ]
    check(chunks, LEAD_FIRST_IN_ITS_BODY)


def test_a_comment_above_a_definition_past_the_cap_loses_no_words() -> None:
    """The head's text holds the lead up to the paragraph cap; a longer comment block leads
    with its last lines that fit, and its first lines stay a comment, every word indexed."""
    said = [f"# Step {n} checks the buffer and the socket once more." for n in range(16)]
    source = "\n".join(["class Buffer:", '    """Doc."""', *("    " + s for s in said)])
    source += "\n    def read(self):\n        pass\n"
    chunks = split_code(source, "python")
    words = " ".join(c.text for c in chunks)
    assert all(f"Step {n} checks" in words for n in range(16))
    head = next(c for c in chunks if c.section == ("Buffer", "read"))
    assert head.text.startswith("Step ") and head.text.endswith("once more. def read(self)")
    assert len(head.text) <= MAX_PARAGRAPH_CHARS + len(" def read(self)")
    check(chunks, source)


HEADER_COMMENTS = textwrap.dedent(
    """\
    @cache  # remember results
    # between decorators
    @trace
    def f(a,  # noqa: E501
          b):  # type: ignore
        "Doc."
        return a  # the answer
    """
)


def test_comments_among_decorators_and_header_pragmas_are_dropped() -> None:
    chunks = split_code(HEADER_COMMENTS, "python")
    assert full(chunks) == [
        ("def f(a, b): Doc.", 1, 7, "definition", ("f",)),
        ("the answer", 7, 7, "code_comment", ("f",)),
    ]
    check(chunks, HEADER_COMMENTS)
    js = "class A {\n  @dec // why\n  m(a /* the a */, b) {}\n}\n"
    assert [c.text for c in split_code(js, "js")] == ["class A", "m(a /* the a */, b)"]


def test_python_that_does_not_parse_is_read_by_tree_sitter() -> None:
    source = (
        'def broken(:\n    """Doc never parsed."""\n    # still found comment\n\n'
        'def fine(x):\n    """Still read."""\n    return x\n'
    )
    chunks = split_code(source, "python")
    assert ("def fine(x): Still read.", 5, 7, "definition", ("fine",)) in full(chunks)
    assert ("still found comment", 3, 3, "code_comment", ("broken",)) in full(chunks)
    check(chunks, source)


@pytest.mark.usefixtures("no_grammars")
def test_python_that_does_not_parse_without_its_grammar_falls_back_to_comments() -> None:
    source = 'def broken(:\n    """Doc never parsed."""\n    # still found comment\n'
    assert brief(split_code(source, "python")) == [("still found comment", 3, 3, "code_comment")]


@pytest.mark.usefixtures("no_grammars")
def test_valid_python_needs_no_grammar() -> None:
    assert split_code(PYTHON, "python")[7].text == "class Config: Settings holder."


def test_python_docstring_with_escaped_newlines_is_taken_as_written() -> None:
    source = 'def f():\n    "First part.\\n\\nSecond part."\n'
    chunks = split_code(source, "python")
    assert brief(chunks) == [("def f(): First part.\\n\\nSecond part.", 1, 2, "definition")]
    check(chunks, source)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('"str // x" "str // y"\n', [('str // x" "str // y', 1, 1, "docstring")]),
        ('def f():\n    "\\x86 bytes \\a."\n', [("def f(): \\x86 bytes \\a.", 1, 2, "definition")]),
        ('class A: "One line."\n', [("class A: One line.", 1, 1, "definition")]),
        (
            'def café(x="é"):  # naïve\n    "Grüße, wörld."\n',
            [('def café(x="é"): # naïve: Grüße, wörld.', 1, 2, "definition")],
        ),
    ],
    ids=["concatenated", "escapes", "one-line", "non-ascii"],
)
def test_docstrings_are_taken_as_written(source: str, expected: list[object]) -> None:
    chunks = split_code(source, "python")
    assert brief(chunks) == expected
    check(chunks, source)


def test_long_docstring_is_split_into_sentences() -> None:
    body = " ".join(f"Sentence {n} explains one more detail here." for n in range(30))
    source = f'def f():\n    """{body}"""\n'
    chunks = split_code(source, "python")
    assert len(chunks) == 30
    assert chunks[0].text == "def f(): Sentence 0 explains one more detail here."
    assert all(c.role == "docstring" and c.text.startswith("Sentence") for c in chunks[1:])
    check(chunks, source)


STATEMENTS = textwrap.dedent(
    """\
    \"\"\"Tags.\"\"\"
    import re
    from typing import TYPE_CHECKING
    try:
        import ssl
    except ImportError:  # no ssl
        ssl = None
    if TYPE_CHECKING:
        from os import PathLike
    if hasattr(re, "X"):
        def shim():
            pass
    DEFAULT_POOLSIZE = 10; DEFAULT_RETRIES = 3
    BOOL = re.compile(r"^(?:yes|Yes|no|No)$")  # YAML 1.1 booleans
    register(
        "tag:bool",
        # the words that count
        BOOL,
    )
    if __name__ == "__main__":
        main()
    """
)


def test_module_level_code_is_read_as_statements() -> None:
    chunks = split_code(STATEMENTS, "python")
    assert [(c.text, c.start_line, c.end_line, c.role) for c in chunks if c.section == ()] == [
        ("Tags.", 1, 1, "docstring"),
        # No import, nor what holds one or a definition (the definition is read as one).
        ("no ssl", 6, 6, "code_comment"),
        # (Constants sharing a line stay module code: test_python_constants_are_definitions.)
        ("DEFAULT_POOLSIZE = 10; DEFAULT_RETRIES = 3", 13, 13, "statement"),
        # (A value a call computes is module code: test_which_values_are_data.)
        ('BOOL = re.compile(r"^(?:yes|Yes|no|No)$")', 14, 14, "statement"),
        ("YAML 1.1 booleans", 14, 14, "code_comment"),
        # A comment inside a statement cuts it: the pieces and the comment keep their order.
        ('register( "tag:bool",', 15, 16, "statement"),
        ("the words that count", 17, 17, "code_comment"),
        ("BOOL, )", 18, 19, "statement"),
        ('if __name__ == "__main__": main()', 20, 21, "statement"),
    ]
    by_text = {c.text: c for c in chunks}
    # Its names and short strings' words are its text's own tokens: no context repeats them.
    assert by_text["DEFAULT_POOLSIZE = 10; DEFAULT_RETRIES = 3"].context == ""
    assert by_text['BOOL = re.compile(r"^(?:yes|Yes|no|No)$")'].context == ""
    assert by_text["def shim()"].section == ("shim",)
    check(chunks, STATEMENTS)


def test_a_statement_context_adds_only_the_words_its_text_does_not_hold() -> None:
    """A statement's text is its code, indexed as written: its context holds the words
    inside its compound names, once each, and no word whose stem the text holds already
    (the two columns weigh the same: a table's names would count twice)."""
    source = (
        'knownAdapters = {"http": httpAdapter, "xhr": XhrAdapter}\n'
        "adapter_registry = register(knownAdapters)\n"
    )
    chunks = split_code(source, "python")
    assert [(c.text, c.context) for c in chunks] == [
        ('knownAdapters = {"http": httpAdapter, "xhr": XhrAdapter}', "known adapters adapter"),
        ("adapter_registry = register(knownAdapters)", "known"),  # ("adapters": "adapter")
    ]
    check(chunks, source)


@given(
    st.lists(
        st.tuples(st.sampled_from(["load", "x1", "Reads", "bad_gateway", "e"]), st.booleans()),
        max_size=80,
    ),
    st.integers(1, 400),
)
@settings(max_examples=100)
def test_a_long_statement_is_cut_at_line_ends(rows: list[tuple[str, bool]], width: int) -> None:
    """Every row of a module-level table is in exactly one piece, in order, at its own line;
    a piece past the paragraph cap is a single row; a comment is never a piece's text."""
    body = [
        f'    "{word * (width // len(word) + 1)}": 1,{"  # note" if c else ""}' for word, c in rows
    ]
    source = "\n".join(["table = {", *body, "}"]) + "\n"  # (no constant: module code)
    chunks = split_code(source, "python")
    check(chunks, source)
    pieces = [c for c in chunks if c.role == "statement"]
    assert all(len(c.text) <= MAX_PARAGRAPH_CHARS or c.start_line == c.end_line for c in pieces), (
        pieces
    )
    assert not any("note" in c.text for c in pieces)
    covered = [n for c in pieces for n in range(c.start_line, c.end_line + 1)]
    assert covered == sorted(set(covered))  # no line twice, in order
    assert set(range(2, len(rows) + 2)) <= set(covered)  # every row of the table


def test_python_licence_header_and_commented_out_code_are_skipped() -> None:
    source = textwrap.dedent(
        """\
        # Copyright 2024 Example Corp.
        # Licensed under the MIT License.

        # A real remark about the module.
        x = 1
        # y = compute(x)
        # return cache.get(key)
        """
    )
    assert brief(split_code(source, "python")) == [
        ("A real remark about the module.", 4, 4, "code_comment")
    ]


# -- other languages -----------------------------------------------------------------------

JS = textwrap.dedent(
    """\
    'use strict';

    /**
     * Build a URL by appending params.
     *
     * @param {string} url The base URL
     */
    export function buildURL(url, params) {
      // keep the hash out
      return url + serialize(params, { encodeKey });
    }

    const encode = (val) => encodeURIComponent(val).replace('%20', '+');

    class Axios extends Base {
      /** Send a request. */
      request(configOrUrl, config) {
        return this.dispatchRequest(configOrUrl);
      }
    }

    module.exports.helper = function (a, b) { return a + b; };
    """
)

GO = textwrap.dedent(
    """\
    // Package retry computes backoff.
    package retry

    // Client sends requests.
    type Client struct {
    \tMax int // most attempts
    }

    // Backoff returns the delay before attempt n.
    func (c *Client) Backoff(n int) time.Duration {
    \treturn time.Duration(1<<n) * time.Millisecond
    }
    """
)

RUST = textwrap.dedent(
    """\
    //! Retry policies.

    /// A retry policy.
    #[derive(Debug)]
    pub struct Policy {
        max: u32,
    }

    impl Policy {
        /// The delay before `attempt`.
        pub fn backoff(&self, attempt: u32) -> Duration {
            Duration::from_millis(1 << attempt) // exponential
        }
    }
    """
)

JAVA = textwrap.dedent(
    """\
    /*
     * Copyright 2020 Example Corp. Licensed under the Apache License 2.0.
     */
    package com.example;

    /** Holds retry settings. */
    @Deprecated
    public class Retry<T> extends Base {
        /**
         * Computes the backoff.
         * @param n attempt number
         */
        @Override
        public long backoff(int n) throws IOException {
            return shiftLeft(1L, n);
        }
        abstract void reset();
    }
    """
)

C = textwrap.dedent(
    """\
    #include <stdio.h>

    /* Compute the backoff in milliseconds. */
    static unsigned long *backoff(int attempt)
    {
        return compute_delay(attempt, MAX_DELAY); /* capped */
    }
    """
)

CPP = textwrap.dedent(
    """\
    namespace net {
    // A retry policy.
    template <typename T>
    class Policy : public Base {
     public:
      /// Delay before attempt n.
      int backoff(int n) const { return base_ << n; }
    };
    }
    """
)

CSHARP = textwrap.dedent(
    """\
    using System;
    namespace Example.Net {
        /// <summary>A retry policy.</summary>
        [Serializable]
        public class Policy : Base {
            public int Backoff(int n) { return Compute(n); }
        }
    }
    """
)

SHELL = textwrap.dedent(
    """\
    #!/bin/sh
    # Install the tool into PREFIX.
    set -e

    # Print usage and exit.
    usage() {
      echo "usage: $0 [prefix]"
      exit 1
    }
    """
)

TSX = textwrap.dedent(
    """\
    /** Shows a button. */
    export const Button = ({ label }: Props) => {
      return <button onClick={handleClick}>{label}</button>;
    };
    """
)

TS = textwrap.dedent(
    """\
    export interface Options { retries: number }

    const identity = <T>(x: T): T => x;

    const api = { get: function (u: string) { return fetchJson(u); } };
    """
)

LANGUAGE_CASES = [
    pytest.param(
        "js",
        JS,
        [
            (
                "Build a URL by appending params. @param {string} url The base URL "
                "function buildURL(url, params)",
                3,
                11,
                "definition",
                ("buildURL",),
                "url serialize params encode key",
            ),
            ("keep the hash out", 9, 9, "code_comment", ("buildURL",), ""),
            (
                "const encode = (val) =>",
                13,
                13,
                "definition",
                ("encode",),
                "encode uri component val replace",
            ),
            (
                "class Axios extends Base",
                15,
                20,
                "definition",
                ("Axios",),
                "request config or url config",
            ),
            (
                "Send a request. request(configOrUrl, config)",
                16,
                19,
                "definition",
                ("Axios", "request"),
                "dispatch request config or url",
            ),
            (
                "module.exports.helper = function (a, b)",
                22,
                22,
                "definition",
                ("module.exports.helper",),
                "",
            ),
        ],
        id="js",
    ),
    pytest.param(
        "go",
        GO,
        [
            ("Package retry computes backoff.", 1, 1, "docstring", (), ""),
            ("Client sends requests. type Client struct", 4, 7, "definition", ("Client",), "max"),
            ("most attempts", 6, 6, "code_comment", ("Client",), ""),
            (
                "Backoff returns the delay before attempt n. "
                "func (c *Client) Backoff(n int) time.Duration",
                9,
                12,
                "definition",
                ("Client", "Backoff"),
                "time duration millisecond time",
            ),
        ],
        id="go",
    ),
    pytest.param(
        "rust",
        RUST,
        [
            ("Retry policies.", 1, 1, "docstring", (), ""),
            ("A retry policy. pub struct Policy", 3, 7, "definition", ("Policy",), "max u32"),
            ("impl Policy", 9, 14, "definition", ("Policy",), "backoff attempt u32 duration"),
            (
                "The delay before attempt. pub fn backoff(&self, attempt: u32) -> Duration",
                10,
                13,
                "definition",
                ("Policy", "backoff"),
                "duration from millis attempt",
            ),
            ("exponential", 12, 12, "code_comment", ("Policy", "backoff"), ""),
        ],
        id="rust",
    ),
    pytest.param(
        "java",
        JAVA,
        [
            (
                "Holds retry settings. public class Retry<T> extends Base",
                6,
                18,
                "definition",
                ("Retry",),
                "override backoff io exception reset",
            ),
            (
                "Computes the backoff. @param n attempt number "
                "public long backoff(int n) throws IOException",
                9,
                16,
                "definition",
                ("Retry", "backoff"),
                "shift left",
            ),
            ("abstract void reset()", 17, 17, "definition", ("Retry", "reset"), ""),
        ],
        id="java",
    ),
    pytest.param(
        "c",
        C,
        [
            (
                "Compute the backoff in milliseconds. static unsigned long *backoff(int attempt)",
                3,
                7,
                "definition",
                ("backoff",),
                "compute delay attempt max delay",
            ),
            ("capped", 6, 6, "code_comment", ("backoff",), ""),
        ],
        id="c",
    ),
    pytest.param(
        "c",
        CPP,
        [
            ("namespace net", 1, 9, "definition", ("net",), "policy base"),
            (
                "A retry policy. class Policy : public Base",
                2,
                8,
                "definition",
                ("net", "Policy"),
                "backoff",
            ),
            (
                "Delay before attempt n. int backoff(int n) const",
                6,
                7,
                "definition",
                ("net", "Policy", "backoff"),
                "base",
            ),
        ],
        id="cpp",
    ),
    pytest.param(
        "c",
        CSHARP,
        [
            (
                "namespace Example.Net",
                2,
                8,
                "definition",
                ("Example.Net",),
                "serializable policy base",
            ),
            (
                "A retry policy. public class Policy : Base",
                3,
                7,
                "definition",
                ("Example.Net", "Policy"),
                "backoff",
            ),
            (
                "public int Backoff(int n)",
                6,
                6,
                "definition",
                ("Example.Net", "Policy", "Backoff"),
                "compute",
            ),
        ],
        id="csharp",
    ),
    pytest.param(
        "shell",
        SHELL,
        [
            ("Install the tool into PREFIX.", 2, 2, "docstring", (), ""),
            (
                "Print usage and exit. usage()",
                5,
                9,
                "definition",
                ("usage",),
                "echo exit usage prefix",
            ),
        ],
        id="shell",
    ),
    pytest.param(
        "js",
        TSX,
        [
            (
                "Shows a button. const Button = ({ label }: Props) =>",
                1,
                4,
                "definition",
                ("Button",),
                "button on click handle label button click",
            ),
        ],
        id="tsx",
    ),
    pytest.param(
        "typescript",
        TS,
        [
            ("interface Options", 1, 1, "definition", ("Options",), "retries number"),
            ("const identity = <T>(x: T): T =>", 3, 3, "definition", ("identity",), ""),
            # (an object constant's function is named under it since day-code89)
            ("get: function (u: string)", 5, 5, "definition", ("api", "get"), "fetch json"),
        ],
        id="typescript",
    ),
    pytest.param(
        "js",
        "const defaults = {\n  transformRequest: [\n    // Serialise plain objects.\n"
        "    function transformRequest(data) {\n      return JSON.stringify(data);\n    },\n"
        "  ],\n  hooks: [(x) => x + 1],\n};\n"
        "app.get('/', function handleRoot(req, res) {\n  res.send(ok);\n});\n"
        "run(function () { skip(); });\n",
        [
            # A function in an array under a key is named by the key (axios' defaults).
            (
                "Serialise plain objects. function transformRequest(data)",
                3,
                6,
                "definition",
                ("transformRequest",),
                "json stringify data",
            ),
            ("(x) =>", 8, 8, "definition", ("hooks",), ""),
            # A named function passed as an argument (a callback) is a definition, under
            # the call's name when a literal labels it; an anonymous one at the module's top
            # is named by its call (test_chunk_code_calls.py).
            (
                "function handleRoot(req, res)",
                10,
                12,
                "definition",
                ("app.get('/')", "handleRoot"),
                "res send ok",
            ),
            ("run(function ()", 13, 13, "definition", ("run()",), "skip"),
        ],
        id="js-functions-in-arrays-and-named-callbacks",
    ),
]


@pytest.mark.parametrize(("language", "source", "expected"), LANGUAGE_CASES)
def test_language_rules(language: str, source: str, expected: list[object]) -> None:
    chunks = split_code(source, language)
    assert [(*row, c.context) for c, row in zip(chunks, full(chunks), strict=True)] == expected
    check(chunks, source)


# The comment rules, through each language's grammar and through the fallback reader: one
# table, two readers, the same comments (what sits above the first line of code becomes the
# file header, a "docstring", once a grammar reads the file).
COMMENT_CASES = [
    pytest.param(
        "js",
        "/**\n * Adds numbers.\n * @param a first\n *\n * Second para.\n */\nfunction add() {}",
        [("Adds numbers. @param a first Second para. function add()", 1, 7, "definition")],
        [
            ("Adds numbers. @param a first", 2, 3, "code_comment"),
            ("Second para.", 5, 5, "code_comment"),
        ],
        id="jsdoc",
    ),
    pytest.param(
        "js",
        'let u = "http://x//y"; // real one\nlet t = `multi\n// not a comment`;',
        [("real one", 1, 1, "code_comment")],
        None,
        id="js-strings",
    ),
    pytest.param(
        "js",
        "// eslint-disable-next-line no-console\n// @ts-ignore\n// kept comment\nx();",
        [("kept comment", 3, 3, "docstring")],
        [("kept comment", 3, 3, "code_comment")],
        id="js-pragmas",
    ),
    pytest.param(
        "js",
        "/* eslint-disable no-console */\nx(); /* istanbul ignore next */",
        [],
        None,
        id="js-block-pragmas",
    ),
    # A bundler's annotations (Rollup, esbuild, terser) mark a call as free of side effects:
    # words for the minifier, never for a reader (zod's regexes.ts had 30 such beliefs).
    pytest.param(
        "js",
        "const a = /*@__PURE__*/ f();\nconst b = /* #__PURE__ */ g(); // real one\n"
        "const c = /*@__NO_SIDE_EFFECTS__*/ () => 1;",
        [("real one", 2, 2, "code_comment"), ("const c = () =>", 3, 3, "definition")],
        [("real one", 2, 2, "code_comment")],
        id="js-bundler-annotations",
    ),
    pytest.param(
        "js",
        "x();\n//////   Checks   //////\ny();\n// see https://a.b/c/ //\nz();",
        [("Checks", 2, 2, "code_comment"), ("see https://a.b/c/", 4, 4, "code_comment")],
        None,
        id="js-banner",
    ),
    # A diagram's strokes are no words; its labels are (pino's worker.js drew its threads in
    # 60 lines of box drawing, read as one passage of strokes). A line left with no word
    # (a vertical label's letter) goes, and the paragraph goes on past it. An arrow of
    # prose stays (axios: "127.0.0.1 → ::ffff:7f00:1").
    pytest.param(
        "js",
        "x();\n/*\n * > Threads\n *\n * │ p │ ──► ┌────────┐\n * │ i │ write│ Thread │\n"
        " * ╰──┴── We split here\n */\ny();\n// maps a → b\nz();",
        [
            ("> Threads", 3, 3, "code_comment"),
            ("i write Thread We split here", 6, 7, "code_comment"),
            ("maps a → b", 10, 10, "code_comment"),
        ],
        None,
        id="js-drawing",
    ),
    # rustdoc hides a Rust code block's "# " lines (an example's imports, stubs, `# Ok(())`)
    # and shows no fence: neither is a word of the page (anyhow's downcast_ref read twenty
    # lines of stubs). A TOML block's "#" lines and a plain comment's are shown: kept.
    pytest.param(
        "rust",
        "//! Opens files.\n//!\n//! ```\n//! # use std::io;\n//! # fn main() -> io::Result<()> {\n"
        '//! let f = open("a")?;\n//! # Ok(())\n//! # }\n//! ```\n//!\n//! ```toml\n'
        "//! # features stay: TOML\n//! ```\n\n/// Reads it.\n///\n/// ```no_run\n"
        "/// # let f = stub();\n/// let n = read(&f);\n/// ```\npub fn read() {}\n\n"
        "// ```\n// # a plain comment keeps its hash line\n// ```\nfn g() {}\n",
        [
            ("Opens files.", 1, 1, "docstring"),
            ('let f = open("a")?;', 6, 6, "docstring"),
            ("# features stay: TOML", 12, 12, "docstring"),
            ("Reads it. let n = read(&f); pub fn read()", 15, 21, "definition"),
            ("# a plain comment keeps its hash line fn g()", 23, 26, "definition"),
        ],
        [
            ("Opens files.", 1, 1, "code_comment"),
            ('let f = open("a")?;', 6, 6, "code_comment"),
            ("# features stay: TOML", 12, 12, "code_comment"),
            ("Reads it.", 15, 15, "code_comment"),
            ("let n = read(&f);", 19, 19, "code_comment"),
            ("# a plain comment keeps its hash line", 24, 24, "code_comment"),
        ],
        id="rust-hidden-doc-lines",
    ),
    # The same in a block doc ("/*!", "/**"): regex's crate doc is a "/*! ... */" block and
    # read "```rust # use regex::Regex; # fn main() {" (probe81). A JSDoc block's fences
    # go too; a plain block keeps its hash line.
    pytest.param(
        "rust",
        '/*!\nOpens files.\n\n```rust\n# use std::io;\nlet f = open("a")?;\n# Ok(())\n```\n*/\n\n'
        "/**\n * Reads it.\n *\n * ```\n * # let f = stub();\n * let n = read(&f);\n * ```\n */\n"
        "pub fn read() {}\n\n/* ```\n# a plain block keeps its hash line\n``` */\nfn g() {}\n",
        [
            ("Opens files.", 2, 2, "docstring"),
            ('let f = open("a")?;', 6, 6, "docstring"),
            ("Reads it. let n = read(&f); pub fn read()", 11, 19, "definition"),
            ("# a plain block keeps its hash line fn g()", 21, 24, "definition"),
        ],
        [
            ("Opens files.", 2, 2, "code_comment"),
            ('let f = open("a")?;', 6, 6, "code_comment"),
            ("Reads it.", 12, 12, "code_comment"),
            ("let n = read(&f);", 16, 16, "code_comment"),
            ("# a plain block keeps its hash line", 22, 22, "code_comment"),
        ],
        id="rust-block-doc-hidden-lines",
    ),
    pytest.param(
        "js",
        "/**\n * Adds.\n *\n * ```js\n * add(1, 2)\n * ```\n */\nfunction add() {}\n",
        [("Adds. add(1, 2) function add()", 1, 8, "definition")],
        [("Adds.", 2, 2, "code_comment"), ("add(1, 2)", 5, 5, "code_comment")],
        id="jsdoc-fence",
    ),
    # rustdoc's hidden-line rule is Rust's alone: a C++ "///" example's "# ..." line is
    # shown by every other doc tool, so it is read (day-review75: it was dropped).
    pytest.param(
        "cpp",
        "/// Builds the tool.\n///\n/// ```\n/// # run from the root, not build/\n"
        "/// cmake -S . -B build\n/// ```\nvoid build();\n",
        [
            ("Builds the tool.", 1, 1, "docstring"),
            ("# run from the root, not build/ cmake -S . -B build", 4, 5, "docstring"),
        ],
        [
            ("Builds the tool.", 1, 1, "code_comment"),
            ("# run from the root, not build/ cmake -S . -B build", 4, 5, "code_comment"),
        ],
        id="cpp-doc-example-keeps-hash-lines",
    ),
    pytest.param(
        "go",
        "package a\n\nvar x = f()\n\n//////  Names  //////\nvar y = g()\n",
        [("Names", 5, 5, "code_comment")],
        None,
        id="go-banner",
    ),
    pytest.param(
        "python",
        "x = 1\n\n#####  Section  #####\ny = 2\n",
        [("Section", 3, 3, "code_comment")],
        None,
        id="python-banner",
    ),
    # A doc comment switched off ("// /** ... */"): no doc of what follows, no passage (as
    # zod's preprocess's doc, it would read "deprecated", the opposite of what was meant).
    pytest.param(
        "js",
        "x();\n\n// /** @deprecated Use `y()` instead. */\nfunction f() {}\n// kept /* x */ here",
        [("function f()", 4, 4, "definition"), ("kept /* x */ here", 5, 5, "code_comment")],
        [  # the fallback reader keeps commented-out code as comments, as before
            ("/** @deprecated Use `y()` instead. */", 3, 3, "code_comment"),
            ("kept /* x */ here", 5, 5, "code_comment"),
        ],
        id="js-disabled-doc",
    ),
    pytest.param(
        "c",
        "int x = 1; /* inline block */\nchar c = '\"'; // after char literal",
        [("inline block", 1, 1, "code_comment"), ("after char literal", 2, 2, "code_comment")],
        None,
        id="c-char-literal",
    ),
    pytest.param(
        "c",
        "int x;\n// first line\n// second line\n\n// new group",
        [("first line second line", 2, 3, "code_comment"), ("new group", 5, 5, "code_comment")],
        None,
        id="c-groups",
    ),
    pytest.param(
        "c",
        "#include <stdio.h>\n/* one\n   two */",
        [("one two", 2, 3, "code_comment")],
        None,
        id="c-hash-is-not-comment",
    ),
    pytest.param(
        "go",
        "//go:build linux\n// Package x does things.\nvar s = `raw\n// no`",
        [
            ("Package x does things.", 2, 2, "docstring"),
            ("var s = `raw // no`", 3, 4, "definition"),
        ],
        [("Package x does things.", 2, 2, "code_comment")],
        id="go",
    ),
    pytest.param(
        "rust",
        "/// Doc for foo.\n//! Crate doc.\nfn f<'a>(x: &'a str) {} // lifetime ok",
        [
            ("Doc for foo. Crate doc.", 1, 2, "docstring"),
            ("fn f<'a>(x: &'a str)", 3, 3, "definition"),
            ("lifetime ok", 3, 3, "code_comment"),
        ],
        [
            ("Doc for foo. Crate doc.", 1, 2, "code_comment"),
            ("lifetime ok", 3, 3, "code_comment"),
        ],
        id="rust",
    ),
    pytest.param(
        "java",
        'class A {\n  String s = """\n  // text block\n  """;\n  // real\n}',
        [("class A", 1, 6, "definition"), ("real", 5, 5, "code_comment")],
        [("real", 5, 5, "code_comment")],
        id="java-text-block",
    ),
    pytest.param(
        "shell",
        "#!/bin/sh\necho $# ${#x} 'a # b' # yes here\n# next line",
        [("yes here", 2, 2, "code_comment"), ("next line", 3, 3, "code_comment")],
        None,
        id="shell",
    ),
    pytest.param(
        "shell",
        "# shellcheck disable=SC2034\n# ------\n# Section\n# ------\nls",
        [("Section", 3, 3, "docstring")],
        [("Section", 3, 3, "code_comment")],
        id="shell-separators",
    ),
]


@pytest.mark.parametrize(("language", "source", "expected", "_"), COMMENT_CASES)
def test_comment_rules(language: str, source: str, expected: list[object], _: object) -> None:
    chunks = split_code(source, language)
    assert brief(chunks) == expected
    check(chunks, source)


@pytest.mark.usefixtures("no_grammars")
@pytest.mark.parametrize(("language", "source", "by_grammar", "fallback"), COMMENT_CASES)
def test_fallback_comment_rules(
    language: str, source: str, by_grammar: list[object], fallback: list[object] | None
) -> None:
    chunks = split_code(source, language)
    assert brief(chunks) == (by_grammar if fallback is None else fallback)
    check(chunks, source)


def test_doc_comment_is_the_comment_right_above() -> None:
    source = (
        "// The header.\n\nlet x = 1;\n// Apart from f.\n\ny(); // ends a line\n"
        "function f() {}\n// Right above g.\nfunction g() {}\n"
    )
    chunks = split_code(source, "js")
    assert full(chunks) == [
        ("The header.", 1, 1, "docstring", ()),
        ("Apart from f.", 4, 4, "code_comment", ()),
        ("ends a line", 6, 6, "code_comment", ()),
        ("function f()", 7, 7, "definition", ("f",)),
        ("Right above g. function g()", 8, 9, "definition", ("g",)),
    ]
    check(chunks, source)


# A type's parameters in a doc comment are words of it, not markup (day-probe76: anyhow's
# ``// Safety: requires layout of *e to match ErrorImpl<ContextError<C, E>>.`` read
# "ErrorImpl<ContextError >"): the tag names ``c``, ``a``, ``item``, ``value`` of C#'s XML
# docs and HTML are a generic's parameters too. Real markup still goes.
TYPE_PARAMETER_CASES = [
    pytest.param(
        "rust",
        "// Safety: requires layout of *e to match ErrorImpl<ContextError<C, E>>.\n"
        "unsafe fn context_drop<C, E>(e: Own) {}\n",
        "Safety: requires layout of *e to match ErrorImpl<ContextError<C, E>>. "
        "unsafe fn context_drop<C, E>(e: Own)",
        id="rust-two-parameters",
    ),
    pytest.param(
        "rust",
        "/// Wraps a ManuallyDrop<C> and a Vec<Item> in an Option<Value>.\nfn wrap() {}\n",
        "Wraps a ManuallyDrop<C> and a Vec<Item> in an Option<Value>. fn wrap()",
        id="rust-glued-capitalised",
    ),
    pytest.param(
        "typescript",
        "/** Maps a Pair<A, B> to a Box<Item>. */\nfunction f() {}\n",
        "Maps a Pair<A, B> to a Box<Item>. function f()",
        id="ts-generics",
    ),
    pytest.param(
        "csharp",
        'class A {\n  /// <summary>Returns <c>true</c> for a <see cref="List"/>.</summary>\n'
        "  bool Ok() { return true; }\n}",
        "Returns true for a List . bool Ok()",  # (a reference reads as its name: code89)
        id="csharp-xml-doc",
    ),
    pytest.param(
        "java",
        "class A {\n  /** <p>Opens the <b>door</b><br/>now. <P>Old style.</P> */\n"
        "  void open() {}\n}",
        "Opens the door now. Old style. void open()",
        id="java-html",
    ),
]


@pytest.mark.parametrize(("language", "source", "text"), TYPE_PARAMETER_CASES)
def test_a_type_s_parameters_in_a_doc_comment_are_no_markup(
    language: str, source: str, text: str
) -> None:
    chunks = split_code(source, language)
    assert [c.text for c in chunks if c.role == "definition" and c.end_line > 1][-1] == text
    check(chunks, source)


# A doc comment with only blank lines between it and the definition below (JSDoc's common
# layout) is that definition's, as if directly above it: it leads its text, and its lines
# start the definition's.
ACROSS_BLANKS_CASES = [
    pytest.param(
        "js",
        "class C {\n  /**\n   * Configure the output.\n   */\n\n"
        "  configure(c) {\n    return c;\n  }\n}",
        [
            ("class C", 1, 9, "definition"),
            ("Configure the output. configure(c)", 2, 8, "definition"),
        ],
        id="js-method",
    ),
    pytest.param(
        "tsx",
        "import x from 'x';\n\n/** Renders rows. */\n\n\n"
        "export function Rows(p: P) {\n  return p;\n}",
        [("Renders rows. function Rows(p: P)", 3, 8, "definition")],
        id="ts-two-blank-lines",
    ),
    pytest.param(
        "java",
        "class A {\n  /** Sums the cells. */\n\n  @Override\n  int sum() { return 0; }\n}",
        [("class A", 1, 6, "definition"), ("Sums the cells. int sum()", 2, 5, "definition")],
        id="java-annotated",
    ),
    pytest.param(
        "csharp",
        "class A {\n  /// <summary>Opens the door.</summary>\n\n  void Open() {}\n}",
        [("class A", 1, 5, "definition"), ("Opens the door. void Open()", 2, 4, "definition")],
        id="csharp",
    ),
    pytest.param(
        "c",
        "int x;\n\n/**\n * Parses a header.\n */\n\nint parse(char *s) { return 0; }",
        [("Parses a header. int parse(char *s)", 3, 7, "definition")],
        id="c",
    ),
    pytest.param(
        "rust",
        "use a::b;\n\n/// Frees the pool.\n\n#[inline]\nfn free() {}",
        [("Frees the pool. fn free()", 3, 6, "definition")],
        id="rust-attribute",
    ),
    # What stays where it was: a plain comment (it often heads a group of definitions;
    # godoc reads it so), the file header, another comment between, a remark that ends a
    # line of code, a separator, a crate doc, code between.
    pytest.param(
        "go",
        "package p\n\n// Dialing.\n\nfunc Dial() {}",
        [("Dialing.", 3, 3, "code_comment"), ("func Dial()", 5, 5, "definition")],
        id="go-plain-comment-stays",
    ),
    pytest.param(
        "js",
        "x();\n\n/* Helpers. */\n\nfunction f() {}",
        [("Helpers.", 3, 3, "code_comment"), ("function f()", 5, 5, "definition")],
        id="js-plain-block-stays",
    ),
    pytest.param(
        "shell",
        "set -e\n\n# Installers.\n\ninstall() { echo; }",
        [("Installers.", 3, 3, "code_comment"), ("install()", 5, 5, "definition")],
        id="shell-stays",
    ),
    pytest.param(
        "js",
        "/** The file. */\n\nfunction f() {}",
        [("The file.", 1, 1, "docstring"), ("function f()", 3, 3, "definition")],
        id="js-header-stays",
    ),
    pytest.param(
        "js",
        "x();\n/** Orphaned doc. */\n\n// Right above.\nfunction f() {}",
        [
            ("Orphaned doc.", 2, 2, "code_comment"),
            ("Right above. function f()", 4, 5, "definition"),
        ],
        id="js-another-comment-between",
    ),
    pytest.param(
        "js",
        "x(); // ends a line\n\nfunction f() {}",
        [("ends a line", 1, 1, "code_comment"), ("function f()", 3, 3, "definition")],
        id="js-trailing",
    ),
    pytest.param(
        "js",
        "x();\n// ----------\n\nfunction f() {}",
        [("function f()", 4, 4, "definition")],
        id="js-separator",
    ),
    pytest.param(
        "js",
        "x();\n/** About y. */\ny();\n\nfunction f() {}",
        [("About y.", 2, 2, "code_comment"), ("function f()", 5, 5, "definition")],
        id="js-code-between",
    ),
    pytest.param(
        "cpp",
        "class P {\n  void hide() {\n    h();\n  }\n  // Hides the panel.\n\n  void show() {}\n};",
        [
            ("class P", 1, 8, "definition"),
            ("void hide()", 2, 4, "definition"),
            ("Hides the panel.", 5, 5, "code_comment"),
            ("void show()", 7, 7, "definition"),
        ],
        id="cpp-remark-on-the-code-above",
    ),
    pytest.param(
        "js",
        "x();\n\n// return cache.get(key);\n\nfunction f() {}",
        [("function f()", 5, 5, "definition")],
        id="js-commented-out-code",
    ),
    pytest.param(
        "rust",
        "use a;\n//! The crate.\n\nfn f() {}",
        [("The crate.", 2, 2, "code_comment"), ("fn f()", 4, 4, "definition")],
        id="rust-inner-doc",
    ),
]


@pytest.mark.parametrize(("language", "source", "expected"), ACROSS_BLANKS_CASES)
def test_a_doc_comment_across_blank_lines_leads_its_definition(
    language: str, source: str, expected: list[object]
) -> None:
    chunks = split_code(source, language)
    assert brief(chunks) == expected
    check(chunks, source)


# Generated C-family files: definitions, doc comments, stray comments, separators,
# commented-out code, remarks that end a line of code, and blank lines, in any order. Per
# language: a file's first line of code, a definition (three lines), and a statement (none
# a definition without a doc: a ``const`` of data is one since day-const79, code_declared).
_FAMILY = {
    "js": ("'use strict';", "function f{n}(a) {{\n  return a;\n}}", "let v{n} = {n};"),
    "c": ("#include <a.h>", "int f{n}(int a) {{\n  return a;\n}}", "int v{n} = {n};"),
    "go": ("package p", "func f{n}(a int) int {{\n\treturn a\n}}", "var v{n} = f({n})"),
    "rust": ("use a::b;", "fn f{n}(a: i32) -> i32 {{\n    a\n}}", "static V{n}: i32 = {n};"),
}
_ITEMS = st.sampled_from(
    ["def", "doc", "note", "separator", "dead", "code", "remark", "blank", "blank"]
)


@st.composite
def _c_family_file(draw: st.DrawFn) -> tuple[str, str, list[tuple[str, int, int]]]:
    """A language, its source, and its items as (kind, first line, last line)."""
    language = draw(st.sampled_from(sorted(_FAMILY)))
    first, definition, statement = _FAMILY[language]
    pieces: list[tuple[str, str]] = [] if draw(st.booleans()) else [("first", first)]
    for n, kind in enumerate(draw(st.lists(_ITEMS, max_size=14))):
        text = {
            "def": definition.format(n=n),
            "doc": f"/**\n * Doc{n} explains.\n */" if n % 2 else f"/** Doc{n} explains. */",
            "note": f"// Doc{n} says why.",
            "separator": "// ----------",
            "dead": f"// return v{n};",
            "code": statement.format(n=n),
            "remark": f"{statement.format(n=n)} // Doc{n} remarks.",
            "blank": "",
        }[kind]
        pieces.append((kind, text))
    items, row = [], 1
    for kind, text in pieces:
        rows = text.count("\n") + 1
        items.append((kind, row, row + rows - 1))
        row += rows
    return language, "\n".join(text for _, text in pieces) + "\n", items


def _expected_doc(items: list[tuple[str, int, int]], at: int) -> list[tuple[str, int, int]]:
    """The comment items that are the doc of the definition at `items[at]`: the block of
    comments directly above it, or across blank lines only when that block ends in a doc
    comment (``/**``) and is neither the file header nor right below code."""
    above = at - 1
    while above >= 0 and items[above][0] == "blank":
        above -= 1
    gap = above < at - 1
    block: list[tuple[str, int, int]] = []
    while above >= 0 and items[above][0] in ("doc", "note", "separator", "dead"):
        block.insert(0, items[above])
        above -= 1
    is_header = not any(
        kind in ("first", "code", "remark", "def") for kind, _, _ in items[: above + 1]
    )
    below_code = above >= 0 and items[above][0] != "blank"
    if gap and (not block or block[-1][0] != "doc" or is_header or below_code):
        return []
    return block


@given(_c_family_file())
@settings(max_examples=200)
def test_doc_comments_across_blank_lines_keep_the_line_contract(
    generated: tuple[str, str, list[tuple[str, int, int]]],
) -> None:
    language, source, items = generated
    chunks = split_code(source, language)
    check(chunks, source)
    assert split_code(source, language) == chunks
    definitions = iter(c for c in chunks if c.role == "definition")
    for at, (kind, first, last) in enumerate(items):
        doc = _expected_doc(items, at)
        # A JavaScript ``let`` or Rust ``static`` under doc comments alone is a definition
        # (code_values); C's and Go's, and one under any other comment, stay statements.
        is_value = (
            kind in ("code", "remark")
            and language in ("js", "rust")
            and bool(doc)
            and all(doc_kind == "doc" for doc_kind, _, _ in doc)
        )
        if kind != "def" and not is_value:
            continue
        chunk = next(definitions)
        assert (chunk.start_line, chunk.end_line) == (doc[0][1] if doc else first, last), chunk
        lines = source.splitlines()
        said = {
            number
            for doc_kind, start, end in doc
            if doc_kind in ("doc", "note")
            for number in re.findall(r"Doc(\d+)", "\n".join(lines[start - 1 : end]))
        }
        assert set(re.findall(r"Doc(\d+)", chunk.text)) == said, (chunk, doc)
    assert next(definitions, None) is None


def test_long_doc_comment_keeps_its_start_and_the_signature() -> None:
    doc = "\n".join(f" * Sentence {n} explains one more detail here." for n in range(30))
    source = f"/**\n{doc}\n */\nfunction f(a) {{}}\n"
    [chunk] = split_code(source, "js")
    assert chunk.text.startswith("Sentence 0 explains") and chunk.text.endswith(". function f(a)")
    assert len(chunk.text) <= 600 + len(" function f(a)")
    assert (chunk.start_line, chunk.end_line) == (1, 33)
    check([chunk], source)


def test_sniffing_picks_the_grammar_of_a_shared_extension() -> None:
    assert split_code("using System.Text;\nclass A { void M() {} }", "c")[1].section == ("A", "M")
    kotlin = '// Says hi.\nfun main() {\n  println("hi") // greet\n}\n'
    assert brief(split_code(kotlin, "java")) == [
        ("Says hi.", 1, 1, "code_comment"),
        ("greet", 3, 3, "code_comment"),
    ]
    assert split_code(kotlin, "kotlin") == split_code(kotlin, "java")


def test_unknown_language_raises() -> None:
    with pytest.raises(InvalidInputError, match="cobol"):
        split_code("x", "cobol")


def test_language_aliases() -> None:
    assert split_code("// hi there\nx();", "TypeScript") == split_code("// hi there\nx();", "js")
    assert split_code(C, "cpp") == split_code(C, "c")


# -- the grammars -----------------------------------------------------------------------------


def test_every_grammar_loads_once_and_is_cached() -> None:
    for name in GRAMMARS:
        assert code_treesitter.available(name), name
        assert code_treesitter._load(name) is code_treesitter._load(name)


def test_a_grammar_that_cannot_load_is_none() -> None:
    missing = Grammar("tree_sitter_not_installed_anywhere", "", "c")
    assert code_treesitter._try_load(missing) is None
    bad_query = dataclasses.replace(GRAMMARS["go"], definitions="(no_such_node) @definition")
    assert code_treesitter._try_load(bad_query) is None
    assert code_treesitter.read_tree(["x"], "cobol") is None


def test_the_read_path_never_loads_tree_sitter() -> None:
    probe = (
        "import sys\n"
        "from credo.knowledge.chunk import split_code\n"
        "split_code('def f():\\n    return 1\\n', 'python')\n"
        "assert 'tree_sitter' not in sys.modules, 'python read needs no grammar'\n"
        "split_code('func f() {}', 'go')\n"
        "assert 'tree_sitter_go' in sys.modules and 'tree_sitter_rust' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# -- helpers ----------------------------------------------------------------------------------


SIGNATURE_CASES = [
    (
        "def f(\n    self,\n    a: int = 1,\n) -> dict[str, int]:",
        "def f(self, a: int = 1) -> dict[str, int]",
    ),
    ("[Serializable] public class A : B {", "public class A : B"),
    ("[Serializable][Obsolete] class A", "class A"),
    ("[Symbol.iterator]() {", "[Symbol.iterator]()"),
    ("@Override\n  public void run();", "public void run()"),
    ("fn " + "a" * 400, "fn …"),
]


@pytest.mark.parametrize(("raw", "expected"), SIGNATURE_CASES)
def test_signature(raw: str, expected: str) -> None:
    assert signature(raw) == expected


def test_context_words() -> None:
    names = ["HTTPConnectionPool", "get_backoff_time", "self", "sha256", "x", "buildURL", "get"]
    assert context_words(names) == "http connection pool get backoff time sha256 build url get"
    assert len(context_words(f"name{n}" for n in range(500)).split()) == MAX_CONTEXT_WORDS


def test_context_words_write_a_salient_word_twice() -> None:
    # 22 word uses, so 1/20 is 1.1 and the floor of two uses decides: "timeout" (4 uses)
    # and "total" (2) are written again at the end, in first-seen order; words used once
    # never are.
    uses = ["read_timeout", "timeout", "total", "total", "connect_timeout", "timeout"]
    uses += [f"name{n}" for n in range(14)]
    words = context_words(uses).split()
    assert words[:5] == ["read", "timeout", "total", "connect", "name0"]
    assert words[-2:] == ["timeout", "total"]
    assert words.count("timeout") == 2 and words.count("read") == 1
    # In a long body the share decides: 3 uses of 100 is under 1/20, 6 is over.
    many = ["rare"] * 3 + ["busy"] * 6 + [f"name{n}" for n in range(91)]
    assert context_words(many).split()[-1:] == ["busy"]
    # A word past the distinct-word cap is not brought back by its count.
    capped = [f"name{n}" for n in range(MAX_CONTEXT_WORDS)] + ["late"] * 50
    assert "late" not in context_words(capped).split()


def test_context_words_take_string_words_after_names_with_their_own_cap() -> None:
    assert context_words(["get_header"], ['"Content-Length and the header"', "'get'"]) == (
        "get header content length"  # stopwords and words already there left out
    )
    many = [f"'word{n}'" for n in range(200)]
    words = context_words((f"name{n}" for n in range(500)), many).split()
    assert len(words) == MAX_CONTEXT_WORDS + MAX_STRING_WORDS


def test_body_words_keep_one_line_strings_only() -> None:
    body = (
        'x = "Received response"  # a comment\n'
        'y = """A long\ntext"""\n'
        "z = f'{code} failed'\n"
        f"w = '{'a' * 300}'\n"
    )
    found = names(body, [(0, len(body))])
    assert found.names == ["x", "y", "z", "w"]
    body = "a = b\na = c  # a\n"
    assert names(body, [(0, len(body))]).names == ["a", "a", "b", "c"]  # every use
    assert found.strings == ['"Received response"', "f'{code} failed'"]


def test_own_segments() -> None:
    bodies = [(0, 100), (10, 20), (30, 50), (35, 40), None, (60, 70)]
    assert own_segments(bodies) == [
        [(0, 10), (20, 30), (50, 60), (70, 100)],
        [(10, 20)],
        [(30, 35), (40, 50)],
        [(35, 40)],
        [],
        [(60, 70)],
    ]


@pytest.mark.parametrize(
    ("comment", "is_code"),
    [
        ("x = compute(y)", True),
        ("return cache.get(key);", True),
        ("if (ready) {", True),
        ("#include <stdio.h>", True),
        ("if the value is None:", False),
        ("See RFC(1234).", False),
        ("Returns a map like {a: 1}", False),
        ("n = number of items", False),
        # (a definition's first line, commented out: code though its keywords read as words)
        ("export function preprocess<A, U>(", True),
        ("async def fetch_all(self, urls):", True),
        ("pub fn parse(input: &str) -> Result<Tree, Error> {", True),
        # (a sentence that starts as one: prose, kept; before review75 dropped as dead code)
        ("function render(view) is called once per frame (see loop)", False),
        ("def close(self) must be called by the owner (not the pool)", False),
        ("class Meta: the fields the admin lists, in order,", False),
    ],
)
def test_commented_out_code(comment: str, is_code: bool) -> None:
    assert is_commented_out_code([(1, comment)]) is is_code


# -- hostile input ----------------------------------------------------------------------------

HOSTILE = [
    ("python", "(" * 100_000),
    ("js", "(" * 100_000 + "function f(){}"),
    ("c", "{[(" * 100_000),
    ("rust", "<[{(" * 60_000),
    ("js", "/*" * 100_000),
    ("python", '"""' * 100_000),
    ("shell", "\"'" * 100_000),
    ("go", "func f() {\x00}\n// c\x00mment here\n"),
    ("rust", "fn f() {} // \ud800 lone surrogate"),
    ("c", "int f()\r{\r// carriage returns only\rreturn 1;\r}\r"),
    ("python", "".join("    " * i + f"def f{i}():\n" for i in range(95)) + "    " * 95 + "pass\n"),
    # A long run of comment lines above a definition, directly and across a blank line: the
    # walk up its siblings once took quadratic time (48 s for 100,000 lines).
    ("js", "x();\n\n" + "// words here\n" * 100_000 + "function f() {}\n"),
    ("js", "x();\n\n" + "// words here\n" * 100_000 + "\nfunction f() {}\n"),
]


@pytest.mark.parametrize(("language", "text"), HOSTILE, ids=lambda v: str(v)[:12])
def test_hostile_input_is_read_in_bounded_time(language: str, text: str) -> None:
    started = time.process_time()  # CPU seconds: a loaded machine stretches the wall clock
    chunks = split_code(text, language)
    assert time.process_time() - started < 15  # a guard against a blow-up, not a speed target
    check(chunks, text)


def test_huge_file_of_many_definitions() -> None:
    source = "".join(
        f"function f{i}(a) {{\n  // step {i}\n  return a + {i};\n}}\n" for i in range(20_000)
    )
    chunks = split_code(source, "js")
    assert len(chunks) == 40_000
    assert full(chunks[-2:]) == [
        ("function f19999(a)", 79_997, 80_000, "definition", ("f19999",)),
        ("step 19999", 79_998, 79_998, "code_comment", ("f19999",)),
    ]


def test_minified_line_keeps_exact_lines() -> None:
    source = ";".join(f"function f{i}(a){{return a+{i}}}" for i in range(2_000))
    chunks = split_code(source, "js")
    assert len(chunks) == 2_000 and all(c.start_line == c.end_line == 1 for c in chunks)


# -- properties -----------------------------------------------------------------------------------

_LANGUAGES = ("python", "c", "js", "go", "rust", "java", "shell", "csharp", "tsx")
_CODE_ALPHABET = "#/*'\"`\\!\n \tabcXYZ19:;=(){}<>-r"


@given(st.text(), st.sampled_from(_LANGUAGES))
def test_arbitrary_text_never_raises(text: str, language: str) -> None:
    chunks = split_code(text, language)
    check(chunks, text)
    assert split_code(text, language) == chunks


@given(st.text(alphabet=_CODE_ALPHABET, max_size=300), st.sampled_from(_LANGUAGES))
@settings(max_examples=300)
def test_comment_soup_properties(text: str, language: str) -> None:
    chunks = split_code(text, language)
    check(chunks, text)
    assert split_code(text, language) == chunks


_TOKENS = st.sampled_from(
    [
        "function f(a) {",
        "}",
        "class A {",
        "m() {",
        "const g = (x) =>",
        "x;",
        "return a;",
        "/** Doc here. */",
        "// note here",
        "// /** Switched off. */",  # a doc comment disabled (probe74)
        "//////  Banner  //////",
        "/*@__PURE__*/",
        "// │ p │ ──► write│ Thread",  # a diagram's strokes and labels (probe80)
        "/**\n   * Multi-line doc.\n   */\n  hidden?: boolean;",  # a JSDoc'd member (probe80)
        "/// ```",  # a rustdoc code block, its hidden lines and a generic (probe76)
        "/// # hidden",
        "//! ```toml",
        "/// Vec<Item> of <b>C</b>",
        "/* block",
        "*/",
        '"str // x"',
        "'q'",
        "`t ${a}`",
        "func (c *C) M() {",
        "fn f() {",
        "impl A {",
        "def f():",
        "    pass",
        "\n",
        "\n\n",
        "#[attr]",
        "@dec",
        "type T struct {",
        "namespace N {",
        "void f(int a) {",
    ]
)


@given(st.lists(_TOKENS, max_size=40), st.sampled_from(_LANGUAGES))
@settings(max_examples=300)
@example(  # a comment that begins inside a definition and runs past its end (CI, stop 27)
    ["function f(a) {", "}", "/* block", "\n", "function f(a) {", "*/"], "c"
)
@example(  # error recovery starts the block comment at the space before it (stop 39)
    ["*/", "/* block", "\n", "function f(a) {", "*/"], "js"
)
@example(  # a JSDoc'd field in a namespace: trail (N, hidden), no definition of its own
    ["namespace N {", "/**\n   * Multi-line doc.\n   */\n  hidden?: boolean;"], "js"
)
def test_code_shaped_soup_properties(tokens: list[str], language: str) -> None:
    text = " ".join(tokens)
    chunks = split_code(text, language)
    check(chunks, text)
    assert split_code(text, language) == chunks


_IDENTIFIERS = st.sampled_from(["load", "Config", "parse_path", "run", "Helper"])
_PROSE = st.lists(st.sampled_from(["Reads", "the", "file", "e.g.", "Fast.", "x1"]), min_size=1)


@st.composite
def _python_module(draw: st.DrawFn) -> str:
    lines: list[str] = []
    indent = ""
    empty = False  # a header whose body holds no statement yet (comments are none)
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(
            st.sampled_from(["def", "class", "doc", "comment", "code", "dedent", "blank", "@"])
        )
        prose = " ".join(draw(_PROSE))
        if kind == "@":
            lines.append(f"{indent}@{draw(_IDENTIFIERS)}")
            kind = draw(st.sampled_from(["def", "class"]))
        if kind in ("def", "class"):
            keyword = "def" if kind == "def" else "class"
            suffix = "():" if kind == "def" else ":"
            lines.append(f"{indent}{keyword} {draw(_IDENTIFIERS)}{suffix}")
            indent += "    "
            empty = not draw(st.booleans())  # with a docstring, or a body to come
            if not empty:
                lines.append(f'{indent}"""{prose}\n\n{indent}{prose}"""')
            continue
        if kind == "doc":
            lines.append(f'{indent}"""{prose}"""')
        elif kind == "comment":
            lines.append(f"{indent}# {prose}")
            continue
        elif kind == "code":
            lines.append(f"{indent}x = '{prose} # in string'  # {prose}")
        elif kind == "dedent":
            if empty:
                lines.append(f"{indent}pass")
            indent = indent[:-4]
        else:
            lines.append("")
            continue
        empty = False
    if empty:
        lines.append(f"{indent}pass")
    return "\n".join(lines) + "\n"


@given(_python_module())
def test_generated_python_properties(source: str) -> None:
    chunks = split_code(source, "python")
    check(chunks, source)
    assert all(c.role in ("docstring", "code_comment", "definition", "statement") for c in chunks)
    # Code is text only at module level: each top-level line of it is one statement, as
    # written, its comment left out; a string there is one too, but for the docstring (and
    # but for a piece too short to mean anything, as for every chunk).
    top = [
        (n, line)
        for n, line in enumerate(source.splitlines(), 1)
        if line and not line.startswith((" ", "#"))
    ]
    expected = [
        (n, n, text)
        for k, (n, line) in enumerate(top)
        if line.startswith("x = ") or (line.startswith('"""') and k > 0)
        if is_meaningful(text := line.rpartition("  # ")[0] if line.startswith("x = ") else line)
    ]
    statements = [(c.start_line, c.end_line, c.text) for c in chunks if c.role == "statement"]
    assert statements == expected
    # A string's words may be context (its definition's), a comment's never are.
    assert not any("Reads" in c.context.split() for c in chunks)


# -- real files -----------------------------------------------------------------------------------


def _stdlib_sample() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(root.glob("*.py"))[::8]


@pytest.mark.parametrize("path", _stdlib_sample(), ids=lambda p: p.name)
def test_real_python_files(path: Path) -> None:
    source = path.read_text(encoding="utf-8", errors="replace")
    check(split_code(source, "python"), source)


_SOURCES = (".js", ".ts", ".go", ".rs", ".java", ".c", ".h", ".cc", ".cpp", ".cs", ".sh")
_REAL_FILES = real_files(_SOURCES, limit=80)


@pytest.mark.skipif(not _REAL_FILES, reason="no C-family sources on this machine")
def test_real_c_family_files() -> None:
    for path in _REAL_FILES:
        language = language_for(str(path))
        assert language is not None
        source = path.read_text(encoding="utf-8", errors="replace")
        check(split_code(source, language), source)


# Two pinned projects of the code benchmark (bench/docs_corpora.py fetches them).
_BENCH = Path(os.environ.get("CREDO_BENCH_CACHE", Path.home() / ".cache" / "credo-bench"))
_URLLIB3 = _BENCH / "urllib3-2.8.0" / "src" / "urllib3"
_AXIOS = _BENCH / "axios-1.21.1" / "lib"


def _tree(root: Path, suffix: str) -> Iterator[Path]:
    return iter(sorted(root.rglob(f"*{suffix}")))


@pytest.mark.skipif(not _URLLIB3.is_dir(), reason="urllib3 2.8.0 is not in the bench cache")
def test_urllib3_definitions() -> None:
    path = _URLLIB3 / "util" / "retry.py"
    chunks = split_file(str(path), path.read_text(encoding="utf-8"))
    by_trail = {c.section: c for c in chunks if c.role == "definition"}
    backoff = by_trail[("Retry", "get_backoff_time")]
    assert backoff.text == (
        "def get_backoff_time(self) -> float: Formula for computing the current backoff"
    )
    assert (backoff.start_line, backoff.end_line) == (321, 338)
    assert {"backoff", "factor", "jitter", "random"} <= set(backoff.context.split())
    assert by_trail[("Retry",)].text == "class Retry: Retry configuration."
    for path in _tree(_URLLIB3, ".py"):
        text = path.read_text(encoding="utf-8")
        check(split_file(str(path), text), text)


@pytest.mark.skipif(not _AXIOS.is_dir(), reason="axios 1.21.1 is not in the bench cache")
def test_axios_definitions() -> None:
    path = _AXIOS / "helpers" / "buildURL.js"
    chunks = split_file(str(path), path.read_text(encoding="utf-8"))
    build = next(c for c in chunks if c.section == ("buildURL",) and c.role == "definition")
    assert build.text.startswith("Build a URL by appending params to the end @param")
    assert build.text.endswith("function buildURL(url, params, options)")
    assert {"serialize", "params", "encode"} <= set(build.context.split())
    for path in _tree(_AXIOS, ".js"):
        text = path.read_text(encoding="utf-8")
        check(split_file(str(path), text), text)


# -- dispatch -------------------------------------------------------------------------------------

LANGUAGE_FOR_CASES = [
    ("README.md", "markdown"),
    ("docs/Guide.MARKDOWN", "markdown"),
    ("src/credo/chunk/code.py", "python"),
    ("stubs/x.pyi", "python"),
    ("a/b.c", "c"),
    ("a\\b\\lib.hpp", "c"),
    ("app.tsx", "js"),
    ("index.mjs", "js"),
    ("main.go", "go"),
    ("lib.rs", "rust"),
    ("Main.java", "java"),
    ("build.kts", "java"),
    ("install.sh", "shell"),
    ("notes.txt", "text"),
    ("index.rst", "rst"),
    ("Makefile", "make"),
    (".bashrc", None),
    ("image.png", None),
    ("archive.tar.gz", None),
    ("", None),
]


@pytest.mark.parametrize(("path", "language"), LANGUAGE_FOR_CASES)
def test_language_for(path: str, language: str | None) -> None:
    assert language_for(path) == language


def test_split_file_dispatches() -> None:
    assert split_file("a.md", "# Heading")[0].role == "heading"
    assert split_file("a.py", "# a comment")[0].role == "code_comment"
    assert split_file("a.py", "def f(): pass")[0].role == "definition"
    assert split_file("a.txt", "plain words")[0].role == "text"


def test_split_file_rejects_unsupported_path() -> None:
    with pytest.raises(InvalidInputError, match=r"picture\.png"):
        split_file("picture.png", "x")


def test_characters_past_plane_one_never_crash_the_shell_grammar() -> None:
    """tree-sitter-bash 0.25 dies of SIGSEGV on "{" and, at the end of the text, most
    characters past U+2C800 (found by the hypothesis test above): the parser reads a stand-in,
    the chunks keep the file's own characters. In a child process, so a crash fails this test,
    not the whole run; many characters are asked, since which ones crash depends on memory."""
    code = (
        "from credo.knowledge.chunk.code import split_code\n"
        "for c in range(0x22000, 0x110000, 0x2000):\n"
        "    for lang in ('shell', 'python', 'c', 'js', 'go', 'rust', 'java', 'csharp', 'tsx'):\n"
        "        text = '# run {' + chr(c) + '} it\\necho hi\\n{' + chr(c)\n"
        "        chunks = split_code(text, lang)\n"
        "        assert '\\U00020000' not in ''.join(x.text for x in chunks), lang\n"
        "shown = split_code('# run {\\U000F0000} it\\n{\\U000F0000', 'shell')\n"
        "print(''.join(x.text for x in shown))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "\U000f0000" in done.stdout  # the file's own character, not the stand-in


# Which definitions declare members (Chunk.members): a class, struct, interface, trait,
# impl or namespace does; a function, method or nested function does not.
_MEMBERS = [
    ("a.py", "class A:\n    def f(self):\n        def g():\n            pass\n", {"A"}),
    ("a.js", "class A {\n  f() { return 1; }\n}\nfunction g() {\n  function h() {}\n}\n", {"A"}),
    ("a.js", "const A = class {\n  f() { return 1; }\n};\nconst g = () => 1;\n", {"A"}),
    (
        "a.ts",
        "interface I {\n  f(): void;\n}\nnamespace N {\n  export function f() {}\n}\n",
        {"I", "N"},
    ),
    ("a.rs", "struct S {\n  x: u8,\n}\nimpl S {\n  fn f(&self) {}\n}\nfn g() {}\n", {"S"}),
    ("a.java", "class A {\n  void f() {}\n  interface I {}\n}\n", {"A", "I"}),
    ("a.go", "type T struct {\n  x int\n}\nfunc (t T) F() {}\n", {"T"}),
]


@pytest.mark.parametrize(("name", "source", "scopes"), _MEMBERS)
def test_definitions_that_declare_members_are_marked(name, source, scopes) -> None:
    heads = [c for c in split_file(name, source) if c.role == "definition"]
    assert heads, name
    marked = {c.section[-1] for c in heads if c.members}
    if name == "a.rs":  # (an impl is named by its type: S twice, both members)
        assert marked == {"S"} and all(c.members for c in heads if c.section[-1] == "S")
        return
    assert marked == scopes


# A Rust trait fixes its function's signature: read alone, each type's ``fmt`` had the same
# text, one belief anchored at its first occurrence, the others in none (semver's
# display.rs: 7 of 8 ``fmt`` lost). A trait impl of one undocumented function is read as it.
RUST_TRAIT_IMPLS = textwrap.dedent(
    """\
    impl Display for Version {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{}.{}", self.major, self.minor)
        }
    }

    /// Parses a requirement.
    impl FromStr for Req {
        type Err = Error;

        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            match self.op { Op::Exact => f.write_str("=") }
        }
    }

    impl Ord for Version {
        /// Newer compares greater.
        fn cmp(&self, rhs: &Self) -> Ordering {
            self.major.cmp(&rhs.major)
        }
    }

    impl Version {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            inherent(f)
        }
    }
    """
)


def test_a_trait_impl_of_one_function_is_read_as_that_function() -> None:
    chunks = split_code(RUST_TRAIT_IMPLS, "rust")
    heads = [(c.text, c.start_line, c.end_line, c.section, c.members) for c in chunks]
    assert heads == [
        (
            "impl Display for Version fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result",
            1,
            4,  # (to the function's last line: the impl's closing brace says nothing)
            ("Version", "fmt"),
            False,
        ),
        (
            "Parses a requirement. impl FromStr for Req type Err = Error "
            "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result",
            7,
            13,
            ("Req", "fmt"),
            False,
        ),
        # (a documented function keeps its own text; an inherent impl is no trait's)
        ("impl Ord for Version", 16, 21, ("Version",), True),
        (
            "Newer compares greater. fn cmp(&self, rhs: &Self) -> Ordering",
            17,
            20,
            ("Version", "cmp"),
            False,
        ),
        ("impl Version", 23, 27, ("Version",), True),
        ("fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result", 24, 26, ("Version", "fmt"), False),
    ]
    assert "exact" in chunks[1].context.split()  # the function's body words
    assert len({c.text for c in chunks}) == len(chunks)
    check(chunks, RUST_TRAIT_IMPLS)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(("Display", "Debug", "Ord")),
            st.sampled_from(("A", "B", "C", "D")),
            st.booleans(),  # an associated type before the function
            st.booleans(),  # a second function: not one function any more
        ),
        min_size=1,
        max_size=6,
    )
)
@settings(max_examples=60, deadline=None)
def test_every_trait_impl_function_is_in_a_definition_of_its_own(
    impls: list[tuple[str, str, bool, bool]],
) -> None:
    # (the same signature in every impl: only the impl's header tells them apart)
    blocks = []
    for trait, owner, typed, second in impls:
        members = ["    type Out = u8;"] if typed else []
        members.append("    fn run(&self) -> u8 {\n        self.go()\n    }")
        if second:
            members.append("    fn stop(&self) {}")
        blocks.append(f"impl {trait} for {owner} {{\n" + "\n".join(members) + "\n}\n")
    source = "\n".join(blocks)
    chunks = split_code(source, "rust")
    check(chunks, source)
    runs = [c for c in chunks if c.role == "definition" and c.section[-1] == "run"]
    assert len(runs) == len(impls)  # each impl's function, once
    for chunk, (trait, owner, _, second) in zip(runs, impls, strict=True):
        assert chunk.section == (owner, "run")
        # one function: its impl's header leads its text, over the impl's lines
        assert chunk.text.startswith(f"impl {trait} for {owner}") != second
