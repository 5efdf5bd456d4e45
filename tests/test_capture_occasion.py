"""Round 14's checks: a sentence bound to one occasion, and tastes that are no preference.

- A pass over the things at hand ("go through the configs and list ...") is one piece of work.
- A permission ("go ahead and ...") is granted for the act at hand.
- A third party's wish ("the client wants ...") is a request for this turn or hearsay.
- A sentence scoped to one named event ("for the Berlin workshop") holds for that event.
- A report behind a word about its urgency ("Not a priority, but ...") is a piece of work.
- A sentence that tells the hour ("it's 2am and ...") is anchored in the moment.
- "this once" / "this one time" scopes a sentence to this turn.
- "X is such a ...", "What a ...": an exclamation evaluates, it prescribes nothing.
- "That's a data issue": a diagnosis of the case at hand; "Good call using a set": praise.
- A taste for a time ("I hate Mondays"), a wish not to think about something or to be
  elsewhere ("I'd rather be hiking"), a thing's feeling for the speaker ("Jira hates me back")
  is a feeling.
- Pets, like food and the weather, are life outside the work ("I prefer cats to dogs").
- "Call it X, not Y" names the referent at hand, as "keep it short" acts on it.
- "list the ones that ..." asks for information; "every occurrence of X" is one edit's extent.

Each negative has a twin that must still be captured: the same content said to hold later, in
the speaker's own voice, or as an obligation. The wording is new, not taken from the labelled
files.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.knowledge.occasion import one_occasion

# (a sentence that states no standing rule, its twin that does)
PAIRS = [
    # a pass over the things at hand; the twin says when it is done
    (
        "Go through the Helm values files and bump every image tag that still points at 1.4.",
        "Always go through the Helm values files and bump every image tag before a release.",
    ),
    (
        "go through the migrations folder and zero-pad the file numbers",
        "Migration file numbers are always zero-padded to four digits.",
    ),
    # an information request that ends by asking for the list
    (
        "Check every Dockerfile and list the ones that still use alpine 3.14.",
        "Always check every Dockerfile for the alpine version before a release.",
    ),
    # a quantifier over the places of a text: the extent of one edit
    (
        "Rename every occurrence of `fooBar` to `foo_bar` in the utils module.",
        "Rename every `fooBar` helper to snake_case in new modules.",
    ),
    # naming the referent at hand
    (
        "Call it `fetch_orders`, not `get_orders`.",
        "Call helpers `fetch_*`, not `get_*`, in this codebase.",
    ),
    # a permission for the act at hand; the twin is a standing one
    (
        "go ahead and rebase my feature branch onto develop, nobody else uses it",
        "Whenever you need to, go ahead and rebase my feature branches onto develop.",
    ),
    # a third party's wish; the twin is the speaker's own, with the wish as its reason
    (
        "The venue manager wants printed badges for the hackathon only, because of the lanyards.",
        "I want every banner in the brand palette, because the marketing lead asked for that.",
    ),
    (
        "Signups are flat this quarter, the founder wants a funnel chart for the board deck.",
        "Funnel charts always start at zero on the y axis.",
    ),
    # one named event; the twin quantifies over every occasion
    (
        "Metric units only for the Berlin workshop, not imperial.",
        "Metric units only in every workshop handout, never imperial.",
    ),
    # a report behind a word about urgency; the twin states the rule outright
    (
        "Not a blocker, but the sidebar legend overlaps the map on small screens.",
        "Not a priority, but from now on footer links keep a 16px gap from the cookie banner.",
    ),
    # the hour of speaking
    (
        "it's 3am and the deploy dashboard is the only tab still open",
        "The deploy dashboard is the only place we roll back from.",
    ),
    # one occasion counted; the twin holds later
    (
        "this once, deploy straight to prod instead of staging",
        "Always deploy to staging before prod.",
    ),
    (
        "use yarn instead of pnpm this once, the lockfile is yarn's",
        "Use pnpm instead of yarn, always.",
    ),
    # an exclamation evaluates
    (
        "Elixir is such a lovely language for supervision trees",
        "Supervision trees in this repo are always declared in application.ex.",
    ),
    # praise of a call just made
    (
        "Good call using a set there, much cleaner.",
        "Sets over lists for membership checks, much cleaner.",
    ),
    # a diagnosis of the case at hand
    (
        "That's a timezone issue, not a parser bug.",
        "No, timestamps are stored in UTC, not local time.",
    ),
    (
        "That's a CSS thing, not a JS thing.",
        "That's the old stylesheet, we use `tokens.css` now, not `main.css`.",
    ),
    # a taste for a time, a wish not to think about it
    (
        "I hate Fridays and this Friday hates me right back",
        "I hate deploys on Fridays, never schedule one.",
    ),
    (
        "Honestly I'd rather be hiking than fixing CSS.",
        "Honestly I'd rather have plain CSS than Tailwind.",
    ),
    (
        "I hate Jira with a passion and Jira hates me back.",
        "I hate Jira tickets without acceptance criteria, always add them.",
    ),
    # pets are life outside the work; a bare "cat" is also the command
    (
        "I prefer cats to dogs, but that's another story.",
        "I prefer `bat` over `cat` when you show me a file.",
    ),
    (
        "I prefer not to think about how many cron jobs we have.",
        "I prefer systemd timers over cron jobs for anything new.",
    ),
]


@pytest.mark.parametrize(("negative", "twin"), PAIRS)
def test_a_one_occasion_sentence_is_not_captured_and_its_twin_is(negative: str, twin: str) -> None:
    assert extract_statements(negative) == []
    assert extract_statements(twin), twin


def test_a_third_party_wish_given_as_the_reason_keeps_the_speakers_preference() -> None:
    text = "I'd like every chart exported as SVG as well; the publisher wants that."
    assert [s.kind for s in extract_statements(text)] == ["preference"]


def test_an_information_request_still_names_its_form() -> None:
    core = "grep for every caller of the old client and list them"
    assert one_occasion(core, core, set(), directive=True) == "retrieval_task"


DURABLE = st.sampled_from(
    ["always", "never", "whenever you can,", "from now on,", "by default", "first"]
)
FORMS = st.sampled_from(
    [
        "go through the fixtures and {d} regenerate them",
        "go ahead and {d} run the linter",
        "the client wants {d} PDFs",
        "{d} it's 2am in the build logs",
    ]
)


@settings(max_examples=60, deadline=None)
@given(FORMS, DURABLE)
def test_a_durable_word_lifts_every_occasion_form(form: str, durable: str) -> None:
    sentence = form.format(d=durable).lower()
    assert one_occasion(sentence, sentence, set(), directive=False) is None


@pytest.mark.parametrize(
    ("core", "expected"),
    [
        ("i hate mondays", True),
        ("i love fridays, everything ships", True),
        ("i prefer mornings for this kind of work", True),
        ("i really hate winter deploys", False),  # a taste for deploys, not for a time
        ("i hate deploys on fridays", False),
    ],
)
def test_a_taste_for_a_time_is_the_speakers_own(core: str, expected: bool) -> None:
    from credo.knowledge.taste import own_time

    assert own_time(core) is expected


OCCASION_PHRASES = st.sampled_from(
    [
        "go ahead and",
        "go ahead with",
        "the client wants",
        "our lead would like",
        "my boss likes",
        "the team prefers",
        "the vendor insists",
        "the auditor asked for",
        "a customer requested",
        "for the demo",
        "at monday's retro",
        "for the launch party",
        "it's 2am",
        "it's 10:30",
        "it's 9 pm",
        "tomorrow",
        "only",
        ",",
        ".",
        "and",
        "every site",
        "x",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(OCCASION_PHRASES, max_size=8).map(" ".join))
def test_the_substring_gates_never_change_a_form(text: str) -> None:
    from credo.knowledge import occasion as oc

    for pattern, gate in (
        (oc._PERMISSION, ("ahead",)),
        (oc._THIRD_PARTY_WISH, oc._WISH_VERBS),
        (oc._CLOCK_TIME, ("am", "pm", ":")),
    ):
        if pattern.search(text):
            assert any(token in text for token in gate), (pattern.pattern, text)
