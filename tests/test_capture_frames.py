"""Round 13's checks: a sentence's standing is set by what frames it.

- A list under a lead-in line that names a plan for something ahead, answers to the agent's
  questions, a record (notes to self, meeting notes) or a text handed over to be checked or
  tidied: its items are not standing rules, unless one says it outlasts the frame ("from now
  on"), or, for an answer, quantifies over what is to come ("everything new ...").
- A nominal hedge ("my hunch is", "my gut says", "I have a feeling") reports a guess.
- A disclaimer ("I'm not saying we should always ...") takes the rule words back.
- A recap or summary for the speaker themselves reports, as a note to self does.

Each negative has a twin that must still be captured: the same items under a lead-in that
frames rules ("Rules for this repo:"), or the same claim stated outright. The wording is new,
not taken from the labelled files.
"""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements, sentence_cues
from credo.knowledge.list_frame import list_frames

ITEMS = (
    "\n\n1. Everyone commits to `spike/` branches, never to main.\n"
    "2. No new dependencies without asking the group.\n"
    "3. We always present from the projector laptop.\n"
)

# (a prompt that states no standing rule, its twin that does)
PAIRS = [
    # a plan for one event: its items are that event's steps
    ("Here's the plan for the offsite on Thursday:" + ITEMS, "Rules for this repo:" + ITEMS),
    ("Agenda for tomorrow's game jam:" + ITEMS, "House rules, please follow them:" + ITEMS),
    # a text handed over to be checked: its items are that text's words
    ("Draft for the onboarding doc, proofread it please:" + ITEMS, "Our team rules:" + ITEMS),
    # a record: notes to self, the minutes of a meeting (lead-ins after the first sentence)
    ("Good call earlier, thanks.\n\nNotes to self:" + ITEMS, "Good call.\n\nConventions:" + ITEMS),
    ("Long week. Minutes of the standup:" + ITEMS, "Long week. Conventions here:" + ITEMS),
    # answers to the agent's questions: each answers this turn
    (
        "answers to your questions:\n1. yes, the blue one\n2. no, 5 retries is fine\n",
        "Two things:\n1. yes, the blue one\n2. never retry a payment call more than once\n",
    ),
    # a nominal hedge reports a guess; stated outright, the same claim corrects
    (
        "My hunch is the vendor's sample file is wrong, not our parser.",
        "No, the vendor's sample file is the reference, not our parser: always match it.",
    ),
    (
        "My gut says the cache layer is wrong, not the ORM.",
        "The cache layer is never the source of truth, the ORM is.",
    ),
    # a disclaimer takes the rule words back
    (
        "I'm not saying we should always squash, I'm saying it helped a lot.",
        "We always squash feature branches before merging.",
    ),
    # a recap for the speaker is a note to self
    (
        "Recap for myself: the importer is fixed, the export still drops the header.",
        "Recap for you: the importer is fixed, and exports always keep the header row.",
    ),
]


@pytest.mark.parametrize(("negative", "twin"), PAIRS)
def test_a_framed_sentence_is_not_captured_and_its_twin_is(negative: str, twin: str) -> None:
    assert extract_statements(negative) == [], negative
    assert extract_statements(twin), twin


def test_an_answer_that_quantifies_over_what_is_to_come_is_kept() -> None:
    prompt = (
        "answers to your questions:\n"
        "1. yes, keep the old route for now\n"
        "2. no — the old queue is only for billing; everything new publishes to the event bus\n"
    )
    texts = [s.text for s in extract_statements(prompt)]
    assert any("everything new publishes" in t for t in texts), texts


def test_an_answer_that_names_a_standing_constraint_is_read() -> None:
    prompt = "answers:\n1. yes\n2. at most 2 exports per user per hour, that's a hard limit\n"
    _, sentence, fired = sentence_cues(prompt)[-1]
    assert sentence.endswith("hard limit") and fired is not None


def test_a_word_for_later_sessions_outlasts_the_frame() -> None:
    prompt = (
        "Plan for the release on Friday:\n"
        "- bump the version\n"
        "- from now on, never tag a release by hand, the workflow does it\n"
    )
    assert extract_statements(prompt)


def test_the_frame_covers_its_list_only() -> None:
    prompt = (
        "ok plan for tonight:\n1. finish the import\n2. look at the crash\n\n"
        "Also, in general: I'd rather you show me the numbers than tell me it's faster.\n"
    )
    texts = [s.text for s in extract_statements(prompt)]
    assert any("show me the numbers" in t for t in texts), texts
    text = "Plan for the hackathon:\n\n- a\n- b\n\nAnything missing?\n- c\n"
    ((start, end, frame),) = list_frames(text)
    assert frame == "plan"
    assert text[start:end] == "Plan for the hackathon:\n\n- a\n- b"  # round 15: the lead too


def test_a_text_to_turn_into_rules_is_not_a_text_to_review() -> None:
    assert extract_statements("Tidy these into our team conventions:" + ITEMS)
    assert not extract_statements("Tidy these into a wiki page for the offsite:" + ITEMS)


def test_a_lead_that_frames_rules_names_no_frame() -> None:
    for lead in ("Rules for this repo:", "Context for today, since you forget:", "Recap for you:"):
        assert list_frames(lead + "\n- never push to main\n") == [], lead
