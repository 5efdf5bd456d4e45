"""Every reader of a trail, on a trail with no line range whose title holds " L".

Ingest ends a passage's trail with its lines (``docs/a.md › Setup L3-L9``); a context
imported from records may have none, and then a title such as "Use L2 cache", "Part L" or
"Step L12 of the upgrade" is whole: no reader may cut it at its last " L"
(credo.types.split_lines). Each test failed before the readers shared that one split.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from credo import Memory
from credo.retrieval.head import first_line
from credo.retrieval.lanes.latest import _changelogs, newest, release_of
from credo.retrieval.lanes.title import is_document, title_share
from credo.retrieval.named import names_ahead
from credo.retrieval.numbers import without_dotted
from credo.retrieval.place import parse
from credo.retrieval.rank import Scored
from credo.retrieval.specific import sections, without_lines
from credo.retrieval.support import by_file_support
from credo.store.fts import query_terms
from credo.store.stem import stem
from tests.conftest import CliRun


@pytest.mark.parametrize(
    ("trail", "parts"),
    [
        ("docs/tuning.md › Use L2 cache", ("docs/tuning.md", ("Use L2 cache",))),
        ("notes.md › Appendices › Part L", ("notes.md", ("Appendices", "Part L"))),
        ("notes.md › Step L12 of the upgrade", ("notes.md", ("Step L12 of the upgrade",))),
        ("notes.md › Step L12", ("notes.md", ("Step L12",))),
        ("notes.md › The L Word L4-L9", ("notes.md", ("The L Word",))),
        ("Design Log.md", ("Design Log.md", ())),
        ("Design Log.md L1-L3", ("Design Log.md", ())),
        ("docs/a.md › A › B L4-L9", ("docs/a.md", ("A", "B"))),
    ],
)
def test_sections_keeps_a_title_that_holds_l(trail: str, parts: tuple[object, ...]) -> None:
    assert sections(trail) == parts


@pytest.mark.parametrize(
    ("trail", "kept"),
    [
        ("notes.md › Step L12-L14 of the upgrade", "notes.md › Step L12-L14 of the upgrade"),
        ("notes.md › Step L12-L14 L3-L5", "notes.md › Step L12-L14"),
        ("notes.md › Part L", "notes.md › Part L"),
    ],
)
def test_without_lines_drops_only_a_final_range(trail: str, kept: str) -> None:
    assert without_lines(trail) == kept


@pytest.mark.parametrize(
    ("trail", "line"),
    [
        ("notes.md › Step L12", None),
        ("notes.md › Step L12-L14 of the upgrade", None),
        ("notes.md › Step L12 of the upgrade", None),
        ("notes.md › Step L12 L4-L9", 4),
        ("notes.md L7-L9", 7),
    ],
)
def test_first_line_reads_only_a_final_range(trail: str, line: int | None) -> None:
    assert first_line(trail) == line


def test_names_ahead_takes_a_whole_last_title() -> None:
    """A title "evict Later" names no definition ``evict``."""
    trails = {"a": "src/cache.py › Cache › evict Later", "b": "src/cache.py › Cache › evict L3-L9"}
    assert names_ahead(["a", "b"], trails) == {"evict": ("b",)}


def test_the_newest_release_is_read_from_a_whole_title() -> None:
    trails = {"old": "CHANGES.md › 2.0.0 L1-L9", "new": "CHANGES.md › Patch Level 3.1.0"}
    assert release_of(trails["new"]) == (3, 1, 0)
    assert newest(trails) == {"new"}


def test_a_title_share_counts_the_words_after_l() -> None:
    asked = frozenset(stem(w) for w in ("l2", "cache"))
    assert title_share("docs/tuning.md › Use L2 cache", asked) == pytest.approx(2 / 3)


@pytest.mark.parametrize("trail", ["Design Log.md", "docs/Design Log.md", "Design Log.md L1-L2"])
def test_is_document_reads_the_whole_file_name(trail: str) -> None:
    assert is_document(trail)


def test_two_files_whose_names_hold_l_are_two_files() -> None:
    """by_file_support: "Design Log.md" and "Design Lab.md" are not one file "Design"."""
    ranked = [Scored("a", 2.0, {"bm25f": 2.0}), Scored("b", 1.0, {"bm25f": 1.0})]
    out = by_file_support(ranked, {"a": "Design Log.md", "b": "Design Lab.md"})
    assert out is ranked


def test_a_changelog_path_that_holds_l_is_whole() -> None:
    assert _changelogs(["old Lib/CHANGELOG.md"]) == ["old Lib/CHANGELOG.md"]


def test_a_number_only_in_a_whole_title_is_read_there() -> None:
    """without_dotted: "3" in "Lib 2.3" is a later part of a dotted number, not the "3" the
    question asks for; a trail cut at " L" hid it, and the hit kept that part."""
    text = "what is in 3"
    out = without_dotted(
        text,
        query_terms(text),
        {"a": 1.0},
        lambda _: "The upgrade moved every plugin.",
        lambda ids: dict.fromkeys(ids, "notes.md › Upgrade › Lib 2.3"),
        lambda _terms, ids: dict.fromkeys(ids, 0.4),
        lambda _ids: {},
    )
    assert out == {"a": pytest.approx(0.6)}


def test_place_parse_needs_a_final_range() -> None:
    assert parse("docs/tuning.md › Use L2 cache") is None
    assert parse("notes.md › Step L12") is None
    place = parse("docs/tuning.md › Use L2 cache L3-L9")
    assert place is not None
    assert (place.file, place.section, place.lines) == ("docs/tuning.md", "Use L2 cache", "L3-L9")


RECORDS = [
    {
        "kind": "belief",
        "id": "release",
        "content": "The cache now keeps entries for an hour by default.",
        "origin": "document",
        "context": "notes.md › Upgrade › Lifecycle 2.1.0",
    },
    {
        "kind": "belief",
        "id": "storage",
        "content": "Entries are kept in memory and written to disk on exit.",
        "origin": "document",
        "context": "notes.md › Storage",
    },
    {
        "kind": "belief",
        "id": "l2",
        "content": "Set the size of the second level cache in bytes.",
        "origin": "document",
        "context": "docs/tuning.md › Use L2 cache",
    },
]


@pytest.mark.parametrize(
    ("query", "first", "lane"),
    [
        # the doc lane's release match reads the whole title "Lifecycle 2.1.0"
        ("what changed in 2.1.0", "release", "doc"),
        # adjacent.py reads the pair "L2 cache" in the whole title "Use L2 cache"
        ("use L2 cache", "l2", "adjacent"),
    ],
)
def test_an_imported_title_is_read_whole_by_the_lanes(
    tmp_path: Path, query: str, first: str, lane: str
) -> None:
    with Memory(tmp_path / "c.db", root=tmp_path) as memory:
        memory.import_records(RECORDS)
        hit = memory.retrieve(query).beliefs[0]
    assert hit.id == first
    assert lane in hit.lanes


def test_the_cli_search_reads_an_imported_title_whole(run: CliRun, tmp_path: Path) -> None:
    """``credo import`` then ``credo search``: the release lane finds "2.1.0" in the whole
    title "Lifecycle 2.1.0", and the hit's trail is shown as imported."""
    records = tmp_path / "in.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    run("import", str(records), check=True)
    found = json.loads(run("search", "what changed in 2.1.0", "--json", check=True).stdout)
    hit = found["beliefs"][0]
    assert hit["id"] == "release"
    assert hit["trail"] == "notes.md › Upgrade › Lifecycle 2.1.0"
    assert "doc" in hit["lanes"]
