"""Plain data shared by every layer: beliefs, edges, anchors and retrieval results.

The store returns these records (never rows); the engine and the surfaces consume them.
They are ``NamedTuple`` classes rather than dataclasses because the hook starts a fresh
interpreter per prompt: importing ``dataclasses`` (it pulls in ``inspect``) and building
frozen dataclasses cost ~40 ms there, named tuples almost nothing. They are immutable and
compare by value, as frozen dataclasses would.

Edges, their types and default weights live in ``credo.edge_types``: retrieval never builds
them, and a fresh process would pay ~1 ms for them. They are importable from here as well,
loaded on first use (``__getattr__`` below).
"""

# Annotations stay evaluated (no `from __future__ import annotations`): typing.NamedTuple
# compiles each string annotation at import, ~25 us a field, paid by every fresh process.

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from credo.edge_types import EDGE_VALENCE, Edge, EdgeType

__all__ = [
    "ANCHOR_TYPES",
    "BELIEF_KINDS",
    "EDGE_VALENCE",
    "GLOBAL_SCOPE",
    "NO_COUNTS",
    "NO_LANES",
    "NO_SHORT_IDS",
    "ORIGINS",
    "RETENTIONS",
    "TRAIL_SEPARATOR",
    "Belief",
    "DocAnchor",
    "Edge",
    "EdgeType",
    "RetrievalResult",
    "RetrievedBelief",
    "StoreStats",
    "Trail",
]


BELIEF_KINDS = ("factual", "requirement", "preference", "correction", "procedure", "note")
ORIGINS = (
    "user_stated",
    "user_corrected",
    "agent_inferred",
    "document",
    "conversation",
    "import",
)
ANCHOR_TYPES = ("ingest", "manual", "derived")
# A belief's retention class (docs/RETRIEVAL.md § Retention classes), set when it is written:
# "fact" holds until changed (reference text, a rule a person stated); "snapshot" was true
# at a time (a changelog entry, a dated status line, "we are on Postgres 15 now");
# "transient" is meant for a while only ("for now, skip the flaky test").
RETENTIONS = ("fact", "snapshot", "transient")
GLOBAL_SCOPE = "global"  # RetrievedBelief.scope of the user-global store's locks
# Between the parts of a trail: ``docs/guide/auth.md › OAuth2 › Scopes L40-L58``.
TRAIL_SEPARATOR = " › "
# The source files ingest reads as code (knowledge/chunk/language.py's code languages: a
# test keeps the two in step), for retrieval's steps that treat code apart; retrieval does
# not import knowledge. A configuration file's trail names keys, not definitions.
CODE_EXTENSIONS = frozenset(
    {
        *("py", "pyi", "pyw", "c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "cs"),
        *("js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "go", "rs"),
        *("java", "kt", "kts", "scala", "swift", "groovy", "sh", "bash", "zsh", "ksh"),
    }
)
_CODE_SUFFIXES = tuple(f".{e}" for e in sorted(CODE_EXTENSIONS))
# The last line of a short ingested passage's context: words that only lengthen the row for
# BM25 (knowledge/ingest/context.py says why); an index detail, never shown.
LENGTH_FILLER = "credolengthfiller"


def shown_context(context: str) -> str:
    """A belief's context as a reader sees it: without the length filler's line."""
    return context.split("\n" + LENGTH_FILLER, 1)[0]


# Immutable, so one shared default is safe (a dict default would be shared and mutable).
NO_COUNTS: Mapping[str, int] = MappingProxyType({})
NO_LANES: Mapping[str, float] = MappingProxyType({})
NO_SHORT_IDS: Mapping[str, str] = MappingProxyType({})


def trail_of(context: str) -> str:
    """A belief's place, the first line of its context (credo.knowledge.ingest.context)."""
    return context.split("\n", 1)[0]


class Trail(NamedTuple):
    """A trail in its parts (``split_trail``): ``docs/a.md › OAuth2 › Scopes L40-L58`` is
    path ``docs/a.md``, titles ``("OAuth2", "Scopes")`` and lines ``L40-L58``."""

    path: str
    titles: tuple[str, ...]  # outermost first, each stripped; () for a file's own lines
    lines: str  # the range ingest ended the trail with, "" when it has none


def split_trail(trail: str) -> Trail:
    """``trail``'s path, section titles and line range (``split_lines``: only the range
    ingest writes counts, so "› Use L2 cache" or "› Part L" stay whole titles)."""
    head, lines = split_lines(trail)
    path, *titles = head.split(TRAIL_SEPARATOR)
    return _TRAIL(Trail, (path, tuple(map(str.strip, titles)), lines))


_TRAIL = tuple.__new__  # (a NamedTuple's own __new__ is a Python call: ~3x the cost)


def split_lines(trail: str) -> tuple[str, str]:
    """(``trail`` less its line range, the range): ``a.md › B L4-L9`` -> (``a.md › B``,
    ``L4-L9``). The range is the last word, exactly in the form ingest writes it
    (knowledge.docuri.line_hint: ``L<digits>-L<digits>``) after one space; a trail without
    one (a context imported from records) is whole, with "" (``a.md › Use L2 cache``, ``a.md
    › Part L``, ``a.md › Step L12``). No regular expression: the hook's fresh process would
    compile it."""
    head, space, last = trail.rpartition(" ")
    if space and last[:1] == "L":
        start, dash, end = last[1:].partition("-L")
        if dash and start.isdigit() and end.isdigit() and last.isascii():
            return head, last
    return trail, ""


def trail_path(trail: str) -> str:
    """The file of a trail ``path › A › B L4-L9``: its path, the line range dropped."""
    return split_lines(trail)[0].partition(TRAIL_SEPARATOR)[0]


def is_code_path(path: str) -> bool:
    """Whether ``path`` names a source file ingest reads as code (``CODE_EXTENSIONS``)."""
    return path.lower().endswith(_CODE_SUFFIXES)


def line_span(lines: str) -> tuple[int, int] | None:
    """(first, last) of a range as ``split_lines`` gives it (``L4-L9`` -> (4, 9)); None for ""."""
    if not lines:
        return None
    start, _, end = lines.partition("-")
    return int(start[1:]), int(end[1:])


class Belief(NamedTuple):
    """One stored statement and its evidence counts."""

    id: str
    content: str
    content_hash: str
    kind: str
    origin: str
    locked: bool
    alpha: float
    beta: float
    session: str | None
    created_at: float
    updated_at: float
    deleted_at: float | None
    corroborations: int = 0
    # Where an ingested belief sits: line 1 its trail (path › section › ...), then words
    # for the keyword index (credo.knowledge.ingest.context); "" for the others.
    context: str = ""
    retention: str = "fact"  # one of RETENTIONS

    @property
    def trail(self) -> str:
        """The first line of ``context``: the place shown with the belief."""
        return trail_of(self.context)

    @property
    def confidence(self) -> float:
        """Posterior mean of the Beta-Bernoulli evidence: alpha / (alpha + beta)."""
        return self.alpha / (self.alpha + self.beta)


class DocAnchor(NamedTuple):
    """A belief's link to a document (seed: doc-linker spec memo)."""

    belief_id: str
    doc_uri: str
    anchor_type: str
    position_hint: str | None
    created_at: float


class RetrievedBelief(NamedTuple):
    """One belief in a retrieval result, with why it is there."""

    id: str
    content: str
    score: float
    locked: bool
    tokens: int  # what it costs in the rendered block
    # part -> its share of the score: each lane, `posterior` (feedback) when not zero,
    # `history` (what a changelog passage gives up, below zero), and what it inherits:
    # `supersedes` (from what it replaced), `contradicts` (from its group)
    lanes: Mapping[str, float] = NO_LANES
    cluster_id: int | None = None
    replaces: tuple[str, ...] = ()  # the beliefs it supersedes, left out of the pack
    conflicts: tuple[str, ...] = ()  # the beliefs it contradicts, packed with it
    superseded_by: tuple[str, ...] = ()  # with history on: what replaced it
    trail: str = ""  # where an ingested belief sits: "docs/a.md › Section L4-L9"
    scope: str = ""  # "global": a lock of the user-global store (credo.agent.global_store)
    # The compress stage (retrieval/compress.py): how it is rendered in the pack ("verbatim",
    # "snippet" or "headline"), the text rendered and charged ("" = ``content`` as is), and
    # the stored text's length in characters (0 = not said).
    strategy: str = "verbatim"
    rendered: str = ""
    original_chars: int = 0
    retention: str = "fact"  # its retention class (RETENTIONS), which the strategy may read
    # Near-identical passages folded into this one (retrieval/siblings.py): the text its line
    # names them by (``also AsyncClient › get L1751-L1778``, shown and charged) and their ids.
    also: str = ""
    siblings: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """The text the pack renders: ``rendered`` when set, else ``content``."""
        return self.rendered or self.content


class RetrievalResult(NamedTuple):
    """What ``Memory.retrieve`` returns: the pack, in order, and what did not fit.

    ``doc_anchors`` is parallel to ``beliefs`` when anchors were asked for, else ``None``.
    """

    query: str
    beliefs: tuple[RetrievedBelief, ...]
    token_budget: int
    used_tokens: int
    dropped: tuple[str, ...] = ()  # ranked candidates that did not fit the budget
    locked_overflow: tuple[str, ...] = ()  # locked beliefs beyond their half of the budget
    doc_anchors: tuple[tuple[DocAnchor, ...], ...] | None = None
    clustering: bool = False
    superseded: tuple[str, ...] = ()  # ranked candidates left out: a live belief replaced them
    # id -> the short form the block shows it by (credo.store.short_ids), for those shown short
    short_ids: Mapping[str, str] = NO_SHORT_IDS
    # Parallel to ``beliefs`` when anchors were asked for: a captured belief's transcript,
    # short (``transcript 3f2a9c1e turn 3``), shown and charged; "" for none (retrieval/hints.py)
    hints: tuple[str, ...] = ()

    @property
    def ids(self) -> list[str]:
        return [b.id for b in self.beliefs]


class StoreStats(NamedTuple):
    """Counts that describe a store."""

    beliefs: int
    locked: int
    deleted: int
    edges: int
    anchors: int
    log_entries: int
    schema_version: int
    path: str
    size_bytes: int
    edges_by_type: Mapping[str, int] = NO_COUNTS
    root: str = ""  # the folder its file paths are relative to (credo.knowledge.root)
    root_source: str = ""  # given, kept, inferred or default (RootKeeper.source)


_EDGE_NAMES = ("EdgeType", "EDGE_VALENCE", "Edge")


def __getattr__(name: str) -> object:
    """The edge records of ``credo.edge_types``, loaded when first asked for (PEP 562)."""
    if name in _EDGE_NAMES:
        from credo import edge_types

        return getattr(edge_types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
