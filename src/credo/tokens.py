"""The one token estimator, charged in the currency that is rendered.

A belief costs what its line in the memory block costs: ``[id] content`` (``[id locked]``
for a locked one) with the content escaped, plus `` (at TRAIL)`` for a belief ingest read
from a document (its place: ``docs/auth.md › OAuth2 › Scopes L40-L58``), at 4 characters
per token (the estimate the LoCoMo reference figures use). The other document anchors are
metadata and cost nothing (seed: doc-linker spec memo).
"""

from __future__ import annotations

CHARS_PER_TOKEN = 4

# One translate() pass: entities for markup, a space for anything that breaks a line.
# Quotes stay as they are: belief text is element content, never an attribute value, so a
# quote cannot end anything there, and "&#x27;" would charge 6 characters for each "'".
_ESCAPES: dict[int, str] = {
    **{code: " " for code in (*range(32), 0x7F, 0x85, 0x2028, 0x2029)},
    ord("&"): "&amp;",
    ord("<"): "&lt;",
    ord(">"): "&gt;",
}


def _plain(text: str) -> bool:
    """True only when ``escape`` leaves ``text`` as it is: every character it replaces is
    a control or line separator (not printable) or one of ``&<>``. (False for some text
    that needs no escape, e.g. with a no-break space: the callers then escape exactly.)
    Cheaper than a regular expression's search, and nothing to compile at import."""
    return text.isprintable() and "&" not in text and "<" not in text and ">" not in text


def escape(text: str) -> str:
    """Escape text for the memory block: no stored text can open or close a tag (``<``,
    ``>`` and ``&`` become entities) or start a line of its own (line breaks and
    other control characters become spaces), so it can never forge an entry or the end of
    the block."""
    if _plain(text):
        return text  # the common case, and the hot one: costs are computed per candidate
    return text.translate(_ESCAPES)


def entry_text(belief_id: str, content: str, locked: bool, trail: str = "") -> str:
    """A belief's line in the memory block, as charged (its other anchors are free
    metadata)."""
    lock = " locked" if locked else ""
    place = f" (at {escape(trail)})" if trail else ""
    return f"[{escape(belief_id)}{lock}] {escape(content)}{place}\n"


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def belief_tokens(belief_id: str, content: str, locked: bool, trail: str = "") -> int:
    """``estimate(entry_text(...))``; computed per candidate on every retrieval, so the
    common case (nothing to escape) counts the line's characters without building it:
    ``[`` id ``] `` content newline, plus `` locked`` for a locked belief and
    `` (at `` trail ``)`` for one with a trail."""
    if _plain(belief_id) and _plain(content) and _plain(trail):
        place = len(trail) + 6 if trail else 0
        size = len(belief_id) + len(content) + (11 if locked else 4) + place
        return -(-size // CHARS_PER_TOKEN)
    return estimate(entry_text(belief_id, content, locked, trail))
