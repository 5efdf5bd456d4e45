"""Round 12's checks: forms of English that read as a rule to a cue matcher and are not one.

- A verb at the head of a sentence followed by a finite verb is a noun subject, not an
  imperative ("Build is green again").
- "like" before an auxiliary is a filler opening a question ("like is that possible ...").
- A note with its subject dropped that says what is still to do ("still need to tell Dana").
- The speaker's taste for a thing at hand ("I prefer the observatory at night") loses its
  preference frame as it already lost its taste; the old joke's simile ("I like my X, unlike
  my Y") is no preference either.
- "I read" is hearsay only with a source ("I read somewhere that ..."); "I read the diff
  anyway" is the speaker's habit, the reason for a preference.
- A taste bound to the speaker's time of day or year ("I prefer brewing stouts in winter") is
  about their life, as food and weather are.
- The speaker's machine ("on my laptop") makes a report, unless the sentence also prescribes
  or corrects: then it is the reason ("I review on my phone, so keep diffs narrow").
- A list item ends at its line: a line at the margin after it is a new sentence, and the
  bullet marker is not part of the sentence.

Each negative has a twin that must still be captured, so a check that swallows rules fails
here too.
"""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements
from credo.knowledge.prose import sentences

# (a prompt that states no rule, its twin that does)
PAIRS = [
    # a noun subject, not an imperative: the sentence reports a state
    (
        "Build is green again, the cache was stale.",
        "Build with `make release`, never with plain `make`.",
    ),
    (
        "Test was red again this morning, the fixture was stale.",
        "Test every migration against a copy of prod, never against prod itself.",
    ),
    # a filler before an auxiliary: the question goes on
    (
        "Can we drop the old tables at all? like is that possible with the backup policy",
        "Never drop a table before the backup policy allows it.",
    ),
    # what is left to do, its subject dropped
    (
        "still need to tell the vendor about the new IP range",
        "Always tell the vendor before the IP range changes.",
    ),
    # "I read" reports hearsay only with its source; else it is the speaker's habit
    (
        "I read somewhere that you should always use UUIDv7 for primary keys.",
        "don't bother writing a recap at the end of each answer, I read the diff anyway.",
    ),
    (
        "I read an article saying we should never use ORMs.",
        "I read code top-down, so put the public function first in any module you write for me.",
    ),
    # the speaker's machine: a report, unless the sentence prescribes with it as the reason
    (
        "Docker never starts on my laptop after an update.",
        "No, the API is on 8443, not 8080; 8080 is only on my laptop.",
    ),
    # a taste for the speaker's own time of day or year, nothing else: their life, not the work
    (
        "I prefer hiking on weekends, the trails are empty in the mornings",
        "I prefer small PRs over big ones, I review them in the evenings.",
    ),
    # the speaker's taste for a referent, or the old joke
    (
        "I prefer the corner desk in the afternoons, the window side gets too hot",
        "I prefer the `src/` layout for every new package.",
    ),
    (
        "I prefer my logs verbose, unlike my standups.",
        "I prefer my PR descriptions short: what, why, how to test.",
    ),
]


@pytest.mark.parametrize(("negative", "twin"), PAIRS, ids=[p[0][:40] for p in PAIRS])
def test_a_form_that_only_looks_like_a_rule_is_not_captured(negative: str, twin: str) -> None:
    assert extract_statements(negative) == []
    assert extract_statements(twin), twin


RECAP = (
    "back from lunch, recap:\n"
    "- bisect done, the bad commit was a91f3e2\n"
    "- still need to tell Dana\n"
    "nothing else changed, keep going with whatever was next"
)


def test_a_recap_list_is_not_glued_to_the_line_after_it() -> None:
    assert extract_statements(RECAP) == []


def _texts(prompt: str) -> list[str]:
    return [prompt[a:b] for a, b in sentences(prompt)]


def test_a_list_item_ends_at_its_line_and_loses_its_marker() -> None:
    assert _texts(RECAP) == [
        "back from lunch, recap:",
        "bisect done, the bad commit was a91f3e2",
        "still need to tell Dana",
        "nothing else changed, keep going with whatever was next",
    ]
    # an indented line continues the item; a lower-case line after plain prose continues it
    assert _texts("- prefer small PRs that\n  touch one package\n") == [
        "prefer small PRs that\n  touch one package"
    ]
    # so does a line at the margin after a line long enough to have been wrapped by hand
    wrapped = (
        "- keep every migration reversible and small enough to review in one sitting\n"
        "so no batching"
    )
    assert _texts(wrapped) == [wrapped[2:]]
    assert _texts("we rebase feature branches\nbefore every merge") == [
        "we rebase feature branches\nbefore every merge"
    ]
    assert _texts("1. run the linter\n2. run the tests") == ["run the linter", "run the tests"]


# (a sentence scoped to this turn or picking a referent, a durable twin with the same words)
SCOPES = [
    # "this" + the project's environment is not a scope of this turn
    (
        "In this notebook, always plot with seaborn.",
        "On this cluster batch jobs always go through `srun`, never `mpirun`.",
    ),
    (
        "For this debug run, always log every query.",
        "the tests for this library run with `nox`, not tox.",
    ),
    # "X is the Y one" picks a referent; "the Y one is ..." states a fact about it
    (
        "Nope, `Transform` is the local one.",
        "the staging bucket is `acme-stg`, the public one is only for the marketing site.",
    ),
    (
        "write three hints for exercise 4 (the fizzbuzz one), getting more specific each time",
        "no, the OPC UA server is on port 4841, not 4840; the default one is taken by SCADA.",
    ),
]


@pytest.mark.parametrize(("negative", "twin"), SCOPES, ids=[p[1][:40] for p in SCOPES])
def test_the_environment_and_a_described_one_are_not_this_turn(negative: str, twin: str) -> None:
    assert extract_statements(negative) == []
    assert extract_statements(twin), twin
