"""A correction remembered by hand (the API, `credo remember --kind correction`, the MCP
server's remember_belief) replaces what it corrects by capture's rule, in the same
transaction, and says what it superseded (agent/correction.py; docs/AGENT.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from credo.edge_types import EdgeType
from credo.knowledge import replace
from credo.knowledge.capture import statement_of
from credo.memory import Memory
from tests.conftest import CliRun
from tests.test_mcp import data, in_process

OLD = "We use npm to install packages"
MOVED = "Actually we moved from npm to pnpm for installing packages"


def _out(memory: Memory, belief_id: str, edge_type: EdgeType) -> list[str]:
    return [e.dst for e in memory.edges(belief_id) if e.src == belief_id and e.type is edge_type]


def test_a_correction_through_mcp_supersedes_what_it_clearly_replaces(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        old = memory.remember(OLD, id="old")
        other = memory.remember("Run npm test before pushing", id="other")  # one shared term
        found: dict[str, Any] = {}

        async def session(client: Client) -> None:
            args = {"text": MOVED, "kind": "correction"}
            found["new"] = data(await client.call_tool("remember_belief", args))
            found["search"] = data(await client.call_tool("search_memory", {"query": "npm"}))

        in_process(memory, session)
        new = found["new"]["belief"]["id"]
        assert found["new"]["supersedes"] == [old] and found["new"]["contradicts"] == []
        assert _out(memory, new, EdgeType.SUPERSEDES) == [old]
        ids = [b["id"] for b in found["search"]["beliefs"]]
        assert new in ids and other in ids and old not in ids
        assert found["search"]["superseded"] == [old]


def test_a_fact_remembered_through_mcp_supersedes_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        memory.remember(OLD, id="old")
        got: dict[str, Any] = {}

        async def session(client: Client) -> None:
            got["r"] = data(await client.call_tool("remember_belief", {"text": MOVED}))

        in_process(memory, session)
        assert got["r"]["supersedes"] == [] and got["r"]["contradicts"] == []


def test_the_api_judges_a_correction_in_its_own_write(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        old = memory.remember(OLD)
        new = memory.remember(MOVED, kind="correction")
        assert _out(memory, new, EdgeType.SUPERSEDES) == [old]
        assert [b.id for b in memory.retrieve("install packages npm").beliefs] == [new]
        # Said again, it corroborates: judged once, no second edge, no error.
        assert memory.remember(MOVED, kind="correction") == new
        assert _out(memory, new, EdgeType.SUPERSEDES) == [old]


def test_replace_false_writes_no_edge(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember(OLD)
        new = memory.remember(MOVED, kind="correction", replace=False)
        assert memory.edges(new) == []


def test_no_supersession_on_a_weak_match_or_against_the_negation_guard(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        weak = memory.remember("Run npm test before pushing")  # shares only npm
        agrees = memory.remember("Never use npm to install packages")  # rules npm out too
        says_new = memory.remember("Install packages with pnpm")  # names what it prescribes
        new = memory.remember(MOVED, kind="correction")
        # The old value named outright: the weak match is disputed, never retired (rule 5).
        assert [(e.dst, e.type) for e in memory.edges(new)] == [(weak, EdgeType.CONTRADICTS)]
        for kept in (weak, agrees, says_new):
            assert memory.get(kept).deleted_at is None


def test_a_correction_naming_only_the_old_value_shows_beside_it(run: CliRun) -> None:
    # "moved from npm to pnpm" shares one word with what it corrects: it cannot retire it,
    # but the dispute brings the correction into the answer (conflict groups).
    old = json.loads(run("remember", OLD, "--json", check=True).stdout)["id"]
    moved = "Actually we moved from npm to pnpm."
    out = run("remember", "--kind", "correction", moved, check=True).stdout
    assert f"contradicts {old}" in out
    found = run("search", "which package manager do we use to install packages", "--json")
    shown = [b["content"] for b in json.loads(found.stdout)["beliefs"]]
    assert OLD in shown and moved in shown


def test_a_locked_belief_is_contradicted_never_retired(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        old = memory.remember(OLD, lock=True)
        new = memory.remember(MOVED, kind="correction")
        assert _out(memory, new, EdgeType.SUPERSEDES) == []
        assert _out(memory, new, EdgeType.CONTRADICTS) == [old]


def test_several_clear_matches_are_contradicted(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        first = memory.remember(OLD)
        second = memory.remember("npm installs the packages in CI")
        new = memory.remember(MOVED, kind="correction")
        assert _out(memory, new, EdgeType.SUPERSEDES) == []
        assert sorted(_out(memory, new, EdgeType.CONTRADICTS)) == sorted([first, second])


def test_the_cli_correction_supersedes_and_prints_it(run: CliRun) -> None:
    old = run("remember", OLD, "--json", check=True)
    old_id = json.loads(old.stdout)["id"]
    done = run("remember", MOVED, "--kind", "correction", check=True)
    new_id, *rest = done.stdout.splitlines()
    assert rest == [f"supersedes {old_id} (undo: credo forget {new_id})"]
    again = json.loads(run("remember", MOVED, "--kind", "correction", "--json", check=True).stdout)
    assert again["id"] == new_id and again["supersedes"] == [old_id]
    assert again["contradicts"] == []
    plain = json.loads(run("remember", "Staging mirrors production", "--json", check=True).stdout)
    assert plain["supersedes"] == [] and plain["contradicts"] == []
    found = json.loads(run("search", "install packages npm", "--json", check=True).stdout)
    assert [b["id"] for b in found["beliefs"]] == [new_id]


WORDS = ["npm", "pnpm", "yarn", "install", "packages", "deploy", "staging", "never", "with"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    olds=st.lists(st.lists(st.sampled_from(WORDS), min_size=2, max_size=6), max_size=4),
    new=st.lists(st.sampled_from(WORDS), min_size=2, max_size=6),
)
def test_what_a_correction_supersedes_is_a_clear_match_of_capture_rule(
    olds: list[list[str]], new: list[str]
) -> None:
    with Memory(":memory:") as memory:
        stored = {memory.remember(" ".join(words)) for words in olds}
        text = "Actually we moved from " + " ".join(new)
        new_id = memory.remember(text, kind="correction")
        if new_id in stored:
            return  # the same text: a corroboration, judged before
        statement = statement_of(text, "correction")
        for old in _out(memory, new_id, EdgeType.SUPERSEDES):
            content = memory.get(old).content
            tokens = replace.words(content)
            shared = replace.topic_terms(text) & replace.topic_terms(content)
            assert len(shared) >= replace.MIN_SHARED_CLEAR
            assert any(replace.mentions(tokens, t, plain=True) for t in statement.negated)
            assert not any(replace.mentions(tokens, t) for t in statement.asserted)
            assert not memory.get(old).locked


@pytest.mark.parametrize(
    ("old_text", "correction"),
    [
        # "stopped using X" / "stopped keeping X" rule X out as "stop using X" does (stop 65's
        # notes bench: such a correction linked to nothing, or only contradicted)
        (
            "Errors are reported to Sentry from every service.",
            "Correction: we stopped using Sentry; errors now go to our own Grafana stack.",
        ),
        (
            "We keep nightly database dumps on the NAS for 30 days.",
            "Correction: we stopped keeping database dumps on the NAS last month.",
        ),
        # a subject retired in the passive rules itself out, as "X was replaced by Y" did
        (
            "Wheels are uploaded to our private index at pkgs.corp.internal before PyPI.",
            "Correction: the private index was shut down; wheels go straight to PyPI.",
        ),
        (
            "Monthly reports come from the reports-api service on port 8081.",
            "Correction: the reports-api service was folded into the billing service.",
        ),
        (
            "New helpers go in utils/ next to the models.",
            "No, utils/ is deprecated: new helpers go in lib/ next to the models.",
        ),
    ],
)
def test_a_stopped_correction_supersedes_what_it_stopped(
    tmp_path: Path, old_text: str, correction: str
) -> None:
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        old = memory.remember(old_text, id="old")
        new = memory.remember(correction, kind="correction")
        assert _out(memory, new, EdgeType.SUPERSEDES) == [old]
