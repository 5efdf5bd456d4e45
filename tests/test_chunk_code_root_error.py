"""A file tree-sitter gives a root ERROR for, whose statements are mostly whole, is read.

tree-sitter-typescript loses the root of a file whose interface has overloaded call
signatures written without ``;`` (``): C`` then ``<M extends Fn>(``: it reads a generic
type's arguments). immer's types-external.ts (its ``Draft``, ``Immutable``, ``Patch``...
21 definitions) went to the comment reader whole: its types were in no definition. On
main (21029d04) every test here but the last fails.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from tests.test_chunk_code import check

_BROKEN = """\
/** A callable. */
export type Fn = (...args: any[]) => any

/** A box holds one value. */
export type Box<T> = {value: T}

/** Puts a value in a new box, which the caller owns from then on. */
export function box<T>(value: T): Box<T> {
	const made = {value}
	return made
}

/** Whether a value is a box: an object with a value key of its own. */
export function isBox(value: unknown): value is Box<unknown> {
	return typeof value === "object" && value !== null && Object.hasOwn(value, "value")
}

/** Makes boxes, curried or not. */
export interface Make {
	/** Curried. */
	<C>(
		make: Box<C>,
		first?: Box<C>
	): C

	/** From a maker alone. */
	<M extends Fn>(
		make: M
	): Box<M>

	/** From a maker and its arguments. */
	<S, Args extends any[]>(
		make: (
			seed: Box<S>,
			...args: Args
		) => S,
		first: S
	): (seed?: S, ...args: Args) => S
	<S>(
		make: (seed: Box<S>) => S
	): (seed: S) => S

	/** From a first value. */
	<S, M extends Function>(
		make: M,
		first: S
	): Box<S>
}

/** Opens a box. */
export function open<T>(box: Box<T>): T {
	return box.value
}
"""


def _root(source: str) -> str:
    import tree_sitter_typescript
    from tree_sitter import Language, Parser

    parser = Parser(Language(tree_sitter_typescript.language_typescript()))
    return parser.parse(source.encode()).root_node.type


def test_the_whole_declarations_around_a_broken_interface_are_definitions() -> None:
    assert _root(_BROKEN) == "ERROR"  # (the grammar's, as of tree-sitter-typescript 0.23)
    chunks = split_code(_BROKEN, "typescript")
    assert [(c.section, c.start_line, c.end_line) for c in chunks if c.role == "definition"] == [
        (("Fn",), 1, 2),
        (("Box",), 4, 5),
        (("box",), 7, 11),
        (("isBox",), 13, 16),
    ]
    # the broken interface's doc comments stay comments, as before
    assert [c.text for c in chunks if c.role == "code_comment"][:2] == [
        "Makes boxes, curried or not.",
        "Curried.",
    ]
    check(chunks, _BROKEN)


def test_a_root_error_over_mostly_loose_tokens_still_falls_back() -> None:
    # (most of it in no whole statement: not this grammar's language, or not code)
    prose = "/** A note. */\n" + "This is < not (code] at { all, it > says.\n" * 40
    assert _root(prose) == "ERROR"
    assert {c.role for c in split_code(prose, "typescript")} <= {"code_comment", "docstring"}


_TOKENS = st.sampled_from(
    [
        "<",
        ">",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        ";",
        "=>",
        "extends",
        "T",
        "x",
        "function f() {}",
        "type A = B",
        "/** doc */",
        "\n",
        "interface I {",
        "export",
    ]
)


@settings(max_examples=80, deadline=None)
@given(st.lists(_TOKENS, max_size=120))
def test_any_token_soup_reads_without_raising_and_keeps_the_contract(tokens: list[str]) -> None:
    source = " ".join(tokens)
    chunks = split_code(source, "typescript")
    check(chunks, source)
