"""Character classes spelled out so that a pattern compiles small match what the plain
class matches, over every code point.

Under IGNORECASE, `re` compiles a class that holds "i", "k" or "s" (whose case partners
İ/ı, K and ſ are outside Latin-1), or any class holding a character past Latin-1 beside
other runs, to a 64K-entry table: ~0.2 ms at each import, paid by every ingest. The
modules write such a class as alternatives of single-character classes and literals. Each
alternative consumes exactly one character, so a pattern keeps its matches when a class
is replaced by alternatives matching the same set of characters, which is checked here.
"""

from __future__ import annotations

import re

import pytest

from credo.knowledge import retention

EVERY = "".join(map(chr, range(0x110000)))


@pytest.mark.parametrize(
    ("spelled", "plain", "flags"),
    [
        (retention._LETTER, "[a-z]", re.IGNORECASE),  # retention.py
        (retention._ALNUM, "[a-z0-9]", re.IGNORECASE),
        (retention._DASH, "[-–—:]", re.IGNORECASE),
        (r"(?:[-*]|•)", "[-*•]", re.IGNORECASE),
        (r"(?:[-:,)]|[–—])", "[-–—:,)]", re.IGNORECASE),
        (r"(?:[a-hjl-rt-z]|i|k|s)", "[A-Za-z]", re.IGNORECASE),  # markdown_blocks.py
        (r"(?:c|s)", "[cs]", re.IGNORECASE),  # code_outline.py
        (r"""(?:["')\]*_]|[”’])""", r"""["'”’)\]*_]""", 0),  # sentence.py
        (r"""(?:["'(\[*_`]|[“‘])""", r"""["'“‘(\[*_`]""", 0),
        ("。|！|？", "[。！？]", 0),
    ],
)
def test_a_spelled_out_class_matches_every_character_its_plain_class_does(
    spelled: str, plain: str, flags: int
) -> None:
    found = re.findall(spelled, EVERY, flags)
    assert found == re.findall(plain, EVERY, flags)
    assert len(found) >= 3
