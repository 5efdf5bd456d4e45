"""The one token estimator, charged in the currency that is rendered.

A belief costs what its line in the memory block costs: ``[id] content`` (``[id locked]``
for a locked one) with the content escaped, at 4 characters per token
(the estimate the LoCoMo reference figures use). Document anchors are metadata and cost
nothing (seed: doc-linker spec memo).
"""

from __future__ import annotations

import re

CHARS_PER_TOKEN = 4

# One translate() pass: entities for markup, a space for anything that breaks a line.
_ESCAPES: dict[int, str] = {
    **{code: " " for code in (*range(32), 0x7F, 0x85, 0x2028, 0x2029)},
    ord("&"): "&amp;",
    ord("<"): "&lt;",
    ord(">"): "&gt;",
    ord('"'): "&quot;",
    ord("'"): "&#x27;",
}
_NEEDS_ESCAPE = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029&<>\"']")


def escape(text: str) -> str:
    """Escape text for the memory block: no stored text can open or close a tag (``<``,
    ``>``, ``&`` and quotes become entities) or start a line of its own (line breaks and
    other control characters become spaces), so it can never forge an entry or the end of
    the block."""
    if _NEEDS_ESCAPE.search(text) is None:
        return text  # the common case, and the hot one: costs are computed per candidate
    return text.translate(_ESCAPES)


def entry_text(belief_id: str, content: str, locked: bool) -> str:
    """A belief's line in the memory block, as charged (its anchor is free metadata)."""
    lock = " locked" if locked else ""
    return f"[{escape(belief_id)}{lock}] {escape(content)}\n"


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def belief_tokens(belief_id: str, content: str, locked: bool) -> int:
    return estimate(entry_text(belief_id, content, locked))
