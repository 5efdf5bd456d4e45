"""`paired.sub_paired` substitutes as the pattern it is given does (review91): on every small
text, the long path forced, for each paired pattern `inline` runs through it. And an MDX
component tag ends where it did before `mdx._tag_end`'s pre-check for a ">" (a reference copy)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import inline, paired

_CASES = [
    (inline._STRONG, inline._STRONG_OPEN, inline._STRONG_CLOSE),
    (inline._INNER_STRONG, inline._INNER_OPEN, inline._INNER_CLOSE),
    (inline._STRIKE, inline._STRIKE_OPEN, inline._STRIKE_CLOSE),
]


def _shown(match: re.Match[str]) -> str:
    return "<" + "|".join(group or "" for group in match.groups()) + ">"


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="*_~ a\\\n.", max_size=40), st.sampled_from(range(len(_CASES))))
def test_the_long_path_substitutes_as_the_pattern_does(text: str, case: int) -> None:
    pattern, openers, closers = _CASES[case]
    saved = paired.LONG_TEXT
    paired.LONG_TEXT = 0
    try:
        fast = paired.sub_paired(pattern, openers, closers, _shown, text)
        template = paired.sub_paired(pattern, openers, closers, r"[\1]", text)
    finally:
        paired.LONG_TEXT = saved
    assert fast == pattern.sub(_shown, text)
    assert template == pattern.sub(r"[\1]", text)


def _reference_tag_end(state: object, start: int, stop: int) -> int | None:
    # mdx._tag_end as 5d32a8a8 wrote it (review91 added a pre-check for a ">")
    from credo.knowledge.chunk.mdx import _line

    quote = ""
    depth = 0
    for number in range(start, stop):
        text = _line(state, number)
        for index, char in enumerate(text):
            if quote:
                quote = "" if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth = max(0, depth - 1)
            elif char == ">" and not depth:
                return number if not text[index + 1 :].strip() else None
        if not text.strip():
            return None
    return None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(["<A", "<B x='>'", "{", "}", ">", " ", "", "a", '"', "</A>"]), max_size=14
    )
)
def test_an_mdx_tag_ends_where_it_did(parts: list[str]) -> None:
    from credo.knowledge.chunk import mdx
    from credo.knowledge.chunk.markdown import split_markdown

    text = "\n".join("".join(parts[i : i + 2]) for i in range(0, len(parts), 2))
    fast = split_markdown(text, mdx=True)
    saved = mdx._tag_end
    mdx._tag_end = _reference_tag_end
    try:
        assert split_markdown(text, mdx=True) == fast
    finally:
        mdx._tag_end = saved
