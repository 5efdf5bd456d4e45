"""ASCII text is tokenised by `str.translate` and `str.split` (store/stem.py,
knowledge/chunk/rst_lines.py): the same tokens as the regular expressions they replace."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.rst_lines import SourceIndex, words
from credo.store.defn_stats import line_stems
from credo.store.line_stats import encode
from credo.store.stem import STEMS, stem, token_count, tokens

ascii_text = st.text(alphabet=st.characters(max_codepoint=127))
_REFERENCE = re.compile(r"[A-Za-z0-9]+")


@given(ascii_text)
def test_ascii_tokens_are_the_regular_expressions_runs(text: str) -> None:
    expected = _REFERENCE.findall(text.lower())
    assert tokens(text) == expected
    assert words(text) == expected


@given(ascii_text)
def test_encode_of_ascii_text_stems_each_lines_runs(text: str) -> None:
    runs = [_REFERENCE.findall(line.lower()) for line in text.split("\n")]
    lines = "\n".join(" ".join(map(stem, found)) for found in runs if found)
    assert encode(text, "")[0] == lines


@given(st.lists(st.text(alphabet=st.sampled_from("aZ9 _-.:\té\u00c9ßx"), max_size=12), min_size=1))
def test_a_files_lines_are_worded_at_once_as_one_at_a_time(lines: list[str]) -> None:
    index = SourceIndex(lines)
    assert [index.line_words(n) for n in range(1, len(lines) + 1)] == list(map(words, index.lines))


@given(
    st.lists(st.text(alphabet=st.sampled_from("aZ9 _-.:|éÉßﬁΣσς\u0301x"), max_size=10), max_size=4),
    st.sampled_from([" ", ": ", " | "]),
)
def test_words_of_joined_parts_are_each_parts_words(parts: list[str], sep: str) -> None:
    """The rst walker takes a chunk's words from its parts' (`rst_part.joined_words`)."""
    assert words(sep.join(parts)) == [word for part in parts for word in words(part)]


@given(st.lists(st.text(alphabet=st.sampled_from("aZ9 _-.:\t\n\r\x0béÉßrunningies"), max_size=12)))
def test_a_definitions_lines_are_stemmed_at_once_as_one_at_a_time(lines: list[str]) -> None:
    """`line_stems` folds an ASCII file's lines in one call; a line holding a line break
    itself, or a non-ASCII character, still gets its own tokens."""
    assert line_stems(lines) == [[stem(t) for t in tokens(line)] for line in lines]


@given(st.text(alphabet=st.sampled_from("aeiouyrstnlgdbcmpz"), max_size=14))
def test_the_stem_table_is_stem(token: str) -> None:
    assert STEMS[token] == stem(token)


@given(
    st.text(alphabet=st.sampled_from("aZ9 _-.:\t\n\x1céÉß\u2028"), max_size=30), st.integers(0, 12)
)
def test_a_bounded_token_count_is_the_tokens_count_up_to_its_bound(text: str, at_most: int) -> None:
    assert token_count(text, at_most) == min(len(tokens(text)), at_most)
