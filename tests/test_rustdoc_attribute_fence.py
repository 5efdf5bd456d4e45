"""probe87 (a week on clap through the installed hook): a Rust doc attribute that writes a
code block's fence is a fence.

clap opens many doc examples with a pair of attributes, one per build:

    /// # Examples
    #[cfg_attr(not(feature = "help"), doc = " ```ignore")]
    #[cfg_attr(feature = "help", doc = " ```")]
    /// # use clap::{Command, Arg};
    /// let m = Command::new("prog")
    /// ```

The reader saw no opening fence, so rustdoc's hidden lines ("# use clap::Command;") were
read as words, and the closing fence opened a block: the next item's real heading ("#
Examples") was hidden, and its real code block's hidden lines shown. 12 of clap's 1742
passages held "# use ...", one of them in the week's blocks (`Error::new`). Now an attribute
``#[doc = " ```"]`` or ``#[cfg_attr(..., doc = " ```tag")]`` between doc lines opens or
closes a block as a ``/// ```` line does (a pair of them is one fence).
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.code import split_code
from tests.conftest import CliRun

NEW = """impl Error {
    /// Create an error with a pre-defined message
    ///
    /// # Example
    ///
    #[cfg_attr(not(feature = "error-context"), doc = " ```ignore")]
    #[cfg_attr(feature = "error-context", doc = " ```")]
    /// # use clap::error::ErrorKind;
    /// # use clap::error::ContextKind;
    /// let err = clap::Error::new(ErrorKind::ValueValidation);
    /// err.print();
    /// ```
    pub fn new(kind: ErrorKind) -> Self {
        todo!()
    }
}
"""

ENUM = """pub enum ErrorKind {
    /// Occurs when the user provides an unrecognized Subcommand.
    ///
    /// # Examples
    ///
    #[cfg_attr(not(feature = "suggestions"), doc = " ```no_run")]
    #[cfg_attr(feature = "suggestions", doc = " ```")]
    /// # use clap::{Command, Arg, error::ErrorKind, };
    /// let result = Command::new("prog").try_get_matches_from(vec!["prog", "confi"]);
    /// ```
    InvalidSubcommand,

    /// Occurs when the user doesn't use equals for an option that requires it.
    ///
    /// # Examples
    ///
    /// ```rust
    /// # use clap::{Command, Arg, error::ErrorKind, ArgAction};
    /// let res = Command::new("prog").try_get_matches_from(vec!["prog", "-c", "file.conf"]);
    /// ```
    NoEquals,
}
"""


def _texts(source: str) -> list[str]:
    return [chunk.text for chunk in split_code(source, "rust")]


def test_an_attribute_fence_hides_rustdocs_hidden_lines() -> None:
    texts = _texts(NEW)
    assert not any("# use" in text for text in texts)
    assert any("let err = clap::Error::new(ErrorKind::ValueValidation)" in t for t in texts)


def test_the_block_it_opens_is_closed_and_the_next_item_reads_as_written() -> None:
    texts = _texts(ENUM)
    assert not any("# use" in text for text in texts)
    assert texts.count("# Examples") == 2  # the second item's heading is no hidden line


def test_a_plain_fence_and_an_attribute_fence_read_the_same() -> None:
    plain = NEW.replace(
        '    #[cfg_attr(not(feature = "error-context"), doc = " ```ignore")]\n'
        '    #[cfg_attr(feature = "error-context", doc = " ```")]\n',
        "    /// ```\n",
    )
    assert _texts(NEW) == _texts(plain)


def test_an_attribute_that_is_no_fence_changes_nothing() -> None:
    source = NEW.replace('doc = " ```ignore"', 'doc = "see the guide"').replace(
        '    #[cfg_attr(feature = "error-context", doc = " ```")]\n', "    /// ```\n"
    )
    plain = NEW.replace(
        '    #[cfg_attr(not(feature = "error-context"), doc = " ```ignore")]\n'
        '    #[cfg_attr(feature = "error-context", doc = " ```")]\n',
        "    /// ```\n",
    )
    assert _texts(source) == _texts(plain)


_OPENINGS = {
    "plain": ["/// ```{tag}"],
    "doc": ['#[doc = " ```{tag}"]'],
    "pair": [
        '#[cfg_attr(not(feature = "x"), doc = " ```ignore")]',
        '#[cfg_attr(feature = "x", doc = " ```{tag}")]',
    ],
}


@given(
    items=st.lists(
        st.tuples(
            st.sampled_from(["Parse the value.", "Occurs when it fails.", "Sets the width."]),
            st.booleans(),  # a "# Examples" heading
            st.sampled_from(sorted(_OPENINGS)),
            st.sampled_from(["", "rust", "no_run"]),
            st.lists(st.sampled_from(["# use clap::Arg;", "#", "# fn main() {"]), max_size=2),
            st.lists(st.sampled_from(["let x = 1;", "assert!(x > 0);"]), min_size=1, max_size=2),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_opening_fence_reads_as_the_plain_one(
    items: list[tuple[str, bool, str, str, list[str], list[str]]],
) -> None:
    def source(form: str | None) -> str:
        out = ["pub enum Kind {"]
        for index, (prose, heading, style, tag, hidden, code) in enumerate(items):
            out.append(f"    /// {prose}")
            if heading:
                out += ["    ///", "    /// # Examples", "    ///"]
            opening = _OPENINGS[form or style]
            out += [f"    {line.format(tag=tag)}" for line in opening]
            out += [f"    /// {line}" for line in (*hidden, *code)]
            out += ["    /// ```", f"    Item{index},", ""]
        return "\n".join([*out, "}", ""])

    texts = _texts(source(None))
    assert texts == _texts(source("plain"))
    assert not any("# use" in text or "# fn" in text for text in texts)


def test_ingest_and_search_show_no_hidden_line(run: CliRun, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "error.rs").write_text(NEW + "\n" + ENUM, encoding="utf-8")
    run("ingest", "src", check=True)
    found = json.loads(run("search", "create an error with a pre-defined message", "--json").stdout)
    texts = [b["content"] for b in found["beliefs"]]
    assert any("pre-defined message" in t for t in texts), texts
    assert not any("# use" in t for t in texts), texts
    assert run("doctor").returncode == 0


# The same parity, lost where a module doc is read in two parts: clap's derive reference
# (src/_derive/mod.rs) opens a block, includes an example with an inner attribute (which is
# code, so the doc above it is the file's header and the doc below its body), and closes it.
# The body's first fence was read as an opening, and every block after it inverted.
DERIVE = """//! # Documentation: Derive Reference
//!
//! Example:
//! ```rust
#![doc = include_str!("../../examples/demo.rs")]
//! ```
//!
//! ### Pre-processing
//!
//! ```rust
//! # use clap::Parser;
//! #[derive(Parser)]
//! struct Robo {
//!     kill_all_humans: bool,
//! }
//! ```
//!
//! # Examples
//!
//! A doc comment consists of three parts.
"""


def test_a_module_doc_read_in_two_parts_keeps_its_fences() -> None:
    texts = _texts(DERIVE)
    assert not any("# use" in text for text in texts)
    assert "# Examples" in texts  # prose after the blocks is no hidden line


@given(
    blocks=st.lists(
        st.tuples(
            st.sampled_from(["", "rust", "no_run"]),
            st.lists(st.sampled_from(["# use clap::Arg;", "# fn main() {"]), max_size=2),
        ),
        min_size=1,
        max_size=3,
    ),
    pair=st.booleans(),
)
def test_after_an_included_example_every_block_hides_its_hidden_lines(
    blocks: list[tuple[str, list[str]]], pair: bool
) -> None:
    out = [
        "//! The crate.",
        "//!",
        "//! ```rust",
        '#![doc = include_str!("../demo.rs")]',
        "//! ```",
    ]
    for tag, hidden in blocks:
        opening = _OPENINGS["pair" if pair else "plain"]
        out += ["//!", "//! Some prose.", "//!", *(line.format(tag=tag) for line in opening)]
        out += [f"//! {line}" for line in hidden] + ["//! let x = 1;", "//! ```"]
    out += ["//!", "//! # Examples", "//!", "//! The end.", ""]
    texts = _texts("\n".join(out))
    assert not any("# use" in text or "# fn" in text for text in texts)
    assert "# Examples" in texts


# review87: a block written wholly in doc attributes between two doc lines (plain
# ``#[doc = " ```"]`` opening and closing it) was read as one fence: its "opening" inverted
# every block after it. And an opening followed by more than a few doc attributes (its
# hidden lines, ``#[doc = " # use foo::Foo;"]``) was not seen at all.
ATTRIBUTE_BLOCK = """impl Foo {
    /// Makes a bar.
    #[doc = " ```"]
    #[doc = " let b = Foo::bar();"]
    #[doc = " ```"]
    /// # Errors
    ///
    /// ```
    /// # use foo::Foo;
    /// Foo::bar().unwrap();
    /// ```
    ///
    /// Returns an error when the bar is closed.
    pub fn bar() -> Result<(), ()> {
        todo!()
    }
}
"""

HIDDEN_ATTRIBUTES = """impl Foo {
    /// Makes a foo.
    ///
    /// # Examples
    #[cfg_attr(not(feature = "std"), doc = " ```ignore")]
    #[cfg_attr(feature = "std", doc = " ```")]
    #[doc = " # use foo::Foo;"]
    #[doc = " # fn main() {"]
    /// let f = Foo::new();
    /// # }
    /// ```
    ///
    /// # Panics
    ///
    /// Never panics.
    pub fn new() -> Self {
        todo!()
    }
}
"""


def test_a_block_written_in_doc_attributes_opens_and_closes() -> None:
    texts = _texts(ATTRIBUTE_BLOCK)
    assert not any("# use" in text for text in texts)
    assert any("# Errors" in text for text in texts)


def test_an_attribute_fence_far_above_the_next_doc_line_is_seen() -> None:
    texts = _texts(HIDDEN_ATTRIBUTES)
    assert any("# Panics Never panics." in text for text in texts)


def test_an_attribute_fence_after_code_opens_the_next_items_doc() -> None:
    # (rustdoc joins the attributes right above a doc line to its doc, wherever the last
    # doc line was)
    source = "\n".join(
        [
            "/// A.",
            "fn a() {",
            *(f"    let x{index} = {index};" for index in range(6)),
            "}",
            '#[doc = " ```"]',
            '#[doc = " # use b::B;"]',
            "/// # fn main() {}",
            "/// ```",
            "/// # Heading of b",
            "fn b() {}",
            "",
        ]
    )
    texts = _texts(source)
    assert any("# Heading of b" in text for text in texts)
    assert not any("# fn main" in text for text in texts)


@given(
    # (at least one line: an empty block of two cfg_attr pairs reads as one pair)
    lines=st.lists(
        st.sampled_from(["let b = 1;", "# use foo::Foo;", "assert!(b > 0);"]),
        min_size=1,
        max_size=6,
    ),
    opening=st.sampled_from(sorted(_OPENINGS)),
    closing=st.sampled_from(["doc", "pair"]),
    tag=st.sampled_from(["", "rust", "text"]),
)
def test_a_block_written_in_attributes_reads_as_no_block(
    lines: list[str], opening: str, closing: str, tag: str
) -> None:
    """A balanced block of doc attributes between two doc lines changes no text of the page:
    its lines are no doc comment, and the blocks after it keep their parity."""
    block = [line.format(tag=tag) for line in _OPENINGS[opening]]
    block = [line for line in block if not line.startswith("///")] or ['#[doc = " ```"]']
    block += [f'#[doc = " {line}"]' for line in lines]
    block += [line.format(tag="") for line in _OPENINGS[closing]]
    with_block = ATTRIBUTE_BLOCK.replace(
        '    #[doc = " ```"]\n    #[doc = " let b = Foo::bar();"]\n    #[doc = " ```"]\n',
        "".join(f"    {line}\n" for line in block),
    )
    without = ATTRIBUTE_BLOCK.replace(
        '    #[doc = " ```"]\n    #[doc = " let b = Foo::bar();"]\n    #[doc = " ```"]\n', ""
    )
    assert _texts(with_block) == _texts(without)


@given(
    hidden=st.lists(st.sampled_from(["# use foo::Foo;", "# fn main() {", "#"]), max_size=8),
    pair=st.booleans(),
)
def test_any_number_of_hidden_attribute_lines_after_an_attribute_fence(
    hidden: list[str], pair: bool
) -> None:
    opening = _OPENINGS["pair" if pair else "doc"]
    attributes = [line.format(tag="") for line in opening]
    attributes += [f'#[doc = " {line}"]' for line in hidden]
    source = HIDDEN_ATTRIBUTES.replace(
        '    #[cfg_attr(not(feature = "std"), doc = " ```ignore")]\n'
        '    #[cfg_attr(feature = "std", doc = " ```")]\n'
        '    #[doc = " # use foo::Foo;"]\n'
        '    #[doc = " # fn main() {"]\n',
        "".join(f"    {line}\n" for line in attributes),
    )
    plain = HIDDEN_ATTRIBUTES.replace(
        '    #[cfg_attr(not(feature = "std"), doc = " ```ignore")]\n'
        '    #[cfg_attr(feature = "std", doc = " ```")]\n'
        '    #[doc = " # use foo::Foo;"]\n'
        '    #[doc = " # fn main() {"]\n',
        "    /// ```\n",
    )
    assert _texts(source) == _texts(plain)


# review87: an inner doc attribute (``#![cfg_attr(..., doc = " ```")]``, between a crate
# doc's ``//!`` lines) is a fence too; it was none, so the next fence opened a block and the
# crate doc's "# Features" heading read as a hidden line.
CRATE_DOC = """//! The crate.
//!
//! # Example
//!
#![cfg_attr(not(feature = "std"), doc = " ```ignore")]
#![cfg_attr(feature = "std", doc = " ```")]
//! # use foo::Bar;
//! let x = Bar::new();
//! ```
//!
//! # Features
//!
//! The end.

pub struct Bar;
"""


def test_an_inner_attribute_fence_in_a_crate_doc_is_a_fence() -> None:
    texts = _texts(CRATE_DOC)
    assert "# Features" in texts
    plain = CRATE_DOC.replace(
        '#![cfg_attr(not(feature = "std"), doc = " ```ignore")]\n'
        '#![cfg_attr(feature = "std", doc = " ```")]\n',
        '#![doc = " ```"]\n',
    )
    assert _texts(plain) == texts
