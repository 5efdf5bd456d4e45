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

from credo.knowledge.shape_negative import NEGATIVE_CUES
from credo.knowledge.signals import TOOL_KINDS

__all__ = ["CUES", "GATES", "HARD_VETOES", "VETO_CUES", "gated", "shape_cues", "shape_veto"]

_I = re.VERBOSE  # every cue reads the lower-cased sentence: faster than IGNORECASE

# Who speaks for the project in a change of tool: the team's voice ("we", "our team", "the
# platform team"), not a team of the past or of others ("the old team", "the other team").
# (and a team whose tools are not the project's: "the marketing team moved from Mailchimp")
_OTHERS = """old previous former other next new marketing sales design legal hr finance
    accounting recruiting support leadership management exec executive""".split()
_NOT_OURS = rf"(?:{'|'.join(_OTHERS)})\b"
_TEAM = rf"(?:we|we'?ve|(?:the|our)\s+(?:(?!{_NOT_OURS})[\w-]+\s+)?team)"
# A change told as a condition is not made yet: "once we've moved to Django 5, drop the
# shim", "if we switched from pip to uv ...". After "when", "after" or "before" a past
# change was made ("when we moved from Heroku to Fly, the bill went down"); a perfect there
# is to come ("when the team has moved to pnpm, tell me": ``_PERFECT_TO`` only).
_IF = r"(?<!\bif\s)(?<!\bonce\s)(?<!\bunless\s)(?<!\buntil\s)(?<!\btill\s)(?<!\bsoon\sas\s)"
_IF_PERFECT = rf"{_IF}(?<!\bwhen\s)(?<!\bafter\s)(?<!\bbefore\s)(?<!\bwhenever\s)"

# "only" between a copula and an amount restricts nothing, it says how small a thing is:
# "tokens that are only a few minutes old", "the worker is only one process", "it's only a
# warning". After a verb it is a limit ("keep only 5 backups", "use X only for Y").
_COPULA_AMOUNT = r"""(?:is|are|was|were|be|been|being|s|re)\s+only\s+(?:a|an|\d|one|two|three|
    four|five|six|seven|eight|nine|ten|few|once|twice|slightly|partly|partially|about|around|
    roughly|just|barely|marginally)\b"""

# "for the winter", "for the next two weeks": a span of time says how long, not what for.
_SPAN = (
    r"(?:winter|summer|spring|autumn|fall|holidays?|season|weekend|week|month|quarter|year|"
    r"sprint|days|weeks|months|years|nights?)"
)
# "we've switched to X", "the team has moved over to X", X a name, not "the new office".
_PERFECT_TO = rf"""{_IF_PERFECT}
    \b(?:we'?ve|we\s+have|(?:the|our)\s+(?:(?!{_NOT_OURS})[\w-]+\s+)?team\s+has)\s+
    (?:now\s+|\w+ly\s+|already\s+|finally\s+)?(?:moved|switched|migrated|changed|transitioned)\s+
    (?:everything\s+|over\s+|all\s+[\w-]+\s+)?(?:to|onto)\s+
    (?!(?:the|a|an|this|that|these|those|my|our|your|their|its|his|her|some|another|next|new|
    branch|main|master)\b)[\w`.@]"""

_PRESENT_VERB = r"""(?:is|are|isn'?t|aren'?t|uses?|lives?|goes|go|returns?|runs?|sits?|belongs?|
    comes?|gets?|needs?|has\s+to|have\s+to|must|should|counts?|targets?|supports?|follows?|
    owns?|stays?|extends?|converts?|expects?|hits?|means?|requires?|defaults?\s+to|starts?|
    ends?|points?\s+to|talks?\s+to|works?|handles?|ships?|calls?|reads?|writes?|emits?|
    gets?\s+\w+ed|is\s+\w+ed|are\s+\w+ed|count\s+as|counts\s+as)"""

CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
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
            frontend|site|docs|pipeline|game|service|company|org|notebooks|package|stack|cli)\b
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
    # The team's change of tool: "we moved from json.dumps to orjson", "we've switched off
    # yarn to pnpm", "Celery was replaced by RQ". It rules the old one out as "X, not Y" does,
    # though it is told in the past. The team's voice ("we", "our team", "the platform team";
    # not "the old team") or a named subject, and "from" right after the verb: "I moved the
    # tests from ..." and "we moved the standup from ..." move a thing once; "it was replaced
    # by" is about the thing at hand. The team's choice of a tool, opening the sentence, is
    # told in the past and holds now the same way: "We decided to use black for formatting",
    # "the team agreed on using uv" (a choice names no old value: rule 5 reads none).
    (
        "changeover",
        re.compile(
            rf"""{_IF}\b{_TEAM}\s+(?:has\s+|have\s+)?(?:\w+ly\s+|already\s+|finally\s+)?
            (?:moved|switched|migrated|changed|transitioned)\s+(?:everything\s+|over\s+)?
            (?:from|off(?:\s+of)?|away\s+from)\s+[\w`'./@+-]+(?:\s+[\w`'./@+-]+){{0,3}}?
            \s+(?:to|over\s+to|onto)\s+[\w`.@]
            |{_IF}\bwe(?:'?ve|\s+have)?\s+(?:\w+ly\s+|already\s+|finally\s+)?replaced\s+
            (?!(?:it|this|that|them|these|those)\b)[\w`'./@+-]+(?:\s+[\w`'./@+-]+){{0,3}}?\s+with\s+[\w`.@]
            |^(?!(?:it|this|that|they|these|those)\b)(?:[\w`'./@+-]+\s+){{1,4}}?(?:was|were|has\s+been|
            have\s+been|got)\s+replaced\s+(?:by|with)\s+[\w`.@]
            |^(?:so\s+)?{_TEAM}\s+(?:have\s+)?(?:\w+ly\s+|already\s+|finally\s+)?(?:decided|agreed)\s+
            (?:to\s+(?:use|go\s+with|adopt|stick\s+with|standardi[sz]e\s+on)|on\s+using)\s+
            (?!(?:it|this|that|them|these|those)\b)[\w`.@]""",
            _I,
        ),
    ),
    # The same change without "from": only the present perfect of a named thing ("we've
    # switched to pnpm"; "we've moved to the new office" names none), and only when it answers
    # a mistake ("Actually we have switched to pnpm.") or says what the new one is for or where
    # it holds ("we have switched to ruff for linting", "... across the repo"): "we've moved to
    # Berlin", "we've switched to plan B" and "we've moved to staging" tell news.
    (
        "changeover_to",
        re.compile(
            rf"""^(?:no|nope|nah|actually|wrong|not\s+quite|that'?s\s+(?:outdated|old|stale|
            wrong|not\s+right))\b.{{0,30}}?{_PERFECT_TO}
            |{_PERFECT_TO}[\w`.@/+-]*(?:\s+[\w`.@/+-]+){{0,3}}?\s+(?:for\s+(?!(?:this|now|
            today|tonight|the\s+moment|the\s+time\s+being|a\s+while|a\s+bit|the\s+demo)\b)
            (?!(?:[\w-]+\s+){{0,3}}?{_SPAN}\b)\w|everywhere\b|across\b|in\s+(?:all|every)\b)""",
            _I,
        ),
    ),
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
            |\b(?:tell|show)\s+me\s+(?:why|first|before)\b|\bbefore\s+(?:running|you\s+run|
            committing|pushing)\b|\bin\s+any\s+instructions\b|\bdo\s+the\s+same\b""",
            _I,
        ),
    ),
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
    "changeover": ("from", " off", "replaced", "decided", "agreed"),
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
_CHANGEOVER = dict(CUES)["changeover"]
_CHANGEOVER_GATE = GATES["changeover"]
_CHANGEOVER_TO = dict(CUES)["changeover_to"]
_PAST = frozenset({"past", "past_subject"})
_PAST_CUES = {name: pattern for name, pattern in CUES if name in _PAST}
_SCORED = tuple((n, p, n in _ON_CLEAN, GATES.get(n, ())) for n, p in CUES if n not in VETO_CUES)


def gated(pattern: re.Pattern[str], gate: tuple[str, ...], text: str) -> bool:
    """``pattern.search(text)``, skipped when ``gate`` is given and none of it is in ``text``."""
    if gate and not any(token in text for token in gate):
        return False
    return pattern.search(text) is not None


def shape_veto(clean: str, core: str) -> str | None:
    """The first veto cue that fires on the lower-cased sentence (``clean``, and ``core``
    without its lead-in words), if any."""
    for name, pattern, on_clean, gate in _VETOES:
        if gated(pattern, gate, clean if on_clean else core):
            if name == "people_claim" and (_changeover(core) or _CHANGEOVER_TO.search(clean)):
                continue  # "the platform team moved from Consul to etcd": the project's change
            return name
    return None


def _changeover(core: str) -> re.Match[str] | None:
    return _CHANGEOVER.search(core) if gated(_CHANGEOVER, _CHANGEOVER_GATE, core) else None


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
        fired -= _told_now(core)
    if "changeover" in fired and "named_file" in fired and _tools_own_files(core):
        fired.discard("named_file")  # "... to pnpm, the lockfile is pnpm-lock.yaml"
    if fired & {"now", "past_subject"}:
        fired -= {"fact_subject", "bare_subject"}  # "all tests are green now": a state
    if fired & {"bare_subject", "np_please"} and _IMPERATIVE.match(core):
        fired -= {"bare_subject", "np_please"}  # "Use git switch to get ...": a verb, not a subject
    # A conjunction the linear score cannot form by itself: a fact with a general scope.
    if fired & _GENERAL and not fired & _NOW and fired & {"bare_subject", "fact_subject"}:
        fired.add("general_fact")
    return fired


def _told_now(core: str) -> set[str]:
    """The cues a change of tool in ``core`` takes back. Told in the past ("we moved from X to
    Y", "X was replaced by Y"), it says what holds now: its own verb is no narration, nor a
    past time right after its new name, which dates the change ("... by Y last month",
    ``_DATED``); a past elsewhere still counts ("last week we used X", "... and it broke"),
    unless a thing at hand was replaced ("the submit button was replaced by a link"; "the
    requests library" is a tool).
    Undone ("... and then back to X", "rolled it back") or not whole ("... but CI still
    uses X", "... in the Makefile only"), it rules nothing out: the change itself goes, and
    its past stays."""
    change = _changeover(core)
    if change is None:
        return set()
    rest = f"{core[: change.start()]} {core[change.end() :]}"
    if (
        _UNDONE.search(core, change.end())
        or _still_held(core, change)
        or _ELSEWHERE.search(core, 0, change.start())
        or _AT_PLACE.match(core[: change.start()])
    ):
        return {"changeover"}
    said = change.group()
    if "replaced" in said and said.startswith(_DEFINITE) and not _TOOL_SUBJECT.search(said):
        return set()
    dated = _DATED.match(core, change.end() - 1)  # from the new name's first character
    if dated:  # "X was replaced by Y last month": when the change was made, no narration
        rest = (
            f"{core[: change.start()]} {core[change.end() : dated.start(1)]} {core[dated.end() :]}"
        )
    return {name for name in _PAST if not _PAST_CUES[name].search(rest)}


_FILE = dict(CUES)["named_file"]
_NAME = re.compile(r"[\w.@+-]+")


def _tools_own_files(core: str) -> bool:
    """Whether every file ``core`` names is the own file of a tool its change names: the
    file then belongs to the change ("we moved from npm to pnpm, the lockfile is
    pnpm-lock.yaml"; "webpack was replaced by esbuild, don't touch webpack.config.js"), not
    to a task at hand ("..., then fix auth.py")."""
    change = _changeover(core)
    if change is None:
        return False
    new = _NAME.match(core, change.end() - 1)
    tools = set(re.findall(r"[\w.@+-]+", change.group())) - _CHANGE_WORDS
    tools = {t for t in tools | {new.group() if new else ""} if len(t) > 1}
    # the whole word: the cue's own match of "webpack.config.js" starts at "config"
    files = [core[core.rfind(" ", 0, m.start()) + 1 : m.end()] for m in _FILE.finditer(core)]
    return bool(files) and all(f in tools or _owned(f, tools) for f in files)


def _owned(file: str, tools: set[str]) -> bool:
    """Whether a part of ``file``'s name is, or starts with, one of ``tools`` ("pnpm-lock.yaml",
    "webpack.config.js", "gulpfile.js")."""
    return any(
        part.startswith(tool)
        for part in re.split(r"[^\w@+]+", file)
        for tool in tools
        if len(tool) > 2
    )


# Told of another place than this project: "In my last job we moved from Java to Kotlin",
# "In the tutorial we moved from SQLite to Postgres".
_ELSEWHERE = re.compile(
    r"""\b(?:in|at)\s+(?:my|his|her|their|a)\s+(?:\w+\s+)?(?:job|company|employer|workplace|
    role|gig|startup|project|course|class)\b|\bin\s+the\s+(?:tutorial|book|course|video|talk|
    article)\b""",
    re.VERBOSE,
)
# A change told at another place named as its opener: "At Google we switched from Borg to
# Kubernetes", "At Acme Corp, we migrated ...". The speaker's own workplace is where this
# project lives ("At work we switched from npm to pnpm" is ours), and "at" with a determiner,
# a time, a version or a state is no place ("at the moment", "at last", "at 3pm", "at v2").
_AT_PLACE = re.compile(
    r"""(?:back\s+|(?:when|while)\s+i\s+(?:was|worked)\s+)?at\s+
    (?!(?:work|the|this|that|these|those|our|one|some|any|all|each|every|first|last|least|
    once|times|present|length|heart|scale|runtime|launch|night|noon|midnight|dawn)\b
    |v?\d)[\w&.'-]+(?:\s+[\w&.'-]+){0,2}?,?\s*$""",
    re.VERBOSE,
)
# Undone, or not whole: "... but CI still uses 16", "... the main app is still MySQL", "...
# in the Makefile only" (the old one holds elsewhere, so ruling it out would supersede a
# true belief). Not "only pnpm works", "Travis is still mentioned": "still" counts before a
# verb of use or a word of the change itself (``_still_held``), "only" at a clause's end or
# before "in", "for", "on".
_UNDONE = re.compile(
    r"""\b(?:only\s*(?:[.,;:!?)]|$)|only\s+(?:in|for|on)\b|back\s+to\b|
    rolled\s+(?:\w+\s+)?back\b|reverted\b|(?:went|switched|moved)\s+back\b)""",
    re.VERBOSE,
)
_STILL = re.compile(r"\bstill\s+(\w+)")
# A past time right after the change's new name dates the change itself ("webpack was replaced
# by esbuild last month"): the new state holds now. Elsewhere it dates something else ("last
# month we used webpack"; "..., and last week it broke"), and the past still counts.
_DATED = re.compile(
    r"[\w`.@+-]+(?:\s+[\w`.@+-]+)??\s+(last\s+(?:week|month|year|sprint|quarter))\b(?!\s+\w)"
)
# The change's own words that name nothing ("we", "moved", "from", "the"...).
_CHANGE_WORDS = frozenset(
    """we ve have has had the our a an team moved switched migrated changed transitioned
    replaced from to onto off of over away with by was were been got everything all""".split()
)
_IN_USE = frozenset(
    """use uses using used call calls calling run runs running on in depend depends rely
    relies need needs require requires ship ships target targets""".split()
)


def _still_held(core: str, change: re.Match[str]) -> bool:
    """Whether, after ``change``, the old one is said to hold still: "still" before a verb
    of use ("CI still uses 16") or a word the change named ("the main app is still MySQL")."""
    said = set(re.findall(r"\w+", change.group())) - _CHANGE_WORDS
    return any(word in _IN_USE or word in said for word in _STILL.findall(core, change.end()))


_DEFINITE = ("the ", "this ", "that ", "our ", "my ")
# A kind after a name ("the requests library was"), not the kind alone: "the library was
# replaced by a fork", "the package was replaced by a stub" replace a thing at hand.
_TOOL_SUBJECT = re.compile(
    rf"\b(?!(?:{'|'.join(w.strip() for w in _DEFINITE)}|old|new|legacy|same)\s)[\w.@/+-]+\s+"
    rf"(?:{'|'.join(sorted(TOOL_KINDS))})\s+(?:was|were|has|have|got)\s"
)


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
