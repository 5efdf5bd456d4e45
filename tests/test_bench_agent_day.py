"""bench/agent_day.py's own checks, offline: what each one counts as a pass (review78)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from bench.agent_day import Agent, Day, agent, linked_or_retired

from credo import Memory


def _day(tmp_path: Path) -> tuple[Day, Path]:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return Day(root, {}, {}, {}, verbose=False), root / ".credo" / "memory.db"


def test_an_older_statement_no_longer_served_counts_as_changed(tmp_path: Path) -> None:
    """Fails before: a step's ``old`` passes when the store links it to the new belief or no
    longer serves it as current (``Say``'s docstring); a retired one read "no belief holds
    it", a FAIL for the outcome the step asks for."""
    day, db = _day(tmp_path)
    with Memory(db, root=day.root) as memory:
        old = memory.remember("We allow pytz as an optional extra.", kind="requirement")
        new = memory.remember("Keep the package free of dependencies.", kind="requirement")
        memory.forget(old)
    assert linked_or_retired(day, [new], "pytz as an optional extra") == (True, "retired")


def test_an_older_statement_still_served_and_unlinked_fails(tmp_path: Path) -> None:
    day, db = _day(tmp_path)
    with Memory(db, root=day.root) as memory:
        memory.remember("We allow pytz as an optional extra.", kind="requirement")
        new = memory.remember("Keep the package free of dependencies.", kind="requirement")
    ok, seen = linked_or_retired(day, [new], "pytz as an optional extra")
    assert not ok and "no edge" in seen
    assert linked_or_retired(day, [new], "nothing like this") == (False, "no belief holds it")


def test_an_mcp_tool_error_is_reported_with_the_servers_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before (JSONDecodeError at char 0, capture80's crash): a server whose package
    folder moved under it (a source file saved mid-run, as an editor saves: a new file renamed
    over the old) answers every call with "credo's code changed on disk ... restart"; the run
    stops saying so."""
    import mcp

    said = "Error executing tool search_memory: credo's code changed on disk since ..."

    class Refusing:
        def __init__(self, *args: object, **kwargs: object) -> None: ...

        async def __aenter__(self) -> Refusing:
            return self

        async def __aexit__(self, *exc: object) -> None: ...

        async def call_tool(self, name: str, arguments: dict[str, object]) -> object:
            text = SimpleNamespace(text=said)
            return SimpleNamespace(is_error=True, structured_content=None, content=[text])

    monkeypatch.setattr(mcp, "Client", Refusing)
    day, _ = _day(tmp_path)
    day.server["command"] = "credo"
    with pytest.raises(RuntimeError, match="code changed on disk"):
        agent(day, "thursday", Agent(query="How should the code be formatted?"))
