"""A long doc comment above a signature: what the head's cap cuts is kept as docstring pieces.

Before (main at 21029d04) the doc's text past `MAX_PARAGRAPH_CHARS` was in no chunk at all:
chi's `RealIP` lost its warning about untrusted proxies, semver's `Version` its "Total
ordering" section, commander's `parse` its `from` options.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.store.stem import tokens
from tests.test_chunk_code import check

_REALIP = """\
// RealIP is a middleware that sets a http.Request's RemoteAddr to the results
// of parsing either the True-Client-IP, X-Real-IP or the X-Forwarded-For headers
// (in that order).
//
// This middleware should be inserted fairly early in the middleware stack to
// ensure that subsequent layers (e.g., request loggers) which examine the
// RemoteAddr will see the intended value.
//
// You should only use this middleware if you can trust the headers passed to
// you (in particular, the two headers this middleware uses), for example
// because you have placed a reverse proxy like HAProxy or nginx in front of
// chi. If your reverse proxies are configured to pass along arbitrary header
// values from the client, or if you use this middleware without a reverse
// proxy, malicious clients will be able to make you very sad (or, depending on
// how you're using RemoteAddr, vulnerable to an attack of some sort).
func RealIP(h http.Handler) http.Handler {
	return h
}
"""


def test_a_paragraph_the_cap_cuts_inside_keeps_its_later_sentences() -> None:
    head, *tail = split_code(_REALIP, "go")
    assert head.role == "definition" and head.section == ("RealIP",)
    assert (head.start_line, head.end_line) == (1, 18)
    assert head.text.endswith("in front of chi. func RealIP(h http.Handler) http.Handler")
    # (fails on main: the sentence was in no chunk)
    assert [(c.text[:40], c.start_line, c.end_line, c.role, c.section) for c in tail] == [
        ("If your reverse proxies are configured t", 12, 15, "docstring", ("RealIP",))
    ]
    assert "malicious clients will be able to make you very sad" in tail[0].text
    check([head, *tail], _REALIP)


def test_a_doc_within_the_cap_adds_nothing() -> None:
    source = "/** Adds two numbers. */\nfunction add(a, b) { return a + b }\n"
    assert [c.role for c in split_code(source, "js")] == ["definition"]


def test_whole_paragraphs_past_the_cap_follow_whole() -> None:
    first = " ".join(["The first paragraph says a good deal about nothing."] * 11)
    source = (
        f"/// {first}\n///\n/// # Total ordering\n///\n/// Versions compare as tuples.\n"
        "pub struct Version {\n    pub major: u64,\n}\n"
    )
    head, *tail = split_code(source, "rust")
    assert "Total ordering" not in head.text
    assert [(c.text, c.start_line, c.end_line) for c in tail] == [
        ("# Total ordering", 3, 3),  # (as the head shows a Markdown heading)
        ("Versions compare as tuples.", 5, 5),
    ]
    check([head, *tail], source)


_SENTENCE = st.lists(
    st.sampled_from("alpha beta gamma delta epsilon zeta theta kappa lambda sigma".split()),
    min_size=6,
    max_size=14,
).map(lambda words: " ".join(words).capitalize() + ".")
_PARAGRAPH = st.lists(_SENTENCE, min_size=2, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(_PARAGRAPH, min_size=2, max_size=6), st.sampled_from(["go", "js", "rust"]))
def test_every_doc_word_is_in_the_head_or_a_piece_over_its_line(
    paragraphs: list[list[str]], language: str
) -> None:
    mark = {"go": "//", "js": "//", "rust": "///"}[language]
    rows: list[str] = []
    for paragraph in paragraphs:
        if rows:
            rows.append(mark)
        # (a word of its own on each line: the vocabulary alone is in any head)
        rows.extend(
            f"{mark} {sentence[:-1]} row{len(rows) + k}." for k, sentence in enumerate(paragraph)
        )
    signature = {
        "go": "func Target() {\n}",
        "js": "function target() {\n}",
        "rust": "fn target() {\n}",
    }[language]
    source = "\n".join(rows) + "\n" + signature + "\n"
    chunks = split_code(source, language)
    head, tail = chunks[0], chunks[1:]
    assert head.role == "definition" and head.start_line == 1
    assert all(c.role == "docstring" and c.section == head.section for c in tail)
    assert all(1 <= c.start_line <= c.end_line <= len(rows) for c in tail)
    for number, row in enumerate(rows, 1):
        words = set(tokens(row.lstrip("/")))
        held = set(tokens(head.text))
        for chunk in tail:
            if chunk.start_line <= number <= chunk.end_line:
                held |= set(tokens(chunk.text))
        assert words <= held, (number, row, [c.text for c in chunks])
    # no sentence twice: a piece never repeats what the head shows
    for chunk in tail:
        assert chunk.text not in head.text
    assert re.search(r"\btarget\b", head.text, re.I)
    check(chunks, source)
