"""Export and import carry ingest's own state (which file states which edge, the links that
wait, the ledger of files read), so a re-ingest after export -> import -> edit leaves the
edges the original store gets (issue #14; knowledge/ingest_records.py), on both backends."""

from __future__ import annotations

import gc
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.edge_types import EdgeType
from credo.errors import RecordsError
from tests.conftest import CliRun, postgres_store
from tests.test_ingest_edges import NAMES, edges, pages, pending, rows, step, write

BOTH_BACKENDS = True

DETAILS = "## Details\n\nMore detail on backoff.\n"
ALPHA = f"# Alpha\n\nAlpha talks about retries. See [beta](beta.md).\n\n{DETAILS}"
ALPHA_UNLINKED = f"# Alpha\n\nAlpha talks about retries.\n\n{DETAILS}"
BETA = "# Beta\n\nBeta covers timeouts and pools.\n"


def tree(root: Path, alpha: str = ALPHA) -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "alpha.md").write_text(alpha, encoding="utf-8")
    (root / "docs" / "beta.md").write_text(BETA, encoding="utf-8")
    return root


def sqlite_edges(db: Path) -> set[tuple[str, str, str]]:
    with Memory(db, root=db.parent) as memory:
        return edges(memory)


def test_the_issue_14_repro_through_the_cli(run: CliRun, tmp_path: Path) -> None:
    """The brief's repro, step by step, through the real entry point."""
    tree(tmp_path)
    a, b = CliRun(tmp_path / "a.db", tmp_path), CliRun(tmp_path / "b.db", tmp_path)
    a("ingest", "docs", check=True)
    a("export", "a.jsonl", check=True)
    shutil.copy(tmp_path / "a.db", tmp_path / "c.db")
    b("import", "a.jsonl", check=True)
    b("ingest", "docs", check=True)
    tree(tmp_path, ALPHA_UNLINKED)
    b("ingest", "docs", check=True)
    CliRun(tmp_path / "c.db", tmp_path)("ingest", "docs", check=True)
    original = sqlite_edges(tmp_path / "c.db")
    assert not any(t == "CITES" for _, _, t in original)
    assert sqlite_edges(tmp_path / "b.db") == original


@pytest.fixture
def second_location(backend: str, tmp_path: Path) -> Iterator[str | Path]:
    """A second, empty store of the same backend."""
    if backend == "sqlite":
        yield tmp_path / "second.db"
        return
    with postgres_store() as url:
        yield url


def state(memory: Memory) -> tuple[object, ...]:
    return edges(memory), rows(memory), pending(memory), ledger(memory)


def ledger(memory: Memory) -> set[tuple[str, str | None]]:
    return {(f.path, f.first_belief) for f in memory.store.ingested_files()}


def test_a_round_trip_then_edit_gives_the_original_stores_edges(
    memory: Memory, second_location: str | Path, tmp_path: Path
) -> None:
    tree(tmp_path)
    memory.ingest(tmp_path / "docs")
    memory.export_records(tmp_path / "a.jsonl")
    with Memory(second_location, root=tmp_path) as copy:
        copy.import_records(tmp_path / "a.jsonl")
        assert state(copy) == state(memory)
        copy.ingest(tmp_path / "docs")
        assert state(copy) == state(memory)
        tree(tmp_path, ALPHA_UNLINKED)
        copy.ingest(tmp_path / "docs")
        memory.ingest(tmp_path / "docs")
        assert not any(t == "CITES" for _, _, t in edges(memory))
        assert state(copy) == state(memory)


def test_a_waiting_link_travels_and_becomes_a_cites_edge_in_the_copy(
    memory: Memory, second_location: str | Path, tmp_path: Path
) -> None:
    tree(tmp_path)
    (tmp_path / "docs" / "beta.md").write_text("", encoding="utf-8")  # no cite target yet
    memory.ingest(tmp_path / "docs")
    assert len(pending(memory)) == 1 and not any(t == "CITES" for _, _, t in edges(memory))
    memory.export_records(tmp_path / "a.jsonl")
    assert '"kind":"pending_cite"' in (tmp_path / "a.jsonl").read_text(encoding="utf-8")
    with Memory(second_location, root=tmp_path) as copy:
        copy.import_records(tmp_path / "a.jsonl")
        assert state(copy) == state(memory)
        tree(tmp_path)
        copy.ingest(tmp_path / "docs")
        memory.ingest(tmp_path / "docs")
        assert any(t == "CITES" for _, _, t in edges(memory)) and pending(memory) == set()
        assert state(copy) == state(memory)


def test_a_file_deleted_after_the_import_is_retired_as_in_the_original(
    memory: Memory, second_location: str | Path, tmp_path: Path
) -> None:
    tree(tmp_path)
    memory.ingest(tmp_path / "docs")
    memory.export_records(tmp_path / "a.jsonl")
    with Memory(second_location, root=tmp_path) as copy:
        copy.import_records(tmp_path / "a.jsonl")
        (tmp_path / "docs" / "beta.md").unlink()
        copy.ingest(tmp_path / "docs")
        memory.ingest(tmp_path / "docs")
        assert state(copy) == state(memory)
        live = {b.id for b in copy.store.iter_beliefs() if b.deleted_at is None}
        assert live == {b.id for b in memory.store.iter_beliefs() if b.deleted_at is None}


def test_an_export_without_the_new_kinds_imports_as_before(memory: Memory, tmp_path: Path) -> None:
    """An older export: the imported edges are another writer's, as they always were."""
    tree(tmp_path)
    with Memory(tmp_path / "old.db", root=tmp_path) as old:
        old.ingest(tmp_path / "docs")
        old.export_records(tmp_path / "new.jsonl")
    kinds = {"belief", "edge", "anchor"}
    lines = (tmp_path / "new.jsonl").read_text(encoding="utf-8").splitlines()
    older = [line for line in lines if json.loads(line)["kind"] in kinds]
    assert len(older) < len(lines)
    (tmp_path / "old.jsonl").write_text("\n".join(older) + "\n", encoding="utf-8")
    report = memory.import_records(tmp_path / "old.jsonl")
    assert report.edges_added == 2 and report.ingest_rows_added == 0
    assert rows(memory) == set() and ledger(memory) == set()
    tree(tmp_path, ALPHA_UNLINKED)
    memory.ingest(tmp_path / "docs")
    assert any(t == "CITES" for _, _, t in edges(memory))  # not ingest's: kept


def test_importing_twice_adds_nothing(memory: Memory, tmp_path: Path) -> None:
    tree(tmp_path)
    with Memory(tmp_path / "src.db", root=tmp_path) as source:
        source.ingest(tmp_path / "docs")
        source.export_records(tmp_path / "a.jsonl")
    first = memory.import_records(tmp_path / "a.jsonl")
    assert first.ingest_rows_added == 2 + 2  # two edge sources, two ledger rows
    before = state(memory)
    again = memory.import_records(tmp_path / "a.jsonl")
    assert (again.beliefs_added, again.edges_added, again.ingest_rows_added) == (0, 0, 0)
    assert state(memory) == before


def test_an_import_merges_with_the_stores_own_ingest_state(memory: Memory, tmp_path: Path) -> None:
    """Both sides' rows stay; a ledger row the store holds is never rewritten."""
    other = tmp_path / "other"
    tree(other)
    (other / "docs" / "gamma.md").write_text("# Gamma\n\nSee [beta](beta.md).\n", "utf-8")
    with Memory(tmp_path / "src.db", root=other) as source:
        source.ingest(other / "docs")
        source.export_records(tmp_path / "a.jsonl")
        theirs = rows(source), pending(source)
    tree(tmp_path)
    memory.ingest(tmp_path / "docs")
    mine = rows(memory), pending(memory), memory.store.ingested_files()
    memory.import_records(tmp_path / "a.jsonl")
    assert rows(memory) == mine[0] | theirs[0]
    assert pending(memory) == mine[1] | theirs[1]
    held = {f.path: f for f in memory.store.ingested_files()}
    assert all(held[f.path] == f for f in mine[2])  # (same hash: not read again)
    assert "docs/gamma.md" in held and held["docs/gamma.md"].content_hash == ""


def test_an_edge_another_writer_holds_is_not_made_ingests(memory: Memory, tmp_path: Path) -> None:
    tree(tmp_path)
    with Memory(tmp_path / "src.db", root=tmp_path) as source:
        source.ingest(tmp_path / "docs")
        source.export_records(tmp_path / "a.jsonl")
        cites = next(e for e in source.store.iter_edges() if e.type is EdgeType.CITES)
        beliefs = [b for b in source.store.iter_beliefs()]
    lines = (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()
    memory.import_records([line for line in lines if json.loads(line)["kind"] == "belief"])
    assert {b.id for b in memory.store.iter_beliefs()} == {b.id for b in beliefs}
    memory.relate(cites.src, cites.dst, EdgeType.CITES)
    memory.import_records(tmp_path / "a.jsonl")
    assert not any(r[3] == "CITES" for r in rows(memory))
    tree(tmp_path, ALPHA_UNLINKED)
    memory.ingest(tmp_path / "docs")
    assert (cites.src, cites.dst, "CITES") in edges(memory)  # the person's edge stays


BELIEF = '{"kind":"belief","id":"a","content":"Alpha ships first"}'
BELIEF_B = '{"kind":"belief","id":"b","content":"Beta follows"}'
EDGE = '{"kind":"edge","src":"a","dst":"b","type":"CITES"}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"kind":"edge_source","src":"a","dst":"b","type":"CITES"}',
            "missing required field 'file'",
        ),
        (
            '{"kind":"edge_source","file":"x.md","src":"a","dst":"b","type":"NOPE"}',
            "unknown edge type",
        ),
        (
            '{"kind":"edge_source","file":"x.md","src":"a","dst":"b","type":"CITES","extra":1}',
            "unknown field 'extra'",
        ),
        (
            '{"kind":"edge_source","file":"x.md","src":"b","dst":"a","type":"CITES"}',
            "not an edge in the file or the store",
        ),
        (
            '{"kind":"edge_source","file":"x.md","src":"a","dst":"b","type":"CITES","cited_file":7}',
            "field 'cited_file' must be a string",
        ),
        (
            '{"kind":"edge_source","file":"","src":"a","dst":"b","type":"CITES"}',
            "document URI is empty",
        ),
        (
            '{"kind":"edge_source","file":"x.md","src":"a","dst":"b","type":"SUPPORTS",'
            '"cited_file":"y.md"}',
            "is for a CITES edge only",
        ),
        (
            '{"kind":"ingested_file","path":"x\\u0001.md"}',
            "holds control characters",
        ),
        (
            '{"kind":"pending_cite","file":"x.md","src":"zz","cited_file":"y.md"}',
            "'zz' is not a known belief id",
        ),
        ('{"kind":"pending_cite","file":"x.md","src":"a"}', "missing required field 'cited_file'"),
        (
            '{"kind":"ingested_file","path":"x.md","first_belief":"zz"}',
            "'zz' is not a known belief id",
        ),
        (
            '{"kind":"ingested_file","path":"x.md","beliefs":-1}',
            "field 'beliefs' must be an integer",
        ),
        (
            '{"kind":"ingested_file","path":"x.md","mtime":"soon"}',
            "field 'mtime' must be a finite number",
        ),
    ],
)
def test_a_malformed_ingest_record_is_a_one_line_error_and_nothing_is_written(
    memory: Memory, line: str, message: str
) -> None:
    with pytest.raises(RecordsError) as caught:
        memory.import_records([BELIEF, BELIEF_B, EDGE, line])
    text = str(caught.value)
    assert "\n" not in text and text.startswith("<records>:4: ") and message in text, text
    assert text.endswith("nothing was imported")
    assert not list(memory.store.iter_beliefs())
    assert rows(memory) == set() and pending(memory) == set() and ledger(memory) == set()


def test_a_second_record_of_one_ledger_path_is_refused(memory: Memory) -> None:
    line = '{"kind":"ingested_file","path":"docs/x.md"}'
    with pytest.raises(RecordsError, match=r"<records>:3: duplicate ingested_file 'docs/x.md' "):
        memory.import_records([BELIEF, line, line.replace("docs/", "./docs/")])
    assert ledger(memory) == set()


def test_the_import_logs_the_ingest_state_it_added(memory: Memory) -> None:
    source = '{"kind":"edge_source","file":"x.md","src":"a","dst":"b","type":"cites"}'
    report = memory.import_records([BELIEF, BELIEF_B, EDGE, source])
    assert report.ingest_rows_added == 1 and rows(memory) == {("x.md", "a", "b", "CITES", "")}
    (entry,) = [e for e in memory.store.log_entries() if e.op == "ingest_state"]
    assert entry.payload == {"ingested_files": 0, "edge_sources": 1, "pending_cites": 0}


def test_a_malformed_ingest_record_through_the_cli(run: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        "\n".join([BELIEF, BELIEF_B, EDGE, '{"kind":"pending_cite","file":"x.md"}']) + "\n",
        encoding="utf-8",
    )
    done = run("import", str(bad))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0
    assert f"{bad}:4: missing required field 'src'" in done.stderr
    assert "Traceback" not in done.stderr
    if (tmp_path / "cli.db").exists():
        assert json.loads(run("stats", "--json", check=True).stdout)["beliefs"] == 0


def test_rows_of_files_off_the_ledger_are_settled_by_the_next_ingest(
    memory: Memory, tmp_path: Path
) -> None:
    """A row whose file the ledger does not hold (the source's m012 backfill of a file that
    vanished before it) is retired by the next run, as the source's next run would."""
    records = [
        BELIEF,
        BELIEF_B,
        EDGE,
        '{"kind":"edge_source","file":"gone.md","src":"a","dst":"b","type":"CITES"}',
    ]
    (tmp_path / "docs").mkdir()
    memory.import_records(records)
    assert rows(memory) == {("gone.md", "a", "b", "CITES", "")}
    memory.ingest(tmp_path / "docs")
    assert rows(memory) == set() and edges(memory) == set()


# -- any tree, any edits -------------------------------------------------------------------
def live(memory: Memory) -> set[str]:
    return {b.id for b in memory.store.iter_beliefs() if b.deleted_at is None}


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    start=st.tuples(*[st.none() | pages for _ in NAMES]),
    steps=st.lists(step, max_size=4),
)
@pytest.mark.sqlite_only
def test_any_tree_round_trips_byte_for_byte_and_edits_after_match_the_original(
    tmp_path_factory: pytest.TempPathFactory,
    start: tuple[str | None, ...],
    steps: list[tuple[str, str | None]],
) -> None:
    root = tmp_path_factory.mktemp("tree")
    (root / "docs").mkdir()
    write(root, {f"docs/{n}": text for n, text in zip(NAMES, start, strict=True)})
    with Memory(root / "a.db", root=root) as original, Memory(root / "b.db", root=root) as copy:
        original.ingest(root / "docs")
        original.export_records(root / "a.jsonl")
        copy.import_records(root / "a.jsonl")
        copy.export_records(root / "b.jsonl")
        assert (root / "a.jsonl").read_bytes() == (root / "b.jsonl").read_bytes()
        for name, text in steps:
            write(root, {f"docs/{name}": text})
            original.ingest(root / "docs")
            copy.ingest(root / "docs")
            assert state(copy) == state(original)
            assert live(copy) == live(original)


def test_an_import_of_ingest_state_leaves_no_cyclic_garbage(tmp_path: Path) -> None:
    """The collector is off while an import runs (importer.py): a cycle through its plan
    would keep every record alive until the next full pass."""
    tree(tmp_path)
    with Memory(tmp_path / "src.db", root=tmp_path) as source:
        source.ingest(tmp_path / "docs")
        source.export_records(tmp_path / "a.jsonl")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.import_records([BELIEF])  # (the store's own first-write set-up, collected)
        gc.collect()
        gc.disable()
        try:
            memory.import_records(tmp_path / "a.jsonl")
            unreachable = gc.collect()
        finally:
            gc.enable()
    assert unreachable == 0
