"""Negative shape cues: the forms of one-off talk (``credo.knowledge.shape``).

Deixis to this turn, the past, hedges, hearsay, complaints, reports of a state, questions in
disguise: each pattern names one form a sentence takes when it is not a rule, preference or
correction for later. ``shape.CUES`` lists these after the positive shapes; some are strong
enough to veto a sentence (``shape.VETO_CUES``). Every pattern reads the lower-cased sentence.
"""

from __future__ import annotations

import re

from credo.knowledge.retraction import NOT_A_RULE_TAKEN_BACK

_I = re.VERBOSE  # every cue reads the lower-cased sentence: faster than IGNORECASE

NEGATIVE_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
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
    # Hearsay: what someone else says. "I read" reports only with its source ("I read
    # somewhere that ..."); "I read the diff anyway" is the speaker's habit, a preference's reason.
    (
        "hearsay",
        re.compile(
            r"""\b(?:i\s+was\s+told|(?:he|she|they|someone|people|my\s+\w+|the\s+\w+)\s+
            (?:says?|said|thinks?|told\s+me|claims?)|according\s+to|apparently|supposedly|
            i\s+heard|i\s+read\s+(?:somewhere|that|about|online|(?:it|this)\s+(?:somewhere|online|on|in)|
            an?\s+(?:article|post|blog|thread|paper|book))|keeps?\s+saying|(?:is|are|was|were)\s+saying|
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
            message|thing|part|line|bit|output|result|trace|list|step|section|paragraph|command|
            snippet)\b
            |\b(?:
            for\s+this(?!\s+(?:repo|repository|project|codebase|team|company))|i\s+meant|
            (?:in|to|for|of|on)\s+the\s+new\s+(?:[\w-]+\s+)?(?:file|tests?|endpoint|component|
            module|function|class|migration|page|script|screen|view|service|handler|route|job|
            table|model|hook|method|client|branch|pr|commit|notebook|cell|fixture|helper|query)|
            the\s+one\s+above|above|below)\b
            |\b(?:you\s+just|just\s+(?:made|wrote|added))\b
            |^(?:please\s+)?(?:keep|make|leave|write|put|send|format|do|call|name|label|title)\s+
            (?:it|them)\b
            (?!\s+(?:when|whenever))""",
            _I,
        ),
    ),
    # Life outside the work: food, drink, the weather, pets (round 14: "my cat just walked
    # across the keyboard" in eight files by eight authors). Talk about it is chit-chat even
    # with a rule's words in it ("I prefer rainy days for deep work", "whoever breaks the build
    # buys croissants", "I prefer cats to dogs"); a rule for the agent has no use for these
    # nouns. A bare "cat" is left out: it is also the command.
    (
        "leisure",
        re.compile(
            r"""\b(?:coffee|tea|beers?|wine|rainy|sunny|lunch|breakfast|dinner|pizza|croissants?|
            donuts?|doughnuts?|cake|snacks?|gym|cats|dogs|pupp(?:y|ies)|kittens?|
            (?:my|our|office)\s+(?:cat|dog))\b""",
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
    # A person named by their role does the same when a habit follows ("the structural
    # engineer always sends the grid in feet", "my lead keeps saying"), unless the sentence
    # binds them ("the reviewer must ..."). "client" and "users" are left out: software too.
    (
        "third_person",
        re.compile(
            r"""\b(?:he|she|him|his|her|hers)\b
            |^(?:the|our|my|their)\s+(?:[\w-]+\s+)?(?:customer|engineer|designer|manager|boss|pm|
            vendor|reviewer|colleague|co-?worker|intern|contractor|architect|accountant|editor|
            professor|teacher|supervisor|advisor|landlord|partner|lead|cto|ceo|sysadmin|dba|
            auditor|consultant|agency|translator|tester|analyst|scientist|researcher|student)s?
            \s+(?:always|never|usually|often|keeps?|constantly|still)\b
            (?![^.]*\b(?:must|should|needs?\s+to|has\s+to|have\s+to|may\s+not|can'?t|cannot)\b)""",
            _I,
        ),
    ),
    # A rule bounded by an event ahead: "until this ticket is merged", "until we ship"; round 16:
    # "till then", an event named just before ("... comes in on wednesdays, so I'll hold it
    # till then").
    (
        "until_scope",
        re.compile(
            r"""\buntil\s+(?:this|that|these|those|we|i|you)\b|\b(?:until|till|til)\s+then\b
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
            |\b(?:is|are|'s|'re)\s+(?:always\s+|usually\s+|just\s+|so\s+|such\s+)?
            (?:a\s+|an\s+|pure\s+|total\s+)?(?:chaos|mess|zoo|circus|madness|disaster|nightmare|
            pain|lottery|gamble|joke|headache|minefield|dumpster\s+fire|brutal|insane|wild|cursed)\b
            |\b(?:surprised|surprising|interestingly|strangely|oddly|funnily|classic)\b
            |^never\s+a\b|^always\s+the\s+same\b
            |\b(?:is|are|'s|'re)\s+such\s+an?\b|^what\s+an?\b""",
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
    # A piece of the code at hand: "the loop should start at 1", "the index is off by one";
    # round 14, a diagnosis of the case at hand: "That's a data issue, not code", "it's a CSS
    # thing" (a durable fact names its thing definitely: "that's the old namespace").
    (
        "code_local",
        re.compile(
            r"""\bthe\s+(?:(?:inner|outer|nested|first|second|third|last|final|main|while|for)\s+)?
            (?:loop|index|counter|offset|condition|bound|upper\s+bound|lower\s+bound|
            slice|range|variable|return\s+value|off-by-one|regex|assertion|bug|issue|problem|crash|
            typo|culprit)\b(?!\s+names?)
            |\b(?:that|it|this)(?:'s|\s+is)\s+an?\s+(?:[\w-]+\s+)?(?:issue|problem|bug|glitch|thing)\b
            |\blen\s*-\s*1\b|\b\w+\([^()]*\)\s*[-+]\s*1\b""",
            _I,
        ),
    ),
    # A scope of this turn: "for this debug run", "in this notebook" (not "in this repo", nor
    # the project's environment: "on this cluster it's always `srun`"; nor named with one word
    # before it, "in this Django project", "in this Rust crate", probe92); and one occasion
    # counted (round 14: "this once, go ahead and force-push", "this one time").
    (
        "turn_scope",
        re.compile(
            r"""\b(?:for|in|on|during)\s+this\s+(?!(?:[\w.+#-]+\s+)?
            (?:repo|repository|project|codebase|code|team|company|org|organisation|organization|
            monorepo|firmware|app|site|game|service|package|workspace|stack|cluster|server|host|
            machine|board|device|mcu|network|database|db|schema|platform|cloud|account|tenant|
            environment|library|lib|crate)\b)\w+
            |\bthis\s+(?:once|one\s+time)\b""",
            _I,
        ),
    ),
    # Repair of the conversation itself: "I meant the other one", "ignore that last message".
    (
        "repair",
        re.compile(
            r"""\bi\s+meant\b|\bi\s+(?:wanted|asked\s+for|was\s+asking)\b|\bnot\s+what\s+i\s+(?:expected|meant|wanted|asked)\b
            |\bignore\s+(?:that|this|my|the\s+last|what\s+i\s+said)\b|\bnever\s*mind\b"""
            + NOT_A_RULE_TAKEN_BACK
            + r"""|\bi\s+was\s+wrong\b|\bmy\s+(?:bad|mistake)\b|\bi\s+misspoke\b|\bscratch\s+that\b
            |\bi\s+stand\s+corrected\b""",
            _I,
        ),
    ),
    # A verdict on what the agent made this turn: "The config you had is fine", "what you
    # wrote looks good". It approves a referent; it states nothing for later. So does assent
    # to its proposal, said as the whole sentence: "that works for me", "yes go for the
    # plan you described".
    (
        "verdict",
        re.compile(
            r"""\byou(?:'ve|\s+have)?\s+(?:had|have|wrote|made|added|did|proposed|suggested|
            picked|chose)\b[^,.;]*?\b(?:is|are|was|were|looks?|seems?)\s+(?:fine|ok|okay|good|
            great|correct|right)\b
            |^(?:(?:yes|yeah|yep|ok|okay|sure)\W+)*(?:(?:that|this|it)(?:'s|\s+is)?\s+(?:works?|
            sounds?\s+\w+|looks?\s+\w+|fine|good)\s+(?:for|to|by)\s+me\b|(?:go|going)\s+
            (?:for|with|ahead\s+with)\s+(?:the|your)\s+(?:plan|option|approach|one|idea|version|
            proposal)(?:\s+you\s+\w+)?)(?:\W+(?:thanks|thx|ty))?\W*$""",
            _I,
        ),
    ),
    # A subject and a past-tense verb: "all the tests passed on my machine"; round 15, a
    # finding's verbs ("TLC found a counterexample ..., so X is wrong").
    (
        "past_subject",
        re.compile(
            r"""^(?:(?:the|our|all|every|each|my|this|that|these|those)\s+)?(?:[\w`'./-]+\s+){1,4}?
            (?:just\s+|never\s+|always\s+)?(?:[a-z]+(?<!e)ed|broke|went|ran|got|made|took|came|was|were|
            found|caught|saw)\b
            (?!\s+(?:by|with|in|to|as|from|into|under|via|through)\b)""",
            _I,
        ),
    ),
    # The speaker's own machine: what happens there is a report, not a rule, unless the
    # sentence also prescribes (``capture.cues`` checks: "I review on my phone, so ...").
    (
        "my_setup",
        re.compile(
            r"\bon\s+my\s+(?:laptop|machine|mac|phone|box|computer|pc|end|side|setup|desktop)\b", _I
        ),
    ),
    # The present moment: "now", "today", "for now", "at the moment". Not a name in code:
    # "datetime.now", "date.today()" say which call to make, not when.
    (
        "now",
        re.compile(
            r"""(?<!\.)\b(?:(?<!from\s)now(?!\s+on\b)|right\s+now|today|tonight|tomorrow|
            yesterday|currently|at\s+the\s+moment|this\s+(?:week|sprint|morning|afternoon|
            quarter))\b(?!\()""",
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
