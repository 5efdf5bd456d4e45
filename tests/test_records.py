"""Records import/export: one transaction, line-numbered errors, byte-identical round trips."""

from __future__ import annotations

import gc
import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import RecordsError
from credo.knowledge import identity, importer, records
from credo.types import EdgeType

GOOD = [
    {"kind": "belief", "id": "n1", "content": "Releases are cut on Thursdays", "session": "s1"},
    {
        "kind": "belief",
        "id": "n2",
        "content": "Release notes live in CHANGELOG.md",
        "doc": "CHANGELOG.md#L1-L40",
        "locked": True,
    },
    {"kind": "belief", "content": "Hotfixes skip the release train"},
    {"kind": "edge", "src": "n2", "dst": "n1", "type": "SUPPORTS"},
    {"kind": "anchor", "belief_id": "n1", "doc_uri": "docs/release.md", "anchor_type": "manual"},
]


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_import_keeps_ids_and_links(memory: Memory, tmp_path: Path) -> None:
    report = memory.import_records(_write(tmp_path / "r.jsonl", GOOD))
    assert (report.beliefs_added, report.edges_added, report.anchors_added) == (3, 1, 2)
    assert memory.get("n2").locked
    assert [a.doc_uri for a in memory.anchors("n2")] == ["CHANGELOG.md#L1-L40"]
    assert [e.type for e in memory.edges("n1")] == [EdgeType.SUPPORTS]
    assert memory.get("n1").session == "s1"


def test_reimport_is_idempotent(memory: Memory, tmp_path: Path) -> None:
    path = _write(tmp_path / "r.jsonl", GOOD)
    memory.import_records(path)
    before = memory.stats()
    report = memory.import_records(path)
    assert report.beliefs_added == 0 and report.edges_added == 0 and report.anchors_added == 0
    after = memory.stats()
    assert (after.beliefs, after.edges, after.anchors) == (
        before.beliefs,
        before.edges,
        before.anchors,
    )


BAD_LINES = [
    ("{not json", "invalid JSON"),
    ('["a list"]', "JSON object"),
    ('{"kind": "belief"}', "missing required field 'content'"),
    ('{"kind": "belief", "content": "   "}', "empty"),
    ('{"kind": "belief", "content": 7}', "must be a string"),
    ('{"kind": "belief", "content": "x", "locked": "yes"}', "true or false"),
    ('{"kind": "belief", "content": "x", "colour": "red"}', "unknown field 'colour'"),
    ('{"kind": "thing"}', "unknown record kind"),
    ('{"kind": "edge", "src": "n1", "dst": "n2", "type": "LIKES"}', "unknown edge type"),
    ('{"kind": "edge", "src": "n1", "dst": "ghost", "type": "CITES"}', "'ghost' is not a known"),
    ('{"kind": "edge", "src": "n1", "dst": "n1", "type": "CITES"}', "self-edge"),
    ('{"kind": "edge", "src": "n2", "dst": "n1", "type": "SUPPORTS"}', "duplicate edge"),
    ('{"kind": "edge", "src": "n1", "dst": "n2", "type": "CITES", "weight": 9}', "within [-1, 1]"),
    ('{"kind": "anchor", "belief_id": "n1", "doc_uri": " "}', "empty"),
    ('{"kind": "anchor", "belief_id": "ghost", "doc_uri": "a.md"}', "'ghost' is not a known"),
    ('{"kind": "belief", "id": "n1", "content": "other text"}', "already used on line 1"),
    ("[" * 100_000, "nested too deeply"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_LINES, ids=[m for _, m in BAD_LINES])
def test_malformed_line_aborts_whole_import(
    memory: Memory, tmp_path: Path, bad: str, message: str
) -> None:
    memory.remember("already here")
    before = list(memory.store.iter_beliefs())
    lines = [json.dumps(r) for r in GOOD] + [bad]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordsError) as info:
        memory.import_records(path)
    text = str(info.value)
    assert ":6:" in text and message in text and "\n" not in text
    assert list(memory.store.iter_beliefs()) == before
    assert memory.stats().edges == 0


def test_invalid_utf8_names_the_line(memory: Memory, tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"kind":"belief","content":"ok"}\n{"kind":"belief","content":"caf\xe9"}\n')
    with pytest.raises(RecordsError, match=r":2: invalid UTF-8"):
        memory.import_records(path)
    assert memory.stats().beliefs == 0


def test_missing_file_is_a_clear_error(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="cannot read records file"):
        memory.import_records(tmp_path / "nope.jsonl")


def test_edge_to_a_stored_belief_is_accepted(memory: Memory) -> None:
    stored = memory.remember("stored earlier", id="old")
    memory.import_records(
        [
            {"kind": "belief", "id": "new", "content": "imported later"},
            {"kind": "edge", "src": "new", "dst": stored, "type": "CITES"},
        ]
    )
    assert [e.dst for e in memory.edges("new")] == ["old"]


# -- round trip --------------------------------------------------------------------------

_texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=30,
).filter(lambda t: t.strip())


@st.composite
def stores(draw: st.DrawFn) -> list[dict[str, object]]:
    texts = draw(
        st.lists(_texts, min_size=1, max_size=12, unique_by=lambda t: t.strip().casefold())
    )
    rows: list[dict[str, object]] = []
    ids = [f"id-{i}" for i in range(len(texts))]
    for belief_id, text in zip(ids, texts, strict=True):
        row: dict[str, object] = {
            "kind": "belief",
            "id": belief_id,
            "content": text,
            "locked": draw(st.booleans()),
            "session": draw(st.none() | st.sampled_from(["s1", "s2"])),
            "created_at": draw(st.floats(0, 2e9, allow_nan=False)),
        }
        if draw(st.booleans()):
            row["doc"] = draw(st.sampled_from(["docs/a.md", "docs/b.md#L2-L9", "https://x.org/p"]))
        rows.append(row)
    if len(ids) > 1:
        pairs = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(ids), st.sampled_from(ids), st.sampled_from(list(EdgeType))
                ),
                max_size=20,
            )
        )
        seen = set()
        for src, dst, edge_type in pairs:
            if edge_type is EdgeType.SUPERSEDES and ids.index(src) < ids.index(dst):
                src, dst = dst, src  # newer over older: the import refuses a cycle
            if src != dst and (src, dst, edge_type) not in seen:
                seen.add((src, dst, edge_type))
                rows.append(
                    {
                        "kind": "edge",
                        "src": src,
                        "dst": dst,
                        "type": edge_type.value,
                        "weight": draw(st.floats(-1, 1, allow_nan=False)),
                    }
                )
    return rows


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores())
def test_export_import_export_is_byte_identical(
    tmp_path_factory: pytest.TempPathFactory, rows: list[dict[str, object]]
) -> None:
    folder = tmp_path_factory.mktemp("rt")
    with Memory(folder / "a.db", root=folder) as first:
        first.import_records(rows)
        b = first.remember("written through the API", doc="docs/api.md#L3-L4")
        first.feedback(b, "used")
        first.export_records(folder / "one.jsonl")
    with Memory(folder / "b.db", root=folder) as second:
        second.import_records(folder / "one.jsonl")
        second.export_records(folder / "two.jsonl")
    assert (folder / "one.jsonl").read_bytes() == (folder / "two.jsonl").read_bytes()


# -- bulk import: index, log and the fast paths ------------------------------------------


def _hits(memory: Memory, word: str) -> list[str]:
    return [h.belief_id for h in memory.store.keyword_search([word], limit=5000)]


def test_bulk_import_indexes_content_and_anchor_text(memory: Memory) -> None:
    old = memory.remember("an older belief about kettles", id="old")
    report = memory.import_records(
        [
            {"kind": "belief", "id": "a", "content": "Zebras graze at dawn"},
            {"kind": "belief", "id": "b", "content": "Gone already"},
            {"kind": "belief", "content": "Lions hunt at dusk"},
            {"kind": "edge", "src": "a", "dst": old, "type": "CITES", "anchor_text": "teapot"},
            {"kind": "edge", "src": "old", "dst": "a", "type": "CITES", "anchor_text": "stripes"},
            {"kind": "edge", "src": "b", "dst": "a", "type": "SUPPORTS"},
        ]
    )
    assert (report.beliefs_added, report.edges_added) == (3, 3)
    assert _hits(memory, "zebra") == ["a"]
    assert _hits(memory, "stripes") == ["a"]  # anchor text of an imported edge, new target
    assert _hits(memory, "teapot") == ["old"]  # ... and of a stored target
    assert _hits(memory, "lion") and _hits(memory, "gone") == ["b"]
    assert memory.store.integrity_check() == []
    # The flag that suspends the triggers never outlives the import.
    assert memory.store.conn.execute("SELECT count(*) FROM _bulk_load").fetchone() == (0,)
    memory.remember("Zebras also graze at noon")
    assert len(_hits(memory, "zebra")) == 2  # the per-row trigger is back in force


def test_deleted_beliefs_are_imported_unindexed(memory: Memory) -> None:
    memory.import_records(
        [
            {"kind": "belief", "id": "a", "content": "Gone already", "deleted_at": 5.0},
            {"kind": "belief", "id": "b", "content": "Still here"},
        ]
    )
    assert memory.get("a").deleted_at == 5.0
    assert _hits(memory, "gone") == [] and _hits(memory, "still") == ["b"]


def test_bulk_import_of_many_records_stays_consistent(memory: Memory, tmp_path: Path) -> None:
    rows: list[object] = [
        {"kind": "belief", "id": f"n{i}", "content": f"note {i} about topic{i % 7}"}
        for i in range(3000)
    ]
    rows += [
        {"kind": "edge", "src": f"n{i}", "dst": f"n{(i * 7 + 1) % 3000}", "type": "CITES"}
        for i in range(3000)
    ]
    rows.append(
        {"kind": "edge", "src": "n1", "dst": "n2", "type": "RELATES_TO", "anchor_text": "glue"}
    )
    path = _write(tmp_path / "many.jsonl", rows)
    report = memory.import_records(path)
    assert (report.beliefs_added, report.edges_added) == (3000, 3001)
    assert memory.store.integrity_check() == []
    assert len(_hits(memory, "topic3")) == len([i for i in range(3000) if i % 7 == 3])
    assert _hits(memory, "glue") == ["n2"]
    again = memory.import_records(path)
    assert (again.beliefs_added, again.edges_added) == (0, 0)
    assert (again.beliefs_unchanged, again.edges_unchanged) == (3000, 3001)


def test_import_log_rows(memory: Memory) -> None:
    memory.import_records(
        [
            {"kind": "belief", "id": "a", "content": "first", "session": "s1"},
            {"kind": "belief", "id": "b", "content": "second"},
            {"kind": "edge", "src": "a", "dst": "b", "type": "CITES"},
            {"kind": "edge", "src": "b", "dst": "a", "type": "SUPERSEDES"},
            {"kind": "edge", "src": "b", "dst": "a", "type": "CITES", "anchor_text": "see"},
        ]
    )
    entries = list(memory.store.log_entries())
    imports = [(e.belief_id, e.source_path, e.payload) for e in entries if e.op == "import"]
    assert imports == [
        ("a", "<records>", {"content": "first", "session": "s1"}),
        ("b", "<records>", {"content": "second", "session": None}),
    ]
    relates = sorted((e.belief_id, e.payload["type"]) for e in entries if e.op == "relate")
    assert relates == [("b", "CITES"), ("b", "SUPERSEDES")]
    (batch,) = [e for e in entries if e.op == "relate_batch"]
    assert batch.belief_id is None and batch.payload == {"edges": [["a", "b", "CITES", 0.5]]}


@pytest.mark.parametrize(
    ("belief_id", "accepted"),
    [
        ("n1", True),
        ("a b", False),
        ("a[b", False),
        ("a\u200db", True),
        (" a", False),
        ("a\tb", False),
    ],
)
def test_fast_id_check_agrees_with_identity(memory: Memory, belief_id: str, accepted: bool) -> None:
    rows = [{"kind": "belief", "id": belief_id, "content": "text"}]
    if accepted:
        memory.import_records(rows)
        assert memory.get(belief_id).content == "text"
    else:
        with pytest.raises(RecordsError, match=":1: belief id"):
            memory.import_records(rows)


def _regex_normalise(text: str) -> str:
    """The reference form of ``identity.normalise``: whitespace runs collapsed by regex."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


def test_fast_normalise_agrees_with_the_regex_form() -> None:
    spaces = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
    samples = [f"a{spaces}b{spaces}", "x\u3000y", "\u00c5ngstr\u00f6m  ZWEI\u00df", "ﬁ ligature"]
    samples += [f"w{chr(c)}z" for c in range(0x3000)]
    for text in samples:
        assert identity.normalise(text) == _regex_normalise(text), repr(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_fast_normalise_agrees_on_any_text(text: str) -> None:
    assert identity.normalise(text) == _regex_normalise(text)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))), st.none() | st.text())
def test_belief_payload_is_the_sorted_json(content: str, session: str | None) -> None:
    expected = json.dumps({"content": content, "session": session}, sort_keys=True)
    assert importer._belief_payload(content, session) == expected


def test_chunked_parse_keeps_line_numbers(
    memory: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "CHUNK_BYTES", 64)  # a few lines per chunk
    lines = ['\ufeff{"kind":"belief","id":"n0","content":"zero"}', "", "   "]
    lines += [
        json.dumps({"kind": "belief", "id": f"n{i}", "content": f"c{i}"}) for i in range(1, 9)
    ]
    lines.append('{"kind":"anchor","belief_id":"n1","doc_uri":"docs/a.md"}')
    lines.append('{"kind":"edge","src":"n1","dst":"n2","type":"cites","weight":1}')
    path = tmp_path / "chunks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = memory.import_records(path)
    assert (report.beliefs_added, report.edges_added, report.anchors_added) == (9, 1, 1)
    assert memory.edges("n1")[0].weight == 1.0
    bad = [*lines[:9], '{"kind":"belief","id":"n1","content":"c1","locked":1}', *lines[9:]]
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(RecordsError, match=r"chunks\.jsonl:10: field 'locked'"):
        memory.import_records(path)


@pytest.mark.parametrize(
    "lines",
    [
        # Each line alone is invalid JSON, yet joined into one document they would parse
        # (an object split over two lines, two objects on one line). The per-line reading
        # must win.
        ['{"kind":"belief","id":"a","x":[[1', "2]]}", '{"kind":"belief","content":"b"}],[{}'],
        ['{"kind":"belief","id":"a",', '"content":"b"}'],
        ['{"kind":"belief","id":"a","content":"b"}],[{"kind":"belief","content":"c"}', "]"],
    ],
)
def test_lines_never_merge(memory: Memory, tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "tricky.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordsError, match=r"tricky\.jsonl:1: invalid JSON"):
        memory.import_records(path)
    assert memory.stats().beliefs == 0


def test_import_restores_garbage_collection(memory: Memory) -> None:
    assert gc.isenabled()
    with pytest.raises(RecordsError):
        memory.import_records(['{"kind": "thing"}'])
    assert gc.isenabled()
    gc.disable()
    try:
        memory.import_records([{"kind": "belief", "content": "kept off"}])
        assert not gc.isenabled()
    finally:
        gc.enable()
