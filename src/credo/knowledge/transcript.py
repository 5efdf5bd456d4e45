"""Reading a Claude Code transcript (JSONL, one JSON object a line) safely.

Claude Code writes every event of a session to a ``.jsonl`` file: user entries
(``{"type": "user", "message": {"role": "user", "content": str | [parts]}}``), assistant
entries (one per content block: ``{"type": "assistant", "message": {"content": [{"type":
"text", ...} | {"type": "tool_use", ...}]}}``) and others (``summary``, ``system``, ...).
The hooks read it at Stop: the user's turns (to capture what they stated or corrected)
and the last assistant turn (automatic feedback).

What counts as a user turn (a real prompt). A ``user`` entry whose content is a string or
holds ``text`` parts, and none of these:
- a tool result (any ``tool_result`` part, or a ``toolUseResult`` field): the tool spoke;
- a meta entry (``isMeta``), a compaction summary (``isCompactSummary``), a subagent's
  conversation (``isSidechain``);
- a slash command and its output (text starting ``<command-name>``, ``<command-message>``,
  ``<command-args>``, ``<local-command-stdout>``, ``<local-command-stderr>``), or Claude
  Code's own ``[Request interrupted by user...]`` note.
Turns are numbered 1, 2, ... in file order; ``line`` is the entry's 1-based line.

Bad input never raises: a missing file, a folder, a FIFO or device (never opened: it could
block or never end), unreadable bytes, non-UTF-8 (decoded with replacement), lines that
are not JSON objects, or JSON of an unexpected shape all yield what can be read, else
nothing. Only a caller that asks (``strict=True``) gets ``InvalidInputError`` for a path
that is not a regular file.

Bounds. ``user_turns`` reads ``max_bytes`` (64 MiB) from the start, and the line that
crosses the bound: turn numbers count from the first line, so it cannot start in the
middle; turns past the bound are not returned (a session that long has had each prompt
captured as it was submitted). A line over ``MAX_LINE_BYTES`` (1 MiB) is skipped unparsed
(a tool's output or a paste, never a statement worth capturing) and counts as a line.
``last_assistant_text`` reads at most ``max_bytes`` (8 MiB) from the end. Text is returned
as valid UTF-8 (lone surrogates from JSON escapes become ``?``), so it can be stored.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from credo.errors import InvalidInputError

USER_TURNS_MAX_BYTES = 64 * 1024 * 1024
TAIL_MAX_BYTES = 8 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
_CHUNK = 64 * 1024

# Text of user entries that Claude Code writes itself (slash commands, interruptions).
_NOT_PROMPTS = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "[Request interrupted by user",
)


@dataclass(frozen=True, slots=True)
class Turn:
    """A real user prompt: its ordinal among prompts, its line in the file, its text."""

    number: int
    line: int
    text: str


def user_turns(
    path: str | os.PathLike[str], *, max_bytes: int = USER_TURNS_MAX_BYTES, strict: bool = False
) -> list[Turn]:
    """The user's prompts in ``path``, in order (rules and bounds: the module docstring).

    Raises:
        InvalidInputError: only with ``strict``, when ``path`` is not a regular file.
    """
    handle = _open(path, strict=strict)
    if handle is None:
        return []
    turns: list[Turn] = []
    with handle:
        for number, raw in _lines(handle, max_bytes):
            # Cheap pre-filter: most lines are assistant blocks and tool results.
            if raw is None or b'"user"' not in raw:
                continue
            text = prompt_text(_object(raw))
            if text is not None:
                turns.append(Turn(len(turns) + 1, number, text))
    return turns


def last_assistant_text(
    path: str | os.PathLike[str], *, max_bytes: int = TAIL_MAX_BYTES, strict: bool = False
) -> str:
    """The text of the last assistant turn: every assistant ``text`` block after the last
    user prompt, in order, joined by blank lines ("" when there is none within the last
    ``max_bytes``). Tool calls and subagent (sidechain) entries are left out.

    Raises:
        InvalidInputError: only with ``strict``, when ``path`` is not a regular file.
    """
    handle = _open(path, strict=strict)
    if handle is None:
        return ""
    with handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            start = max(0, size - max(0, max_bytes))
            handle.seek(start)
            tail = handle.read(size - start)
        except OSError:
            return ""
    lines = tail.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line is cut: not JSON
    blocks: list[str] = []
    for raw in reversed(lines):
        if len(raw) > MAX_LINE_BYTES or not raw.strip():
            continue
        entry = _object(raw)
        if entry is None or entry.get("isSidechain") is True:
            continue
        if entry.get("type") == "user" and prompt_text(entry) is not None:
            break
        if entry.get("type") == "assistant":
            blocks.extend(reversed(_assistant_texts(entry)))
    return "\n\n".join(reversed(blocks))


def prompt_text(entry: dict[str, Any] | None) -> str | None:
    """The text of a transcript entry when it is a real user prompt, else None."""
    if entry is None or entry.get("type") != "user":
        return None
    if any(entry.get(flag) is True for flag in ("isMeta", "isCompactSummary", "isSidechain")):
        return None
    if "toolUseResult" in entry:
        return None
    message = entry.get("message")
    if not isinstance(message, dict) or message.get("role", "user") != "user":
        return None
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "tool_result":
                return None
            if part.get("type") == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
        text = "\n".join(parts)
    else:
        return None
    text = _valid(text).strip()
    if not text or text.startswith(_NOT_PROMPTS):
        return None
    return text


def _assistant_texts(entry: dict[str, Any]) -> list[str]:
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return []
    return [
        _valid(part["text"]).strip()
        for part in content
        if isinstance(part, dict)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
        and part["text"].strip()
    ]


def _open(path: str | os.PathLike[str], *, strict: bool) -> IO[bytes] | None:
    """A binary handle on ``path`` if it is a readable regular file, else None (or, with
    ``strict``, InvalidInputError). Checked before opening: a FIFO would block."""
    try:
        target = os.fspath(path)
        if not target:
            raise ValueError("empty path")
        info = os.stat(target)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise OSError(kind)
        return open(target, "rb")  # the caller's `with` closes it
    except (OSError, ValueError, TypeError) as exc:
        if strict:
            why = getattr(exc, "strerror", None) or exc
            raise InvalidInputError(
                f"transcript {path!r} is not a readable file ({why}); "
                "give the path of a Claude Code .jsonl transcript"
            ) from None
        return None


def _lines(handle: IO[bytes], max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """(1-based line number, raw bytes or None for an over-long line) up to ``max_bytes``.
    An over-long line is skipped by chunks, never held whole in memory."""
    read = 0
    number = 0
    while read < max_bytes:
        try:
            raw = handle.readline(MAX_LINE_BYTES + 1)
        except OSError:
            return
        if not raw:
            return
        read += len(raw)
        number += 1
        if len(raw) <= MAX_LINE_BYTES:
            yield number, raw
            continue
        while not raw.endswith(b"\n") and read < max_bytes:  # skip the rest of the line
            try:
                raw = handle.readline(_CHUNK)
            except OSError:
                return
            if not raw:
                break
            read += len(raw)
        yield number, None


def _object(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _valid(text: str) -> str:
    """``text`` as valid UTF-8: JSON may carry lone surrogates, which SQLite refuses."""
    return text.encode("utf-8", errors="replace").decode("utf-8")
