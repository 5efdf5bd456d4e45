"""`stem.tokens` reads a text whose only non-ASCII characters are common separators (the
"›" of every passage's trail, typographic dashes and quotes) as ASCII: the same tokens as
the general path, and as FTS5 itself."""

from __future__ import annotations

import re
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.store import stem
from credo.store.index_text import has_special, index_text, index_words
from credo.store.stem import SEPARATORS, fold, token_count, tokens

_FTS = sqlite3.connect(":memory:")
_FTS.execute(
    "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')"
)
_FTS.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")


def _fts_stems(text: str) -> list[str]:
    _FTS.execute("DELETE FROM t")
    _FTS.execute("INSERT INTO t(rowid, x) VALUES (1, ?)", (index_text(text),))
    return [r[0] for r in _FTS.execute("SELECT term FROM v ORDER BY offset")]


def _general(text: str) -> list[str]:
    """The tokens of the general (non-ASCII) path, as `tokens` read every such text before."""
    if has_special(text):
        return [fold(word) for _, word in index_words(text)]
    return [fold(m) for m in re.findall(r"[^\W_]+", text)]


_PIECES = [*"aZ9 _-./\n:", "L12-L40", "docs/a.rst", *SEPARATORS, "é", "ß", "日本", "🚀", "½", "²"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_tokens_with_separators_are_the_general_paths_and_fts5s(text: str) -> None:
    found = tokens(text)
    if not text.isascii():
        assert found == _general(text)
    assert [stem.stem(t) for t in found] == _fts_stems(text)
    for at_most in (0, 1, 3, 40):
        assert token_count(text, at_most) == min(len(_general(text)), at_most)


@pytest.mark.parametrize("separator", list(SEPARATORS))
def test_each_separator_only_separates(separator: str) -> None:
    assert not separator.isalnum() and separator != "_"  # never inside a token
    assert not has_special(separator) and index_text(separator) == separator
    assert _fts_stems(f"ab{separator}cd") == ["ab", "cd"]


def test_a_trail_is_read_without_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A passage's context ("path › heading › heading L1-L9") is read as ASCII (fails
    before: every non-ASCII text went through the regular expression, a call per word)."""

    def general(*_: object) -> None:
        raise AssertionError("the general path")

    monkeypatch.setattr(stem, "_unicode_token", general)
    context = "docs/news.rst › Release notes › Scrapy 2.11 – “fixes” L40-L58\nBug fixes"
    assert tokens(context) == (
        "docs news rst release notes scrapy 2 11 fixes l40 l58 bug fixes".split()
    )
    with pytest.raises(AssertionError):
        tokens("docs/news.rst › Café")  # another non-ASCII letter: the general path


# -- stems of words no step can change ---------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789é", min_size=1, max_size=12))
def test_stems_are_fts5s_whatever_the_last_character(word: str) -> None:
    assert [stem.stem(t) for t in tokens(word)] == _fts_stems(word)


def test_a_word_ending_where_no_step_acts_is_its_own_stem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No step runs for a word whose last byte no step reads (fails before: the steps ran
    for every word of 3 to 64 bytes)."""

    class Steps:
        def __iter__(self) -> None:
            raise AssertionError("the steps ran")

    monkeypatch.setattr(stem, "_STEPS", Steps())
    stem.stem.cache_clear()
    try:
        assert [stem.stem(w) for w in ("l40", "2019", "0x1f", "deploy2", "http", "lookup")] == [
            "l40",
            "2019",
            "0x1f",
            "deploy2",
            "http",
            "lookup",
        ]
        with pytest.raises(AssertionError):
            stem.stem("operational")
    finally:
        stem.stem.cache_clear()
