"""How a belief's text is normalised, hashed and turned into a stable id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from credo.errors import InvalidInputError

# Longest belief text accepted, in characters. Beliefs are short statements; a longer text
# is a document and belongs in `credo ingest`, which splits it.
MAX_CONTENT_CHARS = 20_000
# A belief's context (where it sits; credo.knowledge.ingest.context) is a few words.
MAX_CONTEXT_CHARS = 2_000
MAX_ID_CHARS = 200


def clean_content(text: object) -> str:
    """The text as stored: surrounding whitespace removed, validated. Raises on bad input."""
    if not isinstance(text, str):
        raise InvalidInputError(f"belief text must be a string, got {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise InvalidInputError("belief text is empty; give a non-blank statement")
    if len(stripped) > MAX_CONTENT_CHARS:
        raise InvalidInputError(
            f"belief text is {len(stripped)} characters, over the limit of {MAX_CONTENT_CHARS}; "
            "split it or use `credo ingest` for documents"
        )
    if "\x00" in stripped:
        raise InvalidInputError("belief text contains a NUL character; remove it")
    try:
        stripped.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            "belief text is not valid Unicode (it holds a lone surrogate); fix its encoding"
        ) from exc
    return stripped


def normalise(text: str) -> str:
    r"""The form two texts must share to count as the same belief: NFKC, case-folded,
    whitespace collapsed. ``" ".join(s.split())`` splits on exactly the characters
    ``str.isspace`` accepts, like ``re.sub(r"\s+", " ", s).strip()``, several times faster
    (a bulk import hashes every belief; tests/test_records.py checks the equality). ASCII
    text is its own NFKC form and case-folds as ``lower()`` does, which skips two passes."""
    if text.isascii():
        return " ".join(text.lower().split())
    import unicodedata  # a C extension the read path (the hook) never needs

    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def content_hash(text: str) -> str:
    sha256 = _sha256 or _load_sha256()
    return sha256(normalise(text).encode("utf-8")).hexdigest()


_sha256: Callable[[bytes], Any] | None = None


def _load_sha256() -> Callable[[bytes], Any]:
    global _sha256
    import hashlib  # OpenSSL's load costs the read-only hook ~12 ms; only writes hash

    _sha256 = hashlib.sha256
    return _sha256


def derived_id(digest: str) -> str:
    """A stable id from a content hash: 'b' + 15 hex digits (60 bits; collisions are
    checked on insert, never assumed away)."""
    return "b" + digest[:15]


def check_id(belief_id: object) -> str:
    if not isinstance(belief_id, str) or not belief_id.strip():
        raise InvalidInputError(f"belief id must be a non-empty string, got {belief_id!r}")
    if belief_id != belief_id.strip() or len(belief_id) > MAX_ID_CHARS:
        raise InvalidInputError(
            f"belief id {belief_id[:60]!r} must have no surrounding spaces and at most "
            f"{MAX_ID_CHARS} characters"
        )
    import unicodedata

    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in belief_id):
        raise InvalidInputError(f"belief id {belief_id[:60]!r} contains control characters")
    if any(ch.isspace() or ch in "[]" for ch in belief_id):
        # The memory block renders `[id]` / `[id locked]`: a space or bracket could forge
        # the lock flag or a second id.
        raise InvalidInputError(
            f"belief id {belief_id[:60]!r} must not contain spaces or brackets; use - or _"
        )
    return belief_id
