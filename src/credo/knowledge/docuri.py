"""How a document reference becomes the ``doc_uri`` stored in ``belief_documents``.

SYSTEM.md decides: a file inside the project root is stored repo-relative
(``docs/deploy.md``), with a line range both in the fragment (``#L12-L30``) and in
``position_hint`` (``L12-L30``); a file outside the root becomes an absolute ``file:///``
URI; web URLs (and any other ``scheme://`` URI) are kept as given. Empty URIs are refused;
so is, where a person or an agent writes one (``strict``: ``remember --doc``, ``link``), a
reference that names nothing: a ``file://`` URI without a path, a web URL without a host, a
fragment shaped like a line range that is none (``#L10-L5``, ``#L0``). Records and ingest
keep what an older credo stored so (an export must import). The surfaces where a person or an
agent types a reference (``link``, ``remember --doc``, MCP ``link_document``,
``remember_belief``) also ask ``must_exist``: a local file that is not there is refused (a
typo would be stored silently, and the doctor report it missing from then on); a URL is not
fetched, and the API's default keeps anchoring a file not written yet.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import NamedTuple
from urllib.parse import SplitResult, quote, unquote, urlsplit

from credo.errors import InvalidInputError

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_LINES = re.compile(r"^L?(\d+)(?:\s*-\s*L?(\d+))?$")
_WEB = ("http://", "https://", "ftp://")  # (schemes whose URL names a host)
MAX_URI_CHARS = 4_000


class NormalisedUri(NamedTuple):
    uri: str  # what is stored: path or URI, with a #L.. fragment when lines are known
    position_hint: str | None


def parse_lines(spec: str) -> tuple[int, int]:
    """'12-30', 'L12-L30' or '7' -> (start, end); raises on anything else."""
    match = _LINES.match(spec.strip())
    if not match:
        raise InvalidInputError(f"line range {spec!r} is not like 12-30 or L12-L30")
    start = int(match.group(1))
    end = int(match.group(2) or start)
    if start < 1 or end < start:
        raise InvalidInputError(f"line range {spec!r} must satisfy 1 <= start <= end")
    return start, end


def line_hint(start: int, end: int) -> str:
    return f"L{start}-L{end}"


def normalise_doc_uri(
    raw: object,
    *,
    root: Path | None = None,
    lines: tuple[int, int] | None = None,
    root_resolved: bool = False,
    strict: bool = False,
    must_exist: bool = False,
) -> NormalisedUri:
    """Normalise a user-given document reference (path, ``file://`` URI or URL).

    ``root_resolved``: ``root`` is already ``resolve()``d (an ingest run resolves its root
    once, then names every file of the tree: a ``resolve`` is a system call per folder).
    ``strict``: refuse a reference that names nothing; ``must_exist``: a local file that is
    not there too (the module docstring)."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInputError("document URI is empty; give a path, file:// URI or URL")
    text = raw.strip()
    if len(text) > MAX_URI_CHARS or any(ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise InvalidInputError(
            f"document URI {text[:60]!r} is too long or holds control characters"
        )
    base, _, fragment = text.partition("#")
    if lines is None and fragment:
        try:
            lines = parse_lines(fragment)
            fragment = ""
        except InvalidInputError:
            if strict and _LINES.match(fragment.strip()):
                raise  # (#L10-L5: a range written wrong, not a section's name)
            # a non-line fragment (#section-name) is kept as written
    hint = line_hint(*lines) if lines else (fragment or None)
    lowered = base.lower()
    if _SCHEME.match(base) and not lowered.startswith("file://"):
        if strict and lowered.startswith(_WEB) and not _split(base, text).hostname:
            raise InvalidInputError(f"document URL {text[:60]!r} names no host")
        return NormalisedUri(_with_fragment(base, lines, fragment), hint)
    if lowered.startswith("file://"):
        named = unquote(_split(base, text).path)
        if strict and named.strip("/") == "":
            raise InvalidInputError(f"document URI {text[:60]!r} names no file; give its path")
        path = Path(named)
    else:
        path = Path(base).expanduser()
    if not base:
        raise InvalidInputError(f"document URI {text!r} has no path before '#'")
    stored = _path_uri(path, root, root_resolved)
    if must_exist:
        _require_file(path, root, lines)
    return NormalisedUri(_with_fragment(stored, lines, fragment), hint)


def _split(base: str, text: str) -> SplitResult:
    """``urlsplit(base)``, whose ValueError (an unclosed ``[``) is the caller's bad input."""
    try:
        return urlsplit(base)
    except ValueError as exc:
        raise InvalidInputError(f"document URI {text[:60]!r} is not a valid URL: {exc}") from exc


def _path_uri(path: Path, root: Path | None, root_resolved: bool = False) -> str:
    resolved_root = (root if root_resolved else root.resolve()) if root else None
    absolute = path if path.is_absolute() else (resolved_root or Path.cwd()) / path
    absolute = Path(_collapse(absolute))
    if resolved_root is not None:
        try:
            return PurePosixPath(absolute.relative_to(resolved_root)).as_posix()
        except ValueError:
            pass
    return "file://" + quote(absolute.as_posix(), safe="/:._-~")


def _require_file(path: Path, root: Path | None, lines: tuple[int, int] | None) -> None:
    """Refuse a reference to a local file that is not there (read against ``root`` as it
    is stored), or to lines that start past its end: "job.py#L9000-L9100" of a 300-line
    file names nothing, and would be stored silently as a typo of the path would."""
    absolute = path if path.is_absolute() else (root or Path.cwd()) / path
    if not absolute.is_file():
        what = "is a folder, not a file" if absolute.is_dir() else "does not exist"
        raise InvalidInputError(f"document {str(absolute)[:200]!r} {what}; check the path")
    if lines is None:
        return
    try:
        count = _line_count(absolute)
    except OSError:
        return  # (unreadable here: the doctor reports what it cannot read)
    if lines[0] > count:
        raise InvalidInputError(
            f"document {str(absolute)[:200]!r} has {count} lines; "
            f"{line_hint(*lines)} starts past its end; check the range"
        )


def _line_count(path: Path) -> int:
    """Lines in ``path`` as ingest numbers them (``source_lines``: "\\r\\n", "\\n" and a lone
    "\\r" each end one) and an editor shows them: a last line without an ending counts, and
    an empty file has its line 1 (review84: a CR-only file's passages are anchored past
    what a count of "\\n" alone gives)."""
    data = path.read_bytes()
    breaks = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    return breaks + (0 if data.endswith((b"\n", b"\r")) else 1)


def _collapse(path: Path) -> str:
    """Remove '.' and '..' without touching the disk (the file may be gone)."""
    parts: list[str] = []
    for part in path.parts[1:]:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return path.parts[0] + "/".join(parts) if path.parts else str(path)


def _with_fragment(uri: str, lines: tuple[int, int] | None, fragment: str) -> str:
    if lines:
        return f"{uri}#{line_hint(*lines)}"
    return f"{uri}#{fragment}" if fragment else uri
