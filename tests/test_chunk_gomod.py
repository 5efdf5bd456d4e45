"""Go's go.mod (and go.work) read as configuration: module path, Go version, requirements.

probe90 (stop 63): logrus' go.mod was skipped as "unsupported", so "which Go version does
logrus need?" had no answer in the store; go.sum (checksums) stays unread, as a lock file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge.chunk.config_lines import read_lines
from credo.knowledge.chunk.language import language_for, split_file
from credo.knowledge.ingest.walk import is_lock_file

LOGRUS = """\
module github.com/sirupsen/logrus

require (
\tgithub.com/davecgh/go-spew v1.1.1 // indirect
\tgithub.com/stretchr/testify v1.7.0
\tgolang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8
)

go 1.13
"""


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("go.mod", "gomod"),
        ("tools/go.mod", "gomod"),
        ("go.work", "gomod"),
        ("go.sum", None),
        ("gomod", None),
        ("x.mod", None),
    ],
)
def test_go_module_files_by_name(path: str, language: str | None) -> None:
    assert language_for(path) == language


@pytest.mark.parametrize(("name", "lock"), [("go.sum", True), ("go.work.sum", True)])
def test_go_checksum_files_are_lock_files(name: str, lock: bool) -> None:
    assert is_lock_file(name) is lock


def test_a_small_go_mod_is_one_passage_with_its_words() -> None:
    (chunk,) = split_file("go.mod", LOGRUS)
    assert chunk.role == "config"
    assert (chunk.start_line, chunk.end_line) == (1, 9)
    assert chunk.text.splitlines() == [
        "module github.com/sirupsen/logrus",
        "require (",
        "\tgithub.com/davecgh/go-spew v1.1.1 // indirect",
        "\tgithub.com/stretchr/testify v1.7.0",
        "\tgolang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8",
        "go 1.13",
    ]
    assert set("go module dependency versions".split()) <= set(chunk.context.split())


def test_directives_and_their_blocks() -> None:
    rows = (
        "// comment\nmodule example.com/m\n\ngo 1.22\ntoolchain go1.22.3\n"
        'require (\n\ta.io/x v1.0.0\n\t// why\n\t"b.io/y" v2.0.0 // indirect\n)\n'
        "require c.io/z v0.1.0\nreplace a.io/x => ../x\nreplace(\n\td.io/w v1 => e.io/w v2\n)\n"
        "retract [v1.0.0, v1.0.5] // broken\ngodebug (\n\tpanicnil=1\n)\nrequire ()\n"
        "exclude a.io/x v0.9.0\n"
    ).split("\n")
    entries = read_lines(rows, "gomod")
    assert [(e.key, e.start, e.end) for e in entries] == [
        (("module",), 1, 1),
        (("go",), 3, 3),
        (("toolchain",), 4, 4),
        (("require",), 5, 9),
        (("require",), 10, 10),
        (("replace",), 11, 11),
        (("replace",), 12, 14),
        (("retract",), 15, 15),
        (("godebug",), 16, 18),
        (("require",), 19, 19),
        (("exclude",), 20, 20),
    ]
    assert [c.key for c in entries[3].children] == [("a.io/x",), ("b.io/y",)]
    assert [c.key for c in entries[6].children] == [("d.io/w",)]
    assert [c.key for c in entries[8].children] == [("panicnil=1",)]


def test_a_long_require_block_is_cut_at_its_modules() -> None:
    requires = "".join(f"\tgithub.com/org{i}/package{i} v1.{i}.0\n" for i in range(80))
    text = f"module example.com/big\n\ngo 1.22\n\nrequire (\n{requires})\n"
    chunks = split_file("go.mod", text)
    assert len(chunks) > 2
    lines = text.splitlines()
    for chunk in chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
    cut = [c for c in chunks if c.section == ("require",)]
    assert len(cut) >= 2
    words = " ".join(c.text for c in chunks)
    assert all(f"github.com/org{i}/package{i} v1.{i}.0" in words for i in range(80))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "require (\n\ta.io/x v1\n",  # unclosed: runs to the end
        ")\n)\n(\nrequire",
        "module\n",
        "\x00\x01 garbage (((\n" * 50,
        "require (" * 2000,
        "//" * 5000,
    ],
)
def test_any_go_mod_reads_without_error(text: str) -> None:
    rows = text.split("\n")
    for chunk in split_file("go.mod", text):
        assert 1 <= chunk.start_line <= chunk.end_line <= max(len(rows), 1)


def test_ingest_reads_go_mod_and_leaves_go_sum(tmp_path: Path) -> None:
    root = tmp_path / "logrus"
    root.mkdir()
    (root / "go.mod").write_text(LOGRUS, encoding="utf-8")
    (root / "go.sum").write_text("github.com/x/y v1.0.0 h1:abc=\n", encoding="utf-8")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = memory.ingest(root)
        assert report.skipped == {"lock": 1}
        found = memory.retrieve("which go version does logrus need").beliefs
        assert found and "go 1.13" in found[0].content
        uris = {a.doc_uri for a in memory.store.iter_anchors() if a.anchor_type == "ingest"}
        assert uris == {"go.mod#L1-L9"}
