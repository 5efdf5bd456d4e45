"""The Go and Rust development corpora (langs67): a Debian package's files as a corpus, and
the baselines' Go and Rust definitions. Offline: the .deb is built here."""

from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest
from bench import docs_corpora
from bench.docs_baselines import function_units, tree_definitions
from bench.docs_corpora import Corpus


def _ar_member(name: str, data: bytes) -> bytes:
    header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(data):<10}`\n"
    return header.encode("ascii") + data + (b"\n" if len(data) % 2 else b"")


def _deb(files: dict[str, bytes]) -> bytes:
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w:xz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"./{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return (
        b"!<arch>\n"
        + _ar_member("debian-binary", b"2.0\n")
        + _ar_member("control.tar.xz", b"odd")  # (an odd size: the member is padded)
        + _ar_member("data.tar.xz", tar.getvalue())
    )


def test_a_debian_package_s_files_under_its_top_folder_are_the_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = "usr/share/gocode/src/github.com/x/y"
    deb = _deb(
        {
            f"{top}/a.go": b"package y\n",
            f"{top}/sub/b.go": b"package sub\n",
            f"{top}/a_test.go": b"package y\n",
            "usr/share/doc/y/copyright": b"MIT\n",
        }
    )
    corpus = Corpus(
        name="y",
        kind="code",
        project="y",
        version="1-1",
        licence="MIT",
        url="deb:golang-y-dev=1-1",
        sha256=hashlib.sha256(deb).hexdigest(),
        include=("*.go",),
        top=top,
    )
    monkeypatch.setenv("CREDO_BENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(docs_corpora, "_debian_package", lambda _: deb)
    root = docs_corpora.fetch(corpus)
    found = [p.relative_to(root).as_posix() for p in corpus.files(root)]
    assert found == ["a.go", "a_test.go", "sub/b.go"]  # (fnmatch's * spans folders)
    monkeypatch.setattr(docs_corpora, "_debian_package", lambda _: deb + b"changed")
    assert docs_corpora.fetch(corpus) == root  # fetched once
    corpus = Corpus(**{**corpus.__dict__, "name": "z"})
    with pytest.raises(SystemExit, match="sha256"):
        docs_corpora.fetch(corpus)


def test_go_and_rust_definitions_for_the_baselines() -> None:
    go = "package p\n\n// T is.\ntype T struct{}\n\nfunc (t *T) Run(n int) int {\n\treturn n\n}\n"
    assert tree_definitions(go, "go") == [(4, 4, ("T",), True), (6, 8, ("T", "Run"), True)]
    rust = "impl<'a> Display for V<'a> {\n    fn fmt(&self) {}\n}\n\n#[test]\nfn t() {}\n"
    assert tree_definitions(rust, "rust") == [
        (1, 3, ("V",), True),
        (2, 2, ("V", "fmt"), False),
        (5, 6, ("t",), True),  # from its attribute
    ]
    units = function_units("a.rs", rust.splitlines(), [])
    assert [(u.start, u.end) for u in units] == [(1, 3), (2, 2), (5, 6)]
