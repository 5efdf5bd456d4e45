"""A text file's bytes as text: UTF-8, else the legacy encodings older projects wrote
(a Latin-1 AUTHORS or ChangeLog, a Windows README in cp1252, a UTF-16 file with its BOM,
a file that declares its code page), or None when the bytes do not read as mostly
printable text in any of them.

The choice is made from the bytes alone, so the same bytes always read the same text.
Every rule keeps the file's lines: a byte decoded here is never a line break that was not
one (cp1252's 0x85 is an ellipsis, where Latin-1's would be NEL, which ``splitlines``
breaks at)."""

from __future__ import annotations

import codecs
import re
import warnings
from functools import cache, lru_cache

UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# Controls other than layout (tab, line feed, vertical tab, form feed, carriage return) and
# U+FFFD: what random bytes read as, and real text almost never holds.
_JUNK = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")
# Measured (tests/test_ingest_encoding.py, the report of latin70): Latin-1 and cp1252 text
# holds no junk; random bytes read ~13% junk in cp1252. A stray control or two stays text.
MAX_JUNK_SHARE = 0.02
# Western text in cp1252 is a few percent non-ASCII (French ~4%); the same letters of a
# Cyrillic or Greek 8-bit file, or random bytes, are most of it: their cp1252 reading
# would be mojibake, so they stay skipped.
MAX_LEGACY_NON_ASCII = 0.3
# Where a file says its encoding: PEP 263's cookie (which vim's ``fileencoding=`` matches
# too) or Emacs's ``-*- coding: X -*-`` in any comment syntax, on one of the first two
# lines; an XML declaration at the start; an HTML ``<meta>`` charset in the first 1024
# bytes, where the HTML standard's prescan looks.
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)|-\*-.*?\bcoding:[ \t]*([-\w.]+)")
_XML = re.compile(rb"<\?xml\s[^>]*?\bencoding\s*=\s*[\"']([-\w.:]+)[\"']")
_META = re.compile(rb"<meta\s[^>]*?\bcharset\s*=\s*[\"']?([-\w.:]+)", re.IGNORECASE)
HTML_PRESCAN_BYTES = 1024
_PROBE = bytes(range(128)) + rb"\u0041\x41\N{DASH}+AGE-"
_BREAKS = re.compile("[\x85\u2028\u2029]")  # line breaks to `str.splitlines`, not to credo


def decode_text(data: bytes) -> str | None:
    """``data`` as text, or None when it is not text in any encoding read here.

    UTF-8 (a BOM dropped) as it is. A UTF-16 file with its BOM. Otherwise the bytes'
    UTF-8 sequences are counted against the bytes that form none: as many or more is a
    UTF-8 file with a few stray bytes (each read as U+FFFD); else a legacy 8-bit file,
    read as cp1252 (Latin-1 for the bytes cp1252 leaves undefined). The text read must be
    mostly printable (`MAX_JUNK_SHARE`) and, for cp1252, mostly ASCII
    (`MAX_LEGACY_NON_ASCII`). A file that declares its encoding (`declared`) and decodes
    under it is read in it, before any guess; a UTF-8 file is UTF-8 whatever it declares
    (a project that re-saved its files in UTF-8 often kept their old cookies)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if data[:2] in UTF16_BOMS:
        return _utf16(data)
    if b"\x00" in data:
        return None  # (a NUL past the binary sniff's window: no 8-bit text holds one)
    # (a UTF-8 BOM outweighs a declaration, as in Python and the HTML standard)
    name = None if data.startswith(codecs.BOM_UTF8) else declared(data)
    if name is not None:
        text = _decode_declared(data, name)
        if text is not None:
            return text
    # (counted by the codecs, in C: a 2 MB file of noise is decided in a fraction of a second)
    loose = data.decode("utf-8", errors="surrogateescape")  # a stray byte: one surrogate
    valid = len(loose.encode("utf-8", errors="ignore").decode("utf-8"))
    stray = len(loose) - valid
    # (a Latin-1 file almost never holds a valid sequence by chance: "Ã" then a C1 byte)
    if valid - _ascii(loose) >= stray:
        text = data.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")
        return text if _printable(text) else None
    text = codecs.charmap_decode(data, "strict", _cp1252())[0]
    if not _printable(text):
        return None
    letters = sum(map(len, text.split()))
    return text if len(text) - _ascii(text) <= MAX_LEGACY_NON_ASCII * letters else None


def declared(data: bytes) -> str | None:
    """The encoding ``data`` names for itself (`_COOKIE`, `_XML`, `_META` in a file that
    opens with markup), as written, or None."""
    head = data[:HTML_PRESCAN_BYTES]
    for line in head.split(b"\n", 2)[:2]:
        cookie = _COOKIE.search(line)
        if cookie:
            return (cookie[1] or cookie[2]).decode("ascii")
    found = _XML.match(head)
    if found is None and head.lstrip().startswith(b"<"):
        # (a markup page's: a Python or Markdown file quoting a <meta> tag declares nothing)
        found = _META.search(head)
    return found[1].decode("ascii") if found else None


def _decode_declared(data: bytes, name: str) -> str | None:
    """``data`` in the encoding ``name``, or None when ``name`` is no 8-bit encoding that
    keeps ASCII (UTF-16 declared in ASCII bytes contradicts itself), the bytes do not
    decode under it, or the text would not keep the file's lines or be mostly printable."""
    if not _keeps_ascii(name):
        return None
    if codecs.lookup(name).name in ("iso8859-1", "ascii"):
        # (as browsers read them: cp1252, whose 0x80-0x9F are letters, not C1 controls)
        text = codecs.charmap_decode(data, "strict", _cp1252())[0]
    else:
        try:
            text = data.decode(name)
        except UnicodeError:  # (a codec may raise its base class: punycode, undefined)
            return None
    # (ISO 8859 reads 0x85 as NEL, which `str.splitlines` breaks at)
    breaks = text.count("\n") == data.count(b"\n") and text.count("\r") == data.count(b"\r")
    if not breaks or _BREAKS.search(text) or not _printable(text):
        return None
    return text


@lru_cache(maxsize=256)  # (the names come from files: bounded)
def _keeps_ascii(name: str) -> bool:
    # The probe holds escapes too: a codec that rewrites them (raw_unicode_escape, utf-7)
    # would change the file's text, and one that warns on them (unicode_escape) is out.
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return _PROBE.decode(name) == _PROBE.decode("ascii")
    except (LookupError, UnicodeError, Warning):
        return False  # (an unknown name, or one that is no text encoding: rot13, hex)


def _ascii(text: str) -> int:
    return len(text.encode("ascii", errors="ignore"))


@cache
def _cp1252() -> str:
    """cp1252's decoding table. It leaves five bytes undefined (0x81, 0x8D, 0x8F, 0x90,
    0x9D); Latin-1 reads them as the C1 controls they are in ISO 8859-1, so every byte
    decodes. Built on first use: most runs meet no file that needs it."""
    return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(256))


def _utf16(data: bytes) -> str | None:
    try:
        text = data.decode("utf-16")  # (the BOM names the byte order and is dropped)
    except UnicodeDecodeError:
        return None
    return text if _printable(text) else None


def _printable(text: str) -> bool:
    # (one is allowed whatever the length: a short file with one stray byte is still text)
    return _JUNK.subn("", text)[1] <= 1 + MAX_JUNK_SHARE * len(text)
