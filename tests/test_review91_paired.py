"""`paired.sub_paired` substitutes as the pattern it is given does (review91): on every small
text, the long path forced, for each paired pattern `inline` runs through it."""

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
