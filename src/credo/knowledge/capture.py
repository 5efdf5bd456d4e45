"""PROVISIONAL: replaced by day-classifier at merge.

A stand-in for the capture classifier (branch day-classifier) so that the capture
orchestration (credo.agent.capture) can be built and tested beside it. It keeps the
binding names of DESIGN.md (``Statement``, ``extract_statements``, ``is_acknowledgement``)
and handles only unmistakable cases: a sentence with "never use X" / "don't use X" and
"always use Y" / "use Y", or "I prefer X". Drop this commit when the classifier lands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["correction", "preference", "rule"]
Origin = Literal["user_corrected", "user_stated"]


@dataclass(frozen=True)
class Statement:
    text: str
    kind: Kind
    origin: Origin
    negated: tuple[str, ...]
    asserted: tuple[str, ...]
    signals: tuple[str, ...]


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_CORRECTION = re.compile(r"^\s*(?:no|nope|actually|wrong)\b[,.!]?", re.IGNORECASE)
_NEVER = re.compile(r"\b(?:never|don't|do not)\s+(?:ever\s+)?use\s+([\w.+-]+)", re.IGNORECASE)
_ALWAYS = re.compile(r"\balways\s+use\s+([\w.+-]+)", re.IGNORECASE)
_PREFER = re.compile(r"\bI\s+prefer\s+([\w.+-]+)", re.IGNORECASE)
_ACK = frozenset(
    "yes|y|ok|okay|continue|go on|sounds good|lgtm|do it|proceed|next|thanks|ok thanks".split("|")
)


def extract_statements(prompt: str) -> list[Statement]:
    """PROVISIONAL: the rules and corrections of ``prompt`` (obvious phrasings only)."""
    if not isinstance(prompt, str) or "?" in prompt or "```" in prompt:
        return []
    sentences = [s.strip() for s in _SENTENCE.findall(prompt[:20_000]) if s.strip()]
    correction = bool(sentences) and bool(_CORRECTION.match(sentences[0]))
    negated: list[str] = []
    asserted: list[str] = []
    parts: list[str] = []
    signals: list[str] = []
    preference = False
    for sentence in sentences:
        never = [m.lower() for m in _NEVER.findall(sentence)]
        always = [m.lower() for m in _ALWAYS.findall(sentence)]
        prefer = [m.lower() for m in _PREFER.findall(sentence)]
        if never or always or prefer:
            parts.append(sentence)
            negated += never
            asserted += always + prefer
            signals += ["rule"] * bool(never or always) + ["preference"] * bool(prefer)
            preference = preference or bool(prefer and not (never or always))
    if not parts:
        return []
    if correction and negated:
        kind: Kind = "correction"
        signals.insert(0, "correction")
    elif preference:
        kind = "preference"
    else:
        kind = "rule"
    origin: Origin = "user_corrected" if kind == "correction" else "user_stated"
    return [
        Statement(
            text=" ".join(parts) if not correction else " ".join(sentences),
            kind=kind,
            origin=origin,
            negated=tuple(dict.fromkeys(t.strip(".") for t in negated)),
            asserted=tuple(dict.fromkeys(t.strip(".") for t in asserted)),
            signals=tuple(dict.fromkeys(signals)),
        )
    ]


def is_acknowledgement(prompt: str) -> bool:
    """PROVISIONAL: a short prompt that carries no task ("yes", "continue", ...)."""
    text = " ".join(re.findall(r"[\w']+", prompt.lower())) if isinstance(prompt, str) else ""
    return text in _ACK
