"""A name of letters and a number asks for its other form (store/letter_digits.py).

The index's tokenizer cuts "HTTP/2" into ``http`` and ``2`` and keeps ``http2`` whole:
prose writes the name apart, code joins it, a reader writes either.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.base_terms import base_terms
from credo.store.fts import MAX_QUERY_TERMS, query_terms
from credo.store.letter_digits import letter_digit_forms, with_letter_digit_forms


def _forms(text: str) -> list[str]:
    return with_letter_digit_forms(query_terms(text), text)[len(query_terms(text)) :]


@pytest.mark.parametrize(
    ("text", "forms"),
    [
        ("does it support HTTP/2", ["http2"]),
        ("is there support for HTTP/2?", ["http2"]),
        ("It supports HTTP/2. Does it reuse connections?", ["http2"]),
        ("decode as UTF-8", ["utf8"]),
        ("the OAuth 2 flow", ["oauth2"]),
        ("a SHA-256 digest", ["sha256"]),
        ("The Python 2 sunset page", ["python2"]),
        ("http2 support", ["http 2"]),
        ("utf8 decoding", ["utf 8"]),
        ("IPv6 hosts", ["ipv 6"]),
        # prose before a number, a dotted release, a long number: no name
        ("lines 2 and 4", []),
        ("coverage below 100%", []),
        ("Python 3.8 support", []),
        ("HTTP/1.1 only", []),
        ("OAuth 2.0 tokens", []),
        ("listen on port 8080", []),
        ("x-86 or h2", []),  # one letter is no name
        ("which iterator raises an error", []),
    ],
)
def test_a_name_asks_for_its_other_form(text: str, forms: list[str]) -> None:
    assert _forms(text) == forms


def test_a_query_without_a_digit_asks_as_before() -> None:
    terms = query_terms("which iterator raises an error on the session")
    assert with_letter_digit_forms(terms, "which iterator raises an error") is terms


def test_the_forms_are_what_the_index_holds_for_the_other_writing() -> None:
    """The joined word is the one token of the code's name; the phrase is the tokens the
    index holds for the name written apart."""
    assert query_terms("http2") == ["http2"]
    assert query_terms("HTTP/2") == ["http", "2"] == _forms("http2")[0].split()
    assert _forms("HTTP/2") == query_terms("http2")


def test_forms_keep_within_the_query_terms_cap() -> None:
    words = [f"w{i}x" for i in range(MAX_QUERY_TERMS)]
    text = " ".join(words) + " HTTP/2"
    terms = [w.lower() for w in words]
    assert len(with_letter_digit_forms(terms, text)) == MAX_QUERY_TERMS


@given(
    st.lists(
        st.tuples(
            st.text(alphabet="abcHTPUFsz", min_size=1, max_size=6),
            st.sampled_from(["", "/", "-", " ", ".", "_"]),
            st.text(alphabet="0123456789", min_size=0, max_size=5),
        ),
        max_size=4,
    )
)
def test_a_form_is_a_query_name_joined_or_split(parts: list[tuple[str, str, str]]) -> None:
    text = " ".join(f"{a}{sep}{d}" for a, sep, d in parts)
    terms = query_terms(text)
    forms = letter_digit_forms(terms, text)
    lowered = text.lower()
    for form in forms:
        letters = form.rstrip("0123456789 ")
        digits = form[len(letters) :].strip()
        assert len(letters.strip()) >= 2 and letters.strip().isalpha()
        assert digits.isdigit() and len(digits) <= 3
        if " " in form:  # a joined term, split
            assert f"{letters.strip()}{digits}" in terms
        else:  # a name written apart, joined
            assert any(f"{letters}{sep}{digits}" in lowered for sep in "/- ")
    assert with_letter_digit_forms(terms, text)[: len(terms)] == terms


def test_base_terms_carry_the_other_form() -> None:
    assert "http2" in base_terms("are HTTP/2 connections reused?")


def test_a_question_written_apart_finds_the_code_that_joins_it(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [
            {"kind": "belief", "id": "h2", "content": "Client(http2=True)"},
            {
                "kind": "belief",
                "id": "other",
                "content": "A proxy for plain HTTP requests from the client",
            },
        ]
    )
    ids = [b.id for b in memory.retrieve("how do I use HTTP/2 with the client?").beliefs]
    assert ids[0] == "h2"
    memory.close()


def test_a_question_written_joined_finds_the_prose_that_writes_it_apart(
    tmp_path: Path,
) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.import_records(
        [
            {"kind": "belief", "id": "utf", "content": "Bodies are decoded as UTF-8 text"},
            {"kind": "belief", "id": "other", "content": "Bodies are decoded lazily as text"},
        ]
    )
    ids = [b.id for b in memory.retrieve("are bodies decoded as utf8?").beliefs]
    assert ids[0] == "utf"
    memory.close()
