"""What a captured statement rules out and what it prescribes (``credo.knowledge.capture``).

"never use npm, always pnpm" rules out ``npm`` and prescribes ``pnpm``; the two lists feed
supersession matching (``credo.knowledge.supersession``), so a later "we use npm now" can be
found to replace it.
"""

from __future__ import annotations

import re

from credo.knowledge import signals as sig

__all__ = ["clean_sentence", "statement_terms"]

_WS = re.compile(r"\s+")
_NEGATION_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bstop|\bavoid|\bno)\s*$", re.IGNORECASE)
# "Celery was replaced by RQ": the subject is what is ruled out (the agent in "by" is asserted).
_REPLACED = re.compile(
    rf"{sig.TERM}\s+(?:was|were|has\s+been|have\s+been|got)\s+replaced\s+(?:by|with)\b",
    re.IGNORECASE,
)


def _term(raw: str) -> str:
    term = raw.strip("`").strip().rstrip(".,;:!?)'\"").lower()
    return "" if term in sig.STOP_TERMS or len(term) > 40 else term


def clean_sentence(sentence: str) -> str:
    """The sentence as the signals read it: quoted text out (someone else's words), inline
    code reduced to its content, emphasis marks gone, one space between words."""
    clean = sig.INLINE_QUOTED.sub(" ", sentence)
    clean = sig.INLINE_CODE.sub(r"\1", clean)
    clean = clean.replace("**", "").replace("__", "").replace("’", "'")
    return _WS.sub(" ", clean).strip()


def statement_terms(clean: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the statement rules out and what it prescribes, for supersession matching."""
    patterns = sig.term_patterns()
    negated: list[str] = []
    for match in (*patterns.negated.finditer(clean), *_REPLACED.finditer(clean)):
        term = _term(match.group(1))
        if term and term not in negated:
            negated.append(term)
    asserted: list[str] = []
    for match in patterns.leading.finditer(clean):
        term = _term(match.group(1) or match.group(2) or "")
        if term and term not in asserted:
            asserted.append(term)
    for match in patterns.asserted.finditer(clean):
        if _NEGATION_BEFORE.search(clean, 0, match.start()):
            continue
        term = _term(match.group(1))
        if term and term not in asserted:
            asserted.append(term)
    return tuple(negated), tuple(t for t in asserted if t not in negated)
