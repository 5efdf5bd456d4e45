"""bench/agent_day.py's week, the rest of it (capture80): going back on a change, a rule told
in force with "now", taking a statement back, "X for Y, not Z", and ``credo show`` of a
replaced belief."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.agent.retract import taken_back_beliefs, taken_back_notice
from credo.knowledge.capture import extract_statements
from credo.knowledge.replace import Candidate, judge
from credo.knowledge.retraction import taken_back
from credo.knowledge.terms import statement_terms
from credo.memory import Memory
from tests.conftest import CliRun
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for

CHANGE = "We moved from black to ruff format for formatting."


@pytest.mark.parametrize(
    ("prompt", "kind", "negated", "asserted"),
    [
        (
            "Actually, go back to black; ruff format changed our string quotes.",
            "correction",
            (),
            ("black",),
        ),
        ("Actually, go back to black.", "correction", (), ("black",)),
        ("No, let's switch back to yarn.", "correction", (), ("yarn",)),
        ("We switched back from ruff to black.", "rule", ("ruff",), ("black",)),
        ("We've gone back to Jenkins for CI.", "rule", (), ("jenkins",)),
    ],
)
def test_going_back_on_a_change_is_kept_with_the_value_it_returns_to(
    prompt: str, kind: str, negated: tuple[str, ...], asserted: tuple[str, ...]
) -> None:
    (found,) = extract_statements(prompt)
    assert found.kind == kind
    assert (found.negated, found.asserted) == (negated, asserted)
    assert "going_back" in found.signals


@pytest.mark.parametrize(
    "prompt",
    [
        "No, go back to step 3.",
        "Set the Manim render to 720p while we iterate, we'll go back to 1080p60 for the final.",
        "Actually, go back to main and rebase.",
        "No, switch back to main.",
        "No, go back to the previous commit.",
        "Go back to black.",  # no lead: this turn's request
        "we're probably moving from jj back to plain git next quarter, nothing's decided though",
        "we moved from Jenkins to GitHub Actions back in 2021 and then back to Jenkins in 2023",
        "Rename `ElevatorInspection` back to `UnitInspection`.",
        "the deploy went through, latency is back to normal",
    ],
)
def test_look_alikes_of_going_back_are_not(prompt: str) -> None:
    assert not any("going_back" in s.signals for s in extract_statements(prompt))


@pytest.mark.parametrize(
    "prompt",
    [
        "No, go back to Chrome and take a screenshot.",
        "Actually, go back to Django and explain the ORM part again.",
        "Actually, go back to Alice's branch and check the test.",
        "Actually, switch back to tab 2.",
        "Actually, go back to using pytest, then run it.",
    ],
)
def test_going_back_as_a_step_of_the_task_is_not_kept(prompt: str) -> None:
    """Fails before for the first four (review79): each was kept as a correction, whose
    rule 6 would replace a stored change that left Chrome, Django, Alice or "tab". A going
    back followed by the task's next step, or to a place in a thing ("Alice's branch",
    "tab 2"), is a move in this turn's work, no rule."""
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("prompt", "value"),
    [
        ("Actually, go back to black and keep ruff for linting.", "black"),
        ("We switched back to yarn and pinned it in CI.", "yarn"),  # told as done: a change
        ("We moved back to npm, then dropped the lockfile v1.", "npm"),
    ],
)
def test_going_back_with_more_said_after_it_is_still_kept(prompt: str, value: str) -> None:
    (found,) = extract_statements(prompt)
    assert "going_back" in found.signals and found.asserted[0] == value


def test_going_back_replaces_the_change_that_left_the_value() -> None:
    (back,) = extract_statements("Actually, go back to black; ruff format changed our quotes.")
    candidates = [
        Candidate("change", CHANGE),
        Candidate("other", "Always add a changelog entry to HISTORY.rst."),
        Candidate("agrees", "Use black for every Python file."),
    ]
    verdict = judge(back, candidates)
    assert (verdict.supersedes, verdict.rule) == ("change", "back")
    locked = judge(back, [Candidate("change", CHANGE, locked=True)])
    assert (locked.supersedes, locked.contradicts) == (None, ("change",))
    two = [Candidate("a", CHANGE), Candidate("b", "We switched off black to yapf in the docs.")]
    assert judge(back, two).supersedes is None  # which one it reverts is a guess: disputed


@given(
    st.sampled_from(["black", "yarn", "jenkins", "poetry", "webpack"]),
    st.sampled_from(["ruff", "pnpm", "gitlab", "uv", "vite"]),
    st.sampled_from(["moved", "switched", "migrated"]),
    st.sampled_from(["from", "off"]),
)
def test_going_back_replaces_a_change_only_when_it_left_that_value(
    old: str, new: str, verb: str, left: str
) -> None:
    (back,) = extract_statements(f"Actually, go back to {old}.")
    change = Candidate("change", f"We {verb} {left} {old} to {new} for the build.")
    assert judge(back, [change]).supersedes == "change"
    onward = Candidate("onward", f"We {verb} {left} {new} to {old} for the build.")
    assert judge(back, [onward]).supersedes is None  # it agrees: it went to that value


@pytest.mark.parametrize(
    ("prompt", "source"),
    [
        ("No, let's switch back to yarn.", "Install from yarn's offline mirror when CI is down."),
        ("Actually, go back to staging.", "Always deploy to production from staging, after QA."),
        (
            "Actually, go back to Postgres.",
            "We read reports from postgres and sessions from redis.",
        ),
    ],
)
def test_going_back_replaces_no_belief_naming_the_value_as_a_source(
    prompt: str, source: str
) -> None:
    """Fails before (review79): rule 6 took any "from X" for the value a change left, and
    SUPERSEDES hid each of these true beliefs. A change says so ("moved/switched/migrated ...
    from X")."""
    (back,) = extract_statements(prompt)
    verdict = judge(back, [Candidate("source", source)])
    assert (verdict.supersedes, verdict.contradicts) == (None, ())


def test_through_the_installed_hook_going_back_replaces_the_change(tmp_path: Path) -> None:
    project = _project(tmp_path, {"change": CHANGE})
    prompt = "Actually, go back to black; ruff format changed our string quotes."
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "change")}


@pytest.mark.parametrize(
    "prompt",
    [
        "We now allow pytz as an optional extra; that is the one exception to the "
        "no-dependencies rule.",
        "We now require type hints on public functions.",
    ],
)
def test_a_rule_told_in_force_with_now_is_kept(prompt: str) -> None:
    (found,) = extract_statements(prompt)
    assert "in_force" in found.signals


@pytest.mark.parametrize(
    "prompt",
    [
        "We now use the cached value in render().",
        "We now have a failing test.",
        "We now use uv for now.",
        "Do we now allow pytz?",
    ],
)
def test_now_of_this_turn_is_still_no_rule(prompt: str) -> None:
    assert extract_statements(prompt) == []


def test_a_rule_taken_back_with_what_holds_instead_is_kept_and_rules_out_its_name() -> None:
    prompt = "Never mind the pytz exception, keep the package free of dependencies."
    (found,) = extract_statements(prompt)
    assert found.kind == "correction" and found.negated == ("pytz",)
    pytz = Candidate(
        "pytz",
        "We now allow pytz as an optional extra; that is the one exception to the "
        "no-dependencies rule.",
    )
    assert judge(found, [pytz]).supersedes == "pytz"


def test_a_rule_taken_back_with_the_command_run_instead_replaces_it() -> None:
    """probe82: "we run plain pytest" says what holds instead, as "we use ..." does; before,
    nothing was kept and the hook served the make test rule as current all week."""
    prompt = "Scratch the make test rule: we run plain pytest now, make test is gone."
    (found,) = extract_statements(prompt)
    assert found.kind == "correction" and found.negated == ("make test",)
    rule = Candidate("make", "We always run the tests with make test before pushing.")
    assert judge(found, [rule]).supersedes == "make"


@pytest.mark.parametrize(
    "prompt",
    [
        "never mind the lint warnings for now, get the tests green first",
        "Never mind the styling for this one, just get the data on the page.",
        "Actually never mind the index, the query is fast enough now.",
        "never mind, I found it",
        "Never mind the no-mocks rule.",  # taken back, but nothing said instead: the agent's
        "Forget what I said about the release manager.",
        "forget what I said about the cache, that was about the other project",
        "never mind the flaky test rule for now, just get the build green",
        "Drop the lint rule, it's noisy.",  # a task on the config, and a reason
        "Forget the caching decision, we'll revisit it.",  # a plan: nothing holds instead
        "Never mind the timeout exception, it was a flaky network.",
    ],
)
def test_other_retractions_and_repairs_are_not_kept(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("Forget what I said about the release manager.", "release manager"),
        ("Scratch what I said about HISTORY.rst, we keep a CHANGELOG.", "HISTORY.rst"),
        ("Actually scratch what I said about CRLF, I was thinking of the other MIS.", "CRLF"),
        ("Never mind the pytz exception, keep the package free of dependencies.", "pytz"),
        ("never mind the lint warnings for now", None),
        ("never mind, I found it", None),
        ("Forget about it.", None),
        # a terse user's (days87): "the thing about X" is what they said about X
        ("forget the thing about result_ttl", "result_ttl"),
        ("forget the bit about the cache", "cache"),
        ("drop the stuff about redis", "redis"),
        ("forget the thing i said about the port", "port"),
        ("ok forget that note on the cache", "cache"),
        ("forget the thing, just fix it", None),
        ("don't forget the thing about the cache", None),
    ],
)
def test_what_a_sentence_takes_back(sentence: str, said: str | None) -> None:
    assert taken_back(sentence) == said


def test_the_hook_names_the_users_beliefs_taken_back_and_deletes_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        dana = memory.remember("The release manager for this project is Dana.")
        memory.remember("The release manager signs the tags.", origin="document")
        memory.remember("Releases are cut on Mondays.")
        prompt = "Forget what I said about the release manager."
        [(said, held)] = taken_back_beliefs(memory, prompt)
        assert said == "release manager" and [c.id for c in held] == [dana]
        notice = taken_back_notice(memory, prompt)
        assert dana in notice and "forget_belief" in notice and "Nothing was deleted" in notice
        assert memory.get(dana).deleted_at is None
        assert taken_back_notice(memory, "Forget what I said about the staging cluster.") == ""


def test_what_is_taken_back_may_hold_a_dotted_name(tmp_path: Path) -> None:
    """Fails before (review79): the hook's sentence split ended at the dot of
    "requests.get", so "requests" alone was taken back and every belief naming requests was
    named, the unrelated one first."""
    with Memory(tmp_path / "m.db") as memory:
        timeout = memory.remember("Always pass a timeout to requests.get calls.")
        memory.remember("Use requests for every HTTP call, not urllib.")
        prompt = "Forget what I said about requests.get timeouts."
        [(said, held)] = taken_back_beliefs(memory, prompt)
        assert said == "requests.get timeouts" and [c.id for c in held] == [timeout]


def test_through_the_installed_hook_the_block_names_what_is_taken_back(tmp_path: Path) -> None:
    project = _project(tmp_path, {"dana": "The release manager for this project is Dana."})
    ask = base(project, "UserPromptSubmit", prompt="Forget what I said about the release manager.")
    block = hook(tmp_path, "prompt", ask, project).stdout.decode()
    assert "takes back" in block and "- dana The release manager" in block


def test_through_the_installed_hook_a_terse_retraction_names_what_it_takes_back(
    tmp_path: Path,
) -> None:
    """days87: "forget the thing about result_ttl" passed no gate of the hook, so its block
    named nothing for the agent to forget."""
    ttl = "results get cached for an hour, result_ttl=3600 on every enqueue"
    project = _project(tmp_path, {"ttl": ttl})
    ask = base(project, "UserPromptSubmit", prompt="forget the thing about result_ttl")
    block = hook(tmp_path, "prompt", ask, project).stdout.decode()
    assert "takes back" in block and f"- ttl {ttl}" in block


@pytest.mark.parametrize(
    ("clean", "asserted"),
    [
        ("Use black for formatting, not ruff format.", ("black",)),
        ("We use Reanimated for animations, not the built-in Animated API.", ("reanimated",)),
        ("Use pnpm, not npm.", ("pnpm",)),
        ("Put the config in settings.py, not in env vars.", ("settings.py",)),
    ],
)
def test_x_for_y_not_z_prescribes_x_not_its_purpose(clean: str, asserted: tuple[str, ...]) -> None:
    assert statement_terms(clean)[1] == asserted


def test_show_of_a_superseded_belief_names_what_replaced_it(run: CliRun) -> None:
    old = run("remember", "We use npm to install packages", check=True).stdout.strip()
    new = run("remember", "We use pnpm to install packages", check=True).stdout.strip()
    run("relate", new, old, "supersedes", check=True)
    text = run("show", old, check=True).stdout
    assert f"superseded:  by {new}" in text and f"current: {new}" in text
    shown = json.loads(run("show", old, "--json", check=True).stdout)
    assert (shown["status"], shown["superseded_by"], shown["current"]) == (
        "superseded",
        [new],
        [new],
    )
    assert "superseded:" not in run("show", new, check=True).stdout


def test_show_names_no_forgotten_belief_as_what_replaced_it(run: CliRun) -> None:
    """Fails before (review79): a forgotten belief's SUPERSEDES replaces nothing, but
    ``credo show`` listed it beside the live one ("superseded:  by NEW, FORGOTTEN")."""
    old = run("remember", "We use npm to install packages", check=True).stdout.strip()
    new = run("remember", "We use pnpm to install packages", check=True).stdout.strip()
    gone = run("remember", "We use yarn to install packages", check=True).stdout.strip()
    run("relate", new, old, "supersedes", check=True)
    run("relate", gone, old, "supersedes", check=True)
    run("forget", gone, check=True)
    shown = json.loads(run("show", old, "--json", check=True).stdout)
    assert (shown["status"], shown["superseded_by"], shown["current"]) == (
        "superseded",
        [new],
        [new],
    )
    (line,) = [x for x in run("show", old, check=True).stdout.splitlines() if "superseded:" in x]
    assert gone not in line and f"by {new} " in line  # (its edge is still listed: an audit)


@pytest.mark.parametrize(
    ("prompt", "may"),
    [
        ("Forget what I said about the release manager.", True),
        ("Never mind the pytz exception, keep the package free of dependencies.", True),
        ("Could we drop Python 3.9 support next release?", False),
        ("Ignore the warnings and rerun the tests.", False),
        ("How does every().day.at() parse the time string?", False),
    ],
)
def test_the_hook_loads_the_retraction_patterns_only_for_a_prompt_that_may_take_back(
    prompt: str, may: bool
) -> None:
    from credo.surfaces.hook import _may_take_back

    assert _may_take_back(prompt) is may
    if not may:
        assert taken_back(prompt) is None  # the gate loses nothing taken_back would find


@given(
    st.sampled_from(["", "Actually, ", "ok "]),
    st.sampled_from(
        [
            "forget what I said about",
            "Ignore what I told you about",
            "scratch my earlier note on",
            "Never mind the",
            "nevermind the",
            "drop the",
            "Forget the",
            "forget the thing about",  # a terse user's (days87)
            "drop the stuff about",
            "ok forget that note on",
            "ignore the bit i said about",
        ]
    ),
    st.sampled_from(["pytz", "release manager", "no-mocks", "port"]),
    st.sampled_from(["", " exception", " rule", " Guideline", " policy"]),
    st.sampled_from([".", ", keep it pure.", "; we use tabs."]),
)
def test_the_hooks_gate_lets_through_everything_taken_back(
    lead: str, verb: str, thing: str, kind: str, end: str
) -> None:
    from credo.surfaces.hook import _may_take_back

    prompt = f"{lead}{verb} {thing}{kind}{end}"
    if taken_back(prompt) is not None:
        assert _may_take_back(prompt)


def test_the_notice_is_charged_and_journalled_with_the_block(tmp_path: Path) -> None:
    """Fails before: the notice was appended after the block was budgeted, capped and
    journalled, so the journal's chars left it out and the block could pass its cap."""
    from credo.agent import journal
    from credo.surfaces.hook import MAX_BLOCK_BYTES, on_prompt

    with Memory(tmp_path / "m.db") as memory:
        for n in range(60):
            memory.remember(f"The release manager note {n}: " + "tag and sign every release. " * 8)
        prompt = "Forget what I said about the release manager."
        output = on_prompt(memory, {"prompt": prompt, "session_id": "s1"}).output
        assert "Nothing was deleted" in output
        assert len(output.encode("utf-8")) <= MAX_BLOCK_BYTES
        (row,) = journal.injections(memory)
        assert row.chars == len(output)


def test_the_hook_names_what_a_terse_retraction_takes_back(tmp_path: Path) -> None:
    """days87: "forget the thing about result_ttl" named nothing to the agent."""
    with Memory(tmp_path / "m.db") as memory:
        ttl = memory.remember("results get cached for an hour, result_ttl=3600 on every enqueue")
        memory.remember("always run pytest -x before pushing")
        [(said, held)] = taken_back_beliefs(memory, "forget the thing about result_ttl")
        assert said == "result_ttl" and [c.id for c in held] == [ttl]
