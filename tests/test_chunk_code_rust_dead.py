"""probe92 (a week on nom through the installed hook): commented-out Rust read as prose.

nom's src/error.rs keeps a whole module of helpers in one ``/* ... */`` block
(``prepare_errors``, ``print_codes``...). The reader skips commented-out code, but a
paragraph is skipped only when every line reads as code, and Rust's read as prose or as
nothing: an attribute (``#[cfg(feature = "std")]``), a binding whose keywords make three
plain words (``let mut v: Vec<u8> = Vec::new();``, ``for &byte in chunk {``, ``off as
usize``), a path call (``String::from_utf8_lossy(&v[..]).into_owned()``), a block's tail
value (``true``, ``(off1, off2)``). Seventeen such paragraphs became beliefs, and one led
the block for "how does from_error_kind behave for each error type".
"""

from __future__ import annotations

import pytest

from credo.knowledge.chunk.code import split_code
from credo.knowledge.chunk.code_outline import is_commented_out_code


@pytest.mark.parametrize(
    ("line", "is_code"),
    [
        ('#[cfg(feature = "std")]', True),
        ('#[cfg_attr(feature = "cargo-clippy", allow(implicit_hasher))]', True),
        ("#![allow(dead_code)]", True),
        ("#[test]", True),
        ("let mut v: Vec<(ErrorKind, usize, usize)> = Vec::new();", True),
        ("let off1 = s.as_ptr() as usize - start as usize;", True),
        ("for &byte in chunk {", True),
        ("String::from_utf8_lossy(&v[..]).into_owned()", True),
        ("true", True),
        ("(off1, off2)", True),
        # prose stays prose
        ("for each item in the list {", False),
        ("let mut values stay mutable here;", False),
        ("for example in this case:", False),
        ("#[cfg] attributes are read as the build sees them", False),
        ("true to its name, it never allocates", False),
    ],
)
def test_rust_lines_commented_out(line: str, is_code: bool) -> None:
    assert is_commented_out_code([(1, line)]) is is_code


RUST = """\
/// Parses one byte.
pub fn byte(i: &[u8]) -> u8 {
  i[0]
}

// The offsets below are counted from the start of the input, not of the line.
// (see `byte` above)

/*
#[cfg(feature = "std")]
pub fn prepare_errors<O, E: Clone>(input: &[u8], e: VerboseError<&[u8]>) -> Option<Vec<u8>> {
  let mut v: Vec<(ErrorKind, usize, usize)> = Vec::new();

  for (p, kind) in e.errors.drain(..) {
    let (o1, o2) = slice_to_offsets(input, p);
    v.push((kind, o1, o2));
  }

  v.reverse();
  Some(v)
}

pub fn slice_to_offsets(input: &[u8], s: &[u8]) -> (usize, usize) {
  let start = input.as_ptr();
  let off1 = s.as_ptr() as usize - start as usize;
  let off2 = off1 + s.len();
  (off1, off2)
}

#[cfg(feature = "std")]
pub fn print_offsets(input: &[u8], from: usize) -> String {
  let mut v = Vec::with_capacity(input.len() * 3);
  for &byte in input {
    v.push(byte);
  }
  String::from_utf8_lossy(&v[..]).into_owned()
}
*/
"""


def test_a_commented_out_rust_module_adds_no_comment() -> None:
    comments = [c for c in split_code(RUST, "rust") if c.role == "code_comment"]
    assert [c.text for c in comments] == [
        "The offsets below are counted from the start of the input, not of the line. "
        "(see byte above)"
    ]
