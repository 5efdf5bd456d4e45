"""Three reading defects of stop 55 (reading75): a documented module-level constant is a
definition named by it (code_values); a Rust trait impl read as its one function ends at
that function (an impl with associated types reached 4 lines past it); a commented-out
definition is no passage, however its keywords read (code_outline)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.knowledge.chunk.code_values import _Spans
from credo.knowledge.ingest.split import split_passages
from tests.test_chunk_code import check, full

_REGEXES = """\
import { x } from "./x";

/** Practical email validation */
export const email: RegExp = /^[a-z]+@[a-z]+$/;
/** Equivalent to the HTML5 input[type=email] validation */
export const html5Email = /^.+@.+$/;
// A plain comment over one constant is its doc, as over a function (code_declared).
export const LIMIT = 10;
/** Two names at once stay as they were. */
let a = 1, b = 2;
/** So does a destructuring. */
const { isArray } = Array;
"""


def test_a_documented_constant_is_a_definition_named_by_it() -> None:
    chunks = split_code(_REGEXES, "typescript")
    check(chunks, _REGEXES)
    assert full(chunks) == [
        ("Practical email validation const email: RegExp", 3, 4, "definition", ("email",)),
        (
            "Equivalent to the HTML5 input[type=email] validation const html5Email",
            5,
            6,
            "definition",
            ("html5Email",),
        ),
        (
            "A plain comment over one constant is its doc, as over a function (code_declared)."
            " const LIMIT = 10",
            7,
            8,
            "definition",
            ("LIMIT",),
        ),
        # (a plain comment stays the file's comment too: a constant of data takes nothing
        # from the passages, day-const81)
        (
            "A plain comment over one constant is its doc, as over a function (code_declared).",
            7,
            7,
            "code_comment",
            (),
        ),
        ("Two names at once stay as they were.", 9, 9, "code_comment", ()),
        ("So does a destructuring.", 11, 11, "code_comment", ()),
    ]
    # each is a passage of its own: none pools the others' docs
    joined = split_passages("regexes.ts", _REGEXES).chunks
    heads = [p.section for p in joined if p.role == "definition"]
    assert heads == [("email",), ("html5Email",), ("LIMIT",)]


def test_a_documented_constant_takes_its_values_names_as_context() -> None:
    source = '/** Where requests go. */\nconst BASE = joinUrl(HOST, "v2");\n'
    [chunk] = split_code(source, "javascript")
    assert (chunk.text, chunk.section) == ("Where requests go. const BASE", ("BASE",))
    assert {"join", "url", "host"} <= set(chunk.context.split())


def test_rust_documented_const_and_static_are_definitions() -> None:
    source = "use a::b;\n\n/// The default limit.\npub const LIMIT: u32 = 10;\n/// The cap.\n"
    source += "static CAP: usize = 3;\n// A plain remark.\nconst N: u8 = 1;\n"
    chunks = split_code(source, "rust")
    check(chunks, source)
    assert full(chunks) == [
        ("The default limit. pub const LIMIT: u32", 3, 4, "definition", ("LIMIT",)),
        ("The cap. static CAP: usize", 5, 6, "definition", ("CAP",)),
        ("A plain remark. const N: u8 = 1", 7, 8, "definition", ("N",)),  # (code_declared)
        ("A plain remark.", 7, 7, "code_comment", ()),  # (and the file's comment, as before)
    ]


def test_a_constant_left_as_it_was_keeps_its_comments() -> None:
    source = "use a::b;\n\n#[allow(dead_code)] // Kept for the old API.\nconst N: u8 = 1;\n"
    # (a definition since day-const79, code_declared: the comment still a comment)
    assert [c.text for c in split_code(source, "rust")] == [
        "const N: u8 = 1",
        "Kept for the old API.",
    ]


def test_functions_and_configuration_objects_keep_their_readers() -> None:
    source = (
        "/** Adds. */\nexport const add = (a, b) => a + b;\n"
        "/** The options. */\nexport default { retries: 3, timeout: 10 };\n"
    )
    chunks = split_code(source, "javascript")
    check(chunks, source)
    assert [(c.role, c.section) for c in chunks if c.role == "definition"] == [
        ("definition", ("add",))
    ]


_ITERATOR = """\
impl Iterator for Counter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.count += 1;
        Some(self.count)
    }
}
"""


def test_a_trait_impl_read_as_its_function_ends_at_the_function() -> None:
    [chunk] = split_code(_ITERATOR, "rust")
    check([chunk], _ITERATOR)
    assert full([chunk]) == [
        (
            "impl Iterator for Counter type Item = u32 fn next(&mut self) -> Option<u32>",
            1,
            7,
            "definition",
            ("Counter", "next"),
        )
    ]


@pytest.mark.parametrize(
    ("language", "source"),
    [
        pytest.param(
            "typescript",
            "x();\n\n// export function preprocess<A, U>(\n"
            "//   fn: (arg: unknown, ctx: core.ParsePayload) => A,\n//   schema: U,\n"
            "// ): ZodPipe<A, U> {\n//   return pipe(transform(fn), schema);\n// }\n",
            id="ts-exported-generic-function",
        ),
        pytest.param(
            "python",
            "x = 1\n\n\n# def old(a, b):\n#     c = a + b\n#     return c * 2\n",
            id="python-return-expression",
        ),
        pytest.param(
            "rust",
            "use a::b;\n\n// pub fn parse(input: &str) -> Result<Version, Error> {\n"
            "//     parse_inner(input)\n// }\n",
            id="rust-pub-fn",
        ),
    ],
)
def test_commented_out_definitions_are_no_passage(language: str, source: str) -> None:
    assert [c for c in split_code(source, language) if c.role == "code_comment"] == []


@pytest.mark.parametrize(
    ("language", "source"),
    [
        pytest.param("typescript", "x();\n\n// function foo() is called on every click.\n"),
        pytest.param("python", "x = 1\n\n\n# return the cached value when it is fresh\n"),
        pytest.param("typescript", "x();\n\n// Options:\n//   retries: how many times,\n"),
    ],
)
def test_explanations_that_name_code_stay(language: str, source: str) -> None:
    assert [c.role for c in split_code(source, language)] == ["code_comment"]


@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=12),
    st.integers(0, 45),
    st.integers(0, 6),
)
def test_spans_meet_a_range_as_a_scan_of_all_would(
    spans: list[tuple[int, int]], first: int, length: int
) -> None:
    rows = [(start, start + extent) for start, extent in spans]
    last = first + length
    scan = any(start <= last and first <= end for start, end in rows)
    assert _Spans(list(rows)).meets(first, last) == scan
