"""Round 8 of capture: a rule or a preference has normative force and general scope. Reports of
what is going on, findings, plans, appointments, the spec of what this turn builds, questions
put as imperatives, and machine-shaped lines are not captured; a user's reply under a quoted
line of the agent is read as prose."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements, sentence_cues
from credo.knowledge.mood import descriptive


def _scored(prompt: str) -> list[str]:
    """The sentences of ``prompt`` that reach the score (not vetoed, not pasted)."""
    return [sentence for _, sentence, fired in sentence_cues(prompt) if fired is not None]


DESCRIPTIONS = [
    ("ongoing", "i'm handing the release over to sam, so the notes go in the wiki"),
    ("ongoing", "the worker is retrying every job twice"),
    ("finding", "looks like the cron runs in utc, not local time"),
    ("finding", "the 40 failed orders are all from one region, which tracks with the tax bug"),
    ("finding", "the service reads its config from consul everywhere i think"),
    ("plan", "the plan is to drop python 3.8 next quarter, but nothing is booked"),
    ("plan", "honestly we should automate the changelog, it's twenty steps and i always miss one"),
    ("appointment", "marta has to leave at 5, so after that it's the two of us"),
    ("appointment", "the freeze starts at 18:00 and i hand over the pager then"),
    ("perfect", "that's the longest yaml file i've ever seen"),
    ("measure", "p99 is back under 300ms after the rollback"),
    # round 9: experience, predictions, hedges, plans (its other checks: test_capture_description)
    ("perfect", "i've never actually read the contributing guide end to end"),
    ("perfect", "i have never seen this warning before"),
    ("finding", "i think the changelog format is outdated, we should revisit it someday"),
    ("finding", "the cache is always the first suspect and it's never actually the cache"),
    ("prediction", "interns are never going to read the onboarding doc"),
    ("prediction", "finance is going to ask about the gpu line"),
    ("plan", "so the plan is retry twice, then page"),
]

PRESCRIPTIONS = [
    "we should always pin base images by digest",  # "always" in the clause: a rule
    "we need to add a changelog entry for every pr",  # a quantifier: a rule
    "the backup job runs at 2:00 every night, never during business hours",  # a time that recurs
    "commit bodies wrap at 72.",  # a column, not a clock time
    "i've told you twice: migrations go through alembic",  # the speaker's perfect reproaches
    # round 9
    "we're going to use uv for every python repo from now on",  # the team's decision
    "if a fix is going to be more than 50 lines, i'd like a plan first",  # a condition
    "i never read generated docs, link the source instead",  # a habit, not a perfect
    "we've never allowed force pushes to main",  # the team's perfect: a convention
]


@pytest.mark.parametrize(("mood", "sentence"), DESCRIPTIONS)
def test_description_is_recognised(mood: str, sentence: str) -> None:
    assert descriptive(sentence) == mood


@pytest.mark.parametrize("sentence", PRESCRIPTIONS)
def test_prescription_is_not_a_description(sentence: str) -> None:
    assert descriptive(sentence) is None


@pytest.mark.parametrize(
    "prompt",
    [
        "Honestly we should automate the whole deploy checklist, it's 20 steps.",
        "Marta has to leave at 5, so after that it's just the two of us.",
        "Looks like the admission policy exists but it's in audit mode, not enforce.",
        "I'm handing the pager to Sam at 18:00, so whatever we don't finish goes in the notes.",
        "Latency is back under 300ms after the rollback.",
        "grep for every caller of `load_config` and list them with line numbers",
        "Find which job builds that artifact and switch it to the shared cache step.",
        "Write a CLI command `sync_rates` that refreshes the rates table. Verbose by default.",
        "Implement ABC-123. Acceptance criteria: the endpoint must return 404 for unknown ids.",
    ],
)
def test_not_captured(prompt: str) -> None:
    # Vetoed, not only scored low: no sentence of it reaches the score.
    assert _scored(prompt) == []
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "text"),
    [
        (
            "Write a CLI command that refreshes the rates table. We never print secrets in "
            "our commands.",
            "We never print secrets in our commands.",
        ),
        (
            "Show me the command before you run anything with sudo.",
            "Show me the command before you run anything with sudo.",
        ),
        (
            "I prefer logfmt lines like `level=info msg=hello` over JSON logs.",
            "I prefer logfmt lines like `level=info msg=hello` over JSON logs.",
        ),
    ],
)
def test_still_captured(prompt: str, text: str) -> None:
    assert [s.text for s in extract_statements(prompt)] == [text]


def test_a_wish_about_the_referent_at_hand_is_not_a_preference() -> None:
    [(_, _, fired)] = sentence_cues("I'd like to understand it before I approve")
    # without the preference it is a fact with no force about the speaker: vetoed (round 9)
    assert fired is None or "preference" not in fired
    assert extract_statements("I'd like to understand it before I approve") == []


def test_a_request_with_a_quantifier_is_not_a_spec() -> None:
    # "any new image" is general: the build-request veto leaves it to the score.
    [(_, _, fired)] = sentence_cues("Add a USER line to any new image.")
    assert fired is not None
    [(_, _, fired)] = sentence_cues("Add a USER line to the new image.")
    assert fired is None


@pytest.mark.parametrize(
    "prompt",
    [
        # logfmt and build-tool lines
        "  • building   target=DMG arch=arm64 file=dist/app.dmg\n  • never sign twice   cause=x",
        # a qualified exception name
        "google.api_core.exceptions.BadRequest: 400 Always filter on the partition column",
        # a config file with a block scalar: its text is the config's, not the user's
        'name: "p99 latency high"\nmessage: |\n  Always check the last deploy first.\n'
        "  Never silence this monitor for more than 2h.\noptions:\n  renotify_interval: 30",
        # a compiler's diagnostics in tsc's two formats, and a Docker build's steps (legacy
        # and BuildKit): the first line of each paste read as a rule before
        "src/api/orders.ts:88:7 - error TS2322: Type 'string | undefined' is not assignable"
        " to type 'string'.\n  Type 'undefined' must not be assigned to type 'string'.",
        "src/api/orders.ts(88,7): error TS2322: the value must always be a string.",
        "Step 5/9 : RUN pip install --no-cache-dir -r requirements/prod.txt\n"
        "Successfully installed gunicorn-23.0.0",
        "#7 [3/6] RUN npm ci --always-auth\n#7 0.512 npm warn config",
    ],
)
def test_machine_shaped_lines_are_pasted(prompt: str) -> None:
    assert sentence_cues(prompt) == []  # no prose sentence at all


def test_reply_under_a_quoted_line_is_read() -> None:
    prompt = (
        "> I'll keep the token in localStorage so the app can read it.\n"
        "We never keep tokens in localStorage, it's not encrypted. Tokens go in the secure "
        "store."
    )
    texts = [s.text for s in extract_statements(prompt)]
    assert texts and texts[0].startswith("We never keep tokens in localStorage")


def test_a_quoted_tool_line_still_glues() -> None:
    # "> Task :app:compileKotlin" is Gradle's output, not a quote of prose: the line glued to
    # it is part of the log.
    prompt = (
        "> Task :app:compileKotlin\n"
        "w: Orders.kt:14 'toUpperCase' is deprecated. Always use uppercase() instead."
    )
    assert sentence_cues(prompt) == []


def test_a_reply_to_a_quoted_claim_is_a_correction() -> None:
    prompt = (
        "> I'll push the image to the public registry.\n"
        "Service images go to our internal Harbor, never to the public registry."
    )
    kinds = [s.kind for s in extract_statements(prompt)]
    assert kinds == ["correction"]
    # Without the quote the same sentence is a rule: the quote is the evidence of a mistake.
    assert [s.kind for s in extract_statements(prompt.split("\n", 1)[1])] == ["rule"]
