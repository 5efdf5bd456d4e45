"""What a captured statement replaces: the deterministic, precision-first rule that decides
whether a statement the user made SUPERSEDES a stored belief, only CONTRADICTS it, or
leaves it alone (docs/AGENT.md; SYSTEM.md § Beliefs change).

Words. A text's *topic terms* are its word tokens, lower-cased, lightly stemmed
(``_stem``), without the keyword index's stopwords and without the words that carry a
statement's force rather than its subject (``FORCE_WORDS``, as written or stemmed:
always, never, use, prefer, actually, repository...): "No, we never use npm in this
repository. Always use pnpm for installing packages." is about {npm, pnpm, install,
package}. Two texts *share* the topic terms in both. A text *mentions* a term (one of a
statement's ``negated`` or ``asserted`` terms, possibly several words) when the term's
stemmed tokens occur in it, in order and side by side; where rule 1 looks for a ``negated``
term, a compound identifier also stands for its head ("SQLAlchemyJobStore" mentions
"sqlalchemy": ``head_words``).

The rule, over the candidates (live, current beliefs that are not document passages and
hold at least two of the statement's search terms in the keyword index, the newest 30 per
statement: ``Store.capture_candidates``):
1. A candidate is a *clear match* when it shares at least ``MIN_SHARED_CLEAR`` (2) topic
   terms with the statement, mentions one of its ``negated`` terms and none of its
   ``asserted`` terms: it says what the statement rules out, and not what it prescribes.
   A mention after a negation (``NEGATIONS`` among the two words before it: "never
   push", "do not push") does not count: a candidate whose every mention is one rules out
   the same thing, and agrees ("Never push directly to main" stands beside "Never push
   directly to the release branches"); it is left alone, as one that mentions an
   ``asserted`` term is (but not one naming it only as the value a change left, "we moved
   from black to ruff": "use black again, not ruff" goes back on that change).
2. Exactly one clear match: the statement SUPERSEDES it, unless it is locked (the user's
   word; a capture never retires it): then CONTRADICTS, and the lock outranks in
   retrieval. Any kind of statement (correction, preference, rule).
3. Several clear matches: the statement cannot say which it replaces: CONTRADICTS each.
4. No clear match, and the statement is a correction: each candidate sharing at least
   ``MIN_SHARED_UNCLEAR`` (3) topic terms that mentions none of the statement's
   ``asserted`` terms (one that does agrees with it) is CONTRADICTED: the user corrected
   something about the same subject, the store cannot tell what. Preferences and rules
   without a clear match touch nothing.
5. Nothing yet, and the statement *names* its change (both ``negated`` and ``asserted``
   terms) as a correction ("Actually we moved from npm to pnpm", "use pnpm, not npm") or as
   a change of tool told as done, whatever its kind (the ``changeover`` signal: "Moment was
   replaced by Luxon.", "The team moved from Moment to Luxon."; ``names_its_change``):
   each candidate that mentions a ``negated`` term plainly and no ``asserted`` one is
   CONTRADICTED, whatever else it shares (``named_groups`` looks them up): the old value
   is named outright, but one word is too little to tell which belief held it, so none is
   retired; retrieval shows each beside the statement. A term of digits or one letter
   ("8080, not 80") is no such name: too many beliefs hold it (``old_values``); nor, for a
   change told as done, a term the statement names only after a negation ("... to GitHub
   Actions; do not use docker in CI": another clause's, not the value replaced). A user who
   told the memory a tool was replaced expects "Date formatting uses Moment" no longer
   served as current, alone; a look-alike ("Bob was replaced by Alice as lead") disputes
   at most ``MAX_CONTRADICTS`` true beliefs, each still served, beside it. A plain rule
   "use pnpm, not npm" is no such change: its ``not`` rules out a word, often a common one.
   An old value the statement writes as an acronym ("We switched from REST to GraphQL":
   one word, two or more letters, all capitals, wherever the statement writes it) names
   that acronym, not the word: only a candidate writing the same capitals ("REST", or
   "RESTs") holds it; "The rest of the config lives in settings.py" does not
   (``acronyms``). Likewise an old value the statement writes as a call ("..., not in
   run()") names that function: only a candidate writing it as code (``run(``, ``.run``,
   `` `run` ``) holds it; "We always run the tests before committing" does not
   (``calls``).
6. Nothing from rules 1-3, and the statement goes back on a change (the ``going_back``
   signal: "Actually, go back to black"; ``returned_to``): a candidate naming the value it
   returns to as the value a change left ("we moved from black to ruff") is the change it
   reverts. Exactly one: SUPERSEDES (a lock: CONTRADICTS); several: CONTRADICTS each. They
   are looked up by the value's words alone, as rule 5's are (``named_groups``). A value
   ruled out beside the one that held ("on port 5433, not 5432") is a value left too, and a
   statement telling a value back again ("Staging is back on port 5432": ``back_again``,
   any value, a number too) reverts a candidate that left it and shares at least
   ``MIN_SHARED_CLEAR`` topic terms other than the value.
7. Nothing yet, and the statement tells a setting's value anew (the ``value_now`` signal:
   "port's 6380 now", "the timeout is 900 now"; ``told_anew``): a candidate holding another
   value of that setting ("dev redis is on port 6379": the setting's word, then within a word
   a value with a digit, a number for a number, a name for a name) and not the new one held
   the old value. It may share no other word ("port's 6380 now" names the port alone, as a
   terse user does), but when the statement names what the setting is of ("redis port's
   6380 now") the candidate names it too. The candidates are
   looked up by the setting's word (``named_groups``). Exactly one: SUPERSEDES (a lock:
   CONTRADICTS); several: CONTRADICTS each, since which one was meant is a guess. A new
   owner told so ("ken owns the scheduler now": the ``owner_now`` signal) is a value told
   anew too: a candidate naming another owner of a part sharing a word with it ("Priya owns
   the scheduler code.") held the old one (without "now" two owners may stand side by side).
At most ``MAX_CONTRADICTS`` (3) CONTRADICTS edges per statement, the candidates sharing
most terms first, then by keyword score, then by id.

A prompt's statements (``judge_prompt``). Each is judged alone first. When none of them
relates to anything, the prompt is judged as one statement (its texts joined, its negated
and asserted terms pooled, a correction if any is one), because a user's correction often
spans sentences the classifier splits ("No, we never use npm here. Always use pnpm for
installing packages.": the first sentence alone has one topic term). That verdict goes to
the statement whose own ``negated`` terms the replaced belief mentions (a correction
first), else to the first correction, else to the first statement. Everything is a
function of the statements and the candidates: same input, same verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from credo.store.fts import STOPWORDS
from credo.store.identifier import name_parts

MIN_SHARED_CLEAR = 2
# Words that rule out what follows them (as `words` leaves them: "don't" is don, t).
# ("can't" reads "can", "t"; "cannot" is one word: "patterns cannot use 10 MB" rules 10 MB
# out, and a correction "..., not 10 MB" retired it as a clear match, probe81)
NEGATIONS = frozenset({"never", "not", "no", "t", "cannot", "avoid", "stop", "nor"})
MIN_SHARED_UNCLEAR = 3
MAX_CONTRADICTS = 3
# Rule 5's old value holds a word of at least this many letters (``old_values``).
_NAME_CHARS = 3
# The signal of a change of tool told as done (``credo.knowledge.shape``): it names its old
# value as a correction does, so rule 5 reads it (``names_its_change``).
CHANGEOVER = "changeover"
# The signal of going back on a change ("Actually, go back to black"; knowledge/changeover.py).
GOING_BACK = "going_back"

# Words that say how strongly or in what scope something holds, not what it is about:
# counted as topic they would join every rule to every other ("always use ..." in "this
# repository"). Compared after stemming.
FORCE_WORDS = frozenset(
    """
    always never ever use uses used using prefer prefers preferred rather please instead
    actually wrong right correct incorrect no yes must should shall need needs sure from
    now forward going anymore any more longer repository repo project codebase team we us
    our let lets every each
    """.split()
)
_NOT_TOPIC = STOPWORDS | FORCE_WORDS

_WORD = re.compile(r"\w+", re.UNICODE)
# A compound identifier: capitalised parts run together ("SQLAlchemyJobStore", "JavaScript").
_COMPOUND = re.compile(r"\b[A-Z][A-Za-z0-9]*?[a-z0-9][A-Z][A-Za-z0-9]*\b")
# The words a class names its role by, after the thing it wraps: "SQLAlchemyJobStore" is a job
# store of SQLAlchemy, "RedisClientPool" a client pool of Redis. Only such a tail makes the
# rest a head: "JavaScript" is no script of Java, "WebSocket" no socket of the web,
# "PyInstaller" no installer of Py (review84: each was read as its head, and "we don't use
# Java" replaced "the backend services use JavaScript").
ROLE_PARTS = frozenset(
    """Adapter Adapters Backend Backends Broker Cache Client Clients Config Configs
    Configuration Connection Connector Context Dialect Driver Engine Error Exception Executor
    Extension Factory Handler Helper Helpers Job Jobs Listener Loader Lock Manager Middleware
    Mixin Options Plugin Pool Provider Queue Registry Repository Scheduler Serializer Service
    Session Settings Storage Store Transport Trigger Util Utils Worker Wrapper""".split()
)


class Statement(Protocol):
    """What the rule reads of a captured statement (credo.knowledge.capture.Statement)."""

    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def negated(self) -> tuple[str, ...]: ...
    @property
    def asserted(self) -> tuple[str, ...]: ...
    @property
    def signals(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stored belief the statement may replace (``score``: its keyword score)."""

    id: str
    content: str
    locked: bool = False
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class _Pooled:
    """A prompt's statements judged as one (``judge_prompt``)."""

    text: str
    kind: str
    negated: tuple[str, ...]
    asserted: tuple[str, ...]
    signals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    supersedes: str | None = None  # the one belief the statement replaces
    contradicts: tuple[str, ...] = ()  # beliefs it disagrees with, without replacing them
    # which step decided: clear, locked, several, unclear, named, back, anew, none
    rule: str = "none"


def _stem(word: str) -> str:
    """A light, deterministic suffix strip (both sides of every comparison go through it,
    so a miss loses a shared term, never invents one)."""
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """The stemmed, lower-cased word tokens of ``text``, in order."""
    return [_stem(w.lower()) for w in _WORD.findall(text)]


def topic_terms(text: str) -> frozenset[str]:
    """The stemmed words ``text`` is about (see the module docstring)."""
    found: set[str] = set()
    for word in _WORD.findall(text.lower()):
        stem = _stem(word)
        if len(stem) > 1 and not {word, stem} & _NOT_TOPIC:
            found.add(stem)
    return frozenset(found)


def search_terms(statement: Statement) -> list[str]:
    """The words to look candidates up by in the keyword index: the statement's own words
    (the index stems them itself) whose stem is a topic term, in first-seen order."""
    topic = topic_terms(statement.text)
    seen: dict[str, None] = {}
    for word in _WORD.findall(statement.text):
        if _stem(word.lower()) in topic:
            seen.setdefault(word.lower(), None)
    return list(seen)


def head_words(text: str, tokens: list[str]) -> list[str]:
    """``words(text)`` (``tokens``) with each compound identifier read as its head, one
    token for one: "we keep jobs in the SQLAlchemyJobStore" mentions "sqlalchemy" there.
    A statement ruling out "SQLAlchemy" rules out the store named after it."""
    if _COMPOUND.search(text) is None:
        return tokens
    return words(_COMPOUND.sub(lambda m: compound_head(m.group()), text))


def compound_head(name: str) -> str:
    """``name`` without the role words that end it (``ROLE_PARTS``; one part at least is
    kept): "SQLAlchemyJobStore" -> "SQLAlchemy", "JavaScript" -> "JavaScript"."""
    parts = name_parts(name)  # ("SQLAlchemyJobStore": SQL, Alchemy, Job, Store)
    end = len(parts)
    while end > 1 and parts[end - 1] in ROLE_PARTS:
        end -= 1
    return "".join(parts[:end])


def mentions(tokens: Sequence[str], term: str, *, plain: bool = False) -> bool:
    """Whether the stemmed ``tokens`` hold ``term``'s tokens side by side, in order; with
    ``plain``, once without a negation (`NEGATIONS`) among the two tokens before it."""
    needle = words(term)
    if not needle:
        return False
    width = len(needle)
    first = needle[0]
    return any(
        tokens[i] == first
        and list(tokens[i : i + width]) == needle
        and not (plain and NEGATIONS.intersection(tokens[max(0, i - 2) : i]))
        for i in range(len(tokens) - width + 1)
    )


# A change names its old value after these ("moved from black to ruff"): a candidate naming
# the statement's new value there left it, and does not agree with going back to it.
_LEFT = frozenset({"from", "off"})
# ... told as a change: a verb of one (stemmed as ``words`` stems it) in the few words before
# ("we moved everything away from", "migrated all services off"). "We read reports from
# postgres", "install from yarn's mirror", "deploy to production from staging" name a
# source, not a value a change left: going back to it reverts none of them.
_CHANGE = frozenset(
    "mov move switch migrat migrate chang change went gone go going transition port convert "
    "swap swapp shift revert away".split()
)
_CHANGE_REACH = 3  # words before "from"/"off" a change's verb may stand
_RULED_OUT = frozenset({"not", "no"})  # "5433, not 5432", "no lru_cache, ..."


def _named_as_left(tokens: Sequence[str], term: str) -> Iterator[bool]:
    """For each place ``tokens`` mention ``term``, whether it is named there as the value a
    change left ("moved from black to ...": right after "from" or "off", a verb of a change
    before that) or ruled out beside the one that holds ("on port 5433, not 5432", "no
    lru_cache, load them eagerly": right after "not" or "no", no negation before it)."""
    needle = words(term)
    width = len(needle)
    if not needle:
        return
    for i in range(len(tokens) - width + 1):
        if list(tokens[i : i + width]) == needle:
            yield (
                i > 1
                and tokens[i - 1] in _LEFT
                and not _CHANGE.isdisjoint(tokens[max(0, i - 1 - _CHANGE_REACH) : i - 1])
            ) or (i > 1 and tokens[i - 1] in _RULED_OUT and tokens[i - 2] not in NEGATIONS)


def _agrees(tokens: Sequence[str], term: str) -> bool:
    """Whether ``tokens`` mention ``term`` other than as the value a change left ("we moved
    from black to ruff" does not agree with "use black again, not ruff")."""
    return not all(_named_as_left(tokens, term))


def _left(tokens: Sequence[str], term: str) -> bool:
    """Whether ``tokens`` name ``term`` as the value a change left ("moved from black to ...")."""
    return any(_named_as_left(tokens, term))


def returned_to(statement: Statement) -> tuple[str, ...]:
    """The values a statement going back on a change returns to (its ``asserted`` terms
    holding a word of letters, a name of code's underscores aside: "lru_cache"): the change
    it reverts is the one that left them."""
    if GOING_BACK not in statement.signals:
        return ()
    return tuple(
        term
        for term in statement.asserted
        if any(
            (name := w.replace("_", "")).isalpha() and len(name) >= _NAME_CHARS
            for w in _WORD.findall(term)
        )
    )


# A value told as holding again: "staging is back on port 5432", "we're back to uv".
_BACK_AGAIN = re.compile(r"\bback\s+(?:on|to)\s", re.IGNORECASE)


def back_again(statement: Statement) -> tuple[str, ...]:
    """The values a statement tells as holding again ("Staging is back on port 5432": its
    ``asserted`` terms but "back"), whatever their form: a number too, since rule 6 reads
    them only in candidates sharing the statement's topic ("... on port 5433, not 5432")."""
    if GOING_BACK in statement.signals or not _BACK_AGAIN.search(statement.text):
        return ()
    return tuple(term for term in statement.asserted if term != "back")


def _other_owner(content: str, owner: str, part: frozenset[str]) -> bool:
    """Whether ``content`` names an owner other than ``owner`` of a part sharing a word with
    ``part`` (rule 7)."""
    from credo.knowledge.anew import owned

    named = owned(content)
    return bool(named and named[0] != owner and topic_terms(named[1]) & part)


def names_its_change(statement: Statement) -> bool:
    """Whether rule 5 reads ``statement``: a correction, or a change of tool told as done
    (the ``changeover`` cue: "Moment was replaced by Luxon", "the team moved from X to Y"),
    naming the new value as well as the old."""
    if not statement.asserted:
        return False
    return statement.kind == "correction" or CHANGEOVER in statement.signals


def old_values(statement: Statement) -> tuple[str, ...]:
    """The ``negated`` terms rule 5 disputes the holders of (``names_its_change``), each
    holding a word of letters (``npm``, ``yarn``): a number or a letter ("8080, not 80",
    "X, not Y") is in too many beliefs about other things to name one."""
    if not names_its_change(statement):
        return ()
    # A change told as done names its old value plainly ("from Travis", "Moment was
    # replaced"); a term it rules out after a negation is another clause's ("...; do not use
    # docker in CI"), no value the change replaced: its holders are left alone.
    told = words(statement.text) if statement.kind != "correction" else None
    return tuple(
        term
        for term in statement.negated
        if any(w.isalpha() and len(w) >= _NAME_CHARS for w in _WORD.findall(term))
        and (told is None or mentions(told, term, plain=True))
    )


def acronyms(statement: Statement) -> dict[str, str]:
    """Each ``old_values`` term the statement writes only as an acronym -> that form: one
    word of two or more letters, all capitals, the same wherever it appears ("REST")."""
    found: dict[str, str] = {}
    raw = _WORD.findall(statement.text)
    for term in old_values(statement):
        parts = _WORD.findall(term)
        if len(parts) != 1:
            continue
        forms = {w for w in raw if w.lower() == parts[0].lower()}
        form = forms.pop() if len(forms) == 1 else ""
        if form.isupper() and sum(map(str.isalpha, form)) >= 2:
            found[term] = form
    return found


def calls(statement: Statement) -> frozenset[str]:
    """The ``old_values`` terms of one word the statement writes as a call somewhere
    ("not in run()"): a function's name, not the word ("run")."""
    found: set[str] = set()
    for term in old_values(statement):
        parts = _WORD.findall(term)
        if len(parts) == 1 and re.search(rf"\b{re.escape(parts[0])}\(", statement.text, re.I):
            found.add(term)
    return frozenset(found)


def _holds_call(content: str, name: str) -> bool:
    """Whether ``content`` writes ``name`` as code (a call, an attribute or in backticks),
    once without a negation among the two words before it."""
    pattern = rf"(?:\b{re.escape(name)}\s*\(|\.{re.escape(name)}\b|`{re.escape(name)}\b)"
    return any(
        not NEGATIONS.intersection(words(content[: m.start()])[-2:])
        for m in re.finditer(pattern, content, re.I)
    )


def _holds_acronym(content: str, tokens: Sequence[str], form: str) -> bool:
    """Whether ``content`` (``tokens``: its ``words``) writes ``form`` in its capitals (a
    plural "s" allowed), once without a negation among the two tokens before it."""
    return any(
        (w == form or w == form + "s") and not NEGATIONS.intersection(tokens[max(0, i - 2) : i])
        for i, w in enumerate(_WORD.findall(content))
    )


def named_groups(statement: Statement) -> list[list[str]]:
    """The look-up groups of rule 5: each ``old_values`` term's words (a one-word group asks
    for beliefs holding that word: ``store.captures.term_pairs``); none for other statements."""
    from credo.knowledge.anew import owner_anew, told_anew  # (capture's: not the prompt hook's)

    terms = old_values(statement) + returned_to(statement)
    groups = [[w.lower() for w in _WORD.findall(term)] for term in terms]
    if (setting := told_anew(statement)) is not None:
        groups.append([setting[0]])  # rule 7: the setting's holders
    if (owner := owner_anew(statement)) is not None:
        groups.append(["owns", *sorted(topic_terms(owner[1]))])  # rule 7: the part's owners
    return [group for group in groups if group]


def judge(statement: Statement, candidates: Iterable[Candidate]) -> Verdict:
    """The verdict of the rule (module docstring) on ``statement`` and ``candidates``."""
    from credo.knowledge.anew import holds_other_value, owner_anew, told_anew  # (as above)

    topic = topic_terms(statement.text)
    old = old_values(statement)
    named = bool(old)  # rule 5 reads candidates sharing one word
    capitals = acronyms(statement) if named else {}
    code = calls(statement) if named else frozenset()
    back = returned_to(statement)  # rule 6 reads candidates sharing one word
    again = back_again(statement)  # ... and these, candidates sharing the topic
    about = topic.difference(*(words(term) for term in again))  # (the value is no topic)
    anew = told_anew(statement)  # rule 7 reads candidates sharing the setting's word
    # ... and, when the statement names what the setting is of ("redis port's 6380 now"),
    # one of those words too: the test server's port is no redis port (review88)
    of = topic.difference(*(topic_terms(told) for told in anew)) if anew else frozenset()
    owner = owner_anew(statement)
    part = topic_terms(owner[1]) if owner else frozenset()
    if len(topic) < MIN_SHARED_CLEAR and not named and not back and not anew:
        return Verdict()
    clear: list[tuple[int, Candidate]] = []
    unclear: list[tuple[int, Candidate]] = []
    outright: list[tuple[int, Candidate]] = []  # rule 5
    reverted: list[tuple[int, Candidate]] = []  # rule 6
    renewed: list[tuple[int, Candidate]] = []  # rule 7
    for candidate in candidates:
        held = topic_terms(candidate.content)
        shared = len(topic & held)
        if (
            anew is not None
            and holds_other_value(candidate.content, *anew)
            and (not of or of & held)
        ) or (owner is not None and _other_owner(candidate.content, owner[0], part)):
            renewed.append((shared, candidate))
        if shared < MIN_SHARED_CLEAR and not named and not back:
            continue
        tokens = words(candidate.content)
        heads = head_words(candidate.content, tokens)
        if any(_agrees(tokens, term) for term in statement.asserted):
            continue  # it says what the statement prescribes: it agrees
        if any(_left(tokens, term) for term in back) or (
            again
            and len(about & held) >= MIN_SHARED_CLEAR
            and any(_left(tokens, term) for term in again)
        ):
            reverted.append((shared, candidate))  # the change that left what it goes back to
        if shared < MIN_SHARED_CLEAR and not named:
            continue
        if any(
            mentions(tokens, term, plain=True) or mentions(heads, term, plain=True)
            for term in statement.negated
        ):
            if shared >= MIN_SHARED_CLEAR:
                clear.append((shared, candidate))
            elif any(
                _holds_acronym(candidate.content, tokens, capitals[term])
                if term in capitals
                else _holds_call(candidate.content, term)
                if term in code
                else mentions(tokens, term, plain=True)
                for term in old
            ):
                outright.append((shared, candidate))
        elif any(mentions(tokens, term) or mentions(heads, term) for term in statement.negated):
            continue  # it rules out what the statement rules out: it agrees
        elif shared >= MIN_SHARED_UNCLEAR:
            unclear.append((shared, candidate))
    if clear:
        return _one_or_several(clear, one="clear", several="several")
    if reverted:
        return _one_or_several(reverted, one="back", several="back")
    if renewed:
        return _one_or_several(renewed, one="anew", several="anew")
    if statement.kind == "correction" and unclear:
        return Verdict(contradicts=_best(unclear), rule="unclear")
    if outright:
        return Verdict(contradicts=_best(outright), rule="named")
    return Verdict()


def judge_prompt(statements: Sequence[Statement], candidates: Iterable[Candidate]) -> list[Verdict]:
    """One verdict per statement of one prompt (module docstring, "A prompt's statements").
    A candidate superseded by one statement is no candidate for the next."""
    pool = list(candidates)
    verdicts: list[Verdict] = []
    retired: set[str] = set()
    for statement in statements:
        verdict = judge(statement, (c for c in pool if c.id not in retired))
        if verdict.supersedes is not None:
            retired.add(verdict.supersedes)
        verdicts.append(verdict)
    if len(statements) < 2 or any(v != Verdict() for v in verdicts):
        return verdicts
    verdict = judge(_pooled(statements), pool)
    if verdict == Verdict():
        return verdicts
    verdicts[_lead(statements, pool, verdict)] = verdict
    return verdicts


def prompt_named_groups(statements: Sequence[Statement]) -> list[list[str]]:
    """``named_groups`` of a prompt's statements, each alone or pooled (``judge_prompt``)."""
    if not statements:
        return []
    return named_groups(statements[0] if len(statements) == 1 else _pooled(statements))


def _pooled(statements: Sequence[Statement]) -> _Pooled:
    return _Pooled(
        " ".join(s.text for s in statements),
        "correction" if any(s.kind == "correction" for s in statements) else statements[0].kind,
        tuple(dict.fromkeys(t for s in statements for t in s.negated)),
        tuple(dict.fromkeys(t for s in statements for t in s.asserted)),
        tuple(sorted({signal for s in statements for signal in s.signals})),
    )


def _lead(statements: Sequence[Statement], pool: list[Candidate], verdict: Verdict) -> int:
    """Which statement of a prompt carries a pooled verdict."""
    order = sorted(range(len(statements)), key=lambda i: (statements[i].kind != "correction", i))
    target = verdict.supersedes or verdict.contradicts[0]
    tokens = words(next(c.content for c in pool if c.id == target))
    for i in order:
        if any(mentions(tokens, term) for term in statements[i].negated):
            return i
    return order[0]


def _one_or_several(found: list[tuple[int, Candidate]], *, one: str, several: str) -> Verdict:
    """One candidate found is superseded (a lock only disputed: the user confirmed it);
    several are disputed, the best first, since which one the statement meant is a guess."""
    if len(found) == 1:
        only = found[0][1]
        if only.locked:
            return Verdict(contradicts=(only.id,), rule="locked")
        return Verdict(supersedes=only.id, rule=one)
    return Verdict(contradicts=_best(found), rule=several)


def _best(found: list[tuple[int, Candidate]]) -> tuple[str, ...]:
    ranked = sorted(found, key=lambda pair: (-pair[0], -pair[1].score, pair[1].id))
    return tuple(candidate.id for _, candidate in ranked[:MAX_CONTRADICTS])
