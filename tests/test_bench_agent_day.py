"""bench/agent_day.py's own checks, offline: what each one counts as a pass (review78)."""

from __future__ import annotations

from pathlib import Path

from bench.agent_day import Day, linked_or_retired

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
