"""The stores are mixins that share methods and give each its statements as class
attributes (store/beliefs.py ``BeliefRows``, files.py, captures.py, journal.py): two
unrelated mixins naming a statement alike would silently run one's SQL for the other."""

from __future__ import annotations

import re

import pytest

from credo.store import SqliteStore
from credo.store.postgres.pyformat import pyformat
from credo.store.postgres.store import PostgresStore

STATEMENT = re.compile(r"_[A-Z][A-Z0-9_]*")


@pytest.mark.parametrize("store", [SqliteStore, PostgresStore])
def test_no_two_mixins_give_one_name_different_statements(store: type) -> None:
    owners: dict[str, list[type]] = {}
    for cls in store.__mro__:
        for name, value in vars(cls).items():
            if isinstance(value, str) and STATEMENT.fullmatch(name):
                owners.setdefault(name, []).append(cls)
    clashes = {
        name: [c.__name__ for c in found]
        for name, found in owners.items()
        # An override is fine; the same name in two unrelated classes is not.
        if any(not (issubclass(a, b) or issubclass(b, a)) for a in found for b in found)
    }
    assert clashes == {}


def test_pyformat_turns_marks_and_refuses_what_it_cannot() -> None:
    assert pyformat("SELECT 1 WHERE a = ? AND b LIKE 'x%'") == (
        "SELECT 1 WHERE a = %s AND b LIKE 'x%%'"
    )
    with pytest.raises(ValueError):
        pyformat("SELECT ?1")
    with pytest.raises(ValueError):
        pyformat("SELECT 'what?' WHERE a = ?")
