"""review92: hostile input to this stop's new reading code, each read in bounded time.

A Go spec of many names (``var a0, a1, ..., a1999 int``: generated code, a fuzzer's file)
took 20 s for 2,000 names and grew with their cube: the definitions query's ``var_spec
name: (_) @name value: (...)`` let tree-sitter try every name as the one before the value.
A function value's name is the spec's first child: anchored there, the query reads it once.
"""

from __future__ import annotations

import time

from credo.knowledge.chunk import split_file


def _seconds(name: str, text: str) -> float:
    start = time.process_time()
    split_file(name, text)
    return time.process_time() - start


def test_a_go_spec_of_many_names_reads_in_bounded_time() -> None:
    names = ", ".join(f"n{i}" for i in range(1500))
    values = ", ".join(str(i) for i in range(1500))
    text = f"package x\n\n// Many names.\nvar {names} int\n\nvar {names} = {values}\n"
    assert _seconds("many.go", text) < 2.0  # (8 s before, ~0.1 s after)


def test_a_function_value_is_still_a_definition_after_a_comment() -> None:
    text = "package x\n\nvar /* c */ f = func() {\n}\n\nvar (\n\t// Doc.\n\th = func() {}\n)\n"
    chunks = split_file("f.go", text)
    assert [c.section for c in chunks if c.role == "definition"] == [("f",), ("h",)]
