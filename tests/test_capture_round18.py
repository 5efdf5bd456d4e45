"""Round 18 of capture: sentences whose force stops short of a later session
(``credo.knowledge.beyond``: a third party's norm, a report the speaker rejects, a time box, an
open question, a pick, assent, a line of the file, a command line), a prepositional phrase
read as a bare subject, and a passing state with a degree word. Each negative here is
captured by round 17's classifier; its twin, a rule of the same shape, must still be
captured. The wording is new, not a development file's."""

from __future__ import annotations

import pytest

from credo.knowledge.beyond import bounded
from credo.knowledge.capture import extract_statements
from credo.knowledge.evidence import lone
from credo.knowledge.state import unstanding


def _captured(prompt: str) -> bool:
    return bool(extract_statements(prompt))


@pytest.mark.parametrize(
    "prompt",
    [
        # a third party's norm as the subject
        "Priya's rule is that every migration gets a rollback script.",
        "Marco's suggestion is that we always squash before merging.",
        # a report the speaker rejects in the same sentence
        "the last contractor said we should always vendor the SDK, which I'm not ok with.",
        # a time box
        "for the next hour only touch the importer, leave the CLI alone",
        "for the next 2 days I'm on support so keep changes small and ask before pushing anything",
        "short answer please, I'm about to go into a review",
        # an open question
        "Security is still debating whether session tokens count as secrets.",
        # a pick
        "plan C it is",
        # assent
        "ok great, that works for me",
        # a line of the file at hand
        "no, that's the line before, 88 not 89",
        # a command line
        "cargo run --release --bin sim",
        "docker run --rm -it api",
        # a prepositional phrase is no bare subject
        "for the load test run, raise the pool size to 64 first",
        # a passing state with a degree word
        "the yarn to pnpm move is half done, yarn still runs in the old apps",
    ],
)
def test_a_sentence_bounded_to_this_turn_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Every migration gets a rollback script.",  # the norm stated, not reported
        "We always squash before merging.",
        "Our rule is that every PR must link its ticket.",  # the team's own
        "We always vendor the SDK, never fetch it at build time.",
        "Only touch the importer through its public API, never its internals.",
        "Session tokens count as secrets: never log them.",
        "Keep replies terse, I read them on my phone, always.",
        "That works best for me: diffs, not whole files.",  # a taste, not assent
        "Lines are at most 100 characters.",  # "line" but no line of a file
        "Always run terraform plan before terraform apply.",  # a command named in a rule
        "Pool sizes are 64 in prod.",
        "Migrations are expand/contract, never a destructive change in one step.",
    ],
)
def test_its_twin_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)


@pytest.mark.parametrize(
    ("core", "form"),
    [
        ("lena's rule is that every pr has a screenshot", "third_party"),
        ("our old lead's rule was never deploy on fridays", "third_party"),
        ("the team's rule is that every pr has a screenshot", None),
        ("the previous agent said we should always skip hooks, which i am not ok with", "rejected"),
        ("for the next hour only work on the parser", "time_box"),
        ("keep it short, i'm about to jump on a call", "time_box"),
        ("legal is still discussing whether logs count as personal data", "open"),
        ("option b it is", "pick"),
        ("cool, that works for me", "assent"),
        ("no, it's the line after, 12 not 11", "line"),
        ("kubectl rollout status deploy/api -n web", "command"),
        ("always pass --frozen-lockfile to pnpm install", None),
        ("timestamps are utc everywhere", None),
    ],
)
def test_bounded_names_the_form(core: str, form: str | None) -> None:
    assert bounded(core) == form


def test_a_degree_word_keeps_a_passing_state() -> None:
    assert unstanding("the vitest move is half done") == "passing_state"
    assert unstanding("the vitest move is mostly finished") == "passing_state"
    assert unstanding("the audit log is append-only") is None


# --- one fact cue alone (knowledge/evidence.py) ------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        # blind, this path was 0.59 precise: reports and fragments with a subject and a verb
        "the old endpoint still gets 300 calls an hour",
        "we use it in the billing worker",
        # the recall this round spends: bare facts that earlier rounds captured
        "Money is integer cents.",
        "The mirror is read-only.",
    ],
)
def test_one_fact_cue_alone_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Money is integer cents everywhere.",  # a second piece of evidence: scope
        "The mirror is always read-only.",  # ... a quantifier over occasions
        "Money is integer cents. You wrote floats in the invoice model.",  # the agent's mistake
        "The mirror is read-only, you pushed to it again.",
        "Generated code lives in the `gen/` folder.",  # a token of the code
        "Our API returns snake_case JSON.",
        "The integration tests need the emulator on port 8085.",
    ],
)
def test_a_second_piece_of_evidence_keeps_it(prompt: str) -> None:
    assert _captured(prompt)


def test_lone_names_one_fact_cue_and_nothing_else() -> None:
    assert lone({"fact_subject"})
    assert lone({"bare_subject", "first_person", "short"})  # not evidence: kind and length
    assert not lone({"bare_subject", "habitual"})  # two fact cues agree
    assert not lone({"fact_subject", "universal"})
    assert not lone({"bare_subject", "directive"})  # measured, not taken
    assert not lone({"taste"})
    assert lone({"fact_subject"}, "the exhibit list is 41 pages")
    assert not lone({"fact_subject"}, "the base path is /api/v2")
    assert not lone({"bare_subject"}, "Config lives in `settings.toml`.")
