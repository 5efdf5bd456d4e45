"""Review of docstr71 with probe71 merged: a code span glued to a word (```Reading`s``) read
as two words ("Reading s") while doctor now reads the line as one ("Readings", probe71's
glue): a fresh ingest's anchor was reported shifted and ``credo doctor`` exited 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.knowledge.chunk.doc_markup import read_markdown, read_rest
from credo.knowledge.doctor import words
from tests.conftest import CliRun

RUST = (
    "//! Parsing helpers for the weather station.\n\n"
    "/// Returns the `Reading`s of the station, one per sensor.\n///\n"
    "/// Each value is in `Celsius`-scaled units, see [`Station::read`] and"
    " [the spec](crate::spec)s.\n"
    "pub fn readings() -> Vec<u32> {\n    vec![]\n}\n"
)


@pytest.mark.parametrize(
    "raw", ["`Reading`s", "1`1`", "a`b`c", "[`Foo`]s", "[a](b)c", "x`y`[z](w)v"]
)
def test_reading_only_removes_words_in_order_as_doctor_reads(raw: str) -> None:
    for read in (read_markdown, read_rest):
        shown = iter(words(raw))
        assert all(word in shown for word in words(read(raw))), (raw, read(raw))


def test_a_fresh_rust_ingest_passes_doctor(tmp_path: Path) -> None:
    root = tmp_path / "crate"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "lib.rs").write_text(RUST)
    run = CliRun(tmp_path / "cli.db", root)
    run("ingest", str(root), check=True)
    done = run("doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "shifted: 0" in done.stdout
