"""The user-global store (credo.agent.global_store, docs/AGENT.md): its locks join every
project's locks, marked global and charged as rendered; a rule locked in both shows once;
reads never create, migrate or write the file; forget works on both stores; the CLI, the
hook and the MCP server all see it. The autouse fixture in conftest.py points
CREDO_GLOBAL_DB at this test's own file (``global_db``)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

import credo
from credo.agent import global_store
from credo.agent.global_store import global_locks, global_path, open_global
from credo.errors import InvalidInputError, NotFoundError, StoreError
from credo.memory import Memory
from credo.retrieval import pipeline
from credo.store import SqliteStore as Store
from credo.store.migrations import MIGRATIONS, current_version
from credo.surfaces.mcp_server import build_server
from credo.surfaces.render import memory_block, result_json, result_text
from credo.tokens import estimate
from credo.types import Belief
from tests.conftest import CliRun

RULE = "Never force-push to any branch"
NOTE = "My editor is helix"


@pytest.fixture
def global_db() -> Path:
    return Path(os.environ["CREDO_GLOBAL_DB"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    return folder


def project_memory(project: Path) -> Memory:
    return Memory(project / ".credo" / "memory.db", root=project)


def seed_global(*locked: str, unlocked: tuple[str, ...] = ()) -> list[str]:
    with open_global() as g:
        ids = [g.remember(text, lock=True) for text in locked]
        for text in unlocked:
            g.remember(text)
    return ids


def block_lines(block: str) -> list[str]:
    return [line + "\n" for line in block.splitlines()[1:-1]]


# -- where it is --------------------------------------------------------------------------------
def test_the_path_defaults_to_the_user_data_folder_and_env_overrides_or_turns_it_off(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CREDO_GLOBAL_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert global_path() == tmp_path / "data" / "credo" / "global.db"
    monkeypatch.setenv("CREDO_GLOBAL_DB", "~/rules.db")
    assert global_path() == Path.home() / "rules.db"
    for off in ("off", "0", "none", " OFF ", "None"):
        monkeypatch.setenv("CREDO_GLOBAL_DB", off)
        assert global_path() is None
        with pytest.raises(InvalidInputError, match="global store is off"):
            open_global()


def test_a_path_under_home_follows_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``~`` in ``CREDO_GLOBAL_DB`` is read from the home folder's setting at each call: a
    process that changes it (a test, a service) is not given the path of the old home."""
    monkeypatch.setenv("CREDO_GLOBAL_DB", "~/rules.db")
    for home in ("one", "two", "one"):
        monkeypatch.setenv("HOME", str(tmp_path / home))
        monkeypatch.setenv("USERPROFILE", str(tmp_path / home))  # (Windows' home)
        assert global_path() == tmp_path / home / "rules.db"


# -- retrieval ----------------------------------------------------------------------------------
def test_global_locks_join_the_project_locks_marked_and_charged_as_rendered(
    project: Path,
) -> None:
    rule_id, other_id = seed_global(RULE, "Write commit messages in English", unlocked=(NOTE,))
    with project_memory(project) as memory:
        own = memory.remember("Use pnpm, never npm", lock=True)
        memory.remember("The editor config lives in .editorconfig")
        result = memory.retrieve("which editor")
    assert result.ids[:3] == [own, rule_id, other_id]  # the project's locks first
    scopes = {b.id: b.scope for b in result.beliefs}
    assert scopes[own] == "" and scopes[rule_id] == scopes[other_id] == "global"
    assert NOTE not in [b.content for b in result.beliefs]  # only its locks join
    block = memory_block(result, anchors=False)
    assert f"[{rule_id} locked; global] {RULE}\n" in block
    assert "global = the user's own rule for every project" in block
    lines = block_lines(block)
    assert [estimate(line) for line in lines] == [b.tokens for b in result.beliefs]
    assert sum(estimate(line) for line in lines) == result.used_tokens
    items = {b["id"]: b for b in result_json(result)["beliefs"]}
    assert items[rule_id]["scope"] == "global" and "scope" not in items[own]
    assert f"(LOCKED, global) {rule_id}" in result_text(result)


def test_a_block_without_global_locks_keeps_its_note(project: Path) -> None:
    with project_memory(project) as memory:
        memory.remember("Use pnpm", lock=True)
        block = memory_block(memory.retrieve(""))
    assert "global" not in block


def test_a_rule_locked_in_both_shows_once_as_the_projects(project: Path) -> None:
    (rule_id,) = seed_global(RULE)
    with project_memory(project) as memory:
        assert memory.remember(RULE, lock=True) == rule_id  # same text, same id
        result = memory.retrieve("force-push")
    assert result.ids == [rule_id]
    assert result.beliefs[0].scope == ""


def test_a_project_copy_not_locked_gives_way_to_the_global_lock(project: Path) -> None:
    (rule_id,) = seed_global(RULE)
    with project_memory(project) as memory:
        memory.remember(RULE)  # the same belief, unlocked here
        result = memory.retrieve("force-push branch")
    assert result.ids == [rule_id]
    assert result.beliefs[0].locked and result.beliefs[0].scope == "global"


def test_the_same_text_under_another_id_is_deduped_by_content(project: Path) -> None:
    with open_global() as g:
        g.remember(RULE, lock=True, id="g-rule")
    with project_memory(project) as memory:
        memory.remember(RULE, lock=True, id="p-rule")
        assert memory.retrieve("").ids == ["p-rule"]


def test_the_global_store_opened_as_the_project_is_not_doubled(global_db: Path) -> None:
    (rule_id,) = seed_global(RULE)
    with Memory(global_db, root=global_db.parent) as memory:
        result = memory.retrieve("")
    assert result.ids == [rule_id] and result.beliefs[0].scope == ""


def test_off_switch(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_global(RULE)
    monkeypatch.setenv("CREDO_GLOBAL_DB", "off")
    with project_memory(project) as memory:
        memory.remember("Use pnpm", lock=True)
        assert [b.scope for b in memory.retrieve("").beliefs] == [""]


def test_a_missing_file_costs_no_open_and_a_read_creates_nothing(
    project: Path, global_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the global store was opened")

    monkeypatch.setattr("credo.store.locks.connect", refuse)
    with project_memory(project) as memory:
        memory.remember("Use pnpm", lock=True)
        assert len(memory.retrieve("pnpm").beliefs) == 1
        assert global_locks(memory) == ()
    assert not global_db.exists() and not global_db.parent.exists()


def test_a_project_without_a_git_root_gets_the_global_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CREDO_GLOBAL_DB")
    monkeypatch.delenv("CREDO_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "loose"
    folder.mkdir()
    monkeypatch.chdir(folder)
    (rule_id,) = seed_global(RULE)
    with Memory() as memory:  # the per-user memory.db, beside global.db
        assert memory.path == tmp_path / "data" / "credo" / "memory.db"
        result = memory.retrieve("anything")
    assert result.ids == [rule_id] and result.beliefs[0].scope == "global"


def test_the_cache_follows_writes_deletion_and_replacement(project: Path, global_db: Path) -> None:
    with project_memory(project) as memory:
        assert memory.retrieve("").ids == []
        (first,) = seed_global(RULE)
        assert memory.retrieve("").ids == [first]
        assert memory.retrieve("").ids == [first]  # kept: the file did not change
        with open_global() as g:  # another connection commits
            second = g.remember("Sign every commit", lock=True)
            g.unlock(first)
        assert memory.retrieve("").ids == [second]
        for suffix in ("", "-wal", "-shm"):
            Path(f"{global_db}{suffix}").unlink(missing_ok=True)
        assert memory.retrieve("").ids == []
        (third,) = seed_global("Prefer small pull requests")
        assert memory.retrieve("").ids == [third]


def _in_another_process(script: str) -> str:
    """Run ``script`` (Python, with ``open_global`` imported) in a child process: another
    process's connection writes the global store, as a second session would."""
    env = {**os.environ, "PYTHONPATH": str(Path(credo.__file__).resolve().parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", "from credo.agent.global_store import open_global\n" + script],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


def test_another_process_creating_locking_and_unlocking_is_seen_at_once(
    project: Path, global_db: Path
) -> None:
    with project_memory(project) as memory:
        assert memory.retrieve("").ids == []  # no file yet: nothing open
        first = _in_another_process(
            f"with open_global() as g: print(g.remember({RULE!r}, lock=True))"
        )
        assert memory.retrieve("").ids == [first]  # the file created since
        assert memory.retrieve("").ids == [first]  # kept: nothing changed
        second = _in_another_process(
            "with open_global() as g:\n"
            "    print(g.remember('Sign every commit', lock=True))\n"
            f"    g.unlock({first!r})"
        )
        assert memory.retrieve("").ids == [second]  # the open connection's version moved
        _in_another_process(f"with open_global() as g: g.forget({second!r})")
        assert memory.retrieve("").ids == []


def test_a_moved_setting_is_followed_between_retrieves(
    project: Path, global_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first,) = seed_global(RULE)
    monkeypatch.setenv("CREDO_GLOBAL_DB", str(global_db.with_name("other.db")))
    (second,) = seed_global("Sign every commit")
    with project_memory(project) as memory:
        assert memory.retrieve("").ids == [second]
        monkeypatch.setenv("CREDO_GLOBAL_DB", str(global_db))
        assert memory.retrieve("").ids == [first]
        monkeypatch.setenv("CREDO_GLOBAL_DB", "off")
        assert memory.retrieve("").ids == []
        monkeypatch.setenv("CREDO_GLOBAL_DB", str(global_db))
        assert memory.retrieve("").ids == [first]


def test_a_lock_the_global_store_superseded_is_left_out(project: Path) -> None:
    with open_global() as g:
        old = g.remember("Tabs for indentation", lock=True)
        new = g.remember("Spaces for indentation", lock=True)
        g.relate(new, old, "SUPERSEDES")
    with project_memory(project) as memory:
        assert memory.retrieve("").ids == [new]


def test_an_older_global_file_is_read_and_not_migrated(project: Path, global_db: Path) -> None:
    global_db.parent.mkdir(parents=True)
    old = Store(global_db, migrations=MIGRATIONS[:5])  # before m006 added beliefs.context
    now = time.time()
    old.conn.execute(
        "INSERT INTO beliefs(id, content, content_hash, kind, origin, locked, created_at, "
        "updated_at) VALUES ('old-rule', ?, 'h', 'requirement', 'user_stated', 1, ?, ?)",
        (RULE, now, now),
    )
    old.close()
    with project_memory(project) as memory:
        result = memory.retrieve("")
    assert result.ids == ["old-rule"] and result.beliefs[0].trail == ""
    conn = sqlite3.connect(f"file:{global_db}?mode=ro", uri=True)  # opening a Store migrates
    assert current_version(conn) == 5
    conn.close()


def test_an_unreadable_global_file_says_how_to_get_past_it(project: Path, global_db: Path) -> None:
    global_db.parent.mkdir(parents=True)
    global_db.write_bytes(b"this is not a database" * 100)
    with project_memory(project) as memory, pytest.raises(StoreError, match="CREDO_GLOBAL_DB=off"):
        memory.retrieve("x")


def test_global_locks_past_half_the_budget_are_listed_after_the_projects(project: Path) -> None:
    ids = seed_global(*(f"Personal rule number {i} about something long enough" for i in range(8)))
    with project_memory(project) as memory:
        own = memory.remember("Use pnpm", lock=True)
        result = memory.retrieve("", token_budget=60)
    assert result.ids[0] == own
    assert result.locked_overflow and set(result.locked_overflow) <= set(ids)
    assert list(result.ids[1:]) + list(result.locked_overflow) == ids


def _belief(i: int, text: str) -> Belief:
    return Belief(f"g{i}", text, f"hash:{text}", "requirement", "user_stated", True, 1, 1, None,
                  float(i), float(i), None)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    project_texts=st.lists(st.sampled_from("abcdef"), unique=True, max_size=4),
    global_texts=st.lists(st.sampled_from("abcdef"), unique=True, max_size=5),
)
def test_each_rule_once_project_first_then_global_in_order(
    project_texts: list[str], global_texts: list[str]
) -> None:
    with Memory(":memory:", root=Path.cwd()) as memory:
        for text in project_texts:
            memory.remember(f"rule {text}", lock=True, id=f"p{text}")
        project_hashes = {b.content_hash: b for b in memory.store.locked_beliefs()}
        found = tuple(
            _belief(i, f"rule {t}")._replace(
                content_hash=next(
                    (h for h, b in project_hashes.items() if b.content == f"rule {t}"),
                    f"hash:{t}",
                )
            )
            for i, t in enumerate(global_texts)
        )
        options = pipeline.Options(global_locks=found)
        result = pipeline.retrieve(memory.store, "", options)
        again = pipeline.retrieve(memory.store, "", options)
    contents = [b.content for b in result.beliefs]
    assert len(contents) == len(set(contents))
    assert set(contents) == {f"rule {t}" for t in [*project_texts, *global_texts]}
    scopes = [b.scope for b in result.beliefs]
    assert scopes == sorted(scopes)  # "" (the project's) before "global"
    extra = [t for t in global_texts if t not in project_texts]
    assert [b.content for b in result.beliefs if b.scope] == [f"rule {t}" for t in extra]
    assert result == again


# -- forget on both -----------------------------------------------------------------------------
def test_forget_finds_the_store_that_holds_the_id(project: Path, global_db: Path) -> None:
    (rule_id,) = seed_global(RULE)
    with project_memory(project) as memory:
        own = memory.remember("Use pnpm")
        assert global_store.forget(memory, own[:8]) == ("project", own)  # a short id too
        assert global_store.forget(memory, rule_id) == ("global", rule_id)
        assert memory.retrieve("").ids == []
        with pytest.raises(NotFoundError, match="nope"):
            global_store.forget(memory, "nope")
    with open_global() as g:
        assert g.get(rule_id).deleted_at is not None


def test_forget_of_an_unknown_id_without_a_global_store_creates_none(
    project: Path, global_db: Path
) -> None:
    with project_memory(project) as memory, pytest.raises(NotFoundError):
        global_store.forget(memory, "nope")
    assert not global_db.exists()
    with pytest.raises(NotFoundError, match="no global store"):
        open_global(create=False)


# -- the CLI, the hook and the MCP server -------------------------------------------------------
@pytest.fixture
def cli(project: Path) -> CliRun:
    return CliRun(project / ".credo" / "memory.db", project)


def test_cli_remember_lock_search_forget(cli: CliRun, global_db: Path) -> None:
    missing = cli("lock", "--global", "b123")
    assert missing.returncode == 1 and missing.stderr.startswith("Error: no global store")
    assert not global_db.exists()
    rule_id = cli("remember", RULE, "--global", "--lock", check=True).stdout.strip()
    note = json.loads(cli("remember", NOTE, "--global", "--json", check=True).stdout)
    assert note["locked"] is False and global_db.is_file()
    own = cli("remember", "Use pnpm", "--lock", check=True).stdout.strip()

    found = json.loads(cli("search", "editor", "--json", check=True).stdout)
    assert [(b["id"], b.get("scope")) for b in found["beliefs"]] == [
        (own, None),
        (rule_id, "global"),
    ]
    assert f"(LOCKED, global) {rule_id}" in cli("search", "editor", check=True).stdout
    twice = [cli("search", "force-push", "--json", check=True).stdout for _ in range(2)]
    assert twice[0] == twice[1]  # byte-identical

    assert (
        cli("lock", note["id"], "--global", check=True).stdout == f"locked {note['id']} (global)\n"
    )
    assert cli("unlock", note["id"], "--global", check=True).stdout.startswith("unlocked")
    assert cli("lock", rule_id).returncode == 1  # not in the project's store

    gone = json.loads(cli("forget", rule_id, "--json", check=True).stdout)
    assert gone == {"id": rule_id, "hard": False, "store": "global", "current_again": []}
    assert cli("forget", own, check=True).stdout == f"forgot {own} (project store)\n"
    hard = cli("forget", note["id"], "--global", "--hard", check=True).stdout
    assert hard == f"forgot {note['id']} (global store, hard)\n"
    assert json.loads(cli("search", "", "--json", check=True).stdout)["beliefs"] == []
    failed = cli("forget", "nope")
    assert failed.returncode == 1 and failed.stderr.startswith("Error: ")


def test_cli_in_a_project_without_a_store_still_reaches_the_global_rules(
    cli: CliRun, project: Path
) -> None:
    """A project with no store of its own gets the user-global rules in a search (through
    the fast path and click's), as the hook's block does, and a forget of a global id
    reaches the global store; none of it makes a store in the project."""
    rule_id = cli("remember", RULE, "--global", "--lock", check=True).stdout.strip()
    for args in [("search", "push"), ("search", "push", "--cluster")]:
        assert f"(LOCKED, global) {rule_id}" in cli(*args, check=True).stdout, args
    found = json.loads(cli("search", "push", "--json", check=True).stdout)
    assert [(b["id"], b["scope"]) for b in found["beliefs"]] == [(rule_id, "global")]
    unknown = cli("forget", "nope")
    assert unknown.returncode == 1 and unknown.stderr == "Error: no belief with id 'nope'\n"
    gone = json.loads(cli("forget", rule_id, "--json", check=True).stdout)
    assert gone == {"id": rule_id, "hard": False, "store": "global", "current_again": []}
    assert cli("search", "push", check=True).stdout == "no beliefs match 'push'\n"
    assert not (project / ".credo").exists()
    typo = project / "memroy.db"  # a store named on the command line is the one meant
    for args in [("search", "push"), ("search", "push", "--json"), ("forget", rule_id)]:
        done = cli("--db", str(typo), *args)
        assert done.returncode == 1 and done.stderr.startswith(f"Error: no store at {typo};")
    assert not typo.exists()


def test_cli_global_when_off_is_one_error_line(cli: CliRun) -> None:
    done = cli("remember", RULE, "--global", env={"CREDO_GLOBAL_DB": "off"})
    assert done.returncode == 1
    assert done.stderr.startswith("Error: the global store is off") and done.stdout == ""


def test_the_hook_block_carries_the_global_locks(project: Path, tmp_path: Path) -> None:
    (rule_id,) = seed_global(RULE)
    with project_memory(project) as memory:
        memory.remember("Use pnpm", lock=True)
    env = {k: v for k, v in os.environ.items() if k != "CREDO_DB"}
    env.update(HOME=str(tmp_path / "home"), CREDO_HOOK_LOG=str(tmp_path / "hook.log"))
    # the child runs in the project folder: the credo this test imported, by absolute path
    env["PYTHONPATH"] = str(Path(credo.__file__).resolve().parents[1])
    payload = json.dumps({"prompt": "push my branch", "cwd": str(project)})
    done = subprocess.run(
        [sys.executable, "-m", "credo", "hook", "prompt"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
        check=True,
    )
    assert f"[{rule_id} locked; global] {RULE}\n" in done.stdout
    assert done.stdout.index("Use pnpm") < done.stdout.index(RULE)


def test_mcp_remember_lock_search_and_forget_in_the_global_store(project: Path) -> None:
    async def main(memory: Memory) -> None:
        async with Client(build_server(memory), raise_exceptions=False) as client:
            made = await client.call_tool("remember_belief", {"text": RULE, "scope": "global"})
            rule_id = made.structured_content["belief"]["id"]  # type: ignore[index]
            locked = await client.call_tool("lock_belief", {"id": rule_id, "scope": "global"})
            assert locked.structured_content["belief"]["locked"] is True  # type: ignore[index]
            found = await client.call_tool("search_memory", {"query": "push"})
            beliefs = found.structured_content["beliefs"]  # type: ignore[index]
            assert [(b["id"], b["scope"]) for b in beliefs] == [(rule_id, "global")]
            block = found.structured_content["memory_block"]  # type: ignore[index]
            assert f"[{rule_id} locked; global]" in block
            gone = await client.call_tool("forget_belief", {"id": rule_id})
            assert gone.structured_content["store"] == "global"  # type: ignore[index]
            wrong = await client.call_tool("lock_belief", {"id": rule_id, "scope": "elsewhere"})
            assert wrong.is_error

    with project_memory(project) as memory:
        anyio.run(main, memory)
        assert memory.retrieve("").ids == []
