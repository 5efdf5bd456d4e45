"""Which reading of a file that is not UTF-8 gives its text back (latin70): every text file
of the bench corpora that holds non-ASCII characters, (a) written in cp1252 and (b) kept in
UTF-8 with one stray byte (0xE9, a Latin-1 é) put in its middle, read by three rules:
always cp1252, always UTF-8 with U+FFFD, and credo's (`credo.knowledge.encoding`); then
the texts in another code page, without and with a declaration on their first line.

    PYTHONPATH=src python bench/encoding_rule.py [ROOT...]   (default ~/.cache/credo-bench)
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path

from credo.knowledge.encoding import _cp1252, decode_text


def _samples(roots: list[Path]) -> list[str]:
    texts: dict[str, None] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.stat().st_size > 2 * 1024 * 1024:
                continue
            data = path.read_bytes()
            if b"\x00" in data:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if not text.isascii():
                texts.setdefault(text, None)
    return list(texts)


def main() -> None:
    roots = [Path(a) for a in sys.argv[1:]] or [Path.home() / ".cache" / "credo-bench"]
    texts = _samples(roots)
    rules = {
        "cp1252": lambda d: codecs.charmap_decode(d, "strict", _cp1252())[0],
        "utf-8 replace": lambda d: d.decode("utf-8", errors="replace"),
        "credo": decode_text,
    }
    legacy = [t for t in texts if _encodable(t)]
    print(f"{len(texts)} distinct UTF-8 texts with non-ASCII; {len(legacy)} fit in cp1252")
    for name, rule in rules.items():
        a = sum(rule(t.encode("cp1252")) == t for t in legacy)
        b = 0
        for t in texts:
            data = t.encode("utf-8")
            cut = data.find(b"\n", len(data) // 2) + 1  # (a line's start: never mid-sequence)
            b += rule(data[:cut] + b"\xe9" + data[cut:]) == t[: len(data[:cut].decode())] + (
                "\ufffd" + data[cut:].decode()
            )
        print(
            f"{name:14} cp1252 files read right {a}/{len(legacy)}; "
            f"UTF-8 + one stray byte read right {b}/{len(texts)}"
        )
    # (c) text in another 8-bit code page reads as mojibake in cp1252: better skipped
    for codec in ("cp1251", "iso8859_7", "shift_jis"):
        other = [t.encode(codec) for t in texts if not _encodable(t) and _encodable(t, codec)]
        skipped = sum(decode_text(d) is None for d in other if not _utf8(d))
        print(
            f"{codec}: {len(other)} texts, credo skips {skipped}; "
            "the rest read, their non-Latin characters as mojibake"
        )
    # (d) the same texts with a declaration on their first line (left71): read right
    for codec in ("cp1251", "iso8859_7", "shift_jis"):
        own = [t for t in texts if not _encodable(t) and _encodable(t, codec)]
        cookie = f"# -*- coding: {codec} -*-\n"
        right = sum(decode_text((cookie + t).encode(codec)) == cookie + t for t in own)
        print(f"{codec} declared: {len(own)} texts, credo reads {right} right")


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _encodable(text: str, codec: str = "cp1252") -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


if __name__ == "__main__":
    main()
