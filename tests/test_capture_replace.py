"""The rule that decides what a captured statement supersedes or contradicts
(credo.knowledge.replace): a table of cases, and its invariants under hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import Statement, extract_statements
from credo.knowledge.replace import (
    MAX_CONTRADICTS,
    Candidate,
    Verdict,
    judge,
    judge_prompt,
    mentions,
    search_terms,
    topic_terms,
    words,
)

NPM = Statement(
    text="No, we never use npm in this repository. Always use pnpm for installing packages.",
    kind="correction",
    origin="user_corrected",
    negated=("npm",),
    asserted=("pnpm",),
    signals=("correction", "rule"),
)


def statement(kind: str = "correction", **fields: object) -> Statement:
    base = {**NPM.__dict__, "kind": kind, **fields}
    return Statement(**base)  # type: ignore[arg-type]


def test_topic_terms_leave_out_stopwords_and_force_words() -> None:
    assert topic_terms(NPM.text) == {"npm", "pnpm", "install", "package"}
    assert search_terms(NPM) == ["npm", "pnpm", "installing", "packages"]
    assert topic_terms("We always prefer using it") == frozenset()


@pytest.mark.parametrize(
    ("term", "text", "found"),
    [
        ("npm", "We use npm to install", True),
        ("npm", "We use pnpm to install", False),  # a word, not a substring
        ("port 5432", "the port 5432 is taken", True),
        ("port 5432", "5432 is the port", False),  # side by side, in order
        ("packages", "each package", True),  # stemmed
        ("", "anything", False),
    ],
)
def test_mentions(term: str, text: str, found: bool) -> None:
    assert mentions(words(text), term) is found


CASES = [
    # (why, statement, candidates, verdict)
    (
        "one clear match is superseded",
        NPM,
        [Candidate("old", "We use npm to install packages")],
        Verdict(supersedes="old", rule="clear"),
    ),
    (
        "one shared term is not enough to retire: a correction naming its change contradicts",
        NPM,
        [Candidate("old", "Run npm test before pushing")],
        Verdict(contradicts=("old",), rule="named"),
    ),
    (
        "one shared term, and the statement names no new value: nothing",
        statement(asserted=()),
        [Candidate("old", "Run npm test before pushing")],
        Verdict(),
    ),
    (
        "one shared term, and the statement is a preference: nothing",
        statement(kind="preference"),
        [Candidate("old", "Run npm test before pushing")],
        Verdict(),
    ),
    (
        "a change named outright: every plain holder of the old value is contradicted",
        statement(text="Actually we moved from npm to pnpm."),
        [
            Candidate("a", "We use npm to install packages"),
            Candidate("b", "Run npm test before pushing"),
            Candidate("c", "Never call npm from the Makefile"),  # rules it out: agrees
            Candidate("d", "npm and pnpm both read .npmrc"),  # holds the new value: agrees
        ],
        Verdict(contradicts=("a", "b"), rule="named"),
    ),
    (
        "a number or a letter is too common an old value to dispute its holders by",
        statement(
            text="Actually the dev server port is 8080, not 80.",
            negated=("80",),
            asserted=("8080",),
        ),
        [Candidate("a", "Our line length limit is 80 characters")],
        Verdict(),
    ),
    (
        "a named old value beside a number: only the name's holders",
        statement(
            text="Actually we moved from npm 6 to pnpm.", negated=("npm", "6"), asserted=("pnpm",)
        ),
        [Candidate("a", "Python 6 is not out"), Candidate("b", "Run npm test")],
        Verdict(contradicts=("b",), rule="named"),
    ),
    (
        "a quantifier is no shared subject: a deploy rule only disputes a test rule",
        statement(
            text="We deploy on Fridays, not on every push.",
            negated=("push",),
            asserted=("fridays",),
        ),
        [Candidate("t", "Tests run in CI on every push")],
        Verdict(contradicts=("t",), rule="named"),
    ),
    (
        "a clear match outranks a one-word holder of the old value",
        statement(text="Actually we moved from npm to pnpm for installing packages."),
        [
            Candidate("a", "We use npm to install packages"),
            Candidate("b", "Run npm test before pushing"),
        ],
        Verdict(supersedes="a", rule="clear"),
    ),
    (
        'a mention after "cannot" rules it out, as after "can\'t": agrees (probe81)',
        NPM,
        [
            Candidate("a", "Our CI images cannot use npm to install packages"),
            Candidate("b", "Our CI images can't use npm to install packages"),
        ],
        Verdict(),
    ),
    (
        "a candidate that says what the statement prescribes agrees",
        NPM,
        [Candidate("old", "Install packages with pnpm, not npm")],
        Verdict(),
    ),
    (
        "a locked clear match is contradicted, never retired",
        NPM,
        [Candidate("old", "We use npm to install packages", locked=True)],
        Verdict(contradicts=("old",), rule="locked"),
    ),
    (
        "several clear matches are each contradicted",
        NPM,
        [
            Candidate("a", "We use npm to install packages"),
            Candidate("b", "npm installs the packages in CI"),
        ],
        Verdict(contradicts=("a", "b"), rule="several"),
    ),
    (
        "an unclear correction contradicts what shares three terms",
        statement(negated=(), asserted=("pnpm",)),
        [
            Candidate("a", "npm is how we install packages"),
            Candidate("b", "install packages offline"),  # two shared terms only
        ],
        Verdict(contradicts=("a",), rule="unclear"),
    ),
    (
        "a rule without a clear match touches nothing",
        statement(kind="rule", negated=(), asserted=("pnpm",)),
        [Candidate("a", "npm is how we install packages")],
        Verdict(),
    ),
    (
        "a preference supersedes under the clear rule",
        statement(kind="preference"),
        [Candidate("a", "We use npm to install packages")],
        Verdict(supersedes="a", rule="clear"),
    ),
    (
        "a change of tool told as done, a rule: every plain holder of the old value is disputed",
        statement(
            kind="rule",
            text="Moment was replaced by Luxon.",
            negated=("moment",),
            asserted=("luxon",),
            signals=("changeover",),
        ),
        [
            Candidate("a", "Date formatting in the web app uses Moment"),
            Candidate("b", "Never import Moment in new code"),  # rules it out: agrees
            Candidate("c", "Luxon and Moment both parse ISO dates"),  # holds the new value
        ],
        Verdict(contradicts=("a",), rule="named"),
    ),
    (
        'the same rule without the change\'s cue ("use Luxon, not Moment"): nothing',
        statement(
            kind="rule",
            text="Use Luxon, not Moment.",
            negated=("moment",),
            asserted=("luxon",),
            signals=("durable",),
        ),
        [Candidate("a", "Date formatting in the web app uses Moment")],
        Verdict(),
    ),
    (
        "a change told as done that names no new value disputes nothing",
        statement(
            kind="rule",
            text="We moved from weekly releases to daily releases.",
            negated=("weekly",),
            asserted=(),
            signals=("changeover",),
        ),
        [Candidate("a", "The weekly sync is on Monday")],
        Verdict(),
    ),
    (
        "a change told as done with a clear match still supersedes it",
        statement(
            kind="rule",
            text="Moment was replaced by Luxon for date formatting.",
            negated=("moment",),
            asserted=("luxon",),
            signals=("changeover",),
        ),
        [
            Candidate("a", "Date formatting in the web app uses Moment"),
            Candidate("b", "Moment is pinned in package.json"),
        ],
        Verdict(supersedes="a", rule="clear"),
    ),
    (
        "conflict76: an old value written as an acronym disputes only its capitals",
        statement(
            kind="rule",
            text="We switched from REST to GraphQL.",
            negated=("rest",),
            asserted=("graphql",),
            signals=("changeover",),
        ),
        [
            Candidate("a", "The rest of the config lives in settings.py"),
            Candidate("b", "The API is documented in docs/rest.md"),
            Candidate("c", "Every service exposes a REST endpoint for health checks"),
            Candidate("d", "Public RESTs are versioned under /v2"),
            Candidate("e", "We never expose REST on the admin port"),
        ],
        Verdict(contradicts=("c", "d"), rule="named"),
    ),
    (
        "conflict76: an acronym's capitals are the statement's only when it writes them so",
        statement(
            kind="correction",
            text="Actually we moved from rest to GraphQL; REST was slow.",
            negated=("rest",),
            asserted=("graphql",),
            signals=("changeover",),
        ),
        [Candidate("a", "The rest of the config lives in settings.py")],
        Verdict(contradicts=("a",), rule="named"),
    ),
    (
        "conflict76: a capitalised name is no acronym (one capital letter)",
        statement(
            kind="rule",
            text="We switched from Slack to Teams.",
            negated=("slack",),
            asserted=("teams",),
            signals=("changeover",),
        ),
        [Candidate("a", "Post deploy notices in the slack channel #deploys")],
        Verdict(contradicts=("a",), rule="named"),
    ),
    (
        "probe79: an old value written as a call disputes only beliefs writing that code",
        statement(
            kind="correction",
            text="No, that's wrong: the next run time is computed in _schedule_next_run, "
            "not in run().",
            negated=("run",),
            asserted=("_schedule_next_run", "computed"),
        ),
        [
            Candidate("a", "We always run the test suite with pytest -x before committing."),
            Candidate("b", "Our CI runs the tests on GitHub Actions."),
            Candidate("c", "Job.run() calls the job function and logs the result"),
            Candidate("d", "The scheduler calls job.run for each due job"),
            Candidate("e", "Never call `run` from a job function"),
        ],
        Verdict(contradicts=("c", "d"), rule="named"),
    ),
    (
        "probe79: a name written as a word is still read as a word",
        statement(
            kind="correction",
            text="Actually we moved from tox to nox for the test matrix.",
            negated=("tox",),
            asserted=("nox",),
        ),
        [Candidate("a", "The tox environments are listed in tox.ini")],
        Verdict(contradicts=("a",), rule="named"),
    ),
    (
        "probe79: going back to a value a change left replaces that change",
        statement(
            kind="correction",
            text="Actually, use black again, not ruff format.",
            negated=("ruff",),
            asserted=("black",),
        ),
        [
            Candidate("a", "We moved from black to ruff format for formatting."),
            Candidate("b", "Format the docs with black and ruff format"),  # names black: agrees
        ],
        Verdict(supersedes="a", rule="clear"),
    ),
    (
        "a statement with under two topic terms matches nothing",
        statement(text="Never use npm.", asserted=()),
        [Candidate("a", "We use npm to install packages")],
        Verdict(),
    ),
]


@pytest.mark.parametrize(
    ("statement_", "candidates", "verdict"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_the_rule(statement_: Statement, candidates: list[Candidate], verdict: Verdict) -> None:
    assert judge(statement_, candidates) == verdict


def test_contradictions_are_bounded_and_ordered() -> None:
    candidates = [
        Candidate(f"c{i}", "npm installs packages" + (" offline fast" if i % 2 else ""), score=i)
        for i in range(8)
    ]
    verdict = judge(NPM, candidates)
    assert verdict.rule == "several"
    assert len(verdict.contradicts) == MAX_CONTRADICTS
    # All share the same terms; the better keyword score first, then the id.
    assert verdict.contradicts == ("c7", "c6", "c5")


WORDS = st.sampled_from(
    "npm pnpm yarn install installing packages package deploy staging kamal never use the we "
    "always port 5432 5433 database".split()
)
TEXTS = st.lists(WORDS, min_size=1, max_size=10).map(" ".join)
CANDIDATES = st.lists(
    st.builds(Candidate, st.text("abcdef", min_size=1, max_size=3), TEXTS, st.booleans()),
    max_size=8,
    unique_by=lambda c: c.id,
)
STATEMENTS = st.builds(
    Statement,
    text=TEXTS,
    kind=st.sampled_from(["correction", "preference", "rule"]),
    origin=st.just("user_stated"),
    negated=st.lists(WORDS, max_size=2).map(tuple),
    asserted=st.lists(WORDS, max_size=2).map(tuple),
    signals=st.just(()),
)


@given(STATEMENTS, CANDIDATES, st.randoms())
def test_invariants(statement_: Statement, candidates: list[Candidate], rnd: object) -> None:
    verdict = judge(statement_, candidates)
    shuffled = list(candidates)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert judge(statement_, shuffled) == verdict  # order does not matter
    by_id = {c.id: c for c in candidates}
    if verdict.supersedes is not None:
        old = by_id[verdict.supersedes]
        assert not old.locked  # a lock is never retired
        tokens = words(old.content)
        assert any(mentions(tokens, t) for t in statement_.negated)
        assert not any(mentions(tokens, t) for t in statement_.asserted)
        assert len(topic_terms(old.content) & topic_terms(statement_.text)) >= 2
        assert verdict.contradicts == ()
    assert len(verdict.contradicts) <= MAX_CONTRADICTS
    assert len(set(verdict.contradicts)) == len(verdict.contradicts)
    if statement_.kind != "correction":
        assert verdict.rule in ("none", "clear", "locked", "several")


NO = statement(text="No, we never use npm in this repository.", asserted=())
RULE = statement(kind="rule", text="Always use pnpm for installing packages.", negated=())
OLD = Candidate("old", "We use npm to install packages")


def test_a_prompt_split_into_sentences_is_judged_as_one() -> None:
    assert judge(NO, [OLD]) == Verdict() and judge(RULE, [OLD]) == Verdict()
    # The verdict goes to the statement whose negated term the old belief mentions.
    assert judge_prompt([RULE, NO], [OLD]) == [Verdict(), Verdict(supersedes="old", rule="clear")]
    assert judge_prompt([NO], [OLD]) == [Verdict()]  # one statement: no pooling


def test_statements_judged_alone_take_precedence() -> None:
    deploy = statement(
        kind="rule",
        text="Never deploy on Fridays; deploy on Mondays",
        negated=("fridays",),
        asserted=("mondays",),
    )
    fridays = Candidate("fri", "We deploy on Fridays after the standup")
    verdicts = judge_prompt([NO, RULE, deploy], [OLD, fridays])
    assert verdicts == [Verdict(), Verdict(), Verdict(supersedes="fri", rule="clear")]


def test_a_candidate_is_retired_once_per_prompt() -> None:
    verdicts = judge_prompt([NPM, NPM], [OLD])
    assert [v.supersedes for v in verdicts] == ["old", None]


@given(st.lists(STATEMENTS, min_size=1, max_size=3), CANDIDATES)
def test_prompt_invariants(statements: list[Statement], candidates: list[Candidate]) -> None:
    verdicts = judge_prompt(statements, candidates)
    assert len(verdicts) == len(statements)
    retired = [v.supersedes for v in verdicts if v.supersedes is not None]
    assert len(retired) == len(set(retired))
    locked = {c.id for c in candidates if c.locked}
    assert not locked & set(retired)
    assert judge_prompt(statements, list(reversed(candidates))) == verdicts


NAMES = ["moment", "webpack", "celery", "jenkins", "nose", "kafka"]
HOLDERS = [
    "Date formatting uses {old}",
    "Never import {old} in new code",
    "{new} and {old} both ship a CLI",
    "The {old} config lives in the repo root",
    "Deploys go through the release checklist",
    "Run {old} before pushing",
]


@given(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(["rule", "preference", "correction"]),
    st.sampled_from([("changeover",), ("durable",), ()]),
    st.lists(st.sampled_from(HOLDERS), min_size=1, max_size=6, unique=True),
)
def test_a_named_change_disputes_only_plain_holders_of_the_old_value_and_retires_none(
    old: str, new: str, kind: str, signals: tuple[str, ...], forms: list[str]
) -> None:
    """capture75: rule 5 reads a change told as done (``changeover``) of any kind as it reads
    a correction; another rule or preference naming one word in common still touches nothing.
    Whatever the kind, rule 5 never retires (no SUPERSEDES from one shared word), disputes at
    most MAX_CONTRADICTS, and each disputed belief mentions the old value plainly and not the
    new one."""
    if old == new:
        return
    said = statement(
        kind=kind,
        text=f"{old.title()} was replaced by {new.title()}.",
        negated=(old,),
        asserted=(new,),
        signals=signals,
    )
    candidates = [
        Candidate(f"c{i}", form.format(old=old.title(), new=new.title()))
        for i, form in enumerate(forms)
    ]
    verdict = judge(said, candidates)
    assert verdict.supersedes is None
    assert len(verdict.contradicts) <= MAX_CONTRADICTS
    by_id = {c.id: words(c.content) for c in candidates}
    for found in verdict.contradicts:
        assert mentions(by_id[found], old, plain=True) and not mentions(by_id[found], new)
    if kind != "correction" and "changeover" not in signals:
        assert verdict == Verdict()
    elif any(
        mentions(by_id[c.id], old, plain=True) and not mentions(by_id[c.id], new)
        for c in candidates
    ):
        assert verdict.rule == "named" and verdict.contradicts


ACRONYMS = ["REST", "SQS", "JWT", "CSV", "ORM"]
ACRONYM_HOLDERS = [
    "The {low} of the setup is in the wiki",
    "Every service exposes a {up} endpoint",
    "Never add {up} to the admin port",
    "{title} handling lives in core",
    "The {up} clients are versioned under v2",
]


@given(
    st.sampled_from(ACRONYMS),
    st.sampled_from(["rule", "correction"]),
    st.lists(st.sampled_from(ACRONYM_HOLDERS), min_size=1, max_size=5, unique=True),
)
def test_an_old_value_written_in_capitals_disputes_only_beliefs_writing_them(
    old: str, kind: str, forms: list[str]
) -> None:
    """conflict76: "We switched from REST to GraphQL." named "rest" as rule 5 reads it and
    disputed "The rest of the setup ...". Each disputed belief now writes the acronym in its
    capitals plainly, and every plain holder of those capitals is disputed."""
    said = statement(
        kind=kind,
        text=f"We switched from {old} to GraphQL.",
        negated=(old.lower(),),
        asserted=("graphql",),
        signals=("changeover",),
    )
    candidates = [
        Candidate(f"c{i}", form.format(low=old.lower(), up=old, title=old.title()))
        for i, form in enumerate(forms)
    ]
    verdict = judge(said, candidates)
    capitals = {c.id for c in candidates if old in c.content.split() and "Never" not in c.content}
    assert verdict.supersedes is None
    assert set(verdict.contradicts) == capitals
    assert verdict.rule == ("named" if capitals else "none")


CALL_HOLDERS = [
    "We {name} the checks before every release",  # the word: no holder
    "The worker's {name}() method retries twice",
    "Each job calls self.{name} when it is due",
    "Use `{name}` only from the main thread",
    "Never call {name}() from a signal handler",  # rules it out too: agrees
    "{title} handling lives in core",  # the word again
]


@given(
    st.sampled_from(["run", "start", "flush", "load"]),
    st.lists(st.sampled_from(CALL_HOLDERS), min_size=1, max_size=6, unique=True),
)
def test_an_old_value_written_as_a_call_disputes_only_beliefs_writing_it_as_code(
    name: str, forms: list[str]
) -> None:
    """probe79: "the next run time is computed in _schedule_next_run, not in run()" named
    "run" as rule 5 reads it and disputed "We always run the test suite ..." and "Our CI runs
    the tests ...". Each disputed belief now writes the name as code (a call, an attribute,
    backticks) plainly, and every plain holder of the code is disputed (up to the bound)."""
    said = statement(
        kind="correction",
        text=f"No, it happens in _schedule_next, not in {name}().",
        negated=(name,),
        asserted=("_schedule_next",),
    )
    candidates = [
        Candidate(f"c{i}", form.format(name=name, title=name.title()))
        for i, form in enumerate(forms)
    ]
    verdict = judge(said, candidates)
    code = {
        c.id
        for c in candidates
        if any(mark in c.content for mark in (f"{name}()", f".{name}", f"`{name}`"))
        and "Never" not in c.content
    }
    assert verdict.supersedes is None
    assert set(verdict.contradicts) == code
    assert verdict.rule == ("named" if code else "none")


@given(
    st.sampled_from(["black", "pnpm", "celery", "moment"]),
    st.sampled_from(["ruff", "yarn", "rq", "luxon"]),
    st.sampled_from(["from", "off"]),
)
def test_going_back_replaces_the_change_that_left_the_value(
    back: str, left: str, away: str
) -> None:
    """probe79: "use black again, not ruff" was read as agreeing with "we moved from black to
    ruff" (it names black). A candidate naming the value only after "from"/"off" left it."""
    said = statement(
        kind="correction",
        text=f"Actually, use {back} again, not {left}.",
        negated=(left,),
        asserted=(back,),
    )
    change = Candidate("c", f"We moved {away} {back} to {left} for the builds")
    both = Candidate("d", f"The builds use {back} and {left} side by side")
    assert judge(said, [change]) == Verdict(supersedes="c", rule="clear")
    assert judge(said, [both]) == Verdict()


_TOKENS = st.lists(
    st.sampled_from(["from", "off", "black", "ruff", "format", "to", "use", "mov", "read"])
)


@given(_TOKENS, st.sampled_from(["black", "ruff format", "off", "from black", ""]))
def test_agreeing_and_left_read_each_mention_of_the_term_once(tokens: list[str], term: str) -> None:
    """``_agrees`` (a mention not named as the value a change left) and ``_left`` (a mention
    named so) read the same mentions (review79 folded capture80's near-copy into one scan)."""
    from credo.knowledge.replace import _agrees, _left, words

    needle = words(term)
    width = len(needle)
    after = [  # after "from"/"off", a verb of a change ("mov": "moved") at most 3 words before
        i > 1 and tokens[i - 1] in ("from", "off") and "mov" in tokens[max(0, i - 4) : i - 1]
        for i in range(len(tokens) - width + 1)
        if needle and tokens[i : i + width] == needle
    ]
    assert _agrees(tokens, term) == any(not a for a in after)
    assert _left(tokens, term) == any(after)


# days86 (a month on humanize): a value ruled out beside the one that holds ("5433, not
# 5432") was read as agreeing with a later word that it holds again, so the old word stayed
# current.
@pytest.mark.parametrize(
    ("said", "old", "rule"),
    [
        ("Staging is back on port 5432.", "No, staging is on port 5433, not 5432.", "back"),
        ("Actually, use npm, not pnpm.", "Use pnpm, not npm.", "clear"),
        ("Actually, go back to black.", "Use ruff format, not black, for formatting.", "back"),
    ],
)
def test_a_value_ruled_out_beside_another_is_replaced_when_it_holds_again(
    said: str, old: str, rule: str
) -> None:
    [told] = extract_statements(said)
    assert judge(told, [Candidate("old", old)]) == Verdict(supersedes="old", rule=rule)


@pytest.mark.parametrize(
    "old",
    [
        "The billing service is on v3, not v2.",  # another topic: "v2" alone names nothing
        "Never use port 5432, not even locally.",  # "not even": no value beside
        "Staging is on port 5432.",  # it agrees
    ],
)
def test_back_again_leaves_other_topics_and_agreement_alone(old: str) -> None:
    [told] = extract_statements("Staging is back on port 5432.")
    assert judge(told, [Candidate("old", old)]).supersedes is None


@given(
    thing=st.sampled_from(["staging", "the cache server", "the docs site"]),
    new=st.sampled_from(["5433", "8080", "9000"]),
    old=st.sampled_from(["5432", "8081", "7000"]),
)
def test_a_port_back_again_replaces_the_correction_that_ruled_it_out(
    thing: str, new: str, old: str
) -> None:
    [told] = extract_statements(f"{thing.capitalize()} is back on port {old}.")
    before = Candidate("c", f"No, {thing} is on port {new}, not {old}.")
    elsewhere = Candidate("e", f"The metrics exporter listens on port {new}, not {old}.")
    assert judge(told, [before]).supersedes == "c"
    assert judge(told, [elsewhere]).supersedes is None


def test_going_back_to_a_name_of_code_replaces_the_change_that_ruled_it_out() -> None:
    """days86: "no lru_cache, ..." then "Actually, go back to lru_cache": the going back
    read no value in "lru_cache" (its underscore) and the "no" before it as agreeing."""
    said = "Actually, go back to lru_cache for the translations; eager loading slowed import."
    [told] = extract_statements(said)
    changed = Candidate(
        "y", "We changed our mind on the cache: no lru_cache, we'll load them eagerly at import."
    )
    first = Candidate("x", "We decided to cache the translations with functools.lru_cache.")
    assert judge(told, [changed, first]) == Verdict(supersedes="y", rule="back")
