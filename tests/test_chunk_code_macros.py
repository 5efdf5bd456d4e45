"""A Rust ``macro_rules!`` that stamps out items is read as the items it defines
(`code_macros`, probe81). regex 1.7.1 writes ``RegexSet`` and ``RegexBuilder`` inside
``define_set!`` and ``define_builder!``: each macro was one definition whose text was its
first line, so "how to match several patterns at once" never met ``RegexSet``'s doc."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.knowledge.chunk.code_treesitter import available
from tests.test_chunk_code import check, full

pytestmark = pytest.mark.skipif(not available("rust"), reason="tree-sitter-rust not installed")

_DEFINE_SET = """\
macro_rules! define_set {
    ($name:ident, $text_ty:ty, $(#[$doc_example:meta])*) => {
        pub mod $name {
            use crate::exec::Exec;

            /// Match multiple regular expressions in a single scan.
            ///
            /// A regex set corresponds to the union of two or more regexes.
            $(#[$doc_example])*
            pub struct RegexSet(Exec);

            impl RegexSet {
                /// Returns true if and only if one of the regexes matches.
                pub fn is_match(&self, text: $text_ty) -> bool {
                    self.0.is_match(text)
                }
            }
        }
    };
}

define_set! { unicode, &str, }
"""


def test_a_macro_stamping_out_items_reads_as_those_items() -> None:
    chunks = split_code(_DEFINE_SET, "rust")
    check(chunks, _DEFINE_SET)
    # (the struct and its impl share a trail: the later one wins here)
    definitions = {c.section: c for c in reversed(chunks) if c.role == "definition"}
    regex_set = definitions[("define_set", "$name", "RegexSet")]
    assert regex_set.text.startswith("Match multiple regular expressions in a single scan.")
    assert (regex_set.start_line, regex_set.end_line) == (6, 10)
    is_match = definitions[("define_set", "$name", "RegexSet", "is_match")]
    assert is_match.text == (
        "Returns true if and only if one of the regexes matches. "
        "pub fn is_match(&self, text: $text_ty) -> bool"
    )
    assert (is_match.start_line, is_match.end_line) == (13, 16)


_TESTS = """\
macro_rules! replace (
    ($name:ident, $which:ident, $re:expr) => {
        /// Replaces with the given method.
        #[test]
        fn $name() {
            let re = regex!($re);
            assert_eq!(re.$which("age: 26"), "age: Z6");
        }
    };
);

replace!(first, replace, r"[0-9]");
"""


def test_a_macro_in_parentheses_reads_as_its_items() -> None:
    chunks = split_code(_TESTS, "rust")
    check(chunks, _TESTS)
    assert ("Replaces with the given method. fn $name()", 3, 8, "definition") in [
        row[:4] for row in full(chunks)
    ]


@pytest.mark.parametrize(
    ("source", "macro"),
    [
        # an expression: no items to read
        ("/// Squares.\nmacro_rules! square {\n    ($x:expr) => { $x * $x };\n}\n", "square"),
        # one rule of items, one of an expression: read as before
        ("macro_rules! m {\n    () => { fn f() {} };\n    ($x:expr) => { $x };\n}\n", "m"),
        # items whose generics come in a metavariable: not Rust once expanded by hand
        (
            "macro_rules! m {\n    ($t:ty, $($args:tt)*) => {\n"
            "        impl $($args)* Send for $t {}\n    };\n}\n",
            "m",
        ),
    ],
    ids=["expression", "mixed-rules", "unreadable-items"],
)
def test_a_macro_that_is_not_items_stays_one_definition(source: str, macro: str) -> None:
    chunks = split_code(source, "rust")
    check(chunks, source)
    assert [c.section for c in chunks if c.role == "definition"] == [(macro,)]


# An expression macro opening with ``unsafe`` (a block) reads like one of items; the copy
# breaks it (review82).
_UNSAFE = "macro_rules! read {\n    ($p:expr) => {\n        unsafe { *$p }\n    };\n}\n"
_STAMP = (
    "macro_rules! stamp {\n    ($t:ty) => {\n        /// Finds the first match.\n"
    "        pub fn find(x: $t) -> usize {\n            x.len()\n        }\n    };\n}\n"
)


def test_a_macro_the_copy_breaks_keeps_its_text_beside_one_that_reads_as_items() -> None:
    # Before: one misjudged macro threw the whole copy away (stamp's find was no definition).
    source = f"{_UNSAFE}\n{_STAMP}"
    chunks = split_code(source, "rust")
    check(chunks, source)
    definitions = {c.section: c.text for c in chunks if c.role == "definition"}
    assert definitions[("read",)] == "macro_rules! read { ($p:expr) => { unsafe { *$p } }; }"
    assert definitions[("stamp", "find")] == "Finds the first match. pub fn find(x: $t) -> usize"


def test_a_file_that_fails_to_parse_elsewhere_keeps_its_expression_macro_whole() -> None:
    # Before: a syntax error anywhere let the broken copy in, and "read" lost its tokens.
    source = f"{_UNSAFE}\n/// Doubles.\npub fn double(x: u8) -> u8 {{ x * 2 }}\n\nfn broken( {{\n"
    chunks = split_code(source, "rust")
    check(chunks, source)
    definitions = {c.section: c.text for c in chunks if c.role == "definition"}
    assert definitions[("read",)] == "macro_rules! read { ($p:expr) => { unsafe { *$p } }; }"
    assert definitions[("double",)] == "Doubles. pub fn double(x: u8) -> u8"


@settings(max_examples=40, deadline=None)
@given(
    macros=st.lists(st.booleans(), min_size=1, max_size=4),
    broken_tail=st.booleans(),
)
def test_each_macro_is_judged_on_its_own(macros: list[bool], broken_tail: bool) -> None:
    # Item macros (True) and misleading expression macros (False) in any order, the file
    # parsing cleanly or not: each item macro's fn is a definition, each expression macro
    # one definition holding its tokens.
    parts = [
        _STAMP.replace("stamp", f"stamp{k}").replace("find", f"find{k}")
        if items
        else _UNSAFE.replace("read", f"read{k}")
        for k, items in enumerate(macros)
    ]
    source = "\n".join(parts) + ("\nfn broken( {\n" if broken_tail else "")
    chunks = split_code(source, "rust")
    check(chunks, source)
    definitions = {c.section: c.text for c in chunks if c.role == "definition"}
    for k, items in enumerate(macros):
        if items:
            assert definitions[(f"stamp{k}", f"find{k}")].startswith("Finds the first match.")
        else:
            assert definitions[(f"read{k}",)].endswith("unsafe { *$p } }; }")


_NAMES = st.sampled_from(["find", "is_match", "split", "new", "len"])
_DOCS = st.sampled_from(["Finds the first match.", "Splits the text.", "Creates one."])


@settings(max_examples=60, deadline=None)
@given(
    functions=st.lists(st.tuples(_NAMES, _DOCS, st.booleans()), min_size=1, max_size=4),
    brackets=st.sampled_from(["{}", "()", "[]"]),
    repeated=st.booleans(),
    rules=st.integers(min_value=1, max_value=2),
)
def test_every_function_a_macro_stamps_out_is_a_definition(
    functions: list[tuple[str, str, bool]], brackets: str, repeated: bool, rules: int
) -> None:
    body = "".join(
        f"        /// {doc}\n        {'pub ' if public else ''}fn {name}(x: $t) -> usize {{\n"
        f"            x.len()\n        }}\n"
        for name, doc, public in functions
    )
    if repeated:
        body = f"        $(\n{body}        )*\n"
    opening, closing = brackets
    rule = f"    ($t:ty) => {{\n{body}    }};\n"
    source = f"macro_rules! stamp {opening}\n{rule * rules}{closing}\n"
    chunks = split_code(source, "rust")
    check(chunks, source)
    named = {(c.section[-1], c.text) for c in chunks if c.role == "definition"}
    for name, doc, public in functions:
        signature = f"{'pub ' if public else ''}fn {name}(x: $t) -> usize"
        assert (name, f"{doc} {signature}") in named


_BORROWED = """\
impl<'a> IntoIterator for &'a SetMatches {
    type IntoIter = SetMatchesIter<'a>;
    /// Iterates over the matched indices.
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'r, 't> Pattern<'t> for &'r mut Regex {
    /// Searches the haystack.
    fn into_searcher(self, haystack: &'t str) -> RegexSearcher<'r, 't> {
        todo!()
    }
}
"""


def test_a_rust_impl_for_a_reference_is_named_by_the_type_it_borrows() -> None:
    # (regex's pattern.rs read "&'rRegex › into_searcher": the lifetime glued to the type)
    chunks = split_code(_BORROWED, "rust")
    check(chunks, _BORROWED)
    assert [c.section for c in chunks if c.role == "definition"] == [
        ("SetMatches",),
        ("SetMatches", "IntoIter"),
        ("SetMatches", "into_iter"),
        ("Regex",),
        ("Regex", "into_searcher"),
    ]


_SOUP = st.sampled_from(
    [
        "macro_rules! m {",
        "macro_rules! m (",
        "($x:ident) => {",
        "($($t:ty),*) => (",
        "$(",
        ")*",
        "pub fn $x() {}",
        "impl $t {",
        "/// doc",
        "#[$attr]",
        "}",
        ")",
        ";",
        "\n",
        "$crate::f()",
    ]
)


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(_SOUP, max_size=14))
def test_the_parser_s_copy_keeps_every_line_and_offset(tokens: list[str]) -> None:
    # The copy is what tree-sitter reads while every text is cut from the file: any byte
    # moved would cut a signature or a trail from the wrong place.
    import tree_sitter
    import tree_sitter_rust

    from credo.knowledge.chunk.code_macros import as_items, stamping

    source = " ".join(tokens).encode()
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_rust.language()))
    macros = stamping(source, parser.parse(source).root_node)
    if macros:
        copy = as_items(source, macros)
        assert len(copy) == len(source)
        assert [k for k, b in enumerate(copy) if b == 0x0A] == [
            k for k, b in enumerate(source) if b == 0x0A
        ]
    chunks = split_code(source.decode(), "rust")
    check(chunks, source.decode())
