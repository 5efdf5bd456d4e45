"""A passing state, and talk told as background or as someone else's proposal
(``credo.knowledge.capture``, round 17).

The sixteenth blind set's largest class of false positives was a bare statement of how things
stand today, read as a rule: "replica lag is back under a second", "the ISR is tight", "gpu box
is free", "our app is live in 14 countries now". A standing fact about the project and such a
report share their form (a subject, a copula, a predicate), and most time words do not tell
them apart: labelled rules say "It's vitest now, everywhere.", "the app still supports iOS 15",
"black isn't used anymore" (docs/BENCHMARKS.md, round 17, counts each form over the eighteen
development files). What does tell them apart is the predicate:

``unstanding`` is asked only of a sentence with no prescribing concept:

- **A passing state**: the copula's predicate is an adjective of a state that comes and goes
  ("free", "busy", "down", "live", "tight", "stale", "flaky", "stuck"), or "back" (a return to
  an earlier state). Grammar calls these stage-level predicates, as against the individual-level
  ones a standing fact uses ("are UTC", "is immutable", "is 1.74"). A quantifier over occasions
  makes the state a standing one and keeps the sentence ("staging is always down on
  Sundays", "the copies are stale and nobody updates them").
- **A lead**: a sentence that ends in a colon announces what follows it ("this is our PR
  template, for reference:", "Recap of yesterday so we're on the same page:"); with no
  prescribing word it states nothing itself. (A lead that scopes or sources a list's items is
  read by ``list_frame``; this is the lead sentence itself.)

``aside`` is asked of every sentence, prescribing or not: the seventeenth blind set's false
positives were mostly talk around the work, whose force is someone else's or none:

- **A third party's proposal**, told in the past: "Rahul suggested we should always run the HIL
  tests before merge", "the auditor proposed that ...". The speaker reports an idea, not a rule
  the team took ("we agreed", "we decided" are not proposals). "I suggested" and "you
  suggested" are left to the other cues.
- **Background, so labelled**: a sentence opened by "for context" ("for context, I'm a data
  scientist, not really a dev") says it is context for this turn's request.
- **What a document covers**: a document as subject of a verb of content ("the policy only
  mentions mobile apps", "the runbook lists three steps") reports the document, like the
  hearsay veto's "the docs say"; verbs that prescribe ("says", "requires") are left to it.
- **An indirect question**: "curious what you think", "just curious how you decide".
- **A plea for patience**: "long night on call, bear with me": a social formula.
"""

from __future__ import annotations

import re

from credo.knowledge.beyond import bounded

__all__ = ["aside", "unstanding"]

_STATE = re.compile(
    r"""^(?:(?:the|our|my|this|that|their|your)\s+)?(?:[\w.`'-]+\s+){0,4}?
    (?:is|are|'s|'re)\s+(?:(?:still|already|now|back|completely|totally|pretty|really|so|
    very|too|all|half|halfway|mostly|partly|partially|almost|nearly)\s+)?
    (?:back|live|down|up|free|busy|broken|stale|green|red|flaky|slow|tight|full|empty|idle|
    done|ready|finished|offline|online|stuck|blocked|gone|missing|dead|healthy|degraded)\b
    (?!-)(?<!back(?=\s+on\s+(?:[\w.-]+\s+){0,2}?v?\d))""",
    re.VERBOSE,
)
_OCCASIONS = re.compile(
    r"\b(?:always|never|nobody|no\s+one|every|each|any|whenever|usually|by\s+design)\b"
)
_PROPOSAL = re.compile(
    r"""^(?!(?:i|we|you)\b)(?:[\w'-]+\s+){1,3}?
    (?:suggested|proposed|floated|pitched|recommended)\b""",
    re.VERBOSE,
)
_DOCUMENT = re.compile(
    r"""^(?:the|our|this|that|their|your)\s+(?:[\w-]+\s+){0,2}?
    (?:policy|docs?|documentation|readme|spec|ticket|contract|brief|rfc|adr|guide|wiki|page|
    issue|email|handbook|runbook|agreement|license)\s+(?:only\s+|just\s+|also\s+)?
    (?:mentions|lists|covers|describes|talks\s+about|refers\s+to)\b""",
    re.VERBOSE,
)
_CURIOUS = re.compile(r"^(?:just\s+)?curious\s+(?:what|how|why|whether|if|about)\b")
_CONTEXT = re.compile(r"^(?:(?:just|some)\s+)?for\s+(?:some\s+)?context\s*[,:—–-]")


def unstanding(core: str) -> str | None:
    """Why the lower-cased ``core``, a sentence with no prescribing concept, is no standing
    fact: "passing_state" ("the ISR is tight", "replica lag is back under a second", with no
    quantifier over occasions), "lead" (it ends in a colon: "this is our PR template, for
    reference:"); or ``None``."""
    if _STATE.match(core) and not _OCCASIONS.search(core):
        return "passing_state"
    if core.rstrip().endswith(":"):
        return "lead"
    return None


def aside(core: str) -> str | None:
    """The form of a sentence whose force is someone else's or none: "proposal" ("Rahul
    suggested we should always ..."), "context" ("for context, I'm a data scientist"),
    "document" ("the policy only mentions mobile apps"), "question" ("curious what you
    think"), "plea" ("bear with me"); or
    ``None``."""
    if _PROPOSAL.match(core):
        return "proposal"
    if _CONTEXT.match(core):
        return "context"
    if _DOCUMENT.match(core):
        return "document"
    if _CURIOUS.match(core):
        return "question"
    if "bear with me" in core:
        return "plea"
    return bounded(core)  # round 18: someone else's norm, a time box, an open question ...
