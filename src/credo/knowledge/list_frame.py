"""The frame of a list: what its lead-in line says the items are (``credo.knowledge.capture``,
round 13).

A sentence's standing is set by what frames it. "No new dependencies without asking the
table." is a rule on its own, but not as item 3 of "Here's the plan for the hackathon
tomorrow, just sanity-check it:", and "10 minutes is fine" under "ok answers:" answers one of
this turn's questions. The twelfth blind set's false positives were mostly of this kind: the
sentence looked like a rule, the line above its list said it was not one.

A *lead* is a prose line ending in a colon with list items under it (blank lines between
them allowed); its items run until the first line at the margin that is not an item. The
lead names one of six frames:

- ``plan``: a plan, agenda or schedule for something ahead ("Plan for the hackathon",
  "here's my plan for tomorrow"): its items are the steps of one event;
- ``answers``: answers to the agent's questions ("answers:", "ok answers to your
  questions:"): each answers a question of this turn;
- ``record``: notes that record rather than instruct: notes to self, a recap or summary for
  the speaker, notes or minutes of a meeting or call;
- ``review``: a text handed over to be worked on ("just sanity-check it", "please tidy these
  into HANDOVER.md", "turn these into issues", "(draft)"): the items are that text's words,
  unless the text is to become rules ("turn these into conventions for CLAUDE.md:");
- ``scope`` (round 15): the items hold for one piece of work, one stretch of time or one
  event ("For this refactor only:", "so for the rest of today:", "While I'm at lunch:",
  "Until the freeze lifts:", "For the workshop tomorrow:", "Last thing before the release:");
- ``source`` (round 15): someone else's text handed over or doubted ("From CONTRIBUTING.md
  of the upstream project ...:", "The auditor sent this list and I'm not sure which of these
  are actually required:", "pasted as-is:"), unless the lead says to follow it or to make it
  the rules ("Rules from CONTRIBUTING.md, follow them:", "copied from the wiki as-is, these
  are our rules now:").

A lead that names a frame is itself part of it ("End of day notes, mostly for me:" is no
preference).

Leads that frame rules are left alone: "Rules for this repo:", "House rules", "Context for
today since you won't remember yesterday:", "comments so far:", "recap for you:". A lead
with a word for later sessions ("plan for how we work from now on:") frames nothing.
"""

from __future__ import annotations

import re

from credo.knowledge import guards
from credo.knowledge.occasion import names_one_event
from credo.knowledge.prose import BULLET

__all__ = ["FRAMES", "list_frames"]

FRAMES = ("plan", "answers", "record", "review", "scope", "source")

_PLAN = re.compile(r"\b(?:plan|agenda|schedule|itinerary|run\s+of\s+show)\s+for\b")
_ANSWERS = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|right|here\s+are|and)\W+)*(?:my\s+|the\s+)?answers?\b"
    r"(?:\s+to\s+your\s+(?:\w+\s+)?questions?)?\W*$"
    r"|^\W*(?:re:?|to|for)\s+your\s+(?:\w+\s+)?questions?\W*$"
)
_RECORD = re.compile(
    r"\b(?:notes?|reminders?|recap|summary|todos?),?\s+(?:(?:mostly|just|only|mainly)\s+)?"
    r"(?:to|for)\s+(?:self|myself|me)\b"
    r"|\b(?:end[-\s]of[-\s](?:the[-\s])?day|eod|retro|standup|stand-up)\s+notes\b"
    r"|\b(?:meeting|call)\s+notes\b|\bminutes\s+(?:of|from)\b"
    r"|\bnotes\s+from\s+(?:the|a|an|our|my|today'?s|yesterday'?s)\b"
)
# A request to work on the text below: check it, tidy it, turn it into something.
_REVIEW = re.compile(
    r"\b(?:sanity[-\s]?check|proof-?read|tidy|polish|look\s+over|double[-\s]?check|reword|"
    r"rewrite|turn|format|clean\s+up)\s+(?:it|this|these|them|that)\b"
    r"|\(draft\)|\bdraft\s*:"
)
# Someone else's text handed over: a document named by its file ("From CONTRIBUTING.md of
# the upstream project ...:"), a list someone sent, a text pasted as it is, a handover.
_SOURCE = re.compile(
    r"""^(?:\W*|.*\b(?:from|in|of)\s+)(?:the\s+|their\s+|an?\s+)?(?:upstream\s+|old\s+)?
    [\w./-]+\.(?:md|rst|txt|adoc)\b
    |\b(?:sent|forwarded|shared|handed)\s+(?:me\s+|us\s+|over\s+)?(?:this|these|the\s+following)\b
    |\b(?:pasted|copied)\s+(?:as[-\s]is|verbatim|below|here)\b|,\s*as[-\s]is\W*$
    |\b(?:handover|handoff|hand-off)\s+(?:notes\s+)?from\b""",
    re.VERBOSE,
)
# A lead that doubts the items ("I'm not sure which of these are actually required:", round 16:
# "thinking out loud about ...:") or
# scopes them to one piece of work or one stretch of time ("For this refactor only:", "so for
# the rest of today:", "While I'm at lunch:", "Until the freeze lifts:", one named event: "For
# the workshop tomorrow:", "Last thing before the release:"; round 16: any piece of work on one
# day, "for the table migration tonight:"). The things a project is made of
# are no such scope ("For this service:"), as in ``shape_negative``.
_DOUBTED = re.compile(
    r"\b(?:not\s+sure|(?:don'?t|do\s+not)\s+know|no\s+idea)\s+(?:which|whether|if|what|how\s+many)\b"
    r"|\b(?:thinking\s+out\s+loud|hot\s+take)\b"
)
_SCOPED = re.compile(
    r"""\b(?:for|in|during)\s+this\s+(?!(?:repo|repository|project|codebase|code|team|company|
    org|organisation|organization|monorepo|firmware|app|site|game|service|package|workspace|
    stack|cluster|server|host|machine|board|device|mcu|network|database|db|schema|platform|
    cloud|account|tenant|environment|library|lib|client|customer)\b)\w+
    |\bfor\s+the\s+rest\s+of\s+(?:today|tonight|the\s+(?:day|week|session|sprint))\b
    |\bfor\s+(?:now|today|tonight)\W*$|\bwhile\s+i'?m\s+(?:at|away|out|off|gone|on)\b
    |^\W*until\s+(?!further\s+notice\b)
    |\b(?:before|for|until)\s+(?:the|this|tonight'?s|today'?s|tomorrow'?s)\s+
    (?:release|demo|deploy|launch|review|cutover|migration|handover)\b
    |\b(?:for|during|before|after|until)\s+(?:the|this|our|my)\s+(?:[\w'-]+\s+){0,3}?
    (?:tonight|today|tomorrow|this\s+(?:morning|afternoon|evening|weekend))\b""",
    re.VERBOSE,
)
# Leads that hand the items over to be followed frame nothing: "Rules from CONTRIBUTING.md,
# follow them:".
_ADOPTED = re.compile(
    r"\b(?:follow|apply|adopt|obey|stick\s+to|keep\s+to)\s+(?:them|these|those|this|it|all)\b"
)
# ... unless the text is to become the rules: "turn these into conventions for CLAUDE.md:".
_INTO_RULES = re.compile(
    r"\b(?:rules?|conventions?|guidelines?|polic(?:y|ies)|claude\.md|agents\.md|memory)\b"
)


def _frame(lead: str) -> str | None:
    """The frame a lead-in line names, or ``None`` (lower-cased text)."""
    if guards.LATER_SESSIONS.search(lead):
        return None
    if _ANSWERS.match(lead):
        return "answers"
    if _RECORD.search(lead):
        return "record"
    if _REVIEW.search(lead) and not _INTO_RULES.search(lead):
        return "review"
    if _PLAN.search(lead):
        return "plan"
    if _ADOPTED.search(lead):
        return None
    if _SCOPED.search(lead) or names_one_event(lead):
        return "scope"
    if _DOUBTED.search(lead) or guards.DOUBT.search(lead):
        return "source"
    if _SOURCE.search(lead) and not _INTO_RULES.search(lead):
        return "source"  # "..., these are our rules now:" hands over the speaker's own rules
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
        if not stripped.endswith(":") or BULLET.match(line):
            continue
        frame = _frame(stripped.lower())
        if frame is None:
            continue
        span = _items(lines, index + 1)
        if span:
            # The lead itself belongs to its frame ("End of day notes, mostly for me:").
            out.append((lines[index][0], span[1], frame))
    return out


def _items(lines: list[tuple[int, str]], first: int) -> tuple[int, int] | None:
    """The span of the list items that start at line ``first`` (blank lines and indented
    continuations included), ending before the first line at the margin that is no item."""
    start = end = -1
    for offset, line in lines[first:]:
        if not line.strip():
            continue
        if BULLET.match(line) or (start >= 0 and line[:1] in " \t"):
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
            if guards.LATER_SESSIONS.search(lower):
                return False
            keeps = bool(fired & _ANSWER_KEEPS) or _STANDING.search(lower) is not None
            return not (frame == "answers" and keeps)
    return False
