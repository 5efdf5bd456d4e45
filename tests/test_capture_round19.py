"""Round 19 of capture (docs/BENCHMARKS.md, "Round 19"): thin evidence about a thing of this
turn (``knowledge/referent``), and rules passed on or framed by a tool (``knowledge/relay``).

Each negative was captured before the round; each twin must stay captured."""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements
from credo.knowledge.referent import parts_at_hand, specific
from credo.knowledge.relay import boxed, relayed


def _captured(prompt: str) -> bool:
    return bool(extract_statements(prompt))


@pytest.mark.parametrize(
    "prompt",
    [
        "leave a comment there instead of the workaround",
        "do NOT push these to origin, keep them local.",
    ],
)
def test_a_directive_on_a_thing_of_this_turn_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Show diffs, not whole files.",  # kinds, not the thing at hand
        "Prefer `pathlib` to os.path for new scripts.",  # a taste, whatever its object
        "Use tabs, not spaces; the Makefile needs them.",  # the definite is in the reason
        "For the third time: do NOT run `terraform destroy`.",  # emphasis, not a referent
        "Build agents are ready-made images from the platform team.",  # a statement
        "Remember that the search index lags the database by a minute.",  # framed
    ],
)
def test_a_rule_on_the_same_paths_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Generate 10 fake users for each role and add them to the seed file",
        "Please write the docstring for `parse_header` in google style, with the types of every"
        " argument",
    ],
)
def test_every_part_of_a_thing_at_hand_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "make sure every new migration has a down step, the deploy job runs them both ways",
        "make sure every endpoint you add has a rate limit",
        "Always run the linter on every file you touch.",
    ],
)
def test_every_thing_to_come_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Apparently the design team wants all icons to be SVG from now on.",
        "Someone on stackoverflow said you should always pin `numpy` below 2.",
        "The previous maintainer insisted we always vendor our dependencies.",
        "The auditor wants all invoices stored as PDF from now on.",
    ],
)
def test_a_rule_passed_on_is_not_captured(prompt: str) -> None:
    assert relayed(prompt)
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "We always vendor our dependencies.",
        "We always pin `numpy` below 2.",
        "All icons are SVG from now on.",
        "Correction on what I said yesterday: the CI image is node 20, not node 18.",
    ],
)
def test_the_same_rule_stated_is_still_captured(prompt: str) -> None:
    assert not relayed(prompt)
    assert _captured(prompt)


@pytest.mark.parametrize(
    "line",
    [
        "│ The -refresh=false option is not for routine use and is provided only for emergencies",
    ],
)
def test_a_line_of_a_tool_frame_is_not_captured(line: str) -> None:
    assert boxed(line)
    assert not _captured(line)


def test_a_checklist_box_opens_a_pasted_line() -> None:
    assert boxed("[ ] Image elements do not have `[alt]` attributes")
    assert boxed("[x] Buttons have an accessible name")
    assert not boxed("Tick [ ] boxes only when the check ran.")


def test_the_checks_name_their_forms() -> None:
    directive_contrast = {"directive", "contrast"}
    assert specific(directive_contrast, "Deploy the docs to the preview only, not prod.")
    assert not specific(directive_contrast, "Deploy docs to previews only, not prod.")
    universal = {"directive", "universal"}
    assert parts_at_hand(universal, "check every screen in the signup flow")
    assert not parts_at_hand(universal, "check every new screen")


@pytest.mark.parametrize(
    "prompt",
    [
        "honestly i hate daylight saving time so much",
        "i want to look at the test output first",
        "ok that works for me, carry on with the migration",
    ],
)
def test_a_passing_taste_or_wish_is_not_captured(prompt: str) -> None:
    assert not _captured(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "For every schema change I want to read the SQL first.",
        "I hate YAML anchors, spell the keys out.",
        "That works for me: tabs in the Makefile, spaces everywhere else.",
    ],
)
def test_a_taste_beside_them_is_still_captured(prompt: str) -> None:
    assert _captured(prompt)
