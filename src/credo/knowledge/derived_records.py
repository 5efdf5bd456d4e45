"""The rows ingest derives for ranking, carried by export and import so an imported store
ranks exactly as the original (byte-identical ``search --json``) before any re-ingest.

``{"kind":"passage_lines","belief_id":..,"lines":..,"context":..}`` is a documentation
passage's line statistics (store/line_stats.py: its lines' and its context's stems, what
the line lane scores by); ``{"kind":"definitions","file":..,"definitions":[[start, end,
terms, length], ...],"passages":[[belief_id, start, end], ...]}`` is one code file's
definitions (a constant's with a fifth item, ``true``) and the definition each passage
sits in (store/defn_stats.py, what the definition lane scores by);
``{"kind":"acronyms","file":..,"pairs":[[short, long], ...]}`` is the acronyms one file
spells out (store/acronyms.py, what a query's words are bridged by);
``{"kind":"anchor_context","belief_id":..,"file":..,"context":..}`` is the context one file
gives a text several files hold (m019, knowledge/ingest/copies.py: which file's anchor is
shown first, and whose words leave with the file). All are derived from files the importing
side may not have, so they travel as they are; the store counts (``line_df``, ``defn_df``)
follow from them.

An import only adds: lines and anchor-context rows are written for the beliefs the import
added (a belief the store holds keeps its own), definitions and acronyms for a file the store
holds none of. A row that names a belief neither the file nor the store holds, a passage
outside the file's definitions, or a file's context of a belief with no ingest anchor in that
file, is an error naming its line; nothing is imported.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from credo.knowledge.records import Fields
    from credo.store import Store

KINDS = ("passage_lines", "definitions", "acronyms", "anchor_context")
_KEYS = {
    "passage_lines": frozenset("kind belief_id lines context".split()),
    "definitions": frozenset("kind file definitions passages".split()),
    "acronyms": frozenset("kind file pairs".split()),
    "anchor_context": frozenset("kind belief_id file context".split()),
}
_MAX_LINE = 2**31 - 1  # an integer column on PostgreSQL


class LinesRecord(NamedTuple):
    line: int
    belief_id: str
    lines: str
    context: str


class DefinitionsRecord(NamedTuple):
    line: int
    file: str
    definitions: dict[tuple[int, int], tuple[str, int, bool]]
    passages: dict[str, tuple[int, int]]


class AcronymsRecord(NamedTuple):
    line: int
    file: str
    pairs: tuple[tuple[str, str], ...]


class ContextRecord(NamedTuple):
    line: int
    belief_id: str
    file: str
    context: str


DerivedRecord = LinesRecord | DefinitionsRecord | AcronymsRecord | ContextRecord


def parse(kind: str, f: Fields) -> DerivedRecord:
    """One record of ``kind`` (one of ``KINDS``), every field checked; errors name the line."""
    f.check_keys(_KEYS[kind])
    if kind == "passage_lines":
        return LinesRecord(
            f.line,
            f.text("belief_id", required=True) or "",
            f.text("lines", required=True) or "",
            f.text("context") or "",
        )
    if kind == "anchor_context":
        return ContextRecord(
            f.line,
            f.text("belief_id", required=True) or "",
            f.text("file", required=True) or "",
            f.context(required=True) or "",
        )
    if kind == "acronyms":
        pairs = tuple(_shaped(f, "pairs", item, (str, str)) for item in _rows(f, "pairs"))
        return AcronymsRecord(f.line, f.text("file", required=True) or "", pairs)
    definitions: dict[tuple[int, int], tuple[str, int, bool]] = {}
    for item in _rows(f, "definitions"):
        # (a constant's row carries a fifth item, true: defn_stats.DefnRow)
        value = isinstance(item, list) and len(item) == 5 and item[4] is True
        row = item[:4] if value else item
        start, end, terms, length = _shaped(
            f, "definitions", row, (int, int, str, int), " (a constant's: a fifth item, true)", item
        )
        definitions[(start, end)] = (terms, length, value)
    passages: dict[str, tuple[int, int]] = {}
    for item in _rows(f, "passages"):
        belief_id, start, end = _shaped(f, "passages", item, (str, int, int))
        if (start, end) not in definitions:
            raise f.error(f"passage {belief_id!r} sits in no definition of the file: {item!r}")
        passages[belief_id] = (start, end)
    return DefinitionsRecord(f.line, f.text("file", required=True) or "", definitions, passages)


def _rows(f: Fields, key: str) -> list[Any]:
    value = f.obj.get(key, [])
    if not isinstance(value, list):
        raise f.error(f"field {key!r} must be a list, got {type(value).__name__}")
    return value


def _shaped(
    f: Fields,
    key: str,
    item: object,
    types: tuple[type, ...],
    more: str = "",
    given: object = None,
) -> tuple[Any, ...]:
    """``item`` as a tuple of ``types``, or the record's error naming what it was given
    (``given``: the whole item, when ``item`` is a part of it)."""
    ok = isinstance(item, list) and len(item) == len(types)
    if ok:
        for value, kind in zip(item, types, strict=True):
            if kind is int:
                ok = ok and type(value) is int and 0 <= value <= _MAX_LINE
            else:
                ok = ok and isinstance(value, kind)
    if not ok:
        names = ", ".join(t.__name__ for t in types)
        shown = item if given is None else given
        raise f.error(f"each item of {key!r} must be a list [{names}]{more}, got {shown!r}")
    return tuple(item)  # type: ignore[arg-type]


# -- export ----------------------------------------------------------------------------------
def _dump(obj: dict[str, Any]) -> str:  # = knowledge/export.py's
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def lines_line(row: tuple[str, str, str]) -> str:
    belief_id, lines, context = row
    obj = {"kind": "passage_lines", "belief_id": belief_id, "lines": lines}
    return _dump({**obj, "context": context} if context else obj)


def definitions_line(store: Store, file: str) -> str:
    definitions, passages = store.file_definitions(file)
    return _dump(
        {
            "kind": "definitions",
            "file": file,
            "definitions": [
                _definition(s, e, *definitions[(s, e)]) for s, e in sorted(definitions)
            ],
            "passages": [[b, *passages[b]] for b in sorted(passages)],
        }
    )


def _definition(start: int, end: int, terms: str, length: int, value: bool) -> list[Any]:
    """One item of a definitions record: a constant's has a fifth, ``true``."""
    return [start, end, terms, length, True] if value else [start, end, terms, length]


def acronyms_line(file: str, pairs: tuple[tuple[str, str], ...]) -> str:
    return _dump({"kind": "acronyms", "file": file, "pairs": [list(p) for p in pairs]})


def context_line(row: tuple[str, str, str]) -> str:
    belief_id, file, context = row
    return _dump(
        {"kind": "anchor_context", "belief_id": belief_id, "file": file, "context": context}
    )


# -- import ----------------------------------------------------------------------------------
class DerivedState:
    """The derived records of one import, written once its beliefs are in (``write``)."""

    def __init__(self) -> None:
        self.lines: list[LinesRecord] = []
        self.files: list[DefinitionsRecord] = []
        self.acronyms: list[AcronymsRecord] = []
        self.contexts: list[ContextRecord] = []

    def add(self, rec: DerivedRecord, file: str) -> None:
        """Keep one record (``file``: a definitions, acronyms or anchor-context record's
        file, as the store names it)."""
        if type(rec) is LinesRecord:
            self.lines.append(rec)
        elif type(rec) is DefinitionsRecord:
            self.files.append(rec._replace(file=file))
        elif type(rec) is AcronymsRecord:
            self.acronyms.append(rec._replace(file=file))
        elif type(rec) is ContextRecord:
            self.contexts.append(rec._replace(file=file))

    def any(self) -> bool:
        return bool(self.lines or self.files or self.acronyms or self.contexts)

    def problems(self, store: Store) -> list[tuple[int, str]]:
        """(line, message) of each row that names no belief the store holds by now, or a
        file that holds no ingest anchor of its belief (an anchor-context row)."""
        named = [(r.line, r.belief_id) for r in self.lines]
        named += [(r.line, b) for r in self.files for b in sorted(r.passages)]
        named += [(r.line, r.belief_id) for r in self.contexts]
        known = store.existing_ids({b for _, b in named})
        unknown = [(line, b) for line, b in named if b not in known]
        problems = [(line, f"belief {b!r} is not a known belief id") for line, b in unknown]
        return problems + self._unanchored(store, known)

    def _unanchored(self, store: Store, known: set[str]) -> list[tuple[int, str]]:
        """(line, message) of each anchor-context row of a known belief that has no
        ``ingest`` anchor in the row's file (a context no file of the belief gives)."""
        rows = [r for r in self.contexts if r.belief_id in known]
        if not rows:
            return []
        anchors = store.anchors_for(sorted({r.belief_id for r in rows}))
        files = {
            (belief_id, a.doc_uri.partition("#")[0])
            for belief_id, found in anchors.items()
            for a in found
            if a.anchor_type == "ingest"
        }
        return [
            (r.line, f"belief {r.belief_id!r} has no ingest anchor in {r.file!r}")
            for r in rows
            if (r.belief_id, r.file) not in files
        ]

    def write(self, store: Store, added: Iterable[str]) -> int:
        """Write the rows the import may add (module docstring); returns how many."""
        fresh = set(added)
        rows = {r.belief_id: (r.lines, r.context) for r in self.lines if r.belief_id in fresh}
        store.set_passage_lines(sorted(rows.items()))
        held = set(store.definition_files())
        files = [r for r in self.files if r.file not in held]
        for rec in files:
            store.set_file_definitions(rec.file, rec.definitions, rec.passages)
        spelt = {file for file, _ in store.file_acronyms()}
        acronyms = [r for r in self.acronyms if r.file not in spelt]
        for rec in acronyms:
            store.set_file_acronyms(rec.file, rec.pairs)
        by_file: dict[str, dict[str, str]] = {}
        for r in self.contexts:
            if r.belief_id in fresh:
                by_file.setdefault(r.file, {})[r.belief_id] = r.context
        for file in sorted(by_file):
            store.put_file_contexts(file, sorted(by_file[file].items()))
        contexts = sum(map(len, by_file.values()))
        return len(rows) + len(files) + len(acronyms) + contexts
