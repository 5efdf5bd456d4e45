"""`split_markdown` parses without markdown-it's "normalize" core rule, whose rewrites
(``\\r\\n``, ``\\r``, NUL) it makes itself first: the chunks are the same with it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import markdown, split_markdown

PIECES = ["\r\n", "\r", "\n", "\x00", " ", "  ", "\t", "# ", "- ", "1. ", "> ", "```", "~~~"]
PIECES += ["{note}", "---", "===", "| a | b |", "|---|---|", "word", "Two words.", "`x`", ":o: v"]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_chunks_are_the_same_with_markdown_its_normalize_rule(
    monkeypatch: pytest.MonkeyPatch, pieces: list[str]
) -> None:
    text = "".join(pieces)
    fast = split_markdown(text)
    normalizing = markdown._parser.__wrapped__()  # a parser of its own, not the cached one
    normalizing.enable("normalize")
    with monkeypatch.context() as patch:
        patch.setattr(markdown, "_parser", lambda: normalizing)
        assert fast == split_markdown(text)
