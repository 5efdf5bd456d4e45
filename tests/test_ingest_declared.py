"""A file that declares its encoding (left71): a PEP 263 cookie, an Emacs ``-*- coding -*-``
line, an XML declaration or an HTML ``<meta charset>`` is read in that encoding when its
bytes are not UTF-8 and do decode under it; else the guess of `decode_text` stands. Through
the real ``credo`` entry point for the Python files ingest reads, and on the bytes for the
other forms (``.html`` and ``.xml`` files are not ingested)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.encoding import decode_text
from tests.conftest import CliRun
from tests.test_ingest_encoding import _anchors

KOI8 = '# -*- coding: koi8-r -*-\n"""Редактор строк читает заметки о погоде."""\n\nVERSION = 1\n'
POLISH = (
    "#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-2 :\n"
    '"""Weather notes for the Łódź station, kept by Paweł Żuławski."""\n\nSTATION = 7\n'
)
# A stale cookie: the file was re-saved in UTF-8 and kept its line.
STALE = '# -*- coding: latin-1 -*-\n"""Crème brûlée notes kept in UTF-8 now."""\n'
# The cookie names an encoding the bytes are not in: the guess (cp1252) reads them.
WRONG = '# coding: shift_jis\n"""Café notes about the naïve barista."""\n'


def test_python_files_are_read_in_the_encoding_their_cookie_declares(tmp_path: Path) -> None:
    root = tmp_path / "old"
    (root / ".git").mkdir(parents=True)
    (root / "weather.py").write_bytes(KOI8.encode("koi8-r"))
    (root / "station.py").write_bytes(POLISH.encode("iso-8859-2"))
    (root / "stale.py").write_bytes(STALE.encode("utf-8"))
    (root / "wrong.py").write_bytes(WRONG.encode("cp1252"))
    run = CliRun(tmp_path / "cli.db", root)
    report = json.loads(run("ingest", str(root), "--json", check=True).stdout)
    assert report["files_ingested"] == 4, report
    assert "weather.py" in _anchors(run, "Редактор строк заметки о погоде")
    assert "station.py" in _anchors(run, "Łódź station Paweł Żuławski")
    assert "stale.py" in _anchors(run, "Crème brûlée notes")
    assert "wrong.py" in _anchors(run, "Café naïve barista")


GREEK = "Ο σταθμός καιρού της Αθήνας"
CYRILLIC = "Заметки о погоде"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        # An XML declaration, single or double quotes.
        (f'<?xml version="1.0" encoding="ISO-8859-7"?>\n<n>{GREEK}</n>\n', "iso-8859-7"),
        (f"<?xml version='1.0' encoding='koi8-r' ?>\n<n>{CYRILLIC}</n>\n", "koi8-r"),
        # HTML: <meta charset> and the http-equiv form, in the page's first 1024 bytes.
        (f'<html><head><meta charset="windows-1251"></head><p>{CYRILLIC}</p>\n', "cp1251"),
        (
            '<html><head><meta http-equiv="Content-Type" '
            f'content="text/html; charset=koi8-r"></head><p>{CYRILLIC}</p>\n',
            "koi8-r",
        ),
        # An Emacs line in another comment syntax (C, reStructuredText).
        (f"/* -*- mode: c; coding: iso-8859-7 -*- */\n/* {GREEK} */\n", "iso-8859-7"),
        (f".. -*- coding: cp1251 -*-\n\n{CYRILLIC}\n", "cp1251"),
    ],
)
def test_declared_encodings_are_honoured(data: str, text: str) -> None:
    assert decode_text(data.encode(text)) == data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Latin-1 declared, as the web reads it: cp1252, so 0x85 is "…", never a line break.
        (b"# coding: latin-1\nwait\x85 caf\xe9\n", "# coding: latin-1\nwait… café\n"),
        # A cookie on the third line is no cookie (PEP 263): the guess reads it.
        (
            b"#!/bin/sh\n\n# coding: koi8-r\necho '"
            + "Заметки".encode("koi8-r")
            + b"' to the log\n",
            None,
        ),
        # A declaration no 8-bit text can be in (UTF-16 needs NULs): the guess reads it.
        (b'<?xml version="1.0" encoding="UTF-16"?>\n<n>caf\xe9</n>\n', None),
        # An unknown name, and a name that is not a text encoding: the guess reads it.
        (b"# coding: no-such-codec\ncaf\xe9\n", None),
        (b"# coding: rot13\ncaf\xe9\n", None),
        # Declared, but the bytes do not decode under it (0xE9 then a space is no
        # Shift_JIS pair): the guess reads it.
        (b"# coding: shift_jis\nna\xefve caf\xe9 \x80\n", None),
        # A <meta> tag quoted in a file that is no markup page (review71: a Latin-1 Python
        # file read as KOI8-R, "caf\xe9" as "cafИ"): the guess reads it.
        (b'# templates write <meta charset="koi8-r"> first\nMENU = "caf\xe9"\n', None),
    ],
)
def test_declarations_that_do_not_hold_fall_back_to_the_guess(
    data: bytes, expected: str | None
) -> None:
    guess = data.decode("cp1252", errors="replace")
    assert decode_text(data) == (expected if expected is not None else guess)


DECLARATIONS = [
    b"# -*- coding: %s -*-\n",
    b'<?xml version="1.0" encoding="%s"?>\n',
    b'<html><meta charset="%s">\n',
]
NAMES = ["latin-1", "koi8-r", "iso-8859-2", "iso-8859-7", "shift_jis", "utf-16", "utf-7", "x"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DECLARATIONS), st.sampled_from(NAMES), st.binary(max_size=400))
def test_any_declared_bytes_decode_or_not_deterministically_keeping_lines(
    form: bytes, name: str, body: bytes
) -> None:
    data = form % name.encode() + body
    text = decode_text(data)
    assert text == decode_text(data)
    if text is not None:
        text.encode("utf-8")
        assert text.count("\n") == data.count(b"\n") and text.count("\r") == data.count(b"\r")
