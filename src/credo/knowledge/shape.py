"""Shape cues: weak, general features of a sentence's form (``credo.knowledge.capture``).

The marker classes of ``credo.knowledge.signals`` name words that rules are often stated with.
Rules are just as often stated as plain facts about the project ("Timestamps are UTC
everywhere.", "Our API returns snake_case JSON.") or as a bare request with a general scope
("async/await over .then chains in anything new, please."). What those share is a *shape*: a
generic subject with a present-tense verb, a universal or project scope, deontic force, a
contrast, a request about how the agent works. And what one-off talk shares is a shape too:
deixis to this turn, the past, hedges, hearsay, complaints.

Each cue here is one such feature. None decides anything: ``credo.knowledge.score`` sums
their weights with the marker classes' into one score per sentence, and a threshold decides.
Every pattern is compiled once at import (the hook runs this on every prompt).
"""

from __future__ import annotations

import re

from credo.knowledge.changeover import (
    CHANGEOVER,
    CHANGEOVER_GATE,
    CHANGEOVER_TO,
    CHANGING_OVER,
    GOING_BACK,
    IN_FORCE,
    VALUE_NOW,
    changeover,
    in_force,
    told_now,
    tools_own_files,
    went_back,
)
from credo.knowledge.evidence import OWNER_NOW
from credo.knowledge.lazy_pattern import LazyPattern
from credo.knowledge.retraction import RULE_RETRACTION
from credo.knowledge.shape_negative import NEGATIVE_CUES
from credo.knowledge.terse_rule import INSTEAD_NAMED, TOOL_ROLE

__all__ = ["CUES", "GATES", "HARD_VETOES", "VETO_CUES", "gated", "shape_cues", "shape_veto"]

_I = re.VERBOSE  # every cue reads the lower-cased sentence: faster than IGNORECASE

# "only" between a copula and an amount restricts nothing, it says how small a thing is:
# "tokens that are only a few minutes old", "the worker is only one process", "it's only a
# warning". After a verb it is a limit ("keep only 5 backups", "use X only for Y").
_COPULA_AMOUNT = r"""(?:is|are|was|were|be|been|being|s|re)\s+only\s+(?:a|an|\d|one|two|three|
    four|five|six|seven|eight|nine|ten|few|once|twice|slightly|partly|partially|about|around|
    roughly|just|barely|marginally)\b"""

_PRESENT_VERB = r"""(?:is|are|isn'?t|aren'?t|uses?|lives?|goes|go|returns?|runs?|sits?|belongs?|
    comes?|gets?|needs?|has\s+to|have\s+to|must|should|counts?|targets?|supports?|follows?|
    owns?|stays?|extends?|converts?|expects?|hits?|means?|requires?|defaults?\s+to|starts?|
    ends?|points?\s+to|talks?\s+to|works?|handles?|ships?|calls?|reads?|writes?|emits?|
    gets?\s+\w+ed|is\s+\w+ed|are\s+\w+ed|count\s+as|counts\s+as)"""

CUES: tuple[tuple[str, re.Pattern[str] | LazyPattern], ...] = (
    # --- positive shapes ----------------------------------------------------------------
    # A definite or possessive subject with a present-tense verb: a fact about the project.
    (
        "fact_subject",
        re.compile(
            rf"""^(?:(?:the|our|this|all|each|every|any)\s+)(?:[\w`'./*<>@:+-]+\s+){{0,4}}?
            (?<!\bto\s)(?:always\s+|never\s+|only\s+|all\s+)?{_PRESENT_VERB}\b""",
            _I,
        ),
    ),
    # A bare subject (no article): "Timestamps are UTC", "Node 20 is the minimum". Not a
    # subordinator: "Before you start, pull main" opens with a clause, not a subject.
    (
        "bare_subject",
        re.compile(
            rf"""^(?!(?:it|this|that|these|those|there|here|i|you|we|they|he|she|what|why|how|
            who|which|if|when|so|and|but|or|just|please|also|then|now|today|maybe|not|no|the|
            a|an|our|my|your|their|its|his|her|all|every|each|any|some|one|
            before|after|once|until|while|whilst|because|since|unless|although|though|as|
            yes|yep|yeah|yup|ok|okay|sure|fine|cool|great|thanks|for|during|with|from|by)\b)
            [\w`'./*<>@:+-]+(?:\s+[\w`'./*<>@:+-]+){{0,4}}?\s+
            (?<!\bto\s)(?:always\s+|never\s+|only\s+|all\s+)?{_PRESENT_VERB}\b""",
            _I,
        ),
    ),
    # Universal quantity or scope: "everywhere", "every notebook", "in anything new".
    (
        "universal",
        re.compile(
            r"""\b(?:everywhere|every\s+(?!of\b)\w+|all\s+(?:the\s+)?(?!of\b)\w+s\b|
            any(?:thing|one)?\s+(?!of\b)\w+|nothing|nobody|no\s+one|each\s+(?!of\b)\w+|anything\s+new|in\s+general|by\s+default|
            at\s+minimum|across\s+the\s+\w+|whenever|every\s+time|in\s+any\s+\w+)\b""",
            _I,
        ),
    ),
    # Project scope: the repo, the codebase, the team, a part of the product.
    (
        "project_scope",
        re.compile(
            r"""\b(?:in|on|for|across|throughout|within)\s+(?:this|our|the)\s+
            (?:repo|repository|codebase|code|project|monorepo|team|firmware|app|backend|
            frontend|site|docs|pipeline|game|service|company|org|notebooks|package|crate|stack|
            cli)\b
            |\bhere\b(?!\s+(?:is|are|'s))|\bin\s+ci\b|\bthis\s+(?:codebase|repo|project|team)\b""",
            _I,
        ),
    ),
    # Deontic force: must, needs to, has to, should, required, allowed, no X.
    (
        "deontic",
        re.compile(
            r"""\b(?:must|mustn'?t|needs?\s+to|has\s+to|have\s+to|should(?:n'?t)?|required|
            requirement|(?:not\s+)?allowed|forbidden|mandatory|need\s+(?:a|an|two|one)|needs\s+\w+|
            count\s+as|counts\s+as|is\s+the\s+minimum|minimum|at\s+least)\b""",
            _I,
        ),
    ),
    # "no X": a prohibition by noun ("no mocks", "no `any`", "no bare pip").
    (
        "no_noun",
        re.compile(
            r"""(?:^|[,;:.—–-]\s*|\band\s+)no\s+(?!(?:problem|worries|idea|clue|rush|need|
            way|doubt|matter|longer|more|thanks|one|luck|big\s+deal)\b)[\w`.@/-]+""",
            _I,
        ),
    ),
    # "X over Y", "X, not Y", "X instead of Y", "X only".
    (
        "contrast_shape",
        re.compile(
            rf"""(?:^|[,:;—–]\s*)[\w`./@-]+(?:\s+[\w`./@-]+){{0,2}}\s+over\s+\.?[\w`]
            |[\w`)]\s*,?\s+(?:instead\s+of|rather\s+than)\s+[\w`.]
            |[\w`)'"]\s*(?:,|—|–|;)\s*not\s+[\w`.'"@/-]|^not\s+`?[\w.@/-]+`?\s*[.,;]
            |\b(?!{_COPULA_AMOUNT})[\w`)-]+\s+only\b(?!\s+(?:if|when|because|for\s+(?:now|this)|that|
            this|it|them|those|these)\b)""",
            _I,
        ),
    ),
    # The team's change of tool, and going back on one: knowledge/changeover.py.
    ("changeover", CHANGEOVER),
    ("changeover_to", CHANGEOVER_TO),
    ("going_back", GOING_BACK),
    ("in_force", IN_FORCE),
    ("value_now", VALUE_NOW),
    ("owner_now", OWNER_NOW),
    # A terse standing rule: "dont X, use NAME", "use NAME for a purpose" (terse_rule.py).
    ("instead_named", INSTEAD_NAMED),
    ("tool_role", TOOL_ROLE),
    # A rule taken back with what holds instead: knowledge/retraction.py.
    ("retraction", RULE_RETRACTION),
    # A request about how the agent works in general.
    (
        "agent_behaviour",
        re.compile(
            r"""^(?:when|whenever|if)\s+you\s+[^,]{2,80},
            |\bdon'?t\s+(?:ask\s+me|give\s+me|summari[sz]e|explain|apologi[sz]e|narrate|
            repeat|pad|hedge)\b|^skip\s+the\b|\banswer\s+(?:me\s+)?in\b|\bjust\s+(?:answer|say|run|do)\b
            |^less\s+\w+|^(?:keep|make)\s+(?:your|the)\s+(?:answers?|repl(?:y|ies)|diffs?|
            summar(?:y|ies)|commits?|prs?|descriptions?|explanations?)\b|\byour\s+(?:answers?|
            repl(?:y|ies)|pr\s+descriptions?|summar(?:y|ies)|explanations?|commit\s+messages?)\b
            |\b(?:tell|show)\s+me\s+(?:why|first|before)\b|\bbefore\s+(?:running|you\s+run)\b
            |\bin\s+any\s+instructions\b|\bdo\s+the\s+same\b""",
            _I,
        ),
    ),
    # A step of the project's workflow: "... before committing", "... before pushing". Scored
    # as the request above is, but a rule of the project, not the speaker's taste (days86:
    # "Always run the linter before committing" was kept as a preference).
    ("workflow_gate", re.compile(r"\bbefore\s+(?:committing|pushing)\b", _I)),
    # A noun phrase and "please": "short answers please", "type hints everywhere, please".
    (
        "np_please",
        re.compile(
            r"""^(?!(?:can|could|would|will|just|and|so|ok|okay)\b)[\w`'./-]+(?:\s+[\w`'./-]+){0,5}?
            ,?\s+(?:please|pls)\b""",
            _I,
        ),
    ),
    # A second clause that says what to do: "..., use named ones", "..., split them up".
    (
        "clause_imperative",
        re.compile(
            r"""[,;:—–]\s+(?:so\s+|and\s+|just\s+|please\s+)?(?:use|keep|write|split|give|put|
            make|add|avoid|prefer|stick|name|do|pick|leave|stay|go\s+with)\b""",
            _I,
        ),
    ),
    # The speaker's taste, without "I prefer": "I find X easier", "drives me nuts", "not a fan".
    # "I find at least one X" counts what was found (round 16): a finding, not a taste.
    (
        "taste",
        re.compile(
            r"""\b(?:i\s+find(?!\s+(?:at\s+least|at\s+most|\d+|one|two|three|several|a\s+few|
            a\s+couple)\s)|for\s+me\b|drives?\s+me\s+(?:nuts|crazy|mad)|not\s+a\s+(?:big\s+)?fan|
            (?:big|huge)\s+fan|can'?t\s+stand|i\s+(?:go\s+(?:with|for)|usually\s+want|don'?t\s+love|
            think\s+in)\b|helps\s+me|(?:easier|cleaner|clearer|nicer)\s+(?:for\s+me|to\s+(?:read|
            review|follow|debug))|that'?s\s+(?:just\s+)?how\s+i|personally|
            i'?m\s+(?:still\s+learning|done\s+with)|^me\s+i\b|much\s+easier|i\s+find\s+them)""",
            _I,
        ),
    ),
    # The speaker's way of working: "I read the diff", "I review on my phone" (taste words
    # like "I like" are the marker class ``preference``, not counted twice).
    (
        "speaker_habit",
        re.compile(
            r"""\bi\s+(?:read|review|work|paste|forward|plan|use|always|never|usually|skim|
            check|test|debug|deploy)\b""",
            _I,
        ),
    ),
    # "please" with no one-off object: a general request.
    ("please", re.compile(r"\bplease\b|\bpls\b", _I)),
    # Correction openers and reproach.
    (
        "reproach",
        re.compile(
            r"""\bi\s+keep\s+telling\s+you\b|\byou\s+keep\b|\bagain\s+with\b|^again\b
            |\byou(?:'ve|\s+have)\s+been\b|\bwhy\s+did\s+you\b|\bquick\s+correction\b
            |^you\s+(?:wrote|created|used|added|made|generated|put)\b.*\bagain\W*$
            |^(?:wrong|incorrect)\b|\bnot\s+right\b|\bis\s+wrong\b|\bthere\s+is\s+no\b
            |\bthere'?s\s+no\b|^not\s+`|\bthat'?s\s+not\s+how\s+we\b|\bwe\s+moved\s+off\b""",
            _I,
        ),
    ),
    # A because/so clause that gives the reason for a convention.
    ("reason", re.compile(r"(?:,|;|—|–)\s*(?:so|because|since)\b|\bso\s+that\b|\bor\s+the\b", _I)),
    *NEGATIVE_CUES,  # the forms of one-off talk: shape_negative.py
)


# Negative cues strong enough to veto a sentence outright (``shape_veto``).
VETO_CUES = frozenset(
    {
        "leisure",
        "referent",
        "until_scope",
        "hedge",
        "hearsay",
        "complaint",
        "progressive",
        "tag_question",
        "state_report",
        "turn_scope",
        "repair",
        "code_local",
        "verdict",
        "opinion",
        "people_claim",
        "local_should",
        "third_person",
    }
)
# Cues read on the whole sentence: the lead-in words ("No,", "Again") are part of them.
_ON_CLEAN = frozenset(
    {
        "reproach",
        "no_noun",
        "contrast_shape",
        "deixis",
        "now",
        "turn_scope",
        "repair",
        "project_scope",
        "referent",
        "changeover_to",
        "going_back",
        "retraction",
    }
)
# Vetoes that a framing for later sessions ("from now on", "Team rule:") does not lift: a
# scope word wins over a rule word ("From now on, until this ticket is merged, use ..."), and
# talk about lunch is chit-chat however it is framed.
HARD_VETOES = frozenset({"turn_scope", "until_scope", "leisure"})
# Gates: a costly cue is searched only when one of these substrings is in the sentence (every
# branch of its pattern needs one of them; tests/test_capture_classify.py checks that).
GATES: dict[str, tuple[str, ...]] = {
    "reproach": (
        "keep",
        "again",
        "been",
        "did you",
        "correction",
        "wrong",
        "incorrect",
        "not ",
        "s no",
        "is no",
        "moved off",
    ),
    "contrast_shape": (" over ", "instead of", "rather than", "not", "only"),
    "changeover": CHANGEOVER_GATE,
    "going_back": ("back ",),
    "in_force": ("now ",),
    "retraction": ("mind", "forget", "scratch", "disregard", "drop"),
    "changeover_to": ("moved ", "switched ", "migrated ", "changed ", "transitioned "),
    "opinion": (
        "is ",
        "are ",
        "'s ",
        "'re ",
        "like",
        "surpris",
        "interesting",
        "strange",
        "oddly",
        "funnily",
        "classic",
        "never a",
        "always the",
        "what a",
    ),
    "repair": (
        "meant",
        "wanted",
        "asked",
        "asking",
        "what i",
        "ignore",
        "never",
        "wrong",
        "my ",
        "misspoke",
        "scratch",
        "corrected",
    ),
    "deixis": ("this", "that", "meant", "above", "below", "just", " it", " them", "the new"),
    "hearsay": (
        "say",
        "said",
        "think",
        "told",
        "claim",
        "according",
        "apparent",
        "suppos",
        "heard",
        "i read",
        "recommend",
        "suggest",
        "tip",
        "from the",
    ),
    "local_should": ("should",),
    "code_local": ("the ", "len", "issue", "problem", "bug", "glitch", "thing"),
    "my_setup": ("on my",),
    "turn_scope": ("this",),
    "until_scope": ("until", "till then", "til then"),
    "referent": ("the other", "not ", "the one"),
    "progressive": ("ing",),
    "tag_question": (",",),
    "question_word": ("you", "how do i"),
    "workflow_gate": ("before",),
    "agent_behaviour": (
        "you",
        "skip",
        "answer",
        "just ",
        "less",
        "keep",
        "make",
        "me ",
        "before",
        "instructions",
        "same",
        "don't",
        "dont",
    ),
}
_VETOES = tuple(
    sorted(
        ((n, p, n in _ON_CLEAN, GATES.get(n, ())) for n, p in CUES if n in VETO_CUES),
        key=lambda cue: cue[0] not in HARD_VETOES,  # hard vetoes are reported first
    )
)
_SCORED = tuple((n, p, n in _ON_CLEAN, GATES.get(n, ())) for n, p in CUES if n not in VETO_CUES)


def gated(pattern: re.Pattern[str] | LazyPattern, gate: tuple[str, ...], text: str) -> bool:
    """``pattern.search(text)``, skipped when ``gate`` is given and none of it is in ``text``."""
    if gate and not any(token in text for token in gate):
        return False
    return pattern.search(text) is not None


def shape_veto(clean: str, core: str) -> str | None:
    """The first veto cue that fires on the lower-cased sentence (``clean``, and ``core``
    without its lead-in words), if any."""
    for name, pattern, on_clean, gate in _VETOES:
        if gated(pattern, gate, clean if on_clean else core):
            if name == "people_claim" and (changeover(core) or CHANGEOVER_TO.search(clean)):
                continue  # "the platform team moved from Consul to etcd": the project's change
            if name == "progressive" and CHANGING_OVER.search(core):
                continue  # "we're moving the job store to Redis, not SQLAlchemy": a decision
            return name
    return None


def shape_cues(clean: str, core: str) -> set[str]:
    """The scoring shape cues that fire on the lower-cased sentence (``clean``, and ``core``
    without its lead-in words, for the cues anchored at its start)."""
    fired = {
        name
        for name, pattern, on_clean, gate in _SCORED
        if gated(pattern, gate, clean if on_clean else core)
    }
    if "now" not in fired and "day" in clean and _WEEKDAY.search(clean):
        fired.add("now")
    if "past_subject" in fired and _PRESENT_PASSIVE.match(core):
        fired.discard("past_subject")  # "Staging is never used for load tests": present, passive
    if "changeover" in fired:
        fired -= told_now(core)
    if "going_back" in fired:
        fired -= went_back(clean)
    if "in_force" in fired:
        fired -= in_force(core)
    if "owner_now" in fired:
        fired.discard("now")  # "ken owns the scheduler now": since when
    if "value_now" in fired:
        # "port's 6380 now": since when the value holds; its first word is a subject (no
        # verb "port" on an artefact)
        fired -= {"now", "artefact_task"}
    if "retraction" in fired and RULE_RETRACTION.match(clean).group("after"):  # type: ignore[union-attr]
        fired.add("correction")  # the user corrects their own earlier word
    else:
        fired.discard("retraction")
    if "changeover" in fired and "named_file" in fired and tools_own_files(core):
        fired.discard("named_file")  # "... to pnpm, the lockfile is pnpm-lock.yaml"
    if fired & {"now", "past_subject"}:
        fired -= {"fact_subject", "bare_subject"}  # "all tests are green now": a state
    if fired & {"bare_subject", "np_please"} and _IMPERATIVE.match(core):
        fired -= {"bare_subject", "np_please"}  # "Use git switch to get ...": a verb, not a subject
    # A conjunction the linear score cannot form by itself: a fact with a general scope.
    if fired & _GENERAL and not fired & _NOW and fired & {"bare_subject", "fact_subject"}:
        fired.add("general_fact")
    return fired


# A named day is a day of this week, like "tomorrow" ("on Thursday", "Monday's retro"); a
# plural, "every (second) Friday" or "a Friday" is a schedule. Counts as "now"; searched only
# when "day" is in the sentence.
_WEEKDAY = re.compile(
    r"""(?<!every\s)(?<!each\s)(?<!\ba\s)(?<!second\s)(?<!other\s)
    \b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!s)
    (?!\s+(?:and|or|through|to|mornings?|afternoons?|evenings?|nights?)\b)""",
    _I,
)
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:use|run|make|add|put|keep|write|get|set|let|go|try|move|switch|check|"
    r"take|give|call|fix|change|update|create|open|do|see|find|look|show|tell|list|pick)\b"
)
_PRESENT_PASSIVE = re.compile(
    r"^(?:[\w`'./-]+\s+){1,5}?(?:is|are)\s+(?:(?:always|never|only|all|not|also)\s+)?[a-z]+ed\b"
)
_GENERAL = frozenset({"universal", "deontic", "contrast_shape", "project_scope", "no_noun"})
_NOW = frozenset({"deixis", "now", "past"})
