"""The terms a captured statement rules out and prescribes, as patterns, for
``credo.knowledge.terms`` (and the tool kinds for ``credo.knowledge.changeover``): what
supersession matches a later statement against.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

_I = re.IGNORECASE

# A command-line flag is a term too: "run pytest without -x" rules out ``-x``.
TERM = r"(`[^`\n]{1,40}`|(?<![\w-])-{1,2}(?=\w)[\w.@/+#:-]*|[\w@/+#][\w.@/+#:-]*)"
TERM_BARE = TERM.replace("(", "(?:", 1)  # the same, capturing nothing ("moved from X to Y")
# A word that says a name is used unwrapped is part of the term, not the term: "never plain
# pytest" rules out plain pytest (not pytest through make, nor "plain assert statements").
_UNWRAPPED = (
    r"(?:(?:plain|bare|raw|vanilla)\s+"
    r"(?!(?:and|or|but|nor|to|than|as|with|for|in|on|of|the|a|an|not)\b)(?=[\w@/+#`-]))?"
)
MODIFIED_TERM = rf"({_UNWRAPPED}{TERM_BARE})"
# A last word that only says what kind of thing a name is: "the requests library" names a tool
# (requests), where "the submit button" names a thing at hand.
TOOL_KINDS = frozenset(
    """library libraries lib libs package packages module modules client clients framework
    tool tools sdk crate crates gem gems plugin plugins wrapper driver""".split()
)
# A change of tool's verb and what may stand between it and "from": "migrated everything
# from Consul to etcd", "switched over from yarn", "moved all services off Heroku onto Fly".
# (and under way: "we're switching from X to Y", probe89)
_CHANGED = r"(?:mov|switch|migrat|chang|transition)(?:ed|ing)"
_CHANGING = r"(?:mov|switch|migrat|chang|transition)ing"  # "are switching" asserts nothing
CHANGED_WORDS = frozenset(
    {
        f"{stem}{end}"
        for stem in ("mov", "switch", "migrat", "chang", "transition")
        for end in ("ed", "ing")
    }
)
# What the team changes a tool of, when it is a part of the project's system, not a thing or
# an event moved once: "we switched CI from Travis to GitHub Actions", "we moved our docs from
# Sphinx to MkDocs", "we migrated the audit service from logrus to slog" (probe90).
SYSTEM_PART = r"""(?:(?:the|our)\s+)?(?:[\w-]+\s+)?(?:ci|docs|documentation|build|builds|logging|
    linting|formatting|frontend|backend|service|services|app|api|cache|queue|database|db|
    pipeline|infra|infrastructure|monorepo|repo|bundler|bundling|packaging)\s+"""
# (a part named there is read as the change's, its old and new tools as terms: stop 64; but
# not someone else's, "the Django team switched their CI from Travis to ...": review92)
_SPAN = rf"(?:everything\s+|over\s+|all\s+(?:[\w-]+\s+)?|(?!(?:his|her|their)\s){SYSTEM_PART})"
# Going back to a value ("go back to black", "we switched back to yarn"): it is prescribed.
_BACK = r"(?:go|going|went|gone|switch(?:ed|ing)?|mov(?:e|ed|ing)|revert(?:ed|ing)?|rolled|get)"


class TermPatterns(NamedTuple):
    negated: re.Pattern[str]  # what a statement rules out ("never use npm")
    asserted: re.Pattern[str]  # what it prescribes ("use pnpm")
    leading: re.Pattern[str]  # an alternative named first ("pnpm over npm", "pnpm, not npm")


@cache
def term_patterns() -> TermPatterns:
    """The term patterns, compiled on first use: only a captured statement needs them."""
    return TermPatterns(
        re.compile(
            rf"""\b(?:never(?!\s*mind\b)|don'?t|do\s+not|dont|stop(?:ped|ping)?|avoid|no\s+longer|not|instead\s+of|
            rather\s+than|in\s+place\s+of|over(?!\s+(?:to|onto)\b)|without|ban|drop|remove|
            replaced(?!\s+(?:by|with)\b)|{_CHANGED}\s+{_SPAN}?(?:back\s+)?(?:(?:away\s+)?from|off(?:\s+of)?))
            (?:\s+(?:ever|again|use|using|run|running|add|adding|call|calling|install|installing|keep|keeping|ship|shipping|
            import|importing|write|writing|touch|touching|commit|committing|put|putting|pick|enable|enabling|
            choose|the|a|an|any|every|each|all|on|to|with|be|via|in|into))*\s+{MODIFIED_TERM}""",
            _I | re.VERBOSE,
        ),
        re.compile(
            rf"""\b(?:use|using|prefer|with|switch\s+to|switched\s+to|moved\s+to|migrate\s+to|
            migrated\s+to|stick\s+(?:to|with)|go\s+with|is\s+on\s+port|on\s+port|(?:is|are|be)(?!\s+{_CHANGING}\b)|
            standardi[sz]ed\s+on|replaced\s+(?:by|with)|replaced\s+{TERM_BARE}\s+with|
            {_CHANGED}\s+over\s+to|{_CHANGED}\s+onto|
            {_CHANGED}\s+{_SPAN}?(?:back\s+)?(?:(?:away\s+)?from|off(?:\s+of)?)\s+{TERM_BARE}\s+
            (?:over\s+|back\s+)?(?:to|onto)|{_BACK}\s+back\s+to(?:\s+using)?|
            from\s+{TERM_BARE}(?:\s+{TERM_BARE}){{0,2}}?\s+back\s+to)
            (?:\s+(?:the|a|an|only|always))*\s+{MODIFIED_TERM}""",
            _I | re.VERBOSE,
        ),
        re.compile(
            rf"{TERM}\s+(?:over(?!\s+(?:to|onto)\b)|instead\s+of|rather\s+than|in\s+place\s+of)\b"
            # "X, not Y", X not the scope of a choice ("use black for formatting, not ruff")
            rf"|(?<![\w-])(?<!\bfor\s)"
            rf"{TERM}\s*(?:,|—|–|;)\s*not\b",
            _I,
        ),
    )


STOP_TERMS = frozenset(
    """a an the this that these those it its it's we our you your i me my to of in on at by for
    with and or but not no be is are was were do does did use using always never ever just
    only also any all some very really please here there then so than as from into onto
    one ones thing things way stuff them they he she his her us if when while again more
    anymore longer instead rather right wrong quite correct true now anything something
    nothing everything""".split()
)
