"""The Store protocol names a file's definition rows as the stores keep them: (terms,
length, value), three fields (it said (terms, length), two, since the ``value`` flag)."""

from __future__ import annotations

from collections.abc import Mapping

from credo.store.defn_stats import DefnRow, DefnWrites, Span
from credo.store.protocol import Store

NAMES = {"Span": Span, "DefnRow": DefnRow, "Mapping": Mapping, "str": str, "None": None}


def _hint(function: object, name: str) -> object:
    return eval(function.__annotations__[name], NAMES)  # (annotations of our own)


def test_the_protocol_types_definition_rows_as_the_store_keeps_them() -> None:
    for name in ("file_definitions", "set_file_definitions"):
        theirs, ours = getattr(Store, name), getattr(DefnWrites, name)
        assert theirs.__annotations__.keys() == ours.__annotations__.keys()
        for field in ours.__annotations__:
            if field != "self":
                assert _hint(theirs, field) == _hint(ours, field), (name, field)
