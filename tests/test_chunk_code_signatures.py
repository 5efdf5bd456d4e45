"""A TypeScript function signature (no body) is a definition (day-tidy81, probe80 #1).

pino.d.ts declares ``export function destination(...): SonicBoom`` inside ``declare
namespace pino`` under a JSDoc: a ``function_signature`` to tree-sitter, which the
TypeScript query did not name, so its doc was a nameless comment of the namespace
("pino L842-L846") that no question about ``destination`` reached by its name. A
signature is now a definition as Rust's ``function_signature_item`` is: a ``.d.ts``
declaration, ``declare function``, and each overload of an implementation.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.code import split_code
from credo.knowledge.doctor import range_holds

DECLARATIONS = """\
declare namespace pino {
    /**
     * Create a Pino Destination instance.
     * @returns A stream.
     */
    export function destination (
      dest?: number | string,
    ): SonicBoom

    export function transport<T = Record<string, any>> (options: T): ThreadStream
}

/** Parses a value. */
export function parse(a: string): string;
export function parse(a: number): number;
export function parse(a: any) {
  return a
}

declare function pino(options?: object): Logger;
"""


def _definitions(source: str) -> list[tuple[tuple[str, ...], int, int, str]]:
    return [
        (c.section, c.start_line, c.end_line, c.text)
        for c in split_code(source, "typescript")
        if c.role == "definition"
    ]


def test_a_declared_function_is_a_definition_named_with_its_doc() -> None:
    found = _definitions(DECLARATIONS)
    assert found == [
        (("pino",), 1, 11, "namespace pino"),
        (
            ("pino", "destination"),
            2,
            8,
            "Create a Pino Destination instance. @returns A stream. function destination "
            "(dest?: number | string): SonicBoom",
        ),
        (
            ("pino", "transport"),
            10,
            10,
            "function transport<T = Record<string, any>> (options: T): ThreadStream",
        ),
        (("parse",), 13, 14, "Parses a value. function parse(a: string): string"),
        (("parse",), 15, 15, "function parse(a: number): number"),
        (("parse",), 16, 18, "function parse(a: any)"),
        (("pino",), 20, 20, "function pino(options?: object): Logger"),
    ]
    # No doc is left a nameless comment.
    assert not [c for c in split_code(DECLARATIONS, "typescript") if c.role == "code_comment"]
    lines = DECLARATIONS.splitlines()
    for _, first, last, text in found:
        assert range_holds(lines, first, last, text)


_NAME = st.from_regex(r"[a-z][a-zA-Z]{1,8}", fullmatch=True)
_DOC = st.from_regex(r"[A-Z][a-z]{2,8}( [a-z]{1,8}){0,6}\.", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(
    functions=st.lists(
        st.tuples(_NAME, st.none() | _DOC, st.booleans(), st.booleans()), min_size=1, max_size=6
    )
)
def test_every_declared_function_is_named_and_its_anchor_holds(
    functions: list[tuple[str, str | None, bool, bool]],
) -> None:
    """Declarations in a namespace or at the top, with and without a one-line or
    multi-line JSDoc: each is one definition named by its function, holding its doc."""
    rows = ["declare namespace ns {"]
    for name, doc, multi_line, _ in functions:
        if doc and multi_line:
            rows.extend(["  /**", f"   * {doc}", "   */"])
        elif doc:
            rows.append(f"  /** {doc} */")
        rows.append(f"  export function {name}(x: number): void")
    rows.append("}")
    lines = [*rows, ""]
    found = [d for d in _definitions("\n".join(lines)) if d[0] != ("ns",)]
    assert [section for section, *_ in found] == [("ns", name) for name, *_ in functions]
    for (_, doc, _, _), (_, first, last, text) in zip(functions, found, strict=True):
        assert lines[last - 1].lstrip().startswith("export function")
        assert text.startswith(doc) if doc else text.startswith("function")
        assert range_holds(lines, first, last, text)
