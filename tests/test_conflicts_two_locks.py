"""probe92 (a week on nom through the installed hook): two locks in conflict.

The user locked "We decided to use VerboseError ..." when Stop listed it, later said "No,
we don't use VerboseError anymore, ..." (captured: it CONTRADICTS the lock, never retires
it) and locked that too when Stop listed it. `credo conflicts` ("the first of each pair
outranks if locked") named the older decision first, by its lower id: with both sides
locked the newer word was not looked at. It leads now, as it does when neither is locked.
"""

from __future__ import annotations

import time
from pathlib import Path

from credo import Memory

OLD = "We decided to use VerboseError for all our parsers."
NEW = "No, we don't use VerboseError anymore, we use nom::error::Error."


def test_two_locks_in_conflict_list_the_newer_word_first(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        memory.remember(OLD, id="aaa", lock=True)
        time.sleep(0.01)  # (told later)
        memory.remember(NEW, id="zzz", lock=True)
        memory.relate("zzz", "aaa", "CONTRADICTS", force=True)
        [pair] = memory.conflicts()
        assert (pair.first.id, pair.second.id) == ("zzz", "aaa")
