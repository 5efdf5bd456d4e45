"""How identifiers split into words, in both places that split them: a code body's names
(`chunk.code_names.context_words`) and an ingested belief's context field
(`ingest.context.context_field`, line two). The two must agree, acronym plurals included:
``combineURLs`` is combine + URLs (FTS5 stems "urls" to "url"), never UR + Ls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import Chunk
from credo.knowledge.chunk.code_names import context_words
from credo.knowledge.ingest.context import _CAMEL, context_field

# A passage long enough that its field carries no filler.
_LONG_TEXT = " ".join(f"word{i}" for i in range(60))


def code_split(identifier: str) -> list[str]:
    """The words `context_words` gives for `identifier`, each once (it may write a word it
    keeps coming back to twice: that is salience, not splitting)."""
    return list(dict.fromkeys(context_words([identifier]).split()))


def context_split(identifier: str) -> list[str]:
    """The camelCase words `context_field` adds for `identifier`, each once (none when it
    has no case change: the tokenizer reads such a word whole)."""
    chunk = Chunk(_LONG_TEXT, 1, 2, "paragraph", (), None, (), identifier)
    extra = context_field("a", chunk).partition("\n")[2]
    added = extra.removesuffix(identifier).split()
    return added or [identifier.lower()]


@pytest.mark.parametrize(
    ("identifier", "words"),
    [
        ("combineURLs", ["combine", "urls"]),
        ("UUIDs", ["uuids"]),
        ("getIDsFor", ["get", "ids", "for"]),
        ("listAPIsAndCLIs", ["list", "apis", "and", "clis"]),
        ("parseHTTPResponse", ["parse", "http", "response"]),
        ("HTTPServer", ["http", "server"]),
        ("HTTPHeaderDict", ["http", "header", "dict"]),
        ("AxiosHeaders", ["axios", "headers"]),
        ("URLsafe", ["ur", "lsafe"]),  # no plural: an "s" a small letter follows
        ("getURLs2", ["get", "urls2"]),  # digits join the word before, as in "HTTP2"
        ("IDs64Fetch", ["ids64", "fetch"]),
    ],
)
def test_identifiers_split_into_their_words(identifier: str, words: list[str]) -> None:
    assert code_split(identifier) == words
    assert context_split(identifier) == words


# Without e, i, l, n, o, s, t, u no word is one `context_words` drops as noise ("self",
# "this", "new", "null"...); the splitting rules do not depend on which letters.
_LOWER = st.text("abcdfghjkmpqrvwxyz", min_size=2, max_size=6)
_ACRONYM = st.text("ABCDFGHJKMPQRVWXYZ", min_size=2, max_size=5)
# A capitalised word; "Is", "As"... after an acronym would read as its plural
# ("HTTPIs"), which is the one spelling the rule cannot tell apart: left out.
_CAPITALISED = st.builds(lambda head, rest: head + rest, _ACRONYM.map(lambda a: a[0]), _LOWER)


# Digits a word may end in ("HTTP2", "sha256", "URLs2"): they join the word before them.
_DIGITS = st.text("0123456789", max_size=2)


@st.composite
def camel_identifiers(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A camelCase identifier built from words, and the words it was built from. Two
    acronyms never touch (nothing could tell where one ends), and a word after an
    acronym is not a capital and "s" (the plural's ambiguity)."""
    kinds = draw(st.lists(st.sampled_from(["cap", "acronym", "plural"]), min_size=1, max_size=5))
    words: list[str] = [draw(_LOWER)]
    previous = "lower"
    for kind in kinds:
        if kind != "cap" and previous == "acronym":
            kind = "cap"
        if kind == "cap":
            word = draw(_CAPITALISED.filter(lambda w: len(w) > 2 or not w.endswith("s")))
        elif kind == "acronym":
            word = draw(_ACRONYM)
        else:
            word = draw(_ACRONYM) + "s"
        words.append(word + draw(_DIGITS))
        previous = kind
    return "".join(words), [word.lower() for word in words]


@given(camel_identifiers())
def test_a_camel_case_identifier_splits_into_the_words_it_was_built_from(
    built: tuple[str, list[str]],
) -> None:
    identifier, words = built
    assert code_split(identifier) == context_split(identifier) == list(dict.fromkeys(words))


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,20}", fullmatch=True))
def test_the_context_split_loses_no_character(identifier: str) -> None:
    """Whatever the identifier, its parts are it, cut: lower-cased, nothing dropped."""
    parts = _CAMEL.split(identifier)
    assert "".join(parts) == identifier and all(parts)
