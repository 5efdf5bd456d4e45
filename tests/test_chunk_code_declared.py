"""A value declared at a module's top without a doc comment is a definition (code_declared):
JavaScript/TypeScript ``const`` and Go ``var`` of data, Go and Rust ``const`` by the
language's rules. Before day-const79 each was in no chunk at all (ws
``const closeTimeout = 30 * 1000;``, urfave/cli ``var OsExiter = os.Exit``)."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.knowledge.ingest.split import split_passages
from tests.test_chunk_code import check, full

_WS = textwrap.dedent(
    """\
    'use strict';

    const EventEmitter = require('events');
    const { randomBytes } = require('crypto');

    const closeTimeout = 30 * 1000;
    const kAborted = Symbol('kAborted');
    const protocolVersions = [8, 13];
    const keyRegex = /^[+/0-9A-Za-z]{22}==$/;
    let attempts = 0;

    // How long a handshake may take.
    const HANDSHAKE_MS = 10 * 1000;

    // Ready states, in order.
    const CONNECTING = 0;
    const OPEN = 1;

    const cache = new Map();
    const onClose = () => {};
    """
)


def test_javascript_constants_of_data_are_definitions() -> None:
    """Fails before day-const79: none of these was in any chunk."""
    chunks = split_code(_WS, "javascript")
    check(chunks, _WS)
    assert full(chunks) == [
        ("const closeTimeout = 30 * 1000", 6, 6, "definition", ("closeTimeout",)),
        ("const protocolVersions = [8, 13]", 8, 8, "definition", ("protocolVersions",)),
        ("const keyRegex = /^[+/0-9A-Za-z]{22}==$/", 9, 9, "definition", ("keyRegex",)),
        (
            "How long a handshake may take. const HANDSHAKE_MS = 10 * 1000",
            12,
            13,
            "definition",
            ("HANDSHAKE_MS",),
        ),
        # (its doc stays the file's comment too: a constant takes nothing from the passages)
        ("How long a handshake may take.", 12, 12, "code_comment", ()),
        # A comment over a run of constants heads the group: a comment, no one's doc.
        ("Ready states, in order.", 15, 15, "code_comment", ()),
        ("const CONNECTING = 0", 16, 16, "definition", ("CONNECTING",)),
        ("const OPEN = 1", 17, 17, "definition", ("OPEN",)),
        ("const onClose = () =>", 20, 20, "definition", ("onClose",)),  # (as before)
    ]
    # require, Symbol(...), new Map(), let: setup code or a variable, left as they were
    # each constant is a passage of its own, its lines what a reader cites
    rows = [(p.section, p.start_line, p.end_line) for p in split_passages("ws.js", _WS).chunks]
    assert (("closeTimeout",), 6, 6) in rows
    assert [c.value for c in chunks] == [
        c.role == "definition" and c.section != ("onClose",) for c in chunks
    ]


_GO = textwrap.dedent(
    """\
    package cli

    import "os"

    const defaultPlaceholder = "value"

    // OsExiter is the function used when the app exits.
    var OsExiter = os.Exit

    // VersionFlag prints the version.
    var VersionFlag Flag = BoolFlag{
    \tName: "version, v",
    }

    var started = time.Now()

    // Levels of logging.
    const (
    \t// Debug is the chattiest.
    \tDebug = iota
    \t// Info is the default.
    \tInfo
    )
    """
)


def test_go_declarations_are_definitions() -> None:
    """Fails before day-const79: Go read no ``var`` or ``const`` as a definition, and the
    comments above were passages without the name or value they describe."""
    chunks = split_code(_GO, "go")
    check(chunks, _GO)
    assert full(chunks) == [
        ('const defaultPlaceholder = "value"', 5, 5, "definition", ("defaultPlaceholder",)),
        (
            "OsExiter is the function used when the app exits. var OsExiter = os.Exit",
            7,
            8,
            "definition",
            ("OsExiter",),
        ),
        # (each doc stays the file's comment too, as before: day-const81)
        ("OsExiter is the function used when the app exits.", 7, 7, "code_comment", ()),
        (
            "VersionFlag prints the version."
            ' var VersionFlag Flag = BoolFlag{ Name: "version, v", }',
            10,
            13,
            "definition",
            ("VersionFlag",),
        ),
        ("VersionFlag prints the version.", 10, 10, "code_comment", ()),
        # ``time.Now()`` computes as the package loads: setup code, left as it was
        ("Levels of logging.", 17, 17, "code_comment", ()),
        # A spec of a group is one definition; ``Info`` repeats ``Debug``'s ``= iota``, a
        # constant too (before day-code89 it was in no definition, its doc a bare comment)
        ("Debug is the chattiest. Debug = iota", 19, 20, "definition", ("Debug",)),
        ("Debug is the chattiest.", 19, 19, "code_comment", ()),
        ("Info is the default. Info", 21, 22, "definition", ("Info",)),
        ("Info is the default.", 21, 21, "code_comment", ()),
    ]


_GO_GROUPS = textwrap.dedent(
    """    package cmp

    // Flags that change how a comparison runs.
    var (
    \t// Deterministic makes the output deterministic.
    \tDeterministic bool

    \t// AnyError is an error that matches any non-nil error.
    \tAnyError anyError = anyError{}
    )

    type resultFlags uint

    const (
    \t_ resultFlags = (1 << iota) / 2

    \treportEqual
    \t// reportByCycle is set when a cycle was detected.
    \treportByCycle
    )
    """
)


def test_go_grouped_vars_and_valueless_specs_are_definitions() -> None:
    """Fails before day-code89: a ``var ( ... )`` group gave no definition (tree-sitter-go
    holds its specs in a ``var_spec_list``: go-cmp's ``Deterministic``, ``AnyError``), nor
    a spec without a value (an ``iota`` enumeration's ``reportByCycle``, a ``var`` of a
    type's zero value): each name was in no chunk, each doc a comment naming nothing."""
    chunks = split_code(_GO_GROUPS, "go")
    check(chunks, _GO_GROUPS)
    definitions = [(c.text, c.start_line, c.end_line, c.section) for c in chunks]
    assert (
        "Deterministic makes the output deterministic. Deterministic bool",
        5,
        6,
        ("Deterministic",),
    ) in definitions
    assert (
        "AnyError is an error that matches any non-nil error. AnyError anyError = anyError{}",
        8,
        9,
        ("AnyError",),
    ) in definitions
    assert ("reportEqual", 17, 17, ("reportEqual",)) in definitions
    assert (
        "reportByCycle is set when a cycle was detected. reportByCycle",
        18,
        19,
        ("reportByCycle",),
    ) in definitions
    # the group's heading stays a comment, no one's doc
    assert ("Flags that change how a comparison runs.", 3, 3, ()) in definitions


def test_rust_consts_are_definitions_by_rule() -> None:
    """A Rust ``const`` is a constant whatever its value: a ``const fn`` call included."""
    source = "use std::time::Duration;\n\nconst TIMEOUT: Duration = Duration::from_secs(5);\n"
    source += 'static NAME: &str = "semver";\n'
    chunks = split_code(source, "rust")
    check(chunks, source)
    assert full(chunks) == [
        (
            "const TIMEOUT: Duration = Duration::from_secs(5)",
            3,
            3,
            "definition",
            ("TIMEOUT",),
        ),
    ]  # (a ``static`` is a variable: a definition only with a doc comment, code_values)


@pytest.mark.parametrize(
    "source",
    [
        "let a = 1, b = 2;\n",  # (two names)
        "const { isArray } = Array;\n",  # (a destructuring names no one value)
        "const a = 1, b = 2;\n",
        "const total = count + 1;\n".replace("count + 1", "sum(items)"),
        "const message = `at ${where()}`;\n",
        "const HELP = '" + "word " * 70 + "';\n",  # (longer than a signature: left whole)
    ],
)
def test_declarations_left_as_they_were(source: str) -> None:
    assert [c for c in split_code(source, "javascript") if c.role == "definition"] == []


def test_a_constant_takes_its_values_names_as_context_not_its_texts() -> None:
    [chunk] = split_code("const LIMIT = DEFAULT_LIMIT * SCALE;\n", "javascript")
    assert chunk.section == ("LIMIT",)
    # its text holds its value's names already: the context does not count them twice
    assert not {"default", "limit", "scale"} & set(chunk.context.split())


_VALUES = st.sampled_from(["1", "'a b'", "[1, 2]", "2 * 8", "f(x)", "new Set()", "/x+/"])
_DATA = frozenset({"1", "'a b'", "[1, 2]", "2 * 8", "/x+/"})
_ROWS = st.tuples(st.sampled_from(["limit", "MAX", "kName"]), _VALUES, st.booleans())


@given(st.lists(_ROWS, max_size=10))
def test_generated_declarations(rows: list[tuple[str, str, bool]]) -> None:
    """Every ``const`` of data, each on its own line between blank lines, is one definition
    named by it, from the comment above it (its doc) to its line; every other is in no
    definition; no comment is lost."""
    lines = ["'use strict';", ""]  # (a comment above the first code is the file's header)
    expected: list[tuple[tuple[str, ...], int, int]] = []
    for k, (stem, value, commented) in enumerate(rows):
        first = len(lines) + 1
        if commented:
            lines.append(f"// What {stem} {k} holds.")
        lines.append(f"const {stem}{k} = {value};")
        if value in _DATA:
            expected.append(((f"{stem}{k}",), first, len(lines)))
        lines.append("")
    source = "\n".join(lines)
    chunks = split_code(source, "javascript")
    check(chunks, source)
    found = [(c.section, c.start_line, c.end_line) for c in chunks if c.role == "definition"]
    assert found == expected
    said = " ".join(c.text for c in chunks)
    for k, (stem, _, commented) in enumerate(rows):
        assert not commented or f"What {stem} {k} holds." in said


_GO_TABLE = (
    "package apidiff\n\n"
    "// All pairs (old, new) of compatible basic types.\n"
    "var compatibleBasics = map[[2]types.BasicKind]bool{\n"
    + "".join(f"\t{{types.Int{n}, types.Int{2 * n}}}: true,\n" for n in (8, 16, 32, 64, 128))
    + "".join(f"\t{{types.Uint{n}, types.Uint{2 * n}}}: true,\n" for n in (8, 16, 32, 64, 128))
    + "}\n\n"
    "var unnamed = []string{\n" + '\t"a long row of words",\n' * 20 + "}\n"
)


def test_a_long_declaration_with_a_doc_is_a_definition_of_its_head() -> None:
    """Fails before day-code89: a declaration longer than a signature was in no chunk,
    its name nowhere and its doc a comment naming nothing (golang.org/x/exp's
    ``compatibleBasics``). With a doc it is a definition: the declaration up to its
    value, the value's names as context; without one it is left as it was."""
    chunks = split_code(_GO_TABLE, "go")
    check(chunks, _GO_TABLE)
    [table] = [c for c in chunks if c.role == "definition"]
    assert (table.section, table.start_line, table.end_line) == (("compatibleBasics",), 3, 15)
    assert table.text == (
        "All pairs (old, new) of compatible basic types."
        " var compatibleBasics = map[[2]types.BasicKind]bool"
    )
    assert {"int8", "uint128"} <= set(table.context.split())
    assert table.value
    # (a long value with no doc names nothing it could be asked by: left as it was)
    assert not [c for c in chunks if "unnamed" in c.section]
