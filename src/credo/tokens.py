"""The one token estimator, charged in the currency that is rendered.

A belief costs what its entry in the memory block costs: the escaped content plus the
``<belief ...>`` wrapper the hook prints (``render.belief_entry``), at 4 characters per token
(the estimate the LoCoMo reference figures use). Document anchors are metadata and cost
nothing (seed: doc-linker spec memo).
"""

from __future__ import annotations

import html

CHARS_PER_TOKEN = 4


def escape(text: str) -> str:
    """Escape text for the memory block: no stored text can open or close a tag."""
    return html.escape(text, quote=True)


def entry_text(belief_id: str, content: str, locked: bool) -> str:
    """The charged part of a belief's line in the memory block (anchor attribute excluded)."""
    lock = ' locked="true"' if locked else ""
    return f'<belief id="{escape(belief_id)}"{lock}>{escape(content)}</belief>\n'


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def belief_tokens(belief_id: str, content: str, locked: bool) -> int:
    return estimate(entry_text(belief_id, content, locked))
