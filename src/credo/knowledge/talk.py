"""Sentences that have a rule's words and no standing as a rule (``credo.knowledge.capture``,
round 15).

The fourteenth blind set's false positives were worded as rules and were something else by
their form: a label for what the prompt is ("Question about conventions, not a task."), an
alternative being weighed ("option A: we always squash-merge, ..."), or an act on the work at
hand that is done once. Each form below was counted over every sentence of the fifteen
development files before it was written (docs/BENCHMARKS.md, round 15); no labelled
statement has it.

- **A label** for the speech act: a sentence headed by the noun "question" ("Quick question
  about the linter config.") or that calls what was said a wish, a thought or an idea ("No
  deadline, no ticket, just a wish."), or that opens by calling itself an opinion or a
  passing thought (round 16: "hot take: ...", "unpopular opinion: ...", "thinking out loud:
  ..."). It says what kind of talk surrounds it, not how to work.
- **An alternative weighed**: a line labelled "option A:", "approach 2)": one of the choices
  the speaker asks about.
- **An act done again, or once**: a verb with the prefix *re-* repeats one earlier act
  ("rerun the backtest with 5bp costs", "regenerate the tiles for the Leipzig extract");
  "use it once" counts its act; "undo the last two edits" and "leave your code as it is"
  act on this turn's edits. A word for later ("always", "whenever", "from now on") keeps the
  sentence: "always rerun the linter after a rebase" is a way of working.
- **A degree and its consequence**: "the new keyboard is so loud my partner moved out": a
  story told by its result. A result in the team's voice is left alone ("the build is so slow
  that we only run unit tests on PRs" states how the team works).
- **A prohibition narrowed to a part of the work at hand** (round 16): "don't run the e2e
  suite, just the unit tests for the parser". A way of working goes on with a verb: "don't
  ask before running tests, just run them".
- **A third party's habit told with emphasis**: "playtesters always find the softlock,
  every single build": an observation, often a complaint, not the team's way of working.
"""

from __future__ import annotations

import re

__all__ = ["no_standing"]

_LABEL = re.compile(
    r"""^(?:(?:a|one|my)\s+)?(?:(?:quick|small|simple|general|dumb|honest|side|short)\s+)?
    question\b(?!\s+(?:is|was|remains)\b)
    |\bjust\s+(?:a|an)\s+(?:wish|thought|idea|suggestion|question|observation|hunch|musing|
    heads[-\s]up|fyi|request)\b
    |^(?:(?:kind\s+of\s+)?an?\s+)?(?:hot\s+take|(?:unpopular|controversial)\s+opinion|
    (?:random|shower|stray)\s+thought|thinking\s+out\s+loud)\b""",
    re.VERBOSE,
)
_LABEL_WORDS = ("question", "just a", "take", "opinion", "thought", "loud")
_ALTERNATIVE = re.compile(
    r"^(?:option|approach|alternative|choice|variant|proposal)\s+(?:[a-z]|\d{1,2})\s*[:)—–-]"
)
_AGAIN = re.compile(
    r"""^(?:please\s+|(?:and\s+)?then\s+|now\s+|just\s+)?
    (?:re-?run|re-?generate|re-?build|re-?do|re-?deploy|re-?render|re-?index|re-?process|
    re-?compute|re-?export|re-?import|re-?train)\b""",
    re.VERBOSE,
)
# "use it once", not "once you're done" (a conjunction), "run it once per deploy" (a rate) nor
# "thank them once" (people).
_ONCE = re.compile(
    r"\b(?:it|this|that)\s+(?:only\s+)?once\b"
    r"(?!\s+(?:you|we|i|the|it|ci|per|a|an|every|each|in)\b)"
)
_THIS_TURNS_EDIT = re.compile(
    r"""\b(?:undo|revert|roll\s+back)\s+(?:the\s+|your\s+|my\s+)?(?:last|previous|latest)\b
    |\b(?:leave|keep)\s+(?:[\w`']+\s+){0,3}?as\s+(?:it\s+is|they\s+are|is)\b""",
    re.VERBOSE,
)
_DEGREE_RESULT = re.compile(
    r"""\b(?:is|are|was|were|'s|'re)\s+so\s+[a-z]+\s+(?:that\s+)?
    (?:i|my|the|it|he|she|they|nobody|no\s+one|everyone)\b""",
    re.VERBOSE,
)
# A third party's habit told with an emphatic recurrence: "playtesters always find the
# softlock in the second cave, every single build", "finance always sends the inputs on a
# Friday at 5, every single quarter". The speaker, the team and the agent are left out ("we
# run the full suite, every single release" is the team's way of working), and so is "every
# single time", which a preference uses too.
_EMPHATIC_HABIT = re.compile(
    r"""^(?!(?:i|i'm|we|we're|you|please|always|never)\b)(?:[\w'-]+\s+){1,3}?
    (?:always|never|usually|keeps?)\b.*,\s*
    (?:every\s+single\s+(?!time\b)[a-z]+|without\s+fail|like\s+clockwork)\W*$""",
    re.VERBOSE,
)
# A prohibition narrowed to a part of the work at hand: "don't run the e2e suite, just the unit
# tests for the parser", "don't refactor anything else, just the parser function" (round 16).
# "don't ask before running tests, just run them" goes on with a verb: a way of working.
_NARROWED = re.compile(
    r"""^(?:please\s+)?(?:don'?t|do\s+not|no\s+need\s+to)\s+[^,;.]+,\s*(?:[^,;.]+,\s*)?
    just\s+(?:the|this|that|these|those)\s+[^,;.]+(?:[,;.]|$)""",
    re.VERBOSE,
)
# ... unless it recurs: "don't run the integration suite on every push, just the unit tests".
_RECURRING = re.compile(r"\b(?:every|each|any|all)\b")
# A word for later, or a condition on the work, keeps an act's sentence: "always rerun the
# linter after a rebase", "regenerate the stubs when the protos change", "leave the vendored
# copy as it is for good".
_LATER = re.compile(
    r"""\b(?:always|never|whenever|every\s+time|from\s+now\s+on|going\s+forward|
    by\s+default|in\s+general|in\s+future|for\s+good|permanently|frozen|
    (?:before|after|when|if|once|until)\s+(?:you|we|i|a|an|any|every|each|the|[a-z]+ing)\b)""",
    re.VERBOSE,
)


def no_standing(core: str) -> str | None:
    """The name of the form that takes a rule's standing from the sentence, or ``None``.
    ``core`` is the lower-cased sentence without its lead-in words."""
    if any(word in core for word in _LABEL_WORDS) and _LABEL.search(core):
        return "label"
    if _ALTERNATIVE.match(core):
        return "alternative"
    if " so " in core and _DEGREE_RESULT.search(core) and not _LATER.search(core):
        return "degree_result"
    if "," in core and _EMPHATIC_HABIT.match(core):
        return "emphatic_habit"
    if "just" in core and _NARROWED.match(core) and not _RECURRING.search(core):
        return "narrowed"
    form = None
    if core.startswith(("re", "please re", "then re", "and then re", "now re", "just re")):
        form = "again" if _AGAIN.match(core) else None
    if form is None and "once" in core and _ONCE.search(core):
        form = "once"
    if form is None and _THIS_TURNS_EDIT.search(core):
        form = "this_turns_edit"
    if form and _LATER.search(core):
        return None
    return form
