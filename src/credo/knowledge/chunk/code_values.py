"""A value declared at a module's top with a doc comment above it is a definition.

``/** Practical email validation */ export const email = /.../;`` or Rust's ``/// The
default limit.`` over ``pub const LIMIT: u32 = 10;``: the doc comment says what the value
is, and the value's name is what a question about it says. Read as a comment alone, the
doc had no name in its passage or trail, and a run of such constants (zod's regexes.ts:
``email``, ``html5Email``, ``rfc5322Email``...) pooled into one passage naming none of them.

As a definition: its trail is the name, its text the doc then the declaration up to its
value (``Practical email validation const email: RegExp``), its context the value's names
and short strings, its lines the doc's first to the declaration's last. Only doc syntax
(``/**``, ``///``) makes one: a plain comment above a constant often heads a group of
them (godoc reads it so), and stays a comment. A declaration file's ``export declare const
isEmpty: <A>(as: Array<A>) => as is []`` has no value: its type is its text (day-code89).
A declaration whose value is a function or
class is a definition already; one that holds a definition, declares several names or is
read as configuration (`code_config`) is left as it was.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator

    from tree_sitter import Node

    from credo.knowledge.chunk.code_treesitter import _Found, _Reader

# Comments written as documentation (JSDoc, Javadoc, Doxygen, Rust and C# docs); `/**/` and
# `////` are plain comments drawn long.
DOC_SYNTAX = re.compile(rb"/\*\*(?!/)|///(?!/)")
_DECLARATOR = "variable_declarator"
_AMBIENT = "ambient_declaration"
# Values that are read otherwise: functions and classes are definitions of their own.
_DEFINED = frozenset(
    {"arrow_function", "function_expression", "generator_function", "function", "class"}
)
# Wrappers of a value that say nothing of what it is (``{...} as const``).
_WRAPPED = frozenset(
    {"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"}
)


def documented_values(
    reader: _Reader, found: list[_Found], held: list[tuple[int, int]]
) -> list[_Found]:
    """The module-level value declarations with a doc comment directly above, as
    definitions; `found` are the file's definitions, `held` the rows (0-based, inclusive)
    of its configuration objects."""
    taken = taken_spans(found, held)
    out: list[_Found] = []
    for statement, declaration in module_declarations(reader, reader.grammar.values):
        target = _target(declaration)
        if target is None:
            continue
        name, value = target.child_by_field_name("name"), target.child_by_field_name("value")
        if name is None or name.type != "identifier":
            continue  # (a destructuring ``const { isArray } = Array`` names no one value)
        if value is None and not declared_type(statement, target):
            continue
        if value is not None and _unwrapped(value).type in _DEFINED:
            continue
        if taken.meets(statement.start_point[0], statement.end_point[0]):
            continue
        # (looked at with the reader's used set aside: `leading` marks a comment after an
        # attribute used, which a constant left as it was must not lose)
        used, reader.used = reader.used, set()
        docs, _ = reader.leading(statement)
        reader.used = used
        if not docs or not all(DOC_SYNTAX.match(reader.source, d.start_byte) for d in docs):
            continue
        made = reader.definition(target, value, (reader.name(name),))
        made.definition.signature = made.definition.signature.removesuffix("=").rstrip()
        out.append(made)
    return out


def taken_spans(found: list[_Found], held: list[tuple[int, int]]) -> _Spans:
    """The rows (0-based) the file's definitions `found` and the spans `held` take."""
    rows = [(f.definition.start_line - 1, f.definition.end_line - 1) for f in found]
    return _Spans([*rows, *held])


def module_declarations(reader: _Reader, types: Collection[str]) -> Iterator[tuple[Node, Node]]:
    """Each top-level statement whose declaration (itself, or what an ``export`` wraps) is
    of one of `types`, with that declaration."""
    for statement in reader.root.named_children:
        declaration: Node | None = statement
        while declaration is not None and declaration.type in reader.grammar.wrappers:
            # (``export const``; ``export declare const`` wraps twice, ``declare`` holds its
            # declaration as its one child, no field)
            inner = declaration.child_by_field_name("declaration")
            if inner is None and declaration.type == _AMBIENT and declaration.named_child_count:
                inner = declaration.named_children[0]
            declaration = inner
        if declaration is not None and declaration.type in types:
            yield statement, declaration


def declared_type(statement: Node, target: Node) -> bool:
    """A ``declare const X: T`` of a declaration file (``export declare const isEmpty: <A>(as:
    Array<A>) => as is []``, what tsc writes for an exported arrow): its type is all there
    is to read, and its doc was a comment naming nothing (day-code89: fp-ts's API)."""
    declared = statement.type == _AMBIENT or any(c.type == _AMBIENT for c in statement.children)
    return declared and target.child_by_field_name("type") is not None


class _Spans:
    """Row spans, asked whether any meets a range in logarithmic time (a generated module
    holds thousands of constants and definitions: a scan of all for each was quadratic)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        spans.sort()
        self.starts = [start for start, _ in spans]
        self.reach = list(accumulate((end for _, end in spans), max))  # furthest end so far

    def meets(self, first: int, last: int) -> bool:
        before = bisect_right(self.starts, last)  # the spans that start by `last`
        return before > 0 and self.reach[before - 1] >= first


def _target(declaration: Node) -> Node | None:
    """The node naming the value: a JavaScript declaration's one declarator, or the
    declaration itself (Rust's ``const``); None for ``let a = 1, b = 2``."""
    if declaration.child_by_field_name("name") is not None:
        return declaration
    declarators = [c for c in declaration.named_children if c.type == _DECLARATOR]
    return declarators[0] if len(declarators) == 1 else None


def _unwrapped(value: Node) -> Node:
    while value.type in _WRAPPED and value.named_child_count:
        value = value.named_children[0]
    return value
