"""A long-lived surface checks its store once a request (``Store.checked``): the retrieves
inside take that check as theirs while no other connection commits, and check again the
moment one does (issue #17: a warm request checked the file twice, a ``stat`` each)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from unittest import mock

import pytest

import credo.store as store_module
from credo.errors import SchemaVersionError
from credo.memory import Memory
from credo.store.migrations import LATEST_VERSION


def _stats(memory: Memory, query: str, *, checked: bool) -> int:
    """How many times the store's file is looked at (``_still_there``) for one request."""
    with mock.patch.object(store_module, "_still_there", wraps=store_module._still_there) as looked:
        if checked:
            with memory.store.checked():
                memory.retrieve(query)
                memory.retrieve(query)
        else:
            memory.store.check_current()
            memory.retrieve(query)
    return looked.call_count


def test_a_request_looks_at_the_store_file_once_whatever_it_retrieves(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        memory.remember("the deploy runs on fridays")
        first = memory.retrieve("deploy")
        assert _stats(memory, "deploy", checked=False) == 2  # the old way: twice
        assert _stats(memory, "deploy", checked=True) == 1
        with memory.store.checked():
            assert memory.retrieve("deploy") == first
        assert memory.store._checked_at is None  # (the scope is over: each retrieve checks)
        assert _stats(memory, "deploy", checked=False) == 2


def test_a_commit_by_another_connection_inside_a_request_is_checked_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.db"
    with Memory(path) as memory:
        memory.remember("the deploy runs on fridays")
        with memory.store.checked():
            memory.retrieve("deploy")
            raw = sqlite3.connect(path)  # a newer credo's migration lands mid-request
            raw.execute(
                "INSERT INTO _migrations VALUES (?, 'm999_future', 0)", (LATEST_VERSION + 1,)
            )
            raw.commit()
            raw.close()
            with pytest.raises(SchemaVersionError):
                memory.retrieve("deploy")


def test_a_request_on_a_store_migrated_before_it_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path) as memory:
        raw = sqlite3.connect(path)
        raw.execute("INSERT INTO _migrations VALUES (?, 'm999_future', 0)", (LATEST_VERSION + 1,))
        raw.commit()
        raw.close()
        with pytest.raises(SchemaVersionError), memory.store.checked():
            pass  # pragma: no cover (never reached)
        assert memory.store._checked_at is None
