"""The one token estimator, charged in the currency that is rendered.

A belief costs what its line in the memory block costs: ``[id] content`` (``[id locked]``
for a locked one) with the content escaped, at 4 characters per token
(the estimate the LoCoMo reference figures use). Document anchors are metadata and cost
nothing (seed: doc-linker spec memo).
"""

from __future__ import annotations

import html

CHARS_PER_TOKEN = 4


def escape(text: str) -> str:
    """Escape text for the memory block: no stored text can open or close a tag (``<``,
    ``>``, ``&`` and quotes become entities) or start a line of its own (line breaks and
    other control characters become spaces), so it can never forge an entry or the end of
    the block."""
    flat = "".join(" " if ch < " " or ch in "\x7f\u2028\u2029\x85" else ch for ch in text)
    return html.escape(flat, quote=True)


def entry_text(belief_id: str, content: str, locked: bool) -> str:
    """A belief's line in the memory block, as charged (its anchor is free metadata)."""
    lock = " locked" if locked else ""
    return f"[{escape(belief_id)}{lock}] {escape(content)}\n"


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def belief_tokens(belief_id: str, content: str, locked: bool) -> int:
    return estimate(entry_text(belief_id, content, locked))
