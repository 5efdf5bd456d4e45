"""Review of MyST colon fences (probe71): hostile nesting. Each rewritten fence was one
backtick longer than the longest inside it, found by scanning every line inside it again:
a 42 KB Markdown file of 3,000 nested ``:::{note}`` took 128 s to read (9 MB of backticks);
now one pass, and fences nested deeper than MyST's pages ever go stay text. Below that depth
the rewrite is the one before (a reference copy of probe71's rule)."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.colon_fence import (
    _CLOSE,
    _CODE,
    _OPEN,
    MAX_NESTING,
    _ticks,
    _tildes,
    fence_char,
    rewrite_colon_fences,
)
from credo.knowledge.chunk.markdown_blocks import OPTION_LINE, PROSE_DIRECTIVES


def _reference_pairs(lines: list[str]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    open_fences: list[tuple[int, int]] = []
    code: tuple[str, int] | None = None
    for index, line in enumerate(lines):
        if ":::" not in line and "``" not in line and "~~~" not in line:
            continue
        fenced = _CODE.match(line)
        if code is not None:
            if (
                fenced is not None
                and not fenced.group(2).strip()
                and fenced.group(1)[0] == code[0]
                and len(fenced.group(1)) >= code[1]
            ):
                code = None
            continue
        if fenced is not None:
            if fenced.group(1)[0] == "~" or "`" not in fenced.group(2):
                code = (fenced.group(1)[0], len(fenced.group(1)))
            continue
        closing = _CLOSE.match(line)
        if closing is not None:
            if open_fences and open_fences[-1][1] <= len(closing.group(2)):
                pairs.append((open_fences.pop()[0], index))
            continue
        opening = _OPEN.match(line)
        if opening is not None:
            open_fences.append((index, len(opening.group(2))))
    return pairs


def _reference(lines: list[str]) -> list[str]:
    pairs = _reference_pairs(lines)
    if not pairs:
        return lines
    out = list(lines)
    for start, end in sorted(pairs, key=lambda pair: pair[1]):
        opening, closing = _OPEN.match(out[start]), _CLOSE.match(out[end])
        assert opening is not None and closing is not None
        char = fence_char(opening.group(3))
        length = _ticks if char == "`" else _tildes
        longest = max((length(out[i]) for i in range(start + 1, end)), default=0)
        fence = char * max(3, longest + 1)
        if opening.group(4).lower() in PROSE_DIRECTIVES:
            out[start] = opening.group(1) + fence + opening.group(3)
            out[end] = closing.group(1) + fence
            continue
        out[start] = out[end] = ""
        option = start + 1
        while option < end and OPTION_LINE.match(out[option]):
            out[option] = ""
            option += 1
    return out


def test_deep_nesting_is_read_in_linear_time() -> None:
    depth = 3000
    lines = ["# T", "", *[":::{note}"] * depth, "text", *[":::"] * depth]
    began = time.perf_counter()
    out = rewrite_colon_fences(lines)
    assert time.perf_counter() - began < 5  # (128 s before)
    assert sum(map(len, out)) < 4 * sum(map(len, lines))
    assert len(out) == len(lines)


_LINES = st.sampled_from(
    [
        ":::{note}", "::::{tab-set}", ":::{tab-item} One", ":::{glossary}", ":::{figure} x.png",
        ":::", "::::", ":::::", ":class: tip", "text", "```python", "```", "````", "~~~",
        "x = 1", "``inline``", "", "  :::{note}", "  :::",
        ":::{versionadded} 1 `x`", "~~~~", "::::{note} `y`",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=MAX_NESTING))
def test_the_rewrite_is_the_reference_s_below_the_depth_cap(lines: list[str]) -> None:
    assert rewrite_colon_fences(lines) == _reference(lines)
