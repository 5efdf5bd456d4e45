"""``unlink``: dropping a belief's anchor to a document (probe75: a note linked to a file
that was then deleted kept ``credo doctor`` at exit 1, and only forgetting the note cleared
it). The API on both backends, the CLI and doctor's hint; the MCP tool is in test_mcp.

Why these tests: an unlink deletes rows, so each one pins what it must not take (the
belief, its other anchors, another belief's anchor to the same file, a file that merely
shares the name's prefix), that a refused unlink changes nothing, and that link then unlink
is an exact round trip (hypothesis), logged the way ``link`` logs its add."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import AnchorNotFoundError, InvalidInputError, NotFoundError
from credo.surfaces.cli.commands import cli
from credo.types import DocAnchor

BOTH_BACKENDS = True


def _log(memory: Memory, op: str) -> list[tuple[str | None, object]]:
    return [(e.belief_id, e.payload) for e in memory.store.log_entries() if e.op == op]


def _everything(memory: Memory) -> tuple[object, ...]:
    """Every belief, edge and anchor, to compare a store before and after."""
    store = memory.store
    return (
        sorted((b.id, b.content, b.deleted_at) for b in store.iter_beliefs()),
        sorted({e for b in store.iter_beliefs() for e in memory.edges(b.id)}),
        sorted(store.iter_anchors()),
    )


@pytest.fixture
def linked(memory: Memory) -> tuple[Memory, str, str]:
    """Two beliefs: ``a`` anchored to docs/a.md three ways, docs/a.md.bak and docs/b.md;
    ``b`` to docs/a.md#L1-L9 too, and an edge between them. No file exists."""
    a = memory.remember("Services set the log level through LOG_LEVEL")
    b = memory.remember("The log level defaults to INFO")
    for uri in ("docs/a.md#L1-L9", "docs/a.md", "docs/a.md#L20-L30", "docs/a.md.bak", "docs/b.md"):
        memory.link(a, uri)
    memory.link(b, "docs/a.md#L1-L9")
    memory.relate(b, a, "SUPPORTS")
    return memory, a, b


def test_a_line_range_drops_that_one_anchor(linked: tuple[Memory, str, str]) -> None:
    memory, a, b = linked
    dropped = memory.unlink(a, "docs/a.md#L1-L9")
    assert [(d.belief_id, d.doc_uri, d.position_hint) for d in dropped] == [
        (a, "docs/a.md#L1-L9", "L1-L9")
    ]
    assert [x.doc_uri for x in memory.anchors(a)] == [
        "docs/a.md",
        "docs/a.md#L20-L30",
        "docs/a.md.bak",
        "docs/b.md",
    ]
    assert [x.doc_uri for x in memory.anchors(b)] == ["docs/a.md#L1-L9"]  # b's stays
    # The same range given as ``lines``, or by another spelling of the path.
    assert [d.doc_uri for d in memory.unlink(a, "./docs/a.md", lines="20-30")] == [
        "docs/a.md#L20-L30"
    ]


def test_no_line_range_drops_every_anchor_to_that_file_only(
    linked: tuple[Memory, str, str],
) -> None:
    memory, a, b = linked
    dropped = memory.unlink(a, "docs/a.md")
    assert [d.doc_uri for d in dropped] == ["docs/a.md#L1-L9", "docs/a.md", "docs/a.md#L20-L30"]
    assert [x.doc_uri for x in memory.anchors(a)] == ["docs/a.md.bak", "docs/b.md"]
    assert [x.doc_uri for x in memory.anchors(b)] == ["docs/a.md#L1-L9"]
    assert memory.get(a).deleted_at is None and len(memory.edges(a)) == 1
    logged = _log(memory, "unlink")
    assert [(bid, p["doc_uri"], p["anchor_type"]) for bid, p in logged] == [  # type: ignore[index]
        (a, d.doc_uri, "manual") for d in dropped
    ]


def test_a_refused_unlink_changes_nothing(linked: tuple[Memory, str, str]) -> None:
    memory, a, _ = linked
    before, log_rows = _everything(memory), len(list(memory.store.log_entries()))
    with pytest.raises(AnchorNotFoundError, match=r"no anchor to 'docs/a.md#L2-L3'.*docs/b.md"):
        memory.unlink(a, "docs/a.md#L2-L3")
    with pytest.raises(AnchorNotFoundError, match=r"no anchor to 'docs/c\.md'"):
        memory.unlink(a, "docs/c.md")
    with pytest.raises(AnchorNotFoundError, match="no anchor to 'docs'"):
        memory.unlink(a, "docs")  # (a folder is not a file's anchors)
    with pytest.raises(NotFoundError, match="no belief with id 'nope'") as unknown:
        memory.unlink("nope", "docs/a.md")
    assert not isinstance(unknown.value, AnchorNotFoundError)
    with pytest.raises(InvalidInputError, match="9-x"):
        memory.unlink(a, "docs/a.md", lines="9-x")
    with pytest.raises(InvalidInputError, match="empty"):
        memory.unlink(a, "  ")
    assert _everything(memory) == before
    assert len(list(memory.store.log_entries())) == log_rows


def test_unlinking_twice_refuses_the_second_and_changes_nothing(memory: Memory) -> None:
    note = memory.remember("Deploys go through staging first")
    memory.link(note, "https://example.org/deploy")
    assert [d.doc_uri for d in memory.unlink(note, "https://example.org/deploy")] == [
        "https://example.org/deploy"
    ]
    with pytest.raises(AnchorNotFoundError, match="has no anchors"):
        memory.unlink(note, "https://example.org/deploy")
    assert memory.anchors(note) == [] and len(_log(memory, "unlink")) == 1


def test_a_forgotten_beliefs_anchor_can_be_dropped(memory: Memory) -> None:
    note = memory.remember("Old wiki page about backups")
    memory.link(note, "docs/backups.md")
    memory.forget(note)
    assert [d.doc_uri for d in memory.unlink(note[:8], "docs/backups.md")] == ["docs/backups.md"]
    assert memory.anchors(note) == []


# -- link then unlink is a round trip (hypothesis) --------------------------------------------
@pytest.fixture(scope="module")
def root() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="credo-unlink-") as folder:
        yield Path(folder).resolve()


FILES = ("docs/a.md", "docs/a.md.bak", "src/app.py", "README.md")
RANGES = st.one_of(st.none(), st.tuples(st.integers(1, 40), st.integers(0, 20)))


def _uri(path: str, span: tuple[int, int] | None) -> str:
    return path if span is None else f"{path}#L{span[0]}-L{span[0] + span[1]}"


@pytest.mark.sqlite_only
@settings(max_examples=60, deadline=None)
@given(
    kept=st.lists(st.tuples(st.sampled_from(FILES), RANGES), max_size=5),
    added=st.lists(st.tuples(st.sampled_from(FILES), RANGES), min_size=1, max_size=6),
    whole=st.booleans(),
)
def test_link_then_unlink_returns_the_anchors_to_before(
    root: Path,
    kept: list[tuple[str, tuple[int, int] | None]],
    added: list[tuple[str, tuple[int, int] | None]],
    whole: bool,
) -> None:
    with Memory(":memory:", root=root) as memory:
        note = memory.remember("The deploy script runs migrations first")
        other = memory.remember("Migrations are reversible")
        for path, span in kept:
            memory.link(note, _uri(path, span))
        memory.link(other, "docs/a.md")
        before = memory.anchors(note)
        held = {a.doc_uri.partition("#")[0] for a in before}
        fresh = [(p, s) for p, s in added if p not in held] or [("new/x.md", None)]
        for path, span in fresh:
            memory.link(note, _uri(path, span))
        new = [a for a in memory.anchors(note) if a not in before]
        if whole:  # one unlink per file, or one per anchor
            dropped: list[DocAnchor] = []
            for path in dict.fromkeys(p for p, _ in fresh):
                dropped += memory.unlink(note, path)
        else:
            # (ranged ones first: a whole file's anchor takes its ranged ones with it)
            ranged_first = sorted(new, key=lambda a: "#" not in a.doc_uri)
            dropped = [d for a in ranged_first for d in memory.unlink(note, a.doc_uri)]
        assert memory.anchors(note) == before  # the same rows, created_at too
        assert sorted(dropped) == sorted(new)
        assert [a.doc_uri for a in memory.anchors(other)] == ["docs/a.md"]
        links = [p["doc_uri"] for b, p in _log(memory, "link") if b == note]  # type: ignore[index]
        unlinks = [p["doc_uri"] for b, p in _log(memory, "unlink")]  # type: ignore[index]
        assert sorted(unlinks) == sorted(links[len(before) :])


# -- the CLI and doctor ----------------------------------------------------------------------
def _cli(project: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(project / "m.db"), *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """probe75's store: a note linked to docs/configuration.md, then the file deleted."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "docs").mkdir()
    doc = project / "docs" / "configuration.md"
    doc.write_text("".join(f"line {n}\n" for n in range(1, 12)), encoding="utf-8")
    monkeypatch.chdir(project)
    code, out, _ = _cli(
        project,
        "remember",
        "Our services set the log level through the LOG_LEVEL environment variable",
        "--doc",
        "docs/configuration.md#L1-L10",
        "--json",
    )
    assert code == 0
    doc.unlink()
    return project, json.loads(out)["id"]


@pytest.mark.sqlite_only
def test_doctor_names_unlink_and_unlink_makes_it_healthy(gone: tuple[Path, str]) -> None:
    project, note = gone
    code, out, _ = _cli(project, "doctor")
    uri = "docs/configuration.md#L1-L10"
    assert code == 1
    assert (
        f"  missing  {note}  {uri}  (gone: credo unlink {note} {uri}, or credo forget {note})"
        in out
    )
    code, out, _ = _cli(project, "unlink", note[:8], uri)
    assert (code, out) == (0, f"{note} -x- {uri}\n")
    code, out, _ = _cli(project, "doctor")
    assert code == 0 and "missing files: 0" in out
    code, out, _ = _cli(project, "show", note, "--json")
    assert code == 0 and json.loads(out)["belief"]["deleted_at"] is None


@pytest.mark.sqlite_only
def test_unlink_from_a_subfolder_and_as_json(
    gone: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project, note = gone
    monkeypatch.chdir(project / "docs")  # the doctor's path is the root's: it works from here
    code, out, _ = _cli(project, "unlink", note, "docs/configuration.md", "--json")
    assert code == 0
    assert [a["doc_uri"] for a in json.loads(out)["unlinked"]] == ["docs/configuration.md#L1-L10"]


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nope", "docs/configuration.md"), "Error: no belief with id 'nope'\n"),
        (("{note}", "docs/other.md"), "has no anchor to 'docs/other.md'; its anchors: docs/conf"),
        (("{note}", "docs/configuration.md", "--lines", "3-1"), "must satisfy 1 <= start <= end"),
        (("{note}", "docs/configuration.md#L10-L5"), "must satisfy 1 <= start <= end"),
        (("{note}", ""), "document URI is empty"),
    ],
)
def test_bad_unlinks_are_one_line_errors(
    gone: tuple[Path, str], args: tuple[str, ...], message: str
) -> None:
    project, note = gone
    code, out, err = _cli(project, "unlink", *(a.format(note=note) for a in args))
    assert code == 1 and out == "" and message in err and err.count("\n") == 1
    code, out, _ = _cli(project, "anchors", note)
    assert out.startswith(f"{note}  docs/configuration.md#L1-L10")  # nothing dropped


def test_doctor_sends_an_ingested_files_anchor_to_ingest(tmp_path: Path) -> None:
    from credo.knowledge.doctor import AnchorProblem

    ingested = AnchorProblem("b1", "docs/a.md#L1-L3", "ingest", "missing_file", (1, 3))
    assert ingested.remedy() == "gone: re-ingest its folder, or credo unlink b1 docs/a.md#L1-L3"
    manual = ingested.__class__("b1", "docs/a.md", "manual", "missing_file", None)
    assert manual.remedy() == "gone: credo unlink b1 docs/a.md, or credo forget b1"


def test_a_search_after_an_unlink_shows_the_anchors_left(linked: tuple[Memory, str, str]) -> None:
    memory, a, _ = linked
    query = "how is the log level set"
    first = memory.retrieve(query, with_doc_anchors=True)  # (a warm read caches the anchors)
    shown = dict(zip([b.id for b in first.beliefs], first.doc_anchors, strict=True))
    assert "docs/b.md" in [x.doc_uri for x in shown[a]]
    memory.unlink(a, "docs/b.md")
    again = memory.retrieve(query, with_doc_anchors=True)
    shown = dict(zip([b.id for b in again.beliefs], again.doc_anchors, strict=True))
    assert [x.doc_uri for x in shown[a]] == [x.doc_uri for x in memory.anchors(a)]
    assert "docs/b.md" not in [x.doc_uri for x in shown[a]]


def test_doctors_hint_quotes_a_path_the_shell_would_split() -> None:
    from credo.knowledge.doctor import AnchorProblem

    spaced = AnchorProblem("b1", "docs/my notes.md#L2-L4", "manual", "missing_file", (2, 4))
    assert spaced.remedy() == "gone: credo unlink b1 'docs/my notes.md#L2-L4', or credo forget b1"


def test_doctors_hint_quotes_a_path_that_starts_as_a_shell_comment() -> None:
    """Before (review75): "#" is safe inside a word but starts a comment at a word's start,
    so ``credo unlink b1 #draft#.md`` ran ``credo unlink b1`` (an emacs lock file's name)."""
    import shlex

    from credo.knowledge.doctor import AnchorProblem

    hashed = AnchorProblem("b1", "#draft#.md", "manual", "missing_file", None)
    command = hashed.remedy().removeprefix("gone: ").split(", or ")[0]
    assert shlex.split(command, comments=True) == ["credo", "unlink", "b1", "#draft#.md"]
