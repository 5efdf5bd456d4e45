"""The one token estimator, charged in the currency that is rendered.

A belief's line in the memory block is ``[id] content`` (``[id locked]`` for a locked one)
with the content escaped, at 4 characters per token (the estimate the LoCoMo reference
figures use). What the line says about the belief's standing is inside the brackets and
charged with it (``[b2; replaces b1]``, ``[b3; conflicts with b4]``, ``[b1; superseded by
b2]``: ``marks``), and so is the place of a passage ingest read from a document: its line
range, `` (L40-L58)``, under the block's lines naming its file and section
(retrieval/place.py), or its whole trail, `` (at docs/auth.md › OAuth2 › Scopes
L40-L58)``, on a line that stands alone. The other document anchors are metadata and cost
nothing (seed: doc-linker spec memo), but for a capture's transcript: its long path is
shown short and charged, when the budget has room for it (``capture_hint``). A locked
belief is charged for its line alone (``belief_tokens``); the pack's lines, with the file
and section lines among them, are charged as one text (``place.Charges`` over
``line_chars``), so the estimate is rounded up once per pack, not once per line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from credo.types import DocAnchor

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


# What each entity adds to the length: every other character ``escape`` replaces becomes
# one space, so a text's escaped length is its own plus these.
_AMP_EXTRA = len("&amp;") - 1
_ANGLE_EXTRA = len("&lt;") - 1  # (and "&gt;")


def escaped_len(text: str) -> int:
    """``len(escape(text))`` without building the escaped text (a passage of a document
    holds line breaks, so it is escaped, and its line is counted on every query)."""
    return (
        len(text)
        + _AMP_EXTRA * text.count("&")
        + _ANGLE_EXTRA * (text.count("<") + text.count(">"))
    )


MARK_IDS = 3  # ids named in one mark; the rest are counted ("+2 more")


def marks(
    replaces: Sequence[str] = (),
    conflicts: Sequence[str] = (),
    superseded_by: Sequence[str] = (),
    scope: str = "",
) -> str:
    """What the line says about a belief's standing (SYSTEM.md § Beliefs change), to go
    inside its brackets: ``; replaces b1``, ``; conflicts with b4, b5``, ``; superseded by
    b2``; first, where it comes from when not the project's own store (``; global``).
    Ids hold no spaces (identity.check_id), so no id can forge a clause."""
    text = "; " + scope if scope else ""
    if replaces:
        text += "; replaces " + listed(replaces, MARK_IDS)
    if conflicts:
        text += "; conflicts with " + listed(conflicts, MARK_IDS)
    if superseded_by:
        text += "; superseded by " + listed(superseded_by, MARK_IDS)
    return text


def listed(texts: Sequence[str], most: int) -> str:
    """The first ``most`` of ``texts``, escaped and comma-separated, then how many more."""
    if len(texts) == 1:
        return escape(texts[0])
    shown = ", ".join(escape(t) for t in texts[:most])
    more = len(texts) - most
    return f"{shown}, +{more} more" if more > 0 else shown


# How many characters of the transcript's name (Claude Code's session id) a hint keeps:
# enough to tell a project's sessions apart, and to find the file.
HINT_NAME_CHARS = 8


def capture_hint(anchor: DocAnchor) -> str:
    """What the block and the search text show of a capture's anchor, the transcript the
    user said it in (credo.agent.capture: a ``manual`` anchor to a ``.jsonl`` file, its
    position ``turn N``): ``transcript 3f2a9c1e turn 3``, not a path of a hundred
    characters under ``~/.claude/projects/``; "" for any other anchor. The JSON and
    ``credo show`` keep the whole URI."""
    name = anchor.doc_uri.rpartition("/")[2]
    turn = anchor.position_hint
    if anchor.anchor_type != "manual" or not name.endswith(".jsonl") or name == ".jsonl":
        return ""
    if turn is not None and not (turn.startswith("turn ") and turn[5:].isdigit()):
        return ""  # (a manual anchor someone gave a .jsonl file, with a place of its own)
    hint = "transcript " + name.removesuffix(".jsonl")[:HINT_NAME_CHARS]
    return f"{hint} {turn}" if turn else hint


def hint_tokens(hint: str) -> int:
    """What showing ``hint`` adds to a line, `` (from HINT)``, at most (the line's own
    estimate is rounded up apart)."""
    return estimate(f" (from {escape(hint)})")


def entry_text(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> str:
    """A belief's line in the memory block, as charged (its other anchors are free
    metadata); ``marked`` is its ``marks``, ``trail`` its place in a document, shown whole
    (`` (at TRAIL)``), or ``lines`` its line range alone (`` (L40-L58)``), for a passage
    the block shows under its file and section lines (retrieval/place.py)."""
    lock = " locked" if locked else ""
    place = f" (at {escape(trail)})" if trail else f" ({escape(lines)})" if lines else ""
    return f"[{escape(belief_id)}{lock}{marked}] {escape(content)}{place}\n"


def estimate(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def line_chars(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> int:
    """``len(entry_text(...))``; computed per candidate on every retrieval, so it counts
    the line's characters without building it: ``[`` id ``] `` content newline, plus
    `` locked`` for a locked belief, plus the marks (escaped already), plus `` (at ``
    trail ``)`` for one with a trail, or `` (`` lines ``)``, each text as escaped."""
    if (
        _plain(belief_id)
        and _plain(content)
        and (not trail or _plain(trail))  # (most lines have neither)
        and (not lines or _plain(lines))
    ):  # (the common case: no text changes length)
        place = len(trail) + 6 if trail else len(lines) + 3 if lines else 0
        return len(belief_id) + len(content) + len(marked) + (11 if locked else 4) + place
    place = escaped_len(trail) + 6 if trail else escaped_len(lines) + 3 if lines else 0
    return (
        escaped_len(belief_id) + escaped_len(content) + len(marked) + (11 if locked else 4) + place
    )


def belief_tokens(
    belief_id: str, content: str, locked: bool, marked: str = "", trail: str = "", lines: str = ""
) -> int:
    """``estimate(entry_text(...))``: a line charged on its own (a locked belief's)."""
    return -(-line_chars(belief_id, content, locked, marked, trail, lines) // CHARS_PER_TOKEN)
