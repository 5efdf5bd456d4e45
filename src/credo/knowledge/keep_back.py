"""A decision taken back tersely: "scratch that, keep --with-scheduler" (twice87).

Read alone, "scratch that" repairs the message at hand ("scratch that, make it blue"), and
the classifier (``credo.knowledge.capture``) keeps none of it. Said after the user changed a
decision ("nah, we're switching to a separate rqscheduler process, not --with-scheduler"),
"keep X" goes back on that change, as "Actually, go back to X" does. Which one it is, only
the memory can say: ``kept_back`` reads the form and gives the statement it would be; the
capture (``credo.agent.capture``) keeps it only when a stored change left X
(``credo.knowledge.replace``'s rule 6), which it then replaces.
"""

from __future__ import annotations

import re

from credo.knowledge.capture import Statement
from credo.knowledge.lazy_pattern import LazyPattern

__all__ = ["KEEP_GATE", "kept_back"]

# Substrings a sentence holds for the form to be read at all (the pattern's gate).
KEEP_GATE = ("keep", "stick", "stay")

# The whole sentence: a taking back of what was said, then "keep" and one value, nothing
# after it ("scratch that, keep --with-scheduler and rerun the tests" asks for a task).
_KEEP_BACK = LazyPattern(
    r"""^(?:(?:nah|no|ok|okay|actually|hmm|ugh)[\s,]+)?
    (?:scratch\s+that|never\s*mind(?:\s+that)?|forget\s+that|no\s+wait|wait\s+no)[\s,.;:!—–-]+
    (?:let'?s\s+|we'?ll\s+|we\s+)?(?:keep|stick\s+with|stay\s+(?:on|with))\s+(?:using\s+)?
    (?P<value>--?[a-z][\w-]*|`?[a-z_][\w.@/+-]*`?)\s*[.!]?$""",
    re.VERBOSE,
    gate=KEEP_GATE,  # compiled only for a prompt that may hold the form: read for every one
)
# No value: a pronoun, a part of the message, a way of going on ("keep going").
_NO_VALUE = frozenset(
    """it them this that these those both all everything either one going on trying
    looking working asking""".split()
)
# The pattern's leads, looked for in the prompt's opening before anything else is done.
_LEADS = ("scratch", "mind", "forget", "wait")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def kept_back(prompt: str) -> Statement | None:
    """The statement going back to a value that the first sentence of ``prompt`` keeps
    ("scratch that, keep --with-scheduler": asserting "--with-scheduler", a going back),
    if it has that form; whether it takes back a decision is the store's to say."""
    said = prompt[:2000].strip()
    if not any(lead in said[:40].lower() for lead in _LEADS):
        return None  # most prompts: no split, no compile
    parts = _SENTENCE_END.split(said, maxsplit=2)
    # "scratch that. keep X": the taking back may be a sentence of its own
    said = f"{parts[0]} {parts[1]}" if len(parts) > 1 and len(parts[0]) < 20 else parts[0]
    kept = _KEEP_BACK.match(said.lower())
    if kept is None:
        return None
    value = kept["value"].strip("`").rstrip(".")
    if value in _NO_VALUE or sum(c.isalpha() for c in value) < 3:
        return None
    return Statement(
        text=said,
        kind="correction",
        origin="user_corrected",
        negated=(),
        asserted=(value,),
        signals=("going_back",),
    )
