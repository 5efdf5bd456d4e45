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

__all__ = ["CUES", "GATES", "HARD_VETOES", "VETO_CUES", "gated", "shape_cues", "shape_veto"]

_I = re.VERBOSE  # every cue reads the lower-cased sentence: faster than IGNORECASE

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
            yes|yep|yeah|yup|ok|okay|sure|fine|cool|great|thanks)\b)
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
            r"""(?:^|[,:;—–]\s*)[\w`./@-]+(?:\s+[\w`./@-]+){0,2}\s+over\s+[\w`.]
            |[\w`)]\s*,?\s+(?:instead\s+of|rather\s+than)\s+[\w`.]
            |[\w`)'"]\s*(?:,|—|–|;)\s*not\s+[\w`.'"@/-]|^not\s+`?[\w.@/-]+`?\s*[.,;]
            |\b[\w`)-]+\s+only\b(?!\s+(?:if|when|because|for\s+(?:now|this)|that|this|it|them|
            those|these)\b)""",
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
    (
        "taste",
        re.compile(
            r"""\b(?:i\s+find|for\s+me\b|drives?\s+me\s+(?:nuts|crazy|mad)|not\s+a\s+(?:big\s+)?fan|
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
    # --- negative shapes ----------------------------------------------------------------
    (
        "hedge",
        re.compile(
            r"""\b(?:not\s+sure|maybe|perhaps|probably|likely|unlikely|possibly|presumably|
            i\s+think\s+we\s+(?:might|could|should)|
            who\s+knows|i\s+guess|sometimes|kind\s+of|sort\s+of|no\s+idea|unclear|dunno|
            i\s+don'?t\s+care|either\s+way|i\s+wonder|might|could|ideal\s+world|
            back\s+and\s+forth|on\s+the\s+fence|torn\s+(?:on|about|between)|can'?t\s+decide|undecided|
            doesn'?t\s+matter|i\s+don'?t\s+mind|whatever\s+(?:you|the\s+\w+)\s+(?:wants?|prefers?|thinks?)|
            would(?!\s+(?:rather|prefer|like|love|appreciate)))\b""",
            _I,
        ),
    ),
    (
        "hearsay",
        re.compile(
            r"""\b(?:i\s+was\s+told|(?:he|she|they|someone|people|my\s+\w+|the\s+\w+)\s+
            (?:says?|said|thinks?|told\s+me|claims?)|according\s+to|apparently|supposedly|
            i\s+heard|i\s+read|keeps?\s+saying|(?:is|are|was|were)\s+saying|
            said\s+(?:on|in|at|that)|recommends|suggests|(?:pro\s+)?tip|the\s+(?:old\s+)?saying|
            as\s+they\s+say|
            from\s+the\s+(?:docs|readme|wiki|manual|book|blog|article)
            |(?:the|our|my|their)\s+(?:[\w-]+\s+){0,2}?(?:docs|documentation|readme|wiki|manual|
            guide|handbook|book|spec|linter|tutorial)\s+(?:says?|said|recommends?|suggests?))\b""",
            _I,
        ),
    ),
    (
        "complaint",
        re.compile(
            r"""\b(?:ugh|sigh|argh|mess|annoying|ridiculous|terrible|awful|nightmare|
            nobody\s+ever|no\s+one\s+ever|fun|lol|haha|lmao|
            i\s+(?:hate|love|like|dislike)\s+(?:how|that)|never\s+thought|here\s+we\s+are|
            in\s+that\s+order|(?:is|are)\s+(?:older|newer|bigger|smaller|slower|faster|worse|
            uglier|longer)\s+than|but\s+(?:some|most|many|a\s+few|half|nobody|no\s+one|none)|
            (?:nobody|no\s+one)\s+(?:follows|reads|uses|knows|cares|remembers|bothers|enforces))\b
            |[😄😅😂🙃🤦]""",
            _I,
        ),
    ),
    (
        "deixis",
        re.compile(
            r"""\b(?:this|that)\s+(?:[\w-]+\s+)?(?:pr|file|function|component|one|time|test|change|
            commit|branch|bug|method|class|page|module|notebook|script|query|error|screen|view|
            ticket|run|job|cell|draft|doc|endpoint|migration|table|model|service|hook|loop|
            message|thing|part|line|bit|output|result|trace|list|step|section|paragraph)\b
            |\b(?:
            for\s+this(?!\s+(?:repo|repository|project|codebase|team|company))|i\s+meant|
            the\s+one\s+above|above|below)\b
            |\b(?:you\s+just|just\s+(?:made|wrote|added))\b
            |^(?:please\s+)?(?:keep|make|leave|write|put|send|format|do)\s+(?:it|them)\b
            (?!\s+(?:when|whenever))""",
            _I,
        ),
    ),
    # Life outside the work: food, drink, the weather. Talk about it is chit-chat even with a
    # rule's words in it ("I prefer rainy days for deep work", "whoever breaks the build buys
    # croissants"); a rule for the agent has no use for these nouns.
    (
        "leisure",
        re.compile(
            r"""\b(?:coffee|tea|beers?|wine|rainy|sunny|lunch|breakfast|dinner|pizza|croissants?|
            donuts?|doughnuts?|cake|snacks?|gym)\b""",
            _I,
        ),
    ),
    # A pick among referents of this turn: "no, the other `parse_date`" points, it states nothing.
    # A pick among this turn's referents: "no, the other one", "not that migration, the one
    # before it".
    (
        "referent",
        re.compile(
            r"""^\W*(?:(?:no|nope|nah|wait)\W+)?the\s+other\s+(?!way\b)
            |\bnot\s+(?:that|this)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s*,\s*the\b
            |\bthe\s+one\s+(?:before|after|above|below|next\s+to)\b""",
            _I,
        ),
    ),
    # A third person ("he", "his", "she", "her"): a claim about a colleague's habits or
    # wishes ("Jonas always writes his commit messages in German"). A rule is about the
    # project, the agent or the speaker, and no rule in the development files names one.
    ("third_person", re.compile(r"\b(?:he|she|him|his|her|hers)\b", _I)),
    # A rule bounded by an event ahead: "until this ticket is merged", "until we ship".
    (
        "until_scope",
        re.compile(
            r"""\buntil\s+(?:this|that|these|those|we|i|you)\b
            |\buntil\s+(?:the\s+|[\w-]+'s\s+)(?:[\w-]+\s+){0,3}?(?:is|are|gets?|lands?|ends?|ships?|
            merges?|goes|comes)\b""",
            _I,
        ),
    ),
    # An opinion about the world: "concurrency is hard", "Kubernetes is overkill here".
    (
        "opinion",
        re.compile(
            r"""\b(?:is|are|'s|'re)\s+(?:so\s+|really\s+|very\s+|too\s+|pretty\s+|kind\s+of\s+)?
            (?:hard|easy|great|terrible|overkill|cool|awesome|weird|amazing|painful|fun|boring|
            hell|magic|underrated|overrated|the\s+best|the\s+worst|like)\b
            |\b(?:surprised|surprising|interestingly|strangely|oddly|funnily|classic)\b
            |^never\s+a\b|^always\s+the\s+same\b""",
            _I,
        ),
    ),
    # A claim about people, not a rule for them, unless it carries force ("everyone must ...").
    (
        "people_claim",
        re.compile(
            r"""^(?:our\s+|the\s+)?(?:most\s+|all\s+|many\s+|some\s+)?(?:developers|devs|people|engineers|
            programmers|users|customers|managers|everyone|everybody|
            (?:the\s+)?(?:[\w-]+\s+)?(?:team|folks|guys|devs|intern|interns))\b
            (?![^.]*\b(?:must|should|needs?\s+to|has\s+to|have\s+to|may\s+not|can'?t|cannot|
            allowed)\b)""",
            _I,
        ),
    ),
    # "the X should Y" with no general scope: how the code at hand should be fixed ("the
    # second argument should be the timeout"). A durable fact is stated with "is", "we use".
    (
        "local_should",
        re.compile(
            r"""\bthe\s+(?:[\w`.'-]+\s+){0,4}?should\b
            (?![^.]*\b(?:always|never|every|all|any|by\s+default|from\s+now\s+on)\b)""",
            _I,
        ),
    ),
    # A piece of the code at hand: "the loop should start at 1", "the index is off by one".
    (
        "code_local",
        re.compile(
            r"""\bthe\s+(?:loop|index|counter|offset|condition|bound|upper\s+bound|lower\s+bound|
            slice|range|variable|return\s+value|off-by-one|regex|assertion|bug|issue|problem|crash|
            typo|culprit)\b(?!\s+names?)
            |\blen\s*-\s*1\b""",
            _I,
        ),
    ),
    # A scope of this turn: "for this debug run", "in this notebook" (not "in this repo").
    (
        "turn_scope",
        re.compile(
            r"""\b(?:for|in|on|during)\s+this\s+(?!(?:repo|repository|project|codebase|code|team|
            company|org|organisation|organization|monorepo|firmware|app|site|game|service|
            package|workspace|stack)\b)\w+""",
            _I,
        ),
    ),
    # Repair of the conversation itself: "I meant the other one", "ignore that last message".
    (
        "repair",
        re.compile(
            r"""\bi\s+meant\b|\bi\s+(?:wanted|asked\s+for|was\s+asking)\b|\bnot\s+what\s+i\s+(?:expected|meant|wanted|asked)\b
            |\bignore\s+(?:that|this|my|the\s+last|what\s+i\s+said)\b|\bnever\s*mind\b
            |\bi\s+was\s+wrong\b|\bmy\s+(?:bad|mistake)\b|\bi\s+misspoke\b|\bscratch\s+that\b
            |\bi\s+stand\s+corrected\b""",
            _I,
        ),
    ),
    # A subject and a past-tense verb: "all the tests passed on my machine".
    (
        "past_subject",
        re.compile(
            r"""^(?:(?:the|our|all|every|each|my|this|that|these|those)\s+)?(?:[\w`'./-]+\s+){1,4}?
            (?:just\s+|never\s+|always\s+)?(?:[a-z]+(?<!e)ed|broke|went|ran|got|made|took|came|was|were)\b
            (?!\s+(?:by|with|in|to|as|from|into|under|via|through)\b)""",
            _I,
        ),
    ),
    # The speaker's own machine: what happens there is a report, not a rule.
    (
        "my_setup",
        re.compile(
            r"\bon\s+my\s+(?:laptop|machine|mac|phone|box|computer|pc|end|side|setup|desktop)\b", _I
        ),
    ),
    # The present moment: "now", "today", "for now", "at the moment".
    (
        "now",
        re.compile(
            r"""\b(?:(?<!from\s)now(?!\s+on\b)|right\s+now|today|tonight|tomorrow|yesterday|
            currently|at\s+the\s+moment|this\s+(?:week|sprint|morning|afternoon|quarter))\b""",
            _I,
        ),
    ),
    (
        "past",
        re.compile(
            r"""\b(?:was|were|did|didn'?t|wasn'?t|weren'?t|had|used\s+to|got|went|broke|
            last\s+(?:time|week|night|month))\b
            |\b(?:i|we|they|he|she|someone|you|just)\s+[\w-]+(?<!e)ed\b""",
            _I,
        ),
    ),
    # An imperative on a named artefact: "fix auth.py", "update the Button component".
    (
        "artefact_task",
        re.compile(
            r"""^(?:please\s+)?(?:can\s+you\s+)?(?:fix|update|change|refactor|rename|add|remove|
            delete|write|create|move|look|check|debug|profile|wire|implement|redo|make|convert|
            bump|run|open|draft|review|port|migrate|rewrite|replace|swap|tweak|adjust|edit|modify|
            simplify|extract|inline|revert|undo|try|clean\s+up)\b
            (?![^.]*\b(?:always|never|every|all|any|anything|from\s+now|going\s+forward|
            by\s+default|whenever)\b)""",
            _I,
        ),
    ),
    (
        "named_file",
        re.compile(
            r"""\b[\w/-]+\.(?:py|js|ts|tsx|jsx|go|rs|rb|java|kt|c|h|cpp|cs|swift|md|json|yaml|
            yml|toml|sql|sh|css|scss|html|ipynb|tf|proto)\b""",
            _I,
        ),
    ),
    # Present progressive: what is happening now ("customers are complaining").
    ("progressive", re.compile(r"\b(?:is|are|am|'re|'s)\s+(?!going\s+to)\w+ing\b", _I)),
    # A pronoun subject: about something in this conversation ("it always takes ages").
    ("pronoun_subject", re.compile(r"^(?:it|this|that|they|these|those|he|she)\b", _I)),
    # A pronoun that always/never/keeps doing something: a report ("it always takes ages").
    (
        "state_report",
        re.compile(r"^(?:it|this|that|they|he|she)\s+(?:always|never|keeps?|still)\b", _I),
    ),
    # A tag question ("..., don't they", "..., right"): asks, even without a question mark.
    (
        "tag_question",
        re.compile(
            r",\s*(?:(?:don'?t|doesn'?t|isn'?t|aren'?t|won'?t|can'?t|do|does|is|are)\s+(?:they|it|we|you|"
            r"i|he|she)|right|no|eh)\b\W*$"
            r"|,\s*(?:is|are|was|does|do|can|should)\s+(?:that|this|it)\s+(?:normal|ok|okay|"
            r"expected|right|fine|a\s+problem)\b",
            _I,
        ),
    ),
    ("question_word", re.compile(r"\b(?:can|could|would)\s+you\b|\bhow\s+do\s+i\b", _I)),
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
        "my_setup",
        "code_local",
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
    "deixis": ("this", "that", "meant", "above", "below", "just", " it", " them"),
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
    "code_local": ("the ", "len"),
    "my_setup": ("on my",),
    "turn_scope": ("this",),
    "until_scope": ("until",),
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
