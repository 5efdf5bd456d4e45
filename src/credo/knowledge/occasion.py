"""Sentences bound to one occasion (``credo.knowledge.capture``, round 14).

Round 13's blind set was written by a new author whose false positives were each worded as a
rule and were each about one occasion: a third party's wish, a permission for this turn, a
pass over the things at hand, a report after a word about its urgency, the hour of speaking.
Each form below was counted over every sentence of the fourteen development files before it
was written (docs/BENCHMARKS.md, round 14): it names a grammatical form seen from several
authors, and no labelled statement has it.

- **An information request in the imperative** (round 10, moved here): "grep for every place
  that reads X and list them", "find which workflow builds that URL"; round 14, also when it
  ends by asking for the list ("check every Dockerfile and list the ones that ...").
- **A pass over the things at hand**: "Go through the Caddy configs and list every site that
  still uses Let's Encrypt", "go through the open issues ... and list them". Going through a
  set is one piece of work, done once.
- **A permission**: "go ahead and force-push to my feature branch". A permission is granted
  for the act at hand; an obligation, or a permission with a word for later ("whenever you
  need to, go ahead and ..."), is what a rule states.
- **A third party's wish**: "The choir director wants alphabetical rota for the concert",
  "Our tech lead wants every PR to have two approvals", "the owner wants a chart for the
  newsletter". What someone else wants is a request for this turn or hearsay the speaker has
  not adopted, unless the speaker also prescribes in their own voice ("I'd like every plot at
  300 dpi; the journal wants that": the wish is the reason).
- **One event**: "for the Christmas concert only", "for the demo tomorrow", "at Monday's
  retro". A rule holds for every occasion of a kind; a sentence scoped to one named event (a
  definite or possessive determiner and an event noun) holds for that event.
- **A report behind a word about urgency**: "Not a priority, but the legend overlaps on small
  screens." Urgency is said of a piece of work, not of a convention.
- **The hour of speaking**: "it's 2am here and the gauge is the only thing awake". A sentence
  that tells the time is anchored in the moment it is said.

Each durable word ("always", "from now on", "whenever", "first", "before you ...") keeps a
sentence: a rule can be stated with any of these forms if it says it holds later.
"""

from __future__ import annotations

import re

__all__ = ["MOVED_EVENT", "names_one_event", "one_occasion"]

# A word for later sessions, or a condition on the work ("before you run anything", "always
# grep for the existing name first"): a way of working, whatever the sentence's form.
_DURABLE_WORD = re.compile(
    r"\b(?:always|never|whenever|every\s+time|from\s+now\s+on|going\s+forward|by\s+default|"
    r"in\s+general|first|(?:before|after|when|whenever|if|once)\s+(?:you|i|we))\b"
)
_RETRIEVAL_TASK = re.compile(
    r"^(?:please\s+)?(?:grep|rg|find|search|look\s+up|show\s+me|tell\s+me|"
    r"figure\s+out|dig\s+up|check\s+(?:which|whether|if|where|what))\b"
)
# A request whose last clause asks for a list of what is there now: "check every Dockerfile
# and list the ones that still use alpine".
_LIST_REQUEST = re.compile(r"\band\s+list\s+(?:them|those|the\s+ones|every|all|each|any)\b")
_PASS_TASK = re.compile(r"^(?:please\s+)?(?:go|comb|sweep|walk|work)\s+(?:through|over)\b")
_PERMISSION = re.compile(r"\bgo\s+ahead\s+(?:and|with)\b|^go\s+ahead\b")
# A person or body named with a determiner, then their wish: at the head of the sentence or of
# one of its clauses ("Keg returns are up, the owner wants a chart").
_THIRD_PARTY_WISH = re.compile(
    r"""(?:^|[,;:—–]\s*|\b(?:and|but|so|because|since)\s+)
    (?:the|our|my|their|a|an)\s+(?:(?!i\b|we\b)[\w'-]+\s+){0,3}?
    (?:wants?|would\s+like|insists?|asked\s+for|asks\s+for|requested|is\s+asking\s+for|
    prefers|likes|(?:would|'d)\s+(?:rather|prefer|love))\b""",
    re.VERBOSE,
)
_WISH_VERBS = ("want", "like", "insist", "ask", "request", "prefer", "rather", "love")
# The speaker's own voice prescribing in the same sentence: the third party's wish is then
# the reason for it.
_OWN_VOICE = frozenset(
    {"preference", "preference_frame", "taste", "agent_behaviour", "workflow_gate"}
)
_URGENCY_LEAD = re.compile(
    r"""^(?:it'?s\s+|this\s+is\s+)?(?:not|no)\s+(?:a\s+|an\s+|the\s+)?(?:big\s+deal|biggie|
    (?:high|top|huge|real)\s+priority|priority|blocker|rush|emergency|showstopper|urgent)\b
    [^,]*,\s*but\b""",
    re.VERBOSE,
)
# One event named with a definite or possessive determiner: "for the Christmas concert only",
# "for the demo tomorrow", "at Monday's retro". "for every demo" is a schedule, not one event.
_EVENT_NOUNS = (
    "concert",
    "demo",
    "launch",
    "meeting",
    "presentation",
    "talk",
    "conference",
    "offsite",
    "workshop",
    "hackathon",
    "wedding",
    "party",
    "interview",
    "pitch",
    "gala",
    "festival",
    "tournament",
    "exhibition",
    "fair",
    "trip",
    "visit",
    "audit",
    "inspection",
    "recital",
    "rehearsal",
    "retreat",
    "webinar",
    "keynote",
    "retro",
    "standup",
)
_EVENT = re.compile(
    r"""\b(?:for|at|during|before|after|until)\s+(?:the|this|that|our|my|tomorrow'?s|today'?s|
    tonight'?s|\w+day'?s|next\s+week'?s)\s+(?:[\w'-]+\s+)?"""
    rf"(?:{'|'.join(_EVENT_NOUNS)})"
    r"""(?=\W*$|\s*[,.;:!)—–]|\s+(?:tomorrow|today|tonight|next|this|on|in|at|only|so|because|
    since|and|but)\b)""",
    re.VERBOSE,
)
# One event moved to another day, place or tool: "moving the call to Zoom", "pushing our
# standup to 10am". Calls and syncs are only events here: "after the call" is often code. A
# call moved to a name of code is a refactor ("the call to json.dumps to orjson"). An event
# may say whose or what it is first ("the standup for the team to 10am", "the meeting with
# Bob to Zoom": review89); a call may not ("the call with retries to tenacity" is code). A
# pattern's text, read inside changeover.CHANGING_OVER (compiled there only: each hook
# compiles it).
_WHOSE = r"""(?:\s+(?:for|with|about)(?:\s+[\w'-]+(?:\(\))?){1,3}?)?"""
MOVED_EVENT = (
    r"""(?:the|this|that|our|my|tomorrow'?s|today'?s|tonight'?s|\w+day'?s|next\s+week'?s)\s+
    (?:[\w'-]+\s+)?"""
    rf"(?:(?:{'|'.join(_EVENT_NOUNS)}){_WHOSE}"
    rf"|{'|'.join(('call', 'sync', 'catch-up', 'check-in', 'one-on-one'))})"
    r"""\s+(?:to|onto|over\s+to)\s+(?![\w-]*[._(`/])"""
)
_CLOCK_TIME = re.compile(
    r"\bit'?s\s+(?:like\s+|almost\s+|nearly\s+|past\s+|already\s+)?"
    r"(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\d{1,2}:\d\d\b)"
)


def names_one_event(text: str) -> bool:
    """Does the lower-cased ``text`` name one event with a definite or possessive determiner
    ("for the workshop tomorrow", "at Monday's retro")? Used by a list's lead too."""
    return _EVENT.search(text) is not None


def one_occasion(clean: str, core: str, fired: set[str], *, directive: bool) -> str | None:
    """The name of the one-occasion form the sentence takes, or ``None``. ``clean`` is the
    lower-cased sentence, ``core`` the same without its lead-in words, ``fired`` its cues so
    far, ``directive``: ``core`` opens with an imperative."""
    form = _form(clean, core, fired, directive=directive)
    if form is None or _DURABLE_WORD.search(core):
        return None  # read last: most sentences take none of the forms
    return form


def _form(clean: str, core: str, fired: set[str], *, directive: bool) -> str | None:
    # The substring tests skip a pattern that cannot match (the hook runs this on every
    # sentence of every prompt).
    if _RETRIEVAL_TASK.match(core) or ("list" in core and _LIST_REQUEST.search(core)):
        return "retrieval_task"
    if _PASS_TASK.match(core):
        return "pass_task"
    if "ahead" in core and _PERMISSION.search(core) and not fired & _OWN_VOICE:
        return "permission"
    if (
        any(verb in core for verb in _WISH_VERBS)
        and _THIRD_PARTY_WISH.search(core)
        and not (directive or fired & _OWN_VOICE)
    ):
        return "third_party_wish"
    if _EVENT.search(core):  # no gate: testing 30 nouns costs more than the search
        return "one_event"
    if _URGENCY_LEAD.match(clean):
        return "urgency"
    if ("am" in clean or "pm" in clean or ":" in clean) and _CLOCK_TIME.search(clean):
        return "clock_time"
    return None
