"""Words a person addresses to the memory, trimmed off a captured statement's text.

"We always run go test with -race here, remember that." states a rule and then asks the
listener to keep it; "Also, ..." and "btw ..." tie the sentence to the talk before it. Neither
is part of the rule: stored as is, the next session reads "..., remember that." as the rule's
own words. The trim is of the statement's edges only and never of its content: a lead-in
goes only when a clause of at least ``MIN_WORDS`` words follows it, and a closing request
only after a comma or a dash (so "Never forget the lockfile." keeps its verb).
"""

from __future__ import annotations

import re

MIN_WORDS = 3  # what must be left of a statement once a lead-in is gone

# "Also, ...", "And ...", "btw ...", "FYI: ...", "Oh and ...", "Remember that ...",
# "Remember: ...", "Please remember that ...", "Note for future sessions: ...".
_LEAD = re.compile(
    r"""^(?:(?:also|and\s+also|and|plus|btw|by\s+the\s+way|fyi|oh,?\s+and|oh\s+also)
        (?:\s*[,:;—–-]+\s*|\s+)
      |(?:please\s+)?(?:remember|don'?t\s+forget|never\s+forget)(?:\s+that\s+|\s*:\s*)
      |note\s+for\s+(?:future|later|next)\s+(?:sessions?|time)\s*[:,—–-]+\s*)""",
    re.IGNORECASE | re.VERBOSE,
)
# ", remember that.", " — please keep that in mind!", ", don't forget it", "; note that."
_CLOSE = re.compile(
    r"""\s*[,;—–-]+\s*(?:(?:so|and|just|please)\s+)*
    (?:remember\s+(?:that|this|it)|remember|keep\s+(?:that|this|it)\s+in\s+mind|
    (?:don'?t|never)\s+forget\s+(?:that|this|it)|note\s+(?:that|this|it))
    (?:\s*,?\s*(?:please|thanks|thank\s+you|ok(?:ay)?|going\s+forward|from\s+now\s+on))?
    \s*(?P<end>[.!]*)\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def trim_addressed(text: str) -> str:
    """``text`` without a closing request to remember it nor a lead-in that ties it to the
    talk before (the module docstring). A capitalised lead-in passes its capital on ("Also,
    from now on ..." -> "From now on ..."); a lower-case one leaves the case as written."""
    closed = _CLOSE.sub(lambda m: m.group("end")[:1] or "", text)
    lead = _LEAD.match(closed)
    if lead is None:
        return closed
    rest = closed[lead.end() :]
    if len(rest.split()) < MIN_WORDS or not rest[:1].isalpha():
        return closed
    return rest[:1].upper() + rest[1:] if closed[:1].isupper() else rest
