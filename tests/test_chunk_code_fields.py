"""A struct field's doc comment is found by the field's name (day-reading76, probe76 #2).

cobra's ``// Hidden defines, if this command is hidden...`` above ``Hidden bool`` was a
nameless comment of ``Command``, pooled with its neighbours' into one passage: "Command ›
Hidden" named nothing. A comment on its own lines right above a field of a type that
declares members (Go and Rust structs, TypeScript interfaces and classes) now ends its trail
in the field's name and its text in the field's line, as a method's doc leads its
signature. A trailing comment, a comment above no field, and every Python comment are as
they were.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.code import split_code
from credo.knowledge.doctor import range_holds

GO = """\
package cli

// Command is a subcommand.
type Command struct {
\t// The name of the command
\tName string
\t// Hidden defines, if this command is hidden and should NOT show up in the help.
\tHidden bool
\tAliases []string // other names
\tUsage, UsageText string
}

// Runner runs.
type Runner interface {
\t// Run runs the command.
\tRun() error
}
"""

RUST = """\
/// A version.
pub struct Version {
    /// The major number, bumped on breaking changes.
    pub major: u64,
    pub minor: u64,
    // A plain comment above a restricted field.
    pub(crate) patch: u64,
}
"""

TYPESCRIPT = """\
/** Options. */
export interface Options {
  /** Whether the command is hidden from help output. */
  hidden?: boolean;
  name: string;
}

export class Client {
  /** How long to wait, in milliseconds. */
  readonly timeout: number;
}
"""


def _comments(source: str, language: str) -> list[tuple[str, tuple[str, ...], int, int]]:
    chunks = split_code(source, language)
    lines = source.split("\n")
    assert all(range_holds(lines, c.start_line, c.end_line, c.text) for c in chunks)
    return [
        (c.text, c.section, c.start_line, c.end_line) for c in chunks if c.role == "code_comment"
    ]


def test_a_go_field_comment_ends_in_the_field() -> None:
    assert _comments(GO, "go") == [
        ("The name of the command Name string", ("Command", "Name"), 5, 6),
        (
            "Hidden defines, if this command is hidden and should NOT show up in the help."
            " Hidden bool",
            ("Command", "Hidden"),
            7,
            8,
        ),
        ("other names", ("Command",), 9, 9),  # trailing: the next line is another field
        ("Run runs the command. Run() error", ("Runner", "Run"), 15, 16),  # a method spec
    ]


def test_a_rust_field_comment_ends_in_the_field() -> None:
    assert _comments(RUST, "rust") == [
        (
            "The major number, bumped on breaking changes. pub major: u64,",
            ("Version", "major"),
            3,
            4,
        ),
        (
            "A plain comment above a restricted field. pub(crate) patch: u64,",
            ("Version", "patch"),
            6,
            7,
        ),
    ]


def test_a_typescript_member_comment_ends_in_the_member() -> None:
    assert _comments(TYPESCRIPT, "typescript") == [
        (
            "Whether the command is hidden from help output. hidden?: boolean;",
            ("Options", "hidden"),
            3,
            4,
        ),
        (
            "How long to wait, in milliseconds. readonly timeout: number;",
            ("Client", "timeout"),
            9,
            10,
        ),
    ]


JSDOC = """\
export interface LoggerOptions {
  /**
   * Enables or disables the inclusion of a timestamp.
   * Caution: a formatted time slows Pino down.
   */
  timestamp?: boolean;
  /**
   * Creates a child logger.
   *
   */
  child<T extends string>(bindings: object): Logger;
}
"""


def test_a_multi_line_jsdoc_ends_in_its_member() -> None:
    """pino.d.ts's options are documented in JSDoc over three lines and more: the comment's
    last line of words is followed by its closing ``*/``, then the member (day-probe80)."""
    assert _comments(JSDOC, "typescript") == [
        (
            "Enables or disables the inclusion of a timestamp. Caution: a formatted time "
            "slows Pino down. timestamp?: boolean;",
            ("LoggerOptions", "timestamp"),
            3,
            6,
        ),
        (
            "Creates a child logger. child<T extends string>(bindings: object): Logger;",
            ("LoggerOptions", "child"),
            8,
            11,
        ),
    ]
    lines = JSDOC.splitlines()
    for text, _, first, last in _comments(JSDOC, "typescript"):
        assert range_holds(lines, first, last, text)


@pytest.mark.parametrize(
    ("source", "language"),
    [
        ("package x\n\nfunc f() {\n\t// count them\n\tn := 0\n\t_ = n\n}\n", "go"),
        ("fn f() {\n    // the total\n    let total: u64 = 0;\n}\n", "rust"),
        ("let o = {\n  // a key\n  key: 1,\n};\n", "typescript"),
    ],
)
def test_a_comment_above_no_member_field_keeps_its_scope(source: str, language: str) -> None:
    comments = _comments(source, language)
    assert comments and all(len(section) <= 1 for _, section, _, _ in comments)


def test_a_python_class_attribute_comment_is_as_it_was() -> None:
    source = "class A:\n    # the size\n    size: int = 0\n"
    assert [c.section for c in split_code(source, "python")] == [("A",)]


_NAME = st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True)
_DOC = st.from_regex(r"[A-Z][a-z]{2,8}( [a-z]{1,8}){0,6}\.", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(fields=st.lists(st.tuples(_NAME, st.none() | _DOC), min_size=1, max_size=6))
def test_every_commented_field_is_named_and_its_anchor_holds(
    fields: list[tuple[str, str | None]],
) -> None:
    rows = ["package x", "", "type T struct {"]
    for name, doc in fields:
        if doc:
            rows.append(f"\t// {doc}")
        rows.append(f"\t{name} int")
    rows.append("}")
    lines = [*rows, ""]
    chunks = split_code("\n".join(lines), "go")
    named = [c for c in chunks if c.role == "code_comment"]
    assert len(named) == sum(1 for _, doc in fields if doc)
    for chunk in named:
        name = chunk.section[-1]
        assert chunk.section == ("T", name)
        assert lines[chunk.end_line - 1] == f"\t{name} int"
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text)


@settings(max_examples=60, deadline=None)
@given(
    fields=st.lists(
        st.tuples(_NAME, st.none() | _DOC, st.booleans(), st.booleans()), min_size=1, max_size=6
    )
)
def test_every_jsdoc_member_is_named_and_its_anchor_holds(
    fields: list[tuple[str, str | None, bool, bool]],
) -> None:
    """The same over TypeScript: one-line and multi-line JSDoc, properties and methods."""
    rows = ["export interface T {"]
    for name, doc, multi_line, method in fields:
        if doc and multi_line:
            rows.extend(["  /**", f"   * {doc}", "   *", "   */"])
        elif doc:
            rows.append(f"  /** {doc} */")
        rows.append(
            f"  {name.lower()}(x: number): void;" if method else f"  {name.lower()}?: number;"
        )
    rows.append("}")
    lines = [*rows, ""]
    chunks = split_code("\n".join(lines), "typescript")
    named = [c for c in chunks if c.role == "code_comment"]
    assert len(named) == sum(1 for _, doc, _, _ in fields if doc)
    for chunk in named:
        name = chunk.section[-1]
        assert chunk.section == ("T", name)
        assert lines[chunk.end_line - 1].lstrip().startswith(name)
        assert range_holds(lines, chunk.start_line, chunk.end_line, chunk.text)
