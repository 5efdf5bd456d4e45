"""Review of declared encodings (left71): a file's declaration is hostile input. A name
whose codec raises something other than UnicodeDecodeError (punycode, undefined), warns
(unicode_escape) or rewrites backslash escapes (raw_unicode_escape) must not crash the
ingest or change the text: the declaration is ignored and the guess stands."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from credo.knowledge.encoding import decode_text
from tests.conftest import CliRun

_BODY = '"""Caf\xe9 notes about the cache: \\u0041 and \\t stay as written."""\n'
_NAMES = ["punycode", "undefined", "unicode_escape", "raw_unicode_escape", "idna", "utf-7"]


@pytest.mark.parametrize("name", _NAMES)
def test_a_hostile_declaration_is_ignored(name: str) -> None:
    data = f"# -*- coding: {name} -*-\n{_BODY}".encode("cp1252")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = decode_text(data)
    assert text == data.decode("cp1252")


def test_ingest_survives_a_file_declaring_punycode(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / ".git").mkdir(parents=True)
    (root / "odd.py").write_bytes(f"# -*- coding: punycode -*-\n{_BODY}".encode("cp1252"))
    (root / "fine.md").write_text("# Fine\n\nnotes about the weather station\n")
    run = CliRun(tmp_path / "cli.db", root)
    done = run("ingest", str(root), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["files_ingested"] == 2


def test_a_utf8_bom_outweighs_a_declaration(tmp_path: Path) -> None:
    # Python rejects a BOM with another cookie; read as cp1252, the BOM became the text
    # 'ï»¿' (or 'О╩©' under koi8-r) at the start of the file's first passage
    root = tmp_path / "p"
    (root / ".git").mkdir(parents=True)
    body = '# -*- coding: koi8-r -*-\n"""Weather station notes, caf\xe9 open."""\n'
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf" + body.encode("cp1252"))
    run = CliRun(tmp_path / "cli.db", root)
    run("ingest", str(root), check=True)
    found = json.loads(run("search", "weather station notes", "--json", check=True).stdout)
    text = " ".join(b["content"] + " " + (b.get("context") or "") for b in found["beliefs"])
    assert "Weather station" in text
    assert "ï»¿" not in text and "О╩©" not in text and "cafИ" not in text
    assert decode_text(b"\xef\xbb\xbf" + body.encode("cp1252")) is not None
    assert not decode_text(b"\xef\xbb\xbf" + body.encode("cp1252")).startswith(("ï", "О"))
