"""split_text: paragraphs, sentences, reStructuredText adornments, properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_text
from tests.test_chunk_markdown import brief, check_chunks, real_files

CASES = [
    pytest.param("", [], id="empty"),
    pytest.param("One line of text.", [("One line of text.", 1, 1, "text")], id="one"),
    pytest.param(
        "First para\nwraps here.\n\n\nSecond one.",
        [("First para wraps here.", 1, 2, "text"), ("Second one.", 5, 5, "text")],
        id="paragraphs",
    ),
    pytest.param(
        "Title\n=====\nBody text here.",
        [("Title", 1, 1, "text"), ("Body text here.", 3, 3, "text")],
        id="rst-adornment",
    ),
    pytest.param(
        "=====\nTitle\n=====\n\n# kept as text",
        [("Title", 2, 2, "text"), ("# kept as text", 5, 5, "text")],
        id="rst-overline",
    ),
    pytest.param("----\n\n...\n\n--", [], id="no-meaning"),
    pytest.param(
        "  indented   text\twith   gaps  ", [("indented text with gaps", 1, 1, "text")], id="ws"
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_paragraphs(text: str, expected: list[object]) -> None:
    chunks = split_text(text)
    assert brief(chunks) == expected
    check_chunks(chunks, text)


def test_bare_urls_are_links() -> None:
    (chunk,) = split_text("See https://example.com/a, then http://b.io.")
    assert chunk.links == ("https://example.com/a", "http://b.io")


def test_long_paragraph_by_sentence() -> None:
    text = "\n".join(f"Line {n} is one sentence about the topic." for n in range(30))
    chunks = split_text(text)
    assert [(c.start_line, c.end_line) for c in chunks] == [(n, n) for n in range(1, 31)]
    assert {c.role for c in chunks} == {"sentence"}


def test_short_sentences_are_glued() -> None:
    text = ("Yes. " + "This sentence is long enough to stand on its own. " * 15).strip()
    chunks = split_text(text)
    assert chunks[0].text.startswith("Yes. This sentence")


@given(st.text())
def test_arbitrary_text_properties(text: str) -> None:
    chunks = split_text(text)
    check_chunks(chunks, text)
    assert split_text(text) == chunks
    assert all(c.section == () and c.heading_index is None for c in chunks)


_TEXT_FILES = real_files((".rst", ".txt"), limit=60)


@pytest.mark.skipif(not _TEXT_FILES, reason="no text files on this machine")
def test_real_text_files() -> None:
    for path in _TEXT_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        check_chunks(split_text(text), text)
