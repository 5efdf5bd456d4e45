"""Go value specs: several names in one spec (review91), and a doc read twice (probe90).

Before: ``var MaxB, MaxC int``, ``var x, y = 1, 2`` and ``const KB, MB = 1 << 10, 1 << 20``
were in no chunk at all (a spec of one name alone was a definition), their doc a comment
naming nothing. A documented ``var`` still stores its doc twice, in its definition and as a
comment of its own (logrus' entry.go ``logrusPackage``: a hit showing both shows it twice):
taking the doc from the comments moved ranking both ways (axios-m05 up, urfave-cli-c12 down
one rank), so it waits for the lead on branch day-gotrail92-doconce; its test here is a
strict xfail that flips when it lands.
"""

from __future__ import annotations

import textwrap

import pytest

from credo.knowledge.chunk import split_code
from tests.test_chunk_code import check, full

_SPECS = textwrap.dedent(
    """\
    package demo

    // MaxB and MaxC are two limits.
    var MaxB, MaxC int

    var x, y = 1, 2

    const (
    \t// KB and MB are sizes.
    \tKB, MB = 1 << 10, 1 << 20

    \tGB = 1 << 30
    )

    var started, stopped = time.Now(), time.Now()

    func F() {}
    """
)


def test_a_spec_of_several_names_is_one_definition_named_by_them() -> None:
    chunks = split_code(_SPECS, "go")
    check(chunks, _SPECS)
    assert [c for c in full(chunks) if c[3] == "definition"] == [
        (
            "MaxB and MaxC are two limits. var MaxB, MaxC int",
            3,
            4,
            "definition",
            ("MaxB, MaxC",),
        ),
        ("var x, y = 1, 2", 6, 6, "definition", ("x, y",)),
        ("KB and MB are sizes. KB, MB = 1 << 10, 1 << 20", 9, 10, "definition", ("KB, MB",)),
        ("GB = 1 << 30", 12, 12, "definition", ("GB",)),
        # ``time.Now()`` computes as the package loads: setup code, left as it was
        ("func F()", 17, 17, "definition", ("F",)),
    ]


_LOGRUS_ENTRY = textwrap.dedent(
    """\
    package logrus

    var (
    \t// qualified package name, cached at first use
    \tlogrusPackage string

    \t// Positions in the call stack when tracing to report the calling method
    \tminimumCallerDepth int
    )

    // Documented is read once.
    var Documented = 1
    """
)


@pytest.mark.xfail(strict=True, reason="the doc stays a comment too: day-gotrail92-doconce")
def test_a_documented_value_stores_its_doc_once() -> None:
    chunks = split_code(_LOGRUS_ENTRY, "go")
    check(chunks, _LOGRUS_ENTRY)
    assert full(chunks) == [
        (
            "qualified package name, cached at first use logrusPackage string",
            4,
            5,
            "definition",
            ("logrusPackage",),
        ),
        (
            "Positions in the call stack when tracing to report the calling method"
            " minimumCallerDepth int",
            7,
            8,
            "definition",
            ("minimumCallerDepth",),
        ),
        ("Documented is read once. var Documented = 1", 11, 12, "definition", ("Documented",)),
    ]


def test_a_spec_whose_values_do_not_match_its_names_is_left_as_it_was() -> None:
    source = "package a\n\nvar p, q = pair()\n\nconst r, s = 1\n"
    assert [c.role for c in split_code(source, "go")] == []
