"""A change of tool told in the past ("No, we moved from json.dumps to orjson.") is a
correction: the ``changeover`` cue (``knowledge/shape``) scores it as a contrast, as "orjson,
not json.dumps" is (bench/capture/dev29.jsonl holds the labelled prompts and their twins).

Each positive was dropped before the cue; each negative must stay dropped. The sentences are
written for the tests, not taken from the benchmark file, except the two of the issue."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements
from credo.memory import Memory
from tests.test_hook import log_text
from tests.test_hook_events import base, captured_count, hook, wait_for

ISSUE = [
    "No, we moved from json.dumps to orjson.",
    "Actually, we switched from json.dumps to orjson",
]


@pytest.mark.parametrize(
    ("prompt", "negated", "asserted"),
    [
        (ISSUE[0], "json.dumps", "orjson"),
        (ISSUE[1], "json.dumps", "orjson"),
        ("nope, we've migrated from pip-tools to uv.", "pip-tools", "uv"),
        (
            "That's not right, we switched off CircleCI to Buildkite last year.",
            "circleci",
            "buildkite",
        ),
        ("nah, we switched from nose to pytest ages ago", "nose", "pytest"),
    ],
)
def test_a_change_of_tool_answering_a_mistake_is_a_correction(
    prompt: str, negated: str, asserted: str
) -> None:
    [got] = extract_statements(prompt)
    assert got.kind == "correction" and got.text == prompt.strip()
    assert "changeover" in got.signals
    assert negated in got.negated
    assert not asserted or asserted in got.asserted


@pytest.mark.parametrize(
    "prompt",
    [
        "Actually Kafka was replaced by NATS, there is no broker to start anymore.",
        "logs: we replaced loguru with the stdlib logging module, please keep it that way.",
    ],
)
def test_a_replacement_is_captured(prompt: str) -> None:
    assert extract_statements(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "how do I move from json.dumps to orjson without losing the default= hook?",
        "should we switch from poetry to uv?",
        "migrate this module from CommonJS to ESM",
        "move the parser from utils.py to parsing/core.py",
        "we moved the file to src/ yesterday, that's why the import broke",
        "I moved the fixtures from tests/data to tests/fixtures this morning.",
        "no, I moved it from line 12 to line 30, look again",
        "No, we moved the retro from Monday to Wednesday.",
        "it was replaced by a newer version when I ran the update",
        "we might switch from pip to uv at some point",
        "we moved from Travis to Jenkins in 2019 and back to Travis in 2021, long story",
    ],
)
def test_the_same_verbs_about_one_move_or_a_question_are_not_captured(prompt: str) -> None:
    assert extract_statements(prompt) == []


TOOLS = ["orjson", "ujson", "httpx", "requests", "pnpm", "yarn", "vitest", "jest", "ruff", "black"]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(TOOLS),
    st.sampled_from(TOOLS),
    st.sampled_from(["moved", "switched", "migrated"]),
    st.sampled_from(["No, we", "Actually, we", "no we", "Nope, we've"]),
)
def test_any_pair_of_tools_is_a_correction_and_its_question_is_not(
    old: str, new: str, verb: str, lead: str
) -> None:
    if old == new:
        return
    [got] = extract_statements(f"{lead} {verb} from {old} to {new}.")
    assert got.kind == "correction" and old in got.negated and new in got.asserted
    assert extract_statements(f"how do we {verb[:-2]} from {old} to {new}?") == []


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        memory.remember("We serialize API responses with json.dumps", id="old-json")
    return root


@pytest.mark.parametrize("prompt", ISSUE)
def test_through_the_installed_hook_the_correction_supersedes_and_is_served(
    tmp_path: Path, project: Path, prompt: str
) -> None:
    done = hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    assert done.returncode == 0
    wait_for(lambda: captured_count(project) > 0)
    assert "error" not in log_text(tmp_path)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        served = memory.retrieve("how do we serialize JSON responses").beliefs
        assert memory.get(served[0].id).origin == "user_corrected"
        found = [b.content for b in served]
    assert found[0] == prompt  # served first
    assert not any("with json.dumps" in c for c in found)  # superseded, not served
    second = hook(
        tmp_path, "prompt", base(project, "UserPromptSubmit", prompt="serialize the reply"), project
    )
    assert prompt in second.stdout.decode()  # the next prompt's block carries it
