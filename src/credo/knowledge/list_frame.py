"""The frame of a list: what its lead-in line says the items are (``credo.knowledge.capture``,
round 13).

A sentence's standing is set by what frames it. "No new dependencies without asking the
table." is a rule on its own, but not as item 3 of "Here's the plan for the hackathon
tomorrow, just sanity-check it:", and "10 minutes is fine" under "ok answers:" answers one of
this turn's questions. The twelfth blind set's false positives were mostly of this kind: the
sentence looked like a rule, the line above its list said it was not one.

A *lead* is a prose line ending in a colon with list items under it (blank lines between
them allowed); its items run until the first line at the margin that is not an item. The
lead names one of four frames:

- ``plan``: a plan, agenda or schedule for something ahead ("Plan for the hackathon",
  "here's my plan for tomorrow"): its items are the steps of one event;
- ``answers``: answers to the agent's questions ("answers:", "ok answers to your
  questions:"): each answers a question of this turn;
- ``record``: notes that record rather than instruct: notes to self, a recap or summary for
  the speaker, notes or minutes of a meeting or call;
- ``review``: a text handed over to be worked on ("just sanity-check it", "please tidy these
  into HANDOVER.md", "turn these into issues", "(draft)"): the items are that text's words,
  unless the text is to become rules ("turn these into conventions for CLAUDE.md:").

Leads that frame rules are left alone: "Rules for this repo:", "House rules", "Context for
today since you won't remember yesterday:", "comments so far:", "recap for you:". A lead
with a word for later sessions ("plan for how we work from now on:") frames nothing.
"""

from __future__ import annotations

import re

from credo.knowledge import signals as sig

__all__ = ["FRAMES", "list_frames"]

FRAMES = ("plan", "answers", "record", "review")

_PLAN = re.compile(r"\b(?:plan|agenda|schedule|itinerary|run\s+of\s+show)\s+for\b")
_ANSWERS = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|right|here\s+are|and)\W+)*(?:my\s+|the\s+)?answers?\b"
    r"(?:\s+to\s+your\s+(?:\w+\s+)?questions?)?\W*$"
    r"|^\W*(?:re:?|to|for)\s+your\s+(?:\w+\s+)?questions?\W*$"
)
_RECORD = re.compile(
    r"\b(?:notes?|reminders?|recap|summary|todos?)\s+(?:to|for)\s+(?:self|myself)\b"
    r"|\b(?:meeting|call)\s+notes\b|\bminutes\s+(?:of|from)\b"
    r"|\bnotes\s+from\s+(?:the|a|an|our|my|today'?s|yesterday'?s)\b"
)
# A request to work on the text below: check it, tidy it, turn it into something.
_REVIEW = re.compile(
    r"\b(?:sanity[-\s]?check|proof-?read|tidy|polish|look\s+over|double[-\s]?check|reword|"
    r"rewrite|turn|format|clean\s+up)\s+(?:it|this|these|them|that)\b"
    r"|\(draft\)|\bdraft\s*:"
)
# ... unless the text is to become the rules: "turn these into conventions for CLAUDE.md:".
_INTO_RULES = re.compile(
    r"\b(?:rules?|conventions?|guidelines?|polic(?:y|ies)|claude\.md|agents\.md|memory)\b"
)


def _frame(lead: str) -> str | None:
    """The frame a lead-in line names, or ``None`` (lower-cased text)."""
    if sig.LATER_SESSIONS.search(lead):
        return None
    if _ANSWERS.match(lead):
        return "answers"
    if _RECORD.search(lead):
        return "record"
    if _REVIEW.search(lead) and not _INTO_RULES.search(lead):
        return "review"
    if _PLAN.search(lead):
        return "plan"
    return None


def list_frames(text: str) -> list[tuple[int, int, str]]:
    """The framed lists of ``text``: (start, end, frame) for the items under each lead-in
    line that names a frame. Cheap when the prompt has no line ending in a colon."""
    if ":\n" not in text and ":\r\n" not in text:
        return []
    out: list[tuple[int, int, str]] = []
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    for index, (_, line) in enumerate(lines):
        stripped = line.strip()
        if not stripped.endswith(":") or sig.BULLET.match(line):
            continue
        frame = _frame(stripped.lower())
        if frame is None:
            continue
        span = _items(lines, index + 1)
        if span:
            out.append((*span, frame))
    return out


def _items(lines: list[tuple[int, str]], first: int) -> tuple[int, int] | None:
    """The span of the list items that start at line ``first`` (blank lines and indented
    continuations included), ending before the first line at the margin that is no item."""
    start = end = -1
    for offset, line in lines[first:]:
        if not line.strip():
            continue
        if sig.BULLET.match(line) or (start >= 0 and line[:1] in " \t"):
            start = offset if start < 0 else start
            end = offset + len(line)
            continue
        break
    return (start, end) if start >= 0 else None


# An answer carries a rule past this turn when it quantifies over what is to come ("no — the
# queue is RabbitMQ only in the legacy service; everything new publishes to NATS") or names
# itself a standing constraint ("at most 3 per day, that's a hard limit from the studio").
_ANSWER_KEEPS = frozenset({"durable", "universal", "generic"})
_STANDING = re.compile(
    r"\b(?:hard|strict|firm)\s+(?:limit|rule|requirement|constraint)\b|\bnon-?negotiable\b"
    r"|\bno\s+exceptions\b"
)


def framed(lists: list[tuple[int, int, str]], start: int, lower: str, fired: set[str]) -> bool:
    """Is the sentence at ``start`` (lower-cased ``lower``, cues ``fired``) an item of a
    framed list that does not outlast its frame? A word for later sessions always keeps it;
    an answer is kept too by a quantifier over what is to come."""
    for begin, end, frame in lists:
        if begin <= start < end:
            if sig.LATER_SESSIONS.search(lower):
                return False
            keeps = bool(fired & _ANSWER_KEEPS) or _STANDING.search(lower) is not None
            return not (frame == "answers" and keeps)
    return False
