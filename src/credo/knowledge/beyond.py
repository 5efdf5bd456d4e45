"""Whether a sentence reaches beyond this turn: a norm that is someone else's, a time box, an
open question, a settled pick (``credo.knowledge.capture``, round 18).

Round 17's false positives on the four blind sets it never read (docs/BENCHMARKS.md, "Round
18") were sentences whose words are a rule's but whose force stops short of a later session.
``bounded`` names the form, asked of every sentence (by ``state.aside``), prescribing or not:

- **A third party's norm as the subject**: a possessive name before a word for a norm, then a
  copula ("Ana's rule is that every PR has a screenshot", "Bob's suggestion is that we ...",
  "our old CTO's rule was ..."). The speaker reports it; the team's own rule says "we" or
  states the norm itself. "our", "my", "your" and the team's, project's or company's own
  possessive are not a third party.
- **The speaker rejects it in the same sentence**: a relative clause "which I'm not ok with",
  "which I don't agree with" takes back what the clause before it reported.
- **A time box**: "for the next hour", "for the next few commands", "over the next two days":
  the instruction lasts that long. "I'm about to ..." gives the reason of a request for now
  ("short answer please, I'm about to go into a meeting").
- **An open question**: "still discussing whether ...", "deciding if ...": nothing is decided.
- **A pick made**: "option B it is", "Postgres it is": the answer to this turn's choice.
- **Assent**: "that works for me", "this works for me", with nothing after: an answer, not a
  taste ("That works for me: tabs in the Makefile, ..." goes on to state one).
- **A line of the file at hand**: "line 142", "the line after": a location is this turn's
  referent, so a correction that names one fixes an edit, not a fact.
- **A command line**: an option flag ("--select", "-n") and not one function word of English
  ("dbt run --select stg_orders+"): a command pasted or typed, not a sentence about one.
"""

from __future__ import annotations

import re

__all__ = ["bounded"]

_NORM_NOUN = (
    r"(?:rule|suggestion|idea|preference|take|view|position|opinion|proposal|policy|advice|"
    r"stance|approach|habit|convention)"
)
_THIRD_NORM = re.compile(
    rf"""^(?:(?:the|a|an|our|my|your|their|his|her)\s+)?(?:[\w-]+\s+){{0,2}}?
    (?!(?:team|project|company|repo|org|organisation|organization|house|group)'s)
    [\w-]+'s\s+(?:(?:new|old|usual|own|latest|main|one|big)\s+)?{_NORM_NOUN}\s+
    (?:of\s+thumb\s+)?(?:is|was|has\s+been)\b""",
    re.VERBOSE,
)
_REJECTED = re.compile(
    r"""\bwhich\s+i(?:'m|\s+am)?\s+(?:really\s+|just\s+)?
    (?:not\s+(?:ok|okay|fine|happy|comfortable|cool)\s+with|
    (?:don'?t|do\s+not|can'?t|cannot)\s+(?:agree\s+with|accept|support|stand\s+behind)|
    disagree\s+with)""",
    re.VERBOSE,
)
_TIME_BOX = re.compile(
    r"""\b(?:for|over|during|in)\s+the\s+(?:next|coming)\s+
    (?:(?:few|couple(?:\s+of)?|\d+|one|two|three|several)\s+)?
    (?:hour|minute|min|day|week|sprint|commit|command|step|run|change|edit)s?\b|
    \bi(?:'m|\s+am)\s+(?:just\s+)?about\s+to\b""",
    re.VERBOSE,
)
_OPEN = re.compile(
    r"\b(?:discussing|debating|deciding|figuring\s+out|arguing\s+about)\s+(?:whether|if)\b"
)
_PICK = re.compile(r"^(?:(?:option|plan|approach|choice)\s+)?[\w.`'-]+\s+it\s+is\s*[.!]*$")
_ASSENT = re.compile(
    r"""^(?:(?:cool|great|sure|nice|perfect|good|alright|all\s+right|yep|yeah|yes)[\s,!.]+)*
    (?:that|this|it|which)\s+(?:works|would\s+work)\s+(?:fine\s+)?for\s+me\s*[.!]*$""",
    re.VERBOSE,
)
_FLAG = re.compile(r"(?:^|\s)--?[a-z][\w-]*")
_FUNCTION_WORD = re.compile(
    r"""\b(?:the|a|an|is|are|be|to|of|we|you|i|it|and|or|but|in|on|for|with|always|never|must|
    should|don'?t|not|no|use|please|our|my|this|that)\b""",
    re.VERBOSE,
)
_LINE = re.compile(r"\b(?:line\s+\d+|the\s+line\s+(?:after|before|above|below))\b")

# Each form and its test, in the order they are tried (a sentence takes the first).
_FORMS = (
    ("third_party", _THIRD_NORM.match),
    ("rejected", _REJECTED.search),
    ("time_box", _TIME_BOX.search),
    ("open", _OPEN.search),
    ("pick", _PICK.match),
    ("assent", _ASSENT.match),
    ("line", _LINE.search),
)


def bounded(core: str) -> str | None:
    """The form of the lower-cased ``core`` that keeps its force from a later session:
    "third_party" ("Ana's rule is that ..."), "rejected" ("..., which I am not ok with"),
    "time_box" ("for the next hour only work on the parser"), "open" ("still discussing
    whether ..."), "pick" ("option B it is"), "assent" ("that works for me"), "line" ("the
    line after, 142 not 141"), "command" ("dbt run --select stg_orders+"); or ``None``."""
    for form, found in _FORMS:
        if found(core):
            return form
    if _FLAG.search(core) and "`" not in core and not _FUNCTION_WORD.search(_FLAG.sub(" ", core)):
        return "command"
    return None
