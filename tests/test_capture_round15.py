"""Round 15 of capture: what a sentence is before what it says. A line wholly in quotation
marks, a shell command above its output and a YAML list item are pasted; a list's lead-in
that scopes it to one piece of work, hands over someone else's text or doubts it frames its
items; a third party's wish, an undecided choice, the speaker's experience and acts bound to
one occasion are not rules. Every negative here is captured by round 14's classifier; each
twin that must still be captured is next to it."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements, sentence_cues


def _texts(prompt: str) -> list[str]:
    return [s.text for s in extract_statements(prompt)]


def _scored(prompt: str) -> list[str]:
    """The sentences of ``prompt`` that reach the score (not vetoed, not pasted)."""
    return [sentence for _, sentence, fired in sentence_cues(prompt) if fired is not None]


# --- pasted lines ------------------------------------------------------------------------


def test_a_line_wholly_in_quotes_is_someone_elses_words() -> None:
    prompt = (
        "The old ops wiki had this, copied verbatim:\n\n"
        '"Always restart nginx after a cert renewal. Never edit the vhosts by hand."\n\n'
        "No idea how much of it is still true."
    )
    assert _texts(prompt) == []
    # The same words as the speaker's own line are a rule.
    assert _texts("Never edit the vhosts by hand.")


@pytest.mark.parametrize(
    "prompt",
    [
        "kubectl get deploy -n billing\n"
        "NAME          READY   UP-TO-DATE   AVAILABLE   AGE\n"
        "billing-api   2/3     3            2           12d",
        "helm list --all-namespaces\n"
        "NAME     NAMESPACE   REVISION   UPDATED   STATUS     CHART\n"
        "ingress  infra       7          2d ago    deployed   ingress-nginx-4.10.0",
    ],
)
def test_a_command_above_its_output_is_pasted(prompt: str) -> None:
    assert sentence_cues(prompt) == []


def test_a_comment_above_a_makefile_target_is_the_files() -> None:
    prompt = (
        "# never run this target against the shared cluster\nwipe-db:\n\tdropdb app && createdb app"
    )
    assert _texts(prompt) == []
    # a label with words after its colon is a target only above a tab-indented recipe
    prompt = "Note: never run the wipe target against the shared cluster\n    make wipe-db"
    assert _texts(prompt)


def test_a_linters_stylish_rows_are_pasted() -> None:
    prompt = (
        "/web/src/cart.ts\n"
        "  12:7  error    Unexpected any. Specify a different type  no-explicit-any\n"
        "  40:1  warning  Always use === instead of ==  eqeqeq"
    )
    assert _texts(prompt) == []


def test_a_command_alone_or_apart_from_output_is_not_taken_for_a_paste() -> None:
    # A blank line between a prose line and the paste keeps the prose line (the command shape
    # needs the output glued under it).
    prompt = "always pass --frozen-lockfile to install\n\nERROR  lockfile out of date"
    assert _scored(prompt) == ["always pass --frozen-lockfile to install"]


def test_a_comment_between_env_lines_is_the_files() -> None:
    prompt = "APP_ENV=production\n# always use the pooled port in prod\nPGBOUNCER_PORT=6432"
    assert _texts(prompt) == []


def test_a_yaml_list_item_is_config() -> None:
    prompt = (
        "- alert: Orders_QueueBacklog\n"
        "  # never page on a warning, only critical goes to the pager\n"
        '  expr: sum(rabbitmq_queue_messages{queue="orders"}) > 5000\n'
        "  for: 15m\n"
        "  labels:\n"
        "    severity: critical"
    )
    assert _texts(prompt) == []


# --- hearsay, undecided --------------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        # a choice left open drops the rule before it, as doubt does
        "The auditors want every export signed from now on. Legal hasn't agreed to that yet.",
        "Squash-merge every feature branch. I'm still leaning that way, we'll decide it on "
        "Thursday.",
        "Squash-merge every feature branch. Half of this is probably outdated, it's from 2019.",
    ],
)
def test_an_undecided_or_stale_rule_is_not_adopted(prompt: str) -> None:
    assert _texts(prompt) == []


def test_a_decided_rule_is_kept() -> None:
    assert _texts("The auditors want every export signed, so from now on sign every export.")


@pytest.mark.parametrize(
    "sentence",
    [
        "the library's docs say you must close the pool before exit, and we do",
        "the upstream README states every plugin must register a version",
    ],
)
def test_what_a_document_says_is_hearsay(sentence: str) -> None:
    assert _texts(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "my co-founder would rather we write the backend in Elixir.",
        "The designer would rather we use outline icons everywhere.",
        "The upstream maintainers want all PRs rebased, not merged.",
    ],
)
def test_a_third_partys_rather_is_their_wish(sentence: str) -> None:
    assert _texts(sentence) == []


def test_the_speakers_own_rather_is_a_preference() -> None:
    assert _texts("I'd rather we write every new service in Elixir.")


# --- list frames -------------------------------------------------------------------------

_ITEMS = (
    "- never push straight to main\n"
    "- every PR needs a changelog entry\n"
    "- always run the linter before committing\n"
)


@pytest.mark.parametrize(
    "lead",
    [
        "For this migration only:",
        "The customer demo is tomorrow, so for the rest of today:",
        "While I'm away at the dentist:",
        "One more thing before the launch:",
        "From STYLE.md of the vendor's SDK, since you asked why the build broke:",
        "Legal forwarded these and I'm not sure which of them still apply:",
        "The vendor contract lists these and I don't know which ones we meet:",
        "Their wiki page, pasted as-is:",
        "Standup notes, mostly for me:",
        "For the offsite on Friday:",
        "Until the code freeze lifts:",
    ],
)
def test_a_lead_that_scopes_hands_over_or_records_frames_its_items(lead: str) -> None:
    assert _texts(_ITEMS) != []  # the items alone are rules
    assert _texts(f"{lead}\n{_ITEMS}") == []


@pytest.mark.parametrize(
    "lead",
    [
        "Rules from CONTRIBUTING.md, follow them from now on:",
        "Copied from the old wiki as-is, these are our rules now:",
        "House rules:",
    ],
)
def test_a_lead_that_adopts_the_items_frames_nothing(lead: str) -> None:
    assert len(_texts(f"{lead}\n{_ITEMS}")) >= 3


# --- descriptions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Never been this slow before.",  # the speaker's experience, "I've" left out
        "The model checker found a deadlock in 9 steps, so `LockOrderNeverInverts` is wrong.",
        "Jepsen found a lost write, so our fencing is wrong as designed.",
        "the new checkout flow is still disabled for Canadian stores",
    ],
)
def test_experience_findings_and_lasting_states_describe(sentence: str) -> None:
    assert _texts(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Never use the queue for payments.",
        "The legacy portal is still on PHP 7.4, so no enums and no match expressions.",
    ],
)
def test_their_twins_prescribe(sentence: str) -> None:
    assert _texts(sentence)


# --- no standing as a rule (knowledge/talk.py) ---------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Question about our branching, not a bug report.",
        "No rush, no ticket, just an idea.",
        "option B: every service owns its schema, no shared tables",
        "rebuild the search index for the Dutch catalogue only, shards 0 to 3",
        "re-run the churn model with the 2023 cohort instead of 2024, just to compare",
        "here's the staging token, use it once and don't save it anywhere: tok_live_x",
        "hmm no, revert the last three commits, I want to try my version first",
        "That was my typo, not yours. Leave the migration as it is.",
        "the new monitor is so bright my partner bought blackout curtains",
    ],
)
def test_a_label_an_alternative_or_an_act_done_once_has_no_standing(sentence: str) -> None:
    assert _texts(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Every service owns its schema, no shared tables.",
        "From now on, regenerate the client stubs whenever the proto files change.",
    ],
)
def test_their_twins_with_a_word_for_later_are_kept(sentence: str) -> None:
    assert _texts(sentence)


# --- tastes and habits -------------------------------------------------------------------


def test_a_negated_taste_for_this_referent_is_no_preference() -> None:
    assert _texts("Okay, I don't love this layout, but I don't have a better one either.") == []
    assert _texts("Not a fan of this particular chart, but it'll do for the deck.") == []
    # a habit of the agent named by the same words is one
    assert _texts("I don't love how long your commit messages are.")


def test_a_third_partys_habit_told_with_emphasis_is_an_observation() -> None:
    assert (
        _texts("beta testers always find the leak in the map screen, every single release.") == []
    )
    # the team's own habit, or "every single time", is a way of working
    assert _texts("We always run the full suite, every single release.")
    assert _texts("Testers must always attach the build number to a bug report.")


def test_an_undecided_choice_drops_only_the_sentence_before_it() -> None:
    prompt = (
        "Always use pnpm in this repo. New services should be written in Go. "
        "Our CTO hasn't agreed yet."
    )
    assert _texts(prompt) == ["Always use pnpm in this repo."]


@pytest.mark.parametrize(
    "prompt",
    [
        "The build is so slow that we only run the unit tests on PRs; the full suite runs nightly.",
        "Never seen a good reason to use ORMs here, so don't add one; we write SQL by hand.",
        f"For this service:\n{_ITEMS}",
    ],
)
def test_forms_that_go_on_to_prescribe_are_kept(prompt: str) -> None:
    assert _texts(prompt)
