"""Review of this stop's Markdown containers (review91): a colon line in an indented code
block is code. The rewrite of VitePress' ``::: tip`` (md89) and MyST's ``:::{note}`` matched
a line at any indent, so an indented code block read ``::: tip`` as the fence it was turned
into (the block's text, as stored, held words its lines do not: "```{tip}"), and a ``:::``
further down closing it opened a fence that made the prose below it code."""

from __future__ import annotations

import pytest

from credo.knowledge.chunk.markdown import split_markdown


def _chunks(text: str) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.role, c.text) for c in split_markdown(text)]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("# T\n\n    ::: tip\n    code\n    :::\n\nAfter.\n", "::: tip\ncode\n:::"),
        ("# T\n\n    :::{note}\n    code\n    :::\n\nAfter.\n", ":::{note}\ncode\n:::"),
    ],
)
def test_a_colon_fence_in_indented_code_is_code_as_written(text: str, code: str) -> None:
    assert _chunks(text) == [
        (1, 1, "heading", "T"),
        (3, 5, "code", code),
        (7, 7, "paragraph", "After."),
    ]


def test_a_colon_close_below_indented_code_opens_no_fence() -> None:
    text = "# T\n\n    ::: tip\n    code\n\nPara one is here.\n\n:::\n\nMore text after it.\n"
    assert _chunks(text) == [
        (1, 1, "heading", "T"),
        (3, 4, "code", "::: tip\ncode"),
        (6, 6, "paragraph", "Para one is here."),
        (10, 10, "paragraph", "More text after it."),
    ]


def test_a_box_indented_in_a_list_item_is_still_a_box() -> None:
    text = "# T\n\n- item one\n\n    ::: tip\n    boxed in item\n    :::\n\nAfter.\n"
    assert _chunks(text) == [
        (1, 1, "heading", "T"),
        (3, 3, "bullet", "item one"),
        (6, 6, "paragraph", "boxed in item"),
        (9, 9, "paragraph", "After."),
    ]
