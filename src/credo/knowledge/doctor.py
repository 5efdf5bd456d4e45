"""``credo doctor``: are the document anchors still true, and can they be made true again?

The rules (quoted in the docs):

- **What is checked.** Every anchor of a live belief whose URI is a local file (a
  repo-relative path or ``file:///``). Web URLs are not fetched, and anchors of
  soft-deleted (stale) beliefs are skipped: they are kept for audit and their text is
  gone by definition.
- **Missing file.** The anchor's file does not exist (or is not a readable file).
- **Gone transcript.** A capture's anchor to the Claude Code transcript it was said in
  (``credo.agent.capture``: ``manual``, a ``.jsonl`` file, position ``turn N``) is
  provenance, not a document the user keeps: Claude Code deletes old transcripts
  (``cleanupPeriodDays``), so a missing one is counted in ``transcripts_gone``, not as a
  missing file, and the store stays healthy.
- **Shifted range.** The anchor has a line range (``#L12-L30`` in the URI, else
  ``L12-L30`` in position_hint) and those lines no longer hold the belief's text. Text is
  compared as normalised words: case-folded runs of letters and digits, so markup
  (emphasis, link targets, comment markers, line breaks) does not matter; the lines hold
  the text when the belief's words appear in them in order (words the markup adds, such as
  a link target, may sit between them). An anchor without a line range only needs its
  file.
- **Note.** A ``manual`` anchor (``remember --doc``, ``link``) whose belief's words are
  nowhere in its file says something *about* those lines ("Deploys go through
  ops/deploy.sh", anchored to ``ops/deploy.sh#L1-L40``) rather than quoting them: its
  lines never held its text, so only its file and that its range still lies inside the
  file are checked (counted in ``notes``). A quote, found elsewhere in the file, is shifted.
- **Fix** (``--fix``): the belief's words are looked for in the current file; the
  tightest span of lines holding them (nearest the old range on a tie) becomes the new
  range, the anchor row is updated in place and the change logged (op ``doctor``).
  A text found nowhere is left as reported.
- **Backfill** (``--backfill-anchors``): a live belief with no anchor at all gets an
  ``ingest`` anchor to the first ``source_path`` of its ``ingest_log`` rows that names an
  existing file credo can read (see `credo.knowledge.chunk.EXTENSIONS`; "api", "cli" or a records
  file are not documents), with the line range where its text is found, else the file
  alone. Logged as op ``backfill``.
"""

from __future__ import annotations

import os
import re
import time
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from credo.errors import InvalidInputError
from credo.knowledge.chunk import language_for, source_lines
from credo.knowledge.chunk.model import decode_entities
from credo.knowledge.docuri import line_hint, normalise_doc_uri, parse_lines
from credo.knowledge.encoding import decode_text
from credo.knowledge.redact import MARKER
from credo.store import Store
from credo.tokens import capture_hint
from credo.types import TRAIL_SEPARATOR, DocAnchor

# Letters and digits only: "_" and markup characters split words the same way on both sides.
_WORD = re.compile(r"[^\W_]+")
# Inline markup that glues to the word beside it: a code span's backticks ("{class}`Column`s",
# with reST's escape after them: "``File``\s") and a MyST role written straight after a word
# ("compatible{sup}`1`"). A passage reads such text as one word ("Columns", "compatible1"),
# so both sides drop them. A role after a space or punctuation keeps its name (":pep:`8`"
# reads "PEP 8"; reST reads no role glued to a word). reST's escaped space after a role
# ("`Column`\ s") stays a separator, and after a literal ("``code``\ s") joins: chunk/rst
# reads the first as two words and the second as one ("`code`s").
# A role's name starts with a letter (chunk/inline's rule): "\d{2}`" ending a template
# literal is a regex quantifier, and the passage keeps it. An escaped backtick ("11\`1") is
# a plain one in the passage ("11`1"), so its escape goes with it. Nor is a word after a
# backslash a word a role glues to: "`\p{Greek}`" or "`\mathbb{R}`" in a code span is an
# escape with its argument, which the passage keeps (regex's docs: a false shift, probe81).
_GLUE = re.compile(r"(?<![\\\w])(\w*[^\W_])\{[A-Za-z][\w.:+-]*\}(?=`)|``\\ |\\?`+\\?")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# A path the shell takes as one word as printed (doctor's hint names a command to paste):
# a "#" inside a word is a character, at its start a comment.
_PLAIN_WORD = re.compile(r"[\w@%+=:,./-][\w@%+=:,./#-]*")
# How far apart the words of one belief may lie in the file: its own words, twice over,
# plus room for what markup adds (link targets, HTML tags). Wider spans are not one text.
_SPAN_FACTOR = 2
_SPAN_SLACK = 24
# Anchors are read from the store in batches of this many.
_BATCH = 500


def _unglued(match: re.Match[str]) -> str:
    """What `_GLUE` leaves of its match: the word a role was glued to, else nothing."""
    return match.group(1) or ""


def words(text: str) -> list[str]:
    """The normalised words two texts are compared by. Entities are decoded on both sides
    until none is left: a passage shows "&eacute;" as "é" (chunk/inline) while a code
    block keeps "&amp;lt;" as written, and each reads the same here."""
    while "&" in text and (decoded := decode_entities(text)) != text:
        text = decoded  # (each round shortens the text: it ends)
    if "`" in text:
        text = _GLUE.sub(_unglued, text)
    return _WORD.findall(text.casefold())


def belief_words(text: str) -> list[str]:
    """The words a belief's lines must hold: all of its own, in order, except the marker
    of a redacted secret (the file holds the secret there, chunk/config.py)."""
    return words(text.replace(MARKER, " ")) if MARKER in text else words(text)


def _is_subsequence(needle: list[str], haystack: Iterator[str]) -> bool:
    position = 0
    for word in haystack:
        if position < len(needle) and word == needle[position]:
            position += 1
    return position == len(needle)


# At most this many outer titles lead a passage (a trail's depth): a text full of " › " (a
# menu path, a table of them) is not read again from each one (review88: 5,000 took 7 s).
MAX_OUTER_TITLES = 8


def own_texts(text: str) -> list[str]:
    """``text``, then, when it is led by outer section titles ("Options › Examples ..."), what
    follows each of them: a repeated heading-led passage leads with the titles of the
    sections around it (chunk/passage.py), which stand above its lines, not in them."""
    parts = text.split(TRAIL_SEPARATOR, MAX_OUTER_TITLES)
    return [text, *(TRAIL_SEPARATOR.join(parts[cut:]) for cut in range(1, len(parts)))]


def range_holds(lines: list[str], start: int, end: int, text: str) -> bool:
    """True when the 1-based lines ``start..end`` hold ``text``'s words in order (or the words
    after its outer titles, ``own_texts``; or, for a passage of several lines, each of its
    lines' words in order)."""
    if start < 1 or end < start or end > len(lines):
        return False
    held: list[str] | None = None  # the range's words, read once (only if a needle asks)
    for own in own_texts(text):
        needle = belief_words(own)
        if not needle:
            continue
        if held is None:
            held = [w for line in lines[start - 1 : end] for w in words(line)]
        if _is_subsequence(needle, iter(held)):
            return True
    # A code passage may lead with what its lines hold last: a type alias's fields, then the
    # comments above each field (chunk/code_treesitter.py), so its words are out of order as a
    # whole. The lines still hold it when they hold each of its lines (probe89: 9 "shifted"
    # anchors in markdownlint.d.mts right after ingest, and `credo doctor` exited 1).
    if held is None or "\n" not in text:
        return False
    return all(_is_subsequence(belief_words(line), iter(held)) for line in text.splitlines())


class FileText:
    """A file's lines and word index, read once per doctor run."""

    def __init__(self, text: str) -> None:
        self.lines = source_lines(text)
        self.tokens: list[str] = []
        self.token_lines: list[int] = []
        self.positions: dict[str, list[int]] = {}
        for number, line in enumerate(self.lines, 1):
            for word in words(line):
                self.positions.setdefault(word, []).append(len(self.tokens))
                self.tokens.append(word)
                self.token_lines.append(number)

    def locate(self, text: str, near: int | None = None) -> tuple[int, int] | None:
        """The tightest line span holding ``text``'s words in order, nearest ``near`` (or the
        words after its outer titles, ``own_texts``; or, for a passage of several lines, the
        span of each of its lines found one by one)."""
        for own in own_texts(text):
            if (found := self._locate(own, near)) is not None:
                return found
        return self._locate_lines(text, near) if "\n" in text else None

    def _locate_lines(self, text: str, near: int | None) -> tuple[int, int] | None:
        """The span of each of ``text``'s lines, found one by one, when it holds them all (a
        passage out of its lines' order, ``range_holds``: once its file shifts, ``--fix`` must
        find it too; review90)."""
        if any(word not in self.positions for word in belief_words(text)):
            return None  # (a word the file lacks: no line-by-line search)
        spans: list[tuple[int, int]] = []
        for line in text.splitlines():
            if not belief_words(line):
                continue
            if (found := self._locate(line, near)) is None:
                return None
            spans.append(found)
        if not spans:
            return None
        start, end = min(s for s, _ in spans), max(e for _, e in spans)
        if end - start > _SPAN_FACTOR * text.count("\n") + _SPAN_SLACK:
            return None  # (its lines scattered over the file: no span of its own)
        return (start, end) if range_holds(self.lines, start, end, text) else None

    def _locate(self, text: str, near: int | None) -> tuple[int, int] | None:
        needle = belief_words(text)
        if not needle:
            return None
        limit = _SPAN_FACTOR * len(needle) + _SPAN_SLACK
        best: tuple[int, int, int, int] | None = None  # (span, distance, start, end)
        for begin in self.positions.get(needle[0], ()):
            last = self._match_from(begin, needle, limit)
            if last is None:
                continue
            start, end = self.token_lines[begin], self.token_lines[last]
            rank = (end - start, abs(start - near) if near is not None else 0, start, end)
            if best is None or rank < best:
                best = rank
        return None if best is None else (best[2], best[3])

    def _match_from(self, begin: int, needle: list[str], limit: int) -> int | None:
        """Index of the token ending an in-order match of ``needle`` from ``begin``."""
        position = begin
        for word in needle:
            found = self._next(word, position, begin + limit)
            if found is None:
                return None
            position = found + 1
        return position - 1

    def _next(self, word: str, start: int, stop: int) -> int | None:
        places = self.positions.get(word)
        if not places:
            return None
        i = bisect_left(places, start)
        return places[i] if i < len(places) and places[i] < stop else None


def read_file_text(path: Path) -> FileText | None:
    """The file as `FileText`, or None when it is missing or unreadable."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    # Read as ingest reads it (a Latin-1 file's words match its beliefs'); bytes ingest
    # would not read keep the old lenient reading.
    text = decode_text(data)
    return FileText(data.decode("utf-8-sig", errors="replace") if text is None else text)


def local_path(doc_uri: str, root: Path) -> Path | None:
    """The local file an anchor URI names (fragment dropped), None for web URLs."""
    base = doc_uri.partition("#")[0]
    if base.lower().startswith("file://"):
        return Path(unquote(base[len("file://") :]))
    if _SCHEME.match(base) or not base:
        return None
    return root / base


def anchor_lines(anchor: DocAnchor) -> tuple[int, int] | None:
    """The anchor's line range: the URI's #L.. fragment, else its position_hint."""
    for spec in (anchor.doc_uri.partition("#")[2], anchor.position_hint or ""):
        if spec:
            try:
                return parse_lines(spec)
            except InvalidInputError:
                continue
    return None


@dataclass(frozen=True, slots=True)
class AnchorProblem:
    """One anchor that is not true any more.

    ``problem`` is "missing_file" or "shifted"; ``found`` is where the belief's text is in
    the current file (None when it is found nowhere, or the file is gone).
    """

    belief_id: str
    doc_uri: str
    anchor_type: str
    problem: str
    lines: tuple[int, int] | None
    found: tuple[int, int] | None = None

    def remedy(self) -> str:
        """The command that clears a missing file's anchor: ingest re-reads what it
        anchored (its passages and the files they name); a hand link is the user's to drop
        (``credo unlink``), or it goes with the belief."""
        unlink = f"credo unlink {self.belief_id} {_shell_word(self.doc_uri)}"
        if self.anchor_type in ("ingest", "derived"):
            return f"gone: re-ingest its folder, or {unlink}"
        return f"gone: {unlink}, or credo forget {self.belief_id}"


def _shell_word(text: str) -> str:
    """``text`` as one shell word: a plain path as it is (a ``#`` inside a word starts no
    comment), anything else (a space, a quote) quoted, so the printed command runs."""
    if _PLAIN_WORD.fullmatch(text):
        return text
    import shlex

    return shlex.quote(text)


@dataclass(slots=True)
class DoctorReport:
    """What ``check_anchors`` (and ``fix_anchors``) found and did."""

    checked: int = 0
    ok: int = 0
    skipped: int = 0  # web URLs and anchors of stale beliefs
    notes: int = 0  # of ``ok``: manual anchors that annotate their lines (module docstring)
    transcripts_gone: int = 0  # captures' transcripts Claude Code has deleted: not a problem
    missing_files: list[AnchorProblem] = field(default_factory=list)
    shifted: list[AnchorProblem] = field(default_factory=list)
    fixed: list[AnchorProblem] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        """No problem left (fixed ones do not count)."""
        fixed = {(p.belief_id, p.doc_uri) for p in self.fixed}
        return not self.missing_files and all(
            (p.belief_id, p.doc_uri) in fixed for p in self.shifted
        )


def _batches(store: Store) -> Iterator[list[DocAnchor]]:
    batch: list[DocAnchor] = []
    for anchor in store.iter_anchors():
        batch.append(anchor)
        if len(batch) >= _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def check_anchors(store: Store, root: str | os.PathLike[str]) -> DoctorReport:
    """Report anchors whose file is gone or whose range no longer holds the belief's text.

    Reads only; see the module docstring for the rules.
    """
    base = Path(root).resolve()
    report = DoctorReport()
    files: dict[Path, FileText | None] = {}
    # Materialise each batch before reading texts: iter_anchors keeps a cursor open.
    for batch in list(_batches(store)):
        texts = store.belief_texts({a.belief_id for a in batch})
        for anchor in batch:
            content, deleted_at = texts.get(anchor.belief_id, ("", None))
            _check_one(anchor, content, deleted_at, base, files, report)
    return report


def _check_one(
    anchor: DocAnchor,
    content: str,
    deleted_at: float | None,
    root: Path,
    files: dict[Path, FileText | None],
    report: DoctorReport,
) -> None:
    path = local_path(anchor.doc_uri, root)
    if path is None or deleted_at is not None:
        report.skipped += 1
        return
    report.checked += 1
    if path not in files:
        files[path] = read_file_text(path) if path.is_file() else None
    text = files[path]
    lines = anchor_lines(anchor)
    if text is None and capture_hint(anchor):
        report.transcripts_gone += 1
    elif text is None:
        report.missing_files.append(
            AnchorProblem(
                anchor.belief_id, anchor.doc_uri, anchor.anchor_type, "missing_file", lines
            )
        )
    elif lines is None or range_holds(text.lines, lines[0], lines[1], content):
        report.ok += 1
    else:
        found = text.locate(content, near=lines[0])
        if found is None and anchor.anchor_type == "manual" and lines[1] <= len(text.lines):
            # A note about the lines, not a quote of them: "shifted" would be reported from
            # the moment it was written, and no --fix could ever clear it.
            report.ok += 1
            report.notes += 1
            return
        report.shifted.append(
            AnchorProblem(
                anchor.belief_id, anchor.doc_uri, anchor.anchor_type, "shifted", lines, found
            )
        )


def fix_anchors(store: Store, root: str | os.PathLike[str]) -> DoctorReport:
    """Check, then move every shifted anchor whose text was found to its new lines.

    One transaction; each move is logged (op ``doctor``). Returns the check's report with
    ``fixed`` filled in.
    """
    report = check_anchors(store, root)
    now = time.time()
    with store.transaction(), store.write_errors():
        for problem in report.shifted:
            if problem.found is None:
                continue
            _move(store, problem, problem.found, now)
            report.fixed.append(problem)
    return report


def _move(store: Store, problem: AnchorProblem, found: tuple[int, int], now: float) -> None:
    base, _, fragment = problem.doc_uri.partition("#")
    hint = line_hint(*found)
    # Only a line-range fragment is rewritten; a #section fragment names no lines to move.
    new_uri = f"{base}#{hint}" if _is_line_fragment(fragment) else problem.doc_uri
    store.move_anchor(problem.belief_id, problem.doc_uri, new_uri, hint)
    store.append_log(
        [(now, "doctor", problem.belief_id, base, {"from": problem.doc_uri, "to": new_uri})]
    )


def _is_line_fragment(fragment: str) -> bool:
    try:
        parse_lines(fragment)
    except InvalidInputError:
        return False
    return True


@dataclass(slots=True)
class BackfillReport:
    """What ``backfill_anchors`` did: beliefs without anchors it looked at, anchors
    written (``located`` of them with a line range), and beliefs with no usable source."""

    considered: int = 0
    anchored: int = 0
    located: int = 0
    no_source: int = 0


def backfill_anchors(store: Store, root: str | os.PathLike[str]) -> BackfillReport:
    """Write ``ingest`` anchors for live beliefs that have none, from ``ingest_log``
    source paths (see the module docstring). Idempotent: anchored beliefs are skipped."""
    base = Path(root).resolve()
    report = BackfillReport()
    orphans = store.live_beliefs_without_anchors()
    report.considered = len(orphans)
    sources = store.log_source_paths(belief_id for belief_id, _ in orphans)
    files: dict[Path, FileText | None] = {}
    anchors: list[DocAnchor] = []
    now = time.time()
    for belief_id, content in orphans:
        anchor = _backfill_one(belief_id, content, sources.get(belief_id, []), base, files, now)
        if anchor is None:
            report.no_source += 1
            continue
        anchors.append(anchor)
        report.anchored += 1
        report.located += anchor.position_hint is not None
    with store.transaction(), store.write_errors():
        store.insert_anchors(anchors)
        store.append_log(
            [
                (
                    now,
                    "backfill",
                    a.belief_id,
                    a.doc_uri.partition("#")[0],
                    {
                        "doc_uri": a.doc_uri,
                        "anchor_type": "ingest",
                        "position_hint": a.position_hint,
                    },
                )
                for a in anchors
            ]
        )
    return report


def _backfill_one(
    belief_id: str,
    content: str,
    sources: list[str],
    root: Path,
    files: dict[Path, FileText | None],
    now: float,
) -> DocAnchor | None:
    for source in sources:
        path = _source_file(source, root)
        if path is None:
            continue
        if path not in files:
            files[path] = read_file_text(path)
        text = files[path]
        if text is None:
            continue
        found = text.locate(content)
        uri = normalise_doc_uri(os.fspath(path), root=root, lines=found)
        return DocAnchor(belief_id, uri.uri, "ingest", uri.position_hint, now)
    return None


def _source_file(source: str, root: Path) -> Path | None:
    """The readable document a log ``source_path`` names, if it is one."""
    path = local_path(source, root) if "://" in source else Path(source)
    if path is None:
        return None
    if not path.is_absolute():
        path = root / path
    if language_for(path.as_posix()) is None or not path.is_file():
        return None
    return path
