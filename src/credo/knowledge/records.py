"""The JSONL records format (SYSTEM.md § Surfaces): parsing with line numbers (writing:
knowledge/export.py).

One JSON object per line; ``kind`` says which record it is:
``{"kind":"belief","id":..,"content":..,"doc":..,"session":..,"locked":..,"created_at":..}``,
``{"kind":"edge","src":..,"dst":..,"type":"CITES","weight":..}``,
``{"kind":"anchor","belief_id":..,"doc_uri":..,"anchor_type":..,"position_hint":..}``,
and ingest's own state (knowledge/ingest_records.py): ``{"kind":"ingested_file","path":..,
"first_belief":..}``, ``{"kind":"edge_source","file":..,"src":..,"dst":..,"type":..,
"cited_file":..}``, ``{"kind":"pending_cite","file":..,"src":..,"cited_file":..}``.
A belief's own kind (factual, preference...) travels as ``belief_kind`` because ``kind`` names
the record. Export writes every field so that export -> import -> export is byte-identical
(``retention`` only where import would not tell the same class from the text).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

from credo.edge_types import EdgeType
from credo.errors import RecordsError
from credo.knowledge import derived_records, ingest_records
from credo.knowledge.derived_records import DerivedRecord
from credo.knowledge.identity import MAX_CONTEXT_CHARS
from credo.knowledge.ingest_records import IngestRecord
from credo.types import ANCHOR_TYPES, RETENTIONS

# A records line longer than this is refused (a belief is at most 20k characters).
MAX_LINE_BYTES = 1_000_000
# Times are Unix seconds `credo show` can print: 1970 to year 9999 (a day short, so no time
# zone carries it past). One row is written per corroboration: the bound keeps an import
# from holding the write lock for hours, far above what witnesses a text in practice.
MAX_TIMESTAMP = 253_402_214_400.0
MAX_CORROBORATIONS = 100_000


# The records are NamedTuples rather than dataclasses: an import builds hundreds of
# thousands of them, and a tuple is several times cheaper to create than a frozen dataclass.
class BeliefRecord(NamedTuple):
    line: int
    id: str | None
    content: str
    doc: str | None = None
    session: str | None = None
    locked: bool = False
    belief_kind: str | None = None
    origin: str | None = None
    alpha: float | None = None
    beta: float | None = None
    created_at: float | None = None
    updated_at: float | None = None
    deleted_at: float | None = None
    corroborations: int = 0
    context: str | None = None
    retention: str | None = None  # None: told from the text (credo.knowledge.retention)


class EdgeRecord(NamedTuple):
    line: int
    src: str
    dst: str
    type: str  # an ``EdgeType`` value, as stored
    weight: float | None = None
    anchor_text: str | None = None
    created_at: float | None = None


class AnchorRecord(NamedTuple):
    line: int
    belief_id: str
    doc_uri: str
    anchor_type: str = "manual"
    position_hint: str | None = None
    created_at: float | None = None


Record = BeliefRecord | EdgeRecord | AnchorRecord | IngestRecord | DerivedRecord


def _fail(source: str, line: int, message: str) -> RecordsError:
    return RecordsError(f"{source}:{line}: {message}; nothing was imported")


class Fields:
    """Typed access to one record's fields, with errors that name the line."""

    def __init__(self, obj: dict[str, Any], source: str, line: int) -> None:
        self.obj, self.source, self.line = obj, source, line

    def error(self, message: str) -> RecordsError:
        return _fail(self.source, self.line, message)

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.obj.get(key)
        if value is None:
            if required:
                raise self.error(f"missing required field {key!r}")
            return None
        if not isinstance(value, str):
            raise self.error(f"field {key!r} must be a string, got {type(value).__name__}")
        return value

    def number(self, key: str) -> float | None:
        value = self.obj.get(key)
        if value is None:
            return None
        number = _finite(value)
        if number is None:
            raise self.error(f"field {key!r} must be a finite number, got {value!r}")
        return number

    def time(self, key: str) -> float | None:
        number = self.number(key)
        if number is not None and not 0.0 <= number <= MAX_TIMESTAMP:
            raise self.error(f"field {key!r} must be Unix seconds to year 9999, got {number!r}")
        return number

    def flag(self, key: str) -> bool:
        value = self.obj.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.error(f"field {key!r} must be true or false, got {value!r}")
        return value

    def context(self, *, required: bool = False) -> str | None:
        """The ``context`` field: a text of at most ``MAX_CONTEXT_CHARS`` characters."""
        context = self.text("context", required=required)
        if context is not None and len(context) > MAX_CONTEXT_CHARS:
            raise self.error(
                f"field 'context' is {len(context)} characters, over the limit of "
                f"{MAX_CONTEXT_CHARS}"
            )
        return context

    def check_keys(self, allowed: frozenset[str]) -> None:
        unknown = sorted(set(self.obj) - allowed)
        if unknown:
            kind = str(self.obj["kind"])
            article = "an" if kind[:1] in "aeiou" else "a"
            raise self.error(f"unknown field {unknown[0]!r} in {article} {kind} record")


_BELIEF_KEYS = frozenset(
    [
        "kind",
        "id",
        "content",
        "doc",
        "session",
        "locked",
        "belief_kind",
        "origin",
        "alpha",
        "beta",
        "created_at",
        "updated_at",
        "deleted_at",
        "corroborations",
        "context",
        "retention",
    ]
)
_EDGE_KEYS = frozenset("kind src dst type weight anchor_text created_at".split())
_ANCHOR_KEYS = frozenset("kind belief_id doc_uri anchor_type position_hint created_at".split())


def _checked(obj: Any, source: str, line: int) -> Record:
    """The detailed validator: every field checked, the first problem named."""
    if not isinstance(obj, dict):
        raise _fail(source, line, "each line must be a JSON object")
    f = Fields(obj, source, line)
    kind = obj.get("kind")
    if kind == "belief":
        f.check_keys(_BELIEF_KEYS)
        corroborations = obj.get("corroborations", 0)
        if type(corroborations) is not int or not 0 <= corroborations <= MAX_CORROBORATIONS:
            raise f.error(
                f"field 'corroborations' must be an integer from 0 to {MAX_CORROBORATIONS}, "
                f"got {corroborations!r}"
            )
        context = f.context()
        retention = f.text("retention")
        if retention is not None and retention not in RETENTIONS:
            raise f.error(f"retention {retention!r} must be one of {', '.join(RETENTIONS)}")
        return BeliefRecord(
            line=line,
            id=f.text("id"),
            content=f.text("content", required=True) or "",
            doc=f.text("doc"),
            session=f.text("session"),
            locked=f.flag("locked"),
            belief_kind=f.text("belief_kind"),
            origin=f.text("origin"),
            alpha=f.number("alpha"),
            beta=f.number("beta"),
            created_at=f.time("created_at"),
            updated_at=f.time("updated_at"),
            deleted_at=f.time("deleted_at"),
            corroborations=corroborations,
            context=context,
            retention=retention,
        )
    if kind == "edge":
        f.check_keys(_EDGE_KEYS)
        type_name = f.text("type", required=True) or ""
        try:
            edge_type = EdgeType(type_name.upper())
        except ValueError:
            raise f.error(
                f"unknown edge type {type_name!r}; known: {', '.join(t.value for t in EdgeType)}"
            ) from None
        return EdgeRecord(
            line=line,
            src=f.text("src", required=True) or "",
            dst=f.text("dst", required=True) or "",
            type=edge_type.value,
            weight=f.number("weight"),
            anchor_text=f.text("anchor_text"),
            created_at=f.time("created_at"),
        )
    if kind == "anchor":
        f.check_keys(_ANCHOR_KEYS)
        anchor_type = f.text("anchor_type") or "manual"
        if anchor_type not in ANCHOR_TYPES:
            raise f.error(f"anchor_type {anchor_type!r} must be one of {', '.join(ANCHOR_TYPES)}")
        return AnchorRecord(
            line=line,
            belief_id=f.text("belief_id", required=True) or "",
            doc_uri=f.text("doc_uri", required=True) or "",
            anchor_type=anchor_type,
            position_hint=f.text("position_hint"),
            created_at=f.time("created_at"),
        )
    if kind in ingest_records.KINDS:
        return ingest_records.parse(kind, f)
    if kind in derived_records.KINDS:
        return derived_records.parse(kind, f)
    kinds = ", ".join(("belief", "edge", "anchor", *ingest_records.KINDS, *derived_records.KINDS))
    raise _fail(source, line, f"unknown record kind {kind!r}; use one of {kinds}")


def _finite(value: object) -> float | None:
    """``value`` as a float when it is a finite JSON number (not a bool), else None."""
    if type(value) is float:
        return value if value - value == 0.0 else None  # inf - inf and nan - nan are nan
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:
            return None
    return None


_BELIEF_DEFAULTS = BeliefRecord(0, None, "")[3:]
_TEXT_FIELDS = ("doc", "session", "belief_kind", "origin", "context")
_NUMBER_FIELDS = ("alpha", "beta", "created_at", "updated_at", "deleted_at")
_EDGE_TYPES = frozenset(t.value for t in EdgeType)


def _quick_belief(obj: dict[str, Any], line: int) -> BeliefRecord | None:
    """The record when every field is well-formed, else None (``_checked`` then explains)."""
    content = obj.get("content")
    belief_id = obj.get("id")
    if type(content) is not str:
        return None
    if len(obj) == 3 and type(belief_id) is str:
        return BeliefRecord(line, belief_id, content)  # exactly kind, id and content
    if not obj.keys() <= _BELIEF_KEYS or not (belief_id is None or type(belief_id) is str):
        return None
    get = obj.get
    texts: list[str | None] = []
    for key in _TEXT_FIELDS:
        value = get(key)
        if value is not None and type(value) is not str:
            return None
        texts.append(value)
    numbers: list[float | None] = []
    for key in _NUMBER_FIELDS:
        value = get(key)
        if value is not None:
            value = _finite(value)
            if value is None or (key[-3:] == "_at" and not 0.0 <= value <= MAX_TIMESTAMP):
                return None
        numbers.append(value)
    locked = get("locked")
    if locked is None:
        locked = False
    elif type(locked) is not bool:
        return None
    corroborations = get("corroborations", 0)
    if type(corroborations) is not int or not 0 <= corroborations <= MAX_CORROBORATIONS:
        return None
    doc, session, belief_kind, origin, context = texts
    if context is not None and len(context) > MAX_CONTEXT_CHARS:
        return None
    retention = get("retention")
    if retention is not None and retention not in RETENTIONS:
        return None
    alpha, beta, created_at, updated_at, deleted_at = numbers
    return BeliefRecord(
        line,
        belief_id,
        content,
        doc,
        session,
        locked,
        belief_kind,
        origin,
        alpha,
        beta,
        created_at,
        updated_at,
        deleted_at,
        corroborations,
        context,
        retention,
    )


def _quick_edge(obj: dict[str, Any], line: int) -> EdgeRecord | None:
    """The record when every field is well-formed, else None (``_checked`` then explains)."""
    src, dst, type_name = obj.get("src"), obj.get("dst"), obj.get("type")
    if type(src) is not str or type(dst) is not str or type(type_name) is not str:
        return None
    if type_name not in _EDGE_TYPES:
        return None
    if len(obj) == 4:
        return EdgeRecord(line, src, dst, type_name)  # exactly kind, src, dst and type
    if not obj.keys() <= _EDGE_KEYS:
        return None
    weight, anchor_text, created_at = (
        obj.get("weight"),
        obj.get("anchor_text"),
        obj.get("created_at"),
    )
    if weight is not None and (weight := _finite(weight)) is None:
        return None
    if anchor_text is not None and type(anchor_text) is not str:
        return None
    if created_at is not None and (
        (created_at := _finite(created_at)) is None or not 0.0 <= created_at <= MAX_TIMESTAMP
    ):
        return None
    return EdgeRecord(line, src, dst, type_name, weight, anchor_text, created_at)


def parse_line(obj: Any, source: str, line: int) -> Record:
    """One decoded JSON line as a record; a malformed one raises ``RecordsError``.

    Well-formed beliefs and edges take a fast path of plain type checks; anything else
    (and every error message) comes from the detailed validator.
    """
    if type(obj) is dict:
        quick = _quick(obj, line)
        if quick is not None:
            return quick
    return _checked(obj, source, line)


def _quick(obj: dict[str, Any], line: int) -> Record | None:
    """The fast path's record for a well-formed belief or edge, else None."""
    kind = obj.get("kind")
    if kind == "belief":
        return _quick_belief(obj, line)
    if kind == "edge":
        return _quick_edge(obj, line)
    return None


# Records per batch read from an iterable source (a file is batched by ``CHUNK_BYTES``).
BATCH_RECORDS = 1024


def read_batches(source: str | Path | Iterable[dict[str, Any] | str]) -> Iterator[list[Record]]:
    """Parse records from a JSONL file path, or from an iterable of dicts or JSON strings,
    a list at a time (the importer's loop then pays no generator step per record).

    Invalid UTF-8, invalid JSON, a non-object line or a bad field raises ``RecordsError``
    naming the line; blank lines are skipped. Lazy: a bad line raises only after the batch
    of the records before it has been handed out, so the importer meets line n's problem
    before line n+1's.
    """
    if isinstance(source, str | Path):
        yield from _read_file(Path(source))
        return
    batch: list[Record] = []
    try:
        for number, item in enumerate(source, start=1):
            if isinstance(item, str):
                if not item.strip():
                    continue
                batch.append(parse_line(_loads(item, "<records>", number), "<records>", number))
            else:
                batch.append(parse_line(item, "<records>", number))
            if len(batch) >= BATCH_RECORDS:
                yield batch
                batch = []
    except RecordsError:
        if batch:
            yield batch
        raise
    if batch:
        yield batch


def _loads(text: str, source: str, line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(source, line, f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise _fail(source, line, "JSON nested too deeply") from None


# Lines parsed together as one JSON document (see ``_parse_chunk``), in bytes.
CHUNK_BYTES = 1 << 20
_SCALARS = (str, int, float, bool, type(None))
_BOM = "\ufeff".encode()


def _read_file(path: Path) -> Iterator[list[Record]]:
    name = str(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise RecordsError(f"cannot read records file {name}: {exc.strerror or exc}") from exc
    with handle:
        first = 1
        while lines := handle.readlines(CHUNK_BYTES):
            yield from _chunk_batches(lines, first, name)
            first += len(lines)


def _chunk_batches(lines: list[bytes], first: int, name: str) -> Iterator[list[Record]]:
    """The records of one chunk of lines, as one batch (or, before a bad line, the batch of
    the lines above it, then the error)."""
    parsed = _parse_chunk(lines, first)
    if parsed is None:
        batch: list[Record] = []
        try:
            for number, raw in enumerate(lines, first):
                if (record := _parse_raw(raw, number, name)) is not None:
                    batch.append(record)
        except RecordsError:
            if batch:
                yield batch
            raise
        yield batch
        return
    records, slow = parsed
    for index, number, obj in slow:  # in line order
        try:
            records[index] = _checked(obj, name, number)
        except RecordsError:
            if index:
                yield cast("list[Record]", records[:index])  # filled in above index
            raise
    yield cast("list[Record]", records)  # every None is filled in by now


def _parse_raw(raw: bytes, number: int, name: str) -> Record | None:
    """One line on its own, every problem named; None for a blank line."""
    if len(raw) > MAX_LINE_BYTES:
        raise _fail(name, number, f"line is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(name, number, f"invalid UTF-8 at byte {exc.start}") from None
    if number == 1:
        text = text.removeprefix("\ufeff")
    if not text.strip():
        return None
    return parse_line(_loads(text, name, number), name, number)


def _parse_chunk(
    lines: list[bytes], first: int
) -> tuple[list[Record | None], list[tuple[int, int, dict[str, Any]]]] | None:
    """Consecutive lines parsed as one JSON document: the quick record of each line (None
    where the detailed validator must look at it) and, for those, (index, line, object);
    None when a line needs the line-by-line path (which then finds and names the problem).

    One ``json.loads`` over ``[[line1],[line2],...]`` costs a fraction of one call per line
    (key strings are shared, per-call overhead is paid once). It is exact, not a guess: a
    raw newline cannot occur inside a JSON string, so every ``],[`` joint is structure; when
    the document holds exactly one single-element wrapper per line and each element is an
    object with only scalar values, no joint can sit inside an object, so each wrapper holds
    exactly its own line's value, as parsing the line alone would give.
    """
    kept: list[bytes] = lines
    numbers: Sequence[int] = range(first, first + len(lines))
    if first == 1 or max(map(len, lines)) > MAX_LINE_BYTES or any(map(bytes.isspace, lines)):
        kept_lines: list[bytes] = []  # the uncommon case, line by line
        kept_numbers: list[int] = []
        for number, raw in enumerate(lines, first):
            if len(raw) > MAX_LINE_BYTES:
                return None
            if raw.isspace():
                continue
            if number == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM) :]
            kept_lines.append(raw)
            kept_numbers.append(number)
        kept, numbers = kept_lines, kept_numbers
    if not kept:
        return [], []
    try:
        wrappers = json.loads((b"[[" + b"],[".join(kept) + b"]]").decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if len(wrappers) != len(kept):
        return None
    records: list[Record | None] = []
    slow: list[tuple[int, int, dict[str, Any]]] = []
    append, edge_types, new = records.append, _EDGE_TYPES, tuple.__new__
    for number, wrapper in zip(numbers, wrappers, strict=True):
        if type(wrapper) is not list or len(wrapper) != 1:
            return None
        obj = wrapper[0]
        if type(obj) is not dict:
            return None
        # The two commonest shapes inline (hundreds of thousands of lines pay for every
        # call); anything else goes through _quick, then _checked.
        size, get = len(obj), obj.get
        if size == 4 and get("kind") == "edge":
            src, dst, type_name = get("src"), get("dst"), get("type")
            if (
                type(src) is str
                and type(dst) is str
                and type(type_name) is str
                and type_name in edge_types
            ):
                # tuple.__new__: the NamedTuple's own __new__ is a Python-level call.
                append(new(EdgeRecord, (number, src, dst, type_name, None, None, None)))
                continue
        elif size == 3 and get("kind") == "belief":
            belief_id, content = get("id"), get("content")
            if type(belief_id) is str and type(content) is str:
                append(new(BeliefRecord, (number, belief_id, content, *_BELIEF_DEFAULTS)))
                continue
        record = _quick(obj, number)
        if record is None:
            if not all(type(v) in _SCALARS for v in obj.values()):
                return None  # a quick record has only scalar values by construction
            slow.append((len(records), number, obj))
        append(record)
    return records, slow
