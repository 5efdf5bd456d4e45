"""A Python module-level constant is a definition (code_python `_constants`): its name the
trail, the assignment its text, the comment block above it its lead, a passage of its own.
Only a value that is data written out (`is_data`, day-const79): one a call computes stays
module code."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.knowledge.chunk.passage import passages
from credo.knowledge.ingest.split import split_passages
from tests.test_chunk_code import check

SOURCE = textwrap.dedent(
    '''\
    """HTTP settings."""
    import re

    # How many connections a pool keeps
    # when none is asked for.
    DEFAULT_POOLSIZE = 10
    DEFAULT_RETRIES = 0
    _READ_CHUNK_SIZE = 2**16
    timeout: float = 3.0
    log = make_logger("http")
    A = B = 1
    LOW, HIGH = 1, 2
    REDIRECT_STATI = (
        301,  # moved
        302,
    )
    # x = compute(y)
    ACCEPT = "gzip,deflate"
    if PY2:
        LIMIT = 1
    LINK_RE = re.compile(r"<([^<>]*)>")
    HEADERS = frozenset(["host", "user-agent"])
    '''
)


def _roles(source: str) -> list[tuple[str, int, int, str, tuple[str, ...]]]:
    return [
        (c.text, c.start_line, c.end_line, c.role, c.section) for c in split_code(source, "python")
    ]


def test_python_constants_are_definitions() -> None:
    """Fails before day-const78: every one of these was a "statement" with no trail.
    Fails before day-const81 too: a constant took its lines and its comment from the
    module's code, whose passages then changed (store/values.py). Now its definition is
    a chunk of its own (``value``) and the module's code and comments are as before it."""
    assert _roles(SOURCE) == [
        ("HTTP settings.", 1, 1, "docstring", ()),
        # The comment block above leads its text and opens its lines, as a function's does.
        (
            "How many connections a pool keeps when none is asked for. DEFAULT_POOLSIZE = 10",
            4,
            6,
            "definition",
            ("DEFAULT_POOLSIZE",),
        ),
        ("How many connections a pool keeps when none is asked for.", 4, 5, "code_comment", ()),
        ("DEFAULT_POOLSIZE = 10", 6, 6, "statement", ()),
        ("DEFAULT_RETRIES = 0", 7, 7, "definition", ("DEFAULT_RETRIES",)),
        ("DEFAULT_RETRIES = 0", 7, 7, "statement", ()),
        ("_READ_CHUNK_SIZE = 2**16", 8, 8, "definition", ("_READ_CHUNK_SIZE",)),
        ("_READ_CHUNK_SIZE = 2**16", 8, 8, "statement", ()),
        ("timeout: float = 3.0", 9, 9, "definition", ("timeout",)),  # (annotated: any name)
        ("timeout: float = 3.0", 9, 9, "statement", ()),
        # Neither UPPER_CASE nor annotated, or naming no one value: module code alone.
        ('log = make_logger("http")', 10, 10, "statement", ()),
        ("A = B = 1", 11, 11, "statement", ()),
        ("LOW, HIGH = 1, 2", 12, 12, "statement", ()),
        ("REDIRECT_STATI = (301, 302)", 13, 16, "definition", ("REDIRECT_STATI",)),
        ("REDIRECT_STATI = ( 301,", 13, 14, "statement", ()),
        ("moved", 14, 14, "code_comment", ()),  # (module code's comment, as before)
        ("302, )", 15, 16, "statement", ()),
        # Commented-out code above is no lead (a function's rule).
        ('ACCEPT = "gzip,deflate"', 18, 18, "definition", ("ACCEPT",)),
        ('ACCEPT = "gzip,deflate"', 18, 18, "statement", ()),
        ("if PY2: LIMIT = 1", 19, 20, "statement", ()),  # (top level only)
        # A value a call computes is setup code; a builtin container of data is data.
        ('LINK_RE = re.compile(r"<([^<>]*)>")', 21, 21, "statement", ()),
        ('HEADERS = frozenset(["host", "user-agent"])', 22, 22, "definition", ("HEADERS",)),
        ('HEADERS = frozenset(["host", "user-agent"])', 22, 22, "statement", ()),
    ]
    chunks = split_code(SOURCE, "python")
    assert [c.role == "definition" for c in chunks] == [c.value for c in chunks]
    check(chunks, SOURCE)


def test_the_module_code_is_read_as_without_constants() -> None:
    """Fails before day-const81. A file's chunks but its constants' are what they would be
    if no assignment were a constant: the passage index holds the rows it held before."""
    from credo.knowledge.chunk import code_python

    with_values = [c for c in split_code(SOURCE, "python") if not c.value]
    real = code_python._constants
    code_python._constants = lambda *_: []  # (no assignment read as a constant)
    try:
        without = split_code(SOURCE, "python")
    finally:
        code_python._constants = real
    assert [c._replace(heading_index=None) for c in with_values] == [
        c._replace(heading_index=None) for c in without
    ]


@pytest.mark.parametrize(
    ("source", "role"),
    [
        ("A = 1; B = 2\n", "statement"),  # (sharing a line: its text would hold B's)
        ('"""Doc."""; LIMIT = 5\n', "docstring"),  # (the line is the docstring's, then code)
        ("LIMIT = 5\n", "definition"),
        ("MaxRetries = 5\n", "statement"),  # (CamelCase: a class alias, not a constant)
        ("ITEMS: list[int] = []\n", "definition"),
        ("ITEMS: list[int]\n", "statement"),  # (annotated, no value: declares nothing)
        # Longer than a signature: module code keeps its text whole (a signature is cut).
        ("HELP = '" + "word " * 70 + "'\n", "statement"),
    ],
)
def test_which_assignments_are_constants(source: str, role: str) -> None:
    assert split_code(source, "python")[0].role == role


def test_each_constant_is_a_passage_of_its_own() -> None:
    """Module code pools into passages of up to 800 characters; a constant is one of its
    own besides, so a question about one answers with its lines, not its neighbours'. The
    file's other passages are those of its other chunks, pooled as before."""
    split = split_passages("settings.py", SOURCE)
    rows = split.chunks
    found = [(c.start_line, c.end_line) for c in rows if c.section == ("DEFAULT_RETRIES",)]
    assert found == [(7, 7)]
    assert [c.value for c in rows].count(True) == 7
    assert passages([c for c in split_code(SOURCE, "python") if not c.value]) == [
        c for c in rows if not c.value
    ]


_NAMES = st.sampled_from(["LIMIT", "_SIZE", "DEFAULT_X2", "count", "Mixed", "T"])
_ROWS = st.tuples(_NAMES, st.booleans(), st.sampled_from(["1", "'a b'", "f(x)", "[\n    1,\n]"]))


@given(st.lists(_ROWS, max_size=12))
def test_generated_constants(rows: list[tuple[str, bool, str]]) -> None:
    """Every UPPER_CASE assignment of data alone on its lines is one definition named by it,
    from the comment above it (if any) to its last line; every other is module code."""
    lines: list[str] = []
    expected: list[tuple[tuple[str, ...], int, int]] = []
    for name, commented, value in rows:
        first = len(lines) + 1
        if commented:
            lines.append(f"# What {name.lower()} holds.")
        lines.extend(f"{name} = {value}".split("\n"))
        if name.upper() == name and value != "f(x)":
            expected.append(((name,), first, len(lines)))
    source = "\n".join(lines) + "\n"
    chunks = split_code(source, "python")
    check(chunks, source)
    found = [(c.section, c.start_line, c.end_line) for c in chunks if c.role == "definition"]
    assert found == expected
    assert all(not c.section for c in chunks if c.role == "statement")


@pytest.mark.parametrize(
    ("value", "data"),
    [
        ("10", True),
        ("2**16", True),
        ("-1", True),
        ('{"http": 80, "https": 443}', True),
        ("(codes.moved, codes.found)", True),
        ('frozenset(["host"])', True),
        ("tuple()", True),
        ('r"[" + PUNCT + r"]"', True),
        ('re.compile(r"x")', False),  # (a call computes it: setup code)
        ('r"[" + re.escape(PUNCT) + r"]"', False),
        ("datetime.date(2025, 1, 1)", False),
        ("{k: v for k, v in ITEMS}", False),
        ("dict(a=1)", False),  # (keywords: a call that builds, read as code)
        ("lambda x: x", False),
        ('f"{HOST}/v2"', False),
    ],
)
def test_which_values_are_data(value: str, data: bool) -> None:
    """Fails before day-const79 for the False rows: every value was a definition's."""
    import ast

    from credo.knowledge.chunk.code_python import is_data

    node = ast.parse(f"X = {value}\n").body[0]
    assert isinstance(node, ast.Assign)
    assert is_data(node.value) is data
    role = split_code(f"LIMIT = {value}\n", "python")[0].role
    assert role == ("definition" if data else "statement")
