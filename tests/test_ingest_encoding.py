"""Text files that are not UTF-8 (latin70): a Latin-1 AUTHORS, a cp1252 README, a UTF-16
file with its BOM and a UTF-8 file with one stray byte are read, with exact line ranges;
random bytes and a Cyrillic code page stay skipped with a reason. Through the real
``credo`` entry point, and a property over any bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.encoding import decode_text
from credo.knowledge.ingest.walk import SKIP_REASONS, Read, read_file
from tests.conftest import CliRun

LATIN1 = "# Authors\n\nThe line editor was written by François Pinard.\n"
CP1252 = "# Readme\n\nThe “quoted” rate costs 5 € per call… and no more.\n"
UTF16 = "# Windows notes\n\nThe installer writes the registry key.\n"
CYRILLIC = "# Заметки\n\nРедактор строк написан давно и хорошо работает.\n"
STRAY = "# Café guide\n\nThe naïve reader — not this one.\n\nThe stray byte is here: "


def _files(root: Path) -> dict[str, bytes]:
    noise = random.Random(70)
    files = {
        "AUTHORS.md": LATIN1.encode("latin-1"),
        "README.md": CP1252.encode("cp1252"),
        "windows.md": UTF16.encode("utf-16"),  # (little-endian here, with its BOM)
        "windows_be.md": b"\xfe\xff" + UTF16.encode("utf-16-be"),
        "stray.md": STRAY.encode("utf-8") + b"\xff bytes.\n",
        "noise.md": bytes(noise.randrange(1, 256) for _ in range(3000)),
        "cyrillic.md": CYRILLIC.encode("cp1251"),
        "utf16_bin.md": b"\xff\xfe" + bytes(noise.randrange(0, 256) for _ in range(3000)),
    }
    (root / ".git").mkdir(parents=True)
    for name, data in files.items():
        (root / name).write_bytes(data)
    return files


def _ingest(run: CliRun, root: Path) -> dict[str, object]:
    return json.loads(run("ingest", str(root), "--json", check=True).stdout)


def _anchors(run: CliRun, query: str) -> dict[str, str]:
    """The hits' anchors for ``query``: file -> its #L fragment."""
    found = json.loads(run("search", query, "--json", check=True).stdout)
    return {
        anchor["doc_uri"].partition("#")[0]: anchor["doc_uri"].partition("#")[2]
        for belief in found["beliefs"]
        for anchor in belief["doc_anchors"]
    }


def test_legacy_text_is_read_with_exact_lines_and_the_rest_skipped(tmp_path: Path) -> None:
    root = tmp_path / "old"
    _files(root)
    run = CliRun(tmp_path / "cli.db", root)
    report = _ingest(run, root)
    assert dict(report["skipped_files"]) == {
        "noise.md": "not_utf8",
        "cyrillic.md": "not_utf8",
        "utf16_bin.md": "binary",
    }
    assert report["files_ingested"] == 5
    # The same texts saved in UTF-8 give the same passages at the same lines.
    twin = tmp_path / "twin"
    (twin / ".git").mkdir(parents=True)
    texts = {"AUTHORS.md": LATIN1, "README.md": CP1252, "windows.md": UTF16}
    texts |= {"windows_be.md": UTF16, "stray.md": STRAY + "\ufffd bytes.\n"}
    for name, text in texts.items():
        (twin / name).write_text(text, encoding="utf-8")
    twin_run = CliRun(tmp_path / "twin.db", twin)
    assert _ingest(twin_run, twin)["files_ingested"] == 5
    queries = ("François Pinard", "quoted rate costs 5 €", "installer registry key")
    for query in (*queries, "naïve reader not this one", "stray byte is here"):
        found = _anchors(run, query)
        assert found and found == _anchors(twin_run, query), query
    assert _anchors(run, "François Pinard")["AUTHORS.md"] == "L1-L3"
    assert set(_anchors(run, "installer registry key")) == {"windows.md", "windows_be.md"}
    # Unchanged bytes are not read again.
    assert _ingest(run, root)["files_unchanged"] == 5


def test_a_file_that_changes_encoding_is_read_again(tmp_path: Path) -> None:
    root = tmp_path / "old"
    _files(root)
    run = CliRun(tmp_path / "cli.db", root)
    _ingest(run, root)
    authors = root / "AUTHORS.md"
    # Saved again in UTF-8, one line added above: the same text, other bytes.
    authors.write_text("# Authors\n\n" + LATIN1.removeprefix("# Authors\n"), encoding="utf-8")
    report = _ingest(run, root)
    assert report["files_ingested"] == 1 and report["files_unchanged"] == 4
    assert _anchors(run, "François Pinard").get("AUTHORS.md") == "L1-L4"
    # Back to Latin-1, and then to bytes that are no text: read, then retired.
    authors.write_bytes(LATIN1.encode("latin-1"))
    assert _ingest(run, root)["files_ingested"] == 1
    assert _anchors(run, "François Pinard").get("AUTHORS.md") == "L1-L3"
    authors.write_bytes(bytes(range(0x80, 0x100)) * 8)
    report = _ingest(run, root)
    assert dict(report["skipped_files"]) == {
        "AUTHORS.md": "not_utf8",
        "noise.md": "not_utf8",
        "cyrillic.md": "not_utf8",
        "utf16_bin.md": "binary",
    }
    assert report["files_removed"] == 1
    assert "AUTHORS.md" not in _anchors(run, "François Pinard")


def test_doctor_re_anchors_a_latin1_file_by_its_words(tmp_path: Path) -> None:
    root = tmp_path / "old"
    (root / ".git").mkdir(parents=True)
    notes = root / "notes.md"
    body = "# Notes\n\n## Crème brûlée\n\nThe crème brûlée recipe needs vanilla from Tahiti.\n"
    notes.write_bytes(body.encode("latin-1"))
    run = CliRun(tmp_path / "cli.db", root)
    _ingest(run, root)
    assert _anchors(run, "crème brûlée vanilla").get("notes.md") == "L3-L5"
    # Lines inserted above: the anchor moves with the words (é and û included).
    notes.write_bytes(("# Notes\n\nIntro.\n\nMore.\n\n" + body[9:]).encode("latin-1"))
    done = json.loads(run("doctor", "--fix", "--json", check=True).stdout)
    assert [p["found"] for p in done["fixed"]] == [[7, 9]], done
    assert _anchors(run, "crème brûlée vanilla").get("notes.md") == "L7-L9"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_decode_or_not_deterministically_keeping_lines(data: bytes) -> None:
    text = decode_text(data)
    assert text == decode_text(data)
    if text is not None:
        text.encode("utf-8")  # (no lone surrogate: SQLite stores every text read)
    if text is not None and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # 8-bit and UTF-8 readings: every line break is the bytes' own (`source_lines`).
        assert text.count("\n") == data.count(b"\n") and text.count("\r") == data.count(b"\r")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=600) | st.text(max_size=300).map(lambda t: t.encode("utf-8")))
def test_any_file_is_read_or_skipped_with_a_reason(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("any") / "file.md"
    path.write_bytes(data)
    first, again = read_file(path), read_file(path)
    assert first == again
    assert isinstance(first, Read) or first in SKIP_REASONS
