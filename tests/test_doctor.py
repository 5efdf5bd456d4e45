"""``credo doctor``: vanished files, shifted ranges, --fix, and backfill from ingest_log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from credo import Memory
from credo.knowledge import identity
from credo.knowledge.doctor import (
    FileText,
    backfill_anchors,
    check_anchors,
    fix_anchors,
    range_holds,
    words,
)
from credo.knowledge.ingest import ingest_paths

GUIDE = """\
# Guide

Credo keeps every belief in one SQLite file on the local disk.

## Install

- Install the package with pip before anything else.
- Run the doctor after large edits to the documentation.
"""

DEPLOY = (
    "# Deploy\n\nDeploy the service with care and watch the logs.\n\n"
    "## Rollback\n\nRoll back by deploying the previous release tag.\n"
)

# The passages ingest makes of them: a heading leads its section's first passage.
GUIDE_INTRO = "Guide\nCredo keeps every belief in one SQLite file on the local disk."
GUIDE_INSTALL = (
    "Install\n"
    "Install the package with pip before anything else.\n"
    "Run the doctor after large edits to the documentation."
)
DEPLOY_INTRO = "Deploy\nDeploy the service with care and watch the logs."
DEPLOY_ROLLBACK = "Rollback\nRoll back by deploying the previous release tag."


def bid(text: str) -> str:
    return identity.derived_id(identity.content_hash(text))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (folder / "docs" / "deploy.md").write_text(DEPLOY, encoding="utf-8")
    return folder


@pytest.fixture
def mem(tmp_path: Path, root: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memory.db", root=root) as memory:
        ingest_paths(memory.store, [root], root=root)
        yield memory


def test_a_fresh_ingest_is_healthy(mem: Memory, root: Path) -> None:
    report = check_anchors(mem.store, root)
    assert report.healthy
    assert report.checked == mem.stats().anchors
    assert report.ok == report.checked
    assert report.missing_files == [] and report.shifted == []


def test_doctor_reports_a_vanished_file(mem: Memory, root: Path) -> None:
    (root / "docs" / "deploy.md").unlink()
    report = check_anchors(mem.store, root)
    assert not report.healthy
    assert {p.doc_uri for p in report.missing_files} == {
        "docs/deploy.md#L1-L3",
        "docs/deploy.md#L5-L7",
    }
    assert all(p.problem == "missing_file" for p in report.missing_files)
    assert report.shifted == []


def test_doctor_reports_a_shifted_range_and_fix_repairs_it(mem: Memory, root: Path) -> None:
    guide = root / "docs" / "guide.md"
    guide.write_text(GUIDE.replace("## Install\n", "Two new lines\nin between.\n\n## Install\n"))
    report = check_anchors(mem.store, root)
    shifted = {p.belief_id: p for p in report.shifted}
    install = bid(GUIDE_INSTALL)
    assert shifted[install].lines == (5, 8)
    assert shifted[install].found == (8, 11)
    assert bid(GUIDE_INTRO) not in shifted  # lines 1-3 did not move

    fixed = fix_anchors(mem.store, root)

    assert {p.belief_id for p in fixed.fixed} == set(shifted)
    assert check_anchors(mem.store, root).healthy
    anchors = mem.anchors(install)
    assert [(a.doc_uri, a.position_hint) for a in anchors] == [("docs/guide.md#L8-L11", "L8-L11")]
    moves = [e for e in mem.store.log_entries(install) if e.op == "doctor"]
    assert moves and moves[-1].payload == {
        "from": "docs/guide.md#L5-L8",
        "to": "docs/guide.md#L8-L11",
    }


def test_text_found_nowhere_is_reported_not_fixed(mem: Memory, root: Path) -> None:
    guide = root / "docs" / "guide.md"
    guide.write_text(GUIDE.replace("Install the package with pip", "Use uv"), encoding="utf-8")
    report = fix_anchors(mem.store, root)
    gone = bid(GUIDE_INSTALL)
    problem = next(p for p in report.shifted if p.belief_id == gone)
    assert problem.found is None
    assert problem not in report.fixed
    assert not report.healthy


def test_urls_and_stale_beliefs_are_skipped(mem: Memory, root: Path) -> None:
    web = mem.remember("The changelog is published on the project site.")
    mem.link(web, "https://example.com/changelog")
    mem.forget(bid(DEPLOY_INTRO))
    (root / "docs" / "deploy.md").unlink()
    report = check_anchors(mem.store, root)
    assert report.skipped == 2  # the URL anchor and the stale belief's anchor
    assert {p.belief_id for p in report.missing_files} == {bid(DEPLOY_ROLLBACK)}


def test_manual_anchor_with_a_hint_only_is_checked_and_fixed(mem: Memory, root: Path) -> None:
    belief = mem.remember("Deploy the service with care and watch the logs.")
    mem.link(belief, "docs/deploy.md", position_hint="L1-L1")
    report = check_anchors(mem.store, root)
    assert [(p.doc_uri, p.found) for p in report.shifted] == [("docs/deploy.md", (3, 3))]
    fix_anchors(mem.store, root)
    manual = [a for a in mem.anchors(belief) if a.anchor_type == "manual"]
    assert [(a.doc_uri, a.position_hint) for a in manual] == [("docs/deploy.md", "L3-L3")]


def test_a_note_about_lines_is_not_a_shifted_quote(mem: Memory, root: Path) -> None:
    # The README's own example: a note anchored to the lines it talks about. Its words were
    # never in them, so "shifted" (exit 1, and no --fix to clear it) was reported at once.
    note = mem.remember("Deploys go through the release pipeline, never by hand.")
    mem.link(note, "docs/deploy.md#L1-L3")
    report = check_anchors(mem.store, root)
    assert report.healthy and report.shifted == []
    assert report.notes == 1 and report.ok == report.checked


def test_a_note_whose_range_left_its_file_is_shifted(mem: Memory, root: Path) -> None:
    note = mem.remember("Rollbacks need the on-call engineer's approval.")
    mem.link(note, "docs/deploy.md#L5-L7")
    (root / "docs" / "deploy.md").write_text(DEPLOY_INTRO.replace("Deploy\n", "# Deploy\n\n"))
    report = check_anchors(mem.store, root)
    assert [(p.belief_id, p.found) for p in report.shifted if p.anchor_type == "manual"] == [
        (note, None)
    ]
    assert report.notes == 0 and not report.healthy


def test_doctor_fix_names_where_each_anchor_went(tmp_path: Path, root: Path) -> None:
    from click.testing import CliRunner

    from credo.surfaces.cli.commands import cli

    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "ingest", str(root)]).exit_code == 0
    guide = root / "docs" / "guide.md"
    guide.write_text(GUIDE.replace("## Install\n", "Two new lines\nin between.\n\n## Install\n"))
    result = runner.invoke(cli, ["--db", db, "doctor", "--fix"])
    # A count and each anchor's new lines: not the Python repr of the fixed list.
    assert "AnchorProblem" not in result.output
    assert "fixed: 1" in result.output
    [line] = [line for line in result.output.splitlines() if line.startswith("  shifted")]
    assert line.startswith(f"  shifted  {bid(GUIDE_INSTALL)}  ")
    assert line.endswith("docs/guide.md#L5-L8  -> fixed: L8-L11")


def test_a_capture_whose_transcript_claude_deleted_is_not_a_missing_file(
    tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from credo.agent.capture import capture_prompt
    from credo.surfaces.cli.commands import cli

    db = tmp_path / "cli.db"
    transcript = tmp_path / "claude" / "3f2a9c1e-session.jsonl"
    transcript.parent.mkdir()
    transcript.write_text("{}\n", encoding="utf-8")
    with Memory(db, root=root) as memory:
        ingest_paths(memory.store, [root], root=root)
        said = "Always use httpx.AsyncClient for outgoing requests."
        assert capture_prompt(memory, said, session="s", transcript=str(transcript), turn=1)
    transcript.unlink()  # Claude Code's cleanupPeriodDays
    monkeypatch.chdir(root)
    runner = CliRunner()
    result = runner.invoke(cli, ["--db", str(db), "doctor"])
    assert result.exit_code == 0, result.output
    assert "missing files: 0" in result.output
    assert "1 captures' transcripts are gone" in result.output
    # A document the user keeps still fails when it goes.
    (root / "docs" / "deploy.md").unlink()
    result = runner.invoke(cli, ["--db", str(db), "doctor", "--json"])
    assert result.exit_code == 1
    assert '"transcripts_gone": 1' in result.output


def test_backfill_writes_anchors_from_ingest_log_sources(mem: Memory, root: Path) -> None:
    # Beliefs written before belief_documents existed: the log knows their source file.
    install = bid(GUIDE_INSTALL)
    title = bid(DEPLOY_INTRO)
    mem.store.delete_anchors((a.belief_id, a.doc_uri) for a in mem.anchors(install))
    mem.store.delete_anchors((a.belief_id, a.doc_uri) for a in mem.anchors(title))
    stated = mem.remember("A belief typed by a person has no source file.")

    report = backfill_anchors(mem.store, root)

    assert (report.considered, report.anchored, report.located, report.no_source) == (3, 2, 2, 1)
    assert [(a.doc_uri, a.anchor_type, a.position_hint) for a in mem.anchors(install)] == [
        ("docs/guide.md#L5-L8", "ingest", "L5-L8")
    ]
    assert [a.doc_uri for a in mem.anchors(title)] == ["docs/deploy.md#L1-L3"]
    assert mem.anchors(stated) == []
    assert [e.op for e in mem.store.log_entries(install)][-1] == "backfill"
    again = backfill_anchors(mem.store, root)
    assert (again.considered, again.anchored) == (1, 0)


def test_backfill_without_the_text_anchors_the_file(mem: Memory, root: Path) -> None:
    title = bid(GUIDE_INTRO)
    mem.store.delete_anchors((a.belief_id, a.doc_uri) for a in mem.anchors(title))
    (root / "docs" / "guide.md").write_text("# Handbook\n", encoding="utf-8")
    report = backfill_anchors(mem.store, root)
    assert (report.anchored, report.located) == (1, 0)
    assert [(a.doc_uri, a.position_hint) for a in mem.anchors(title)] == [("docs/guide.md", None)]


@pytest.mark.parametrize(
    ("lines", "start", "end", "text", "holds"),
    [
        (["# A **bold** [link](x.md)"], 1, 1, "A bold link", True),
        (["one", "two"], 1, 1, "one two", False),
        (["one", "two"], 1, 2, "One,  TWO!", True),
        (["def f():", "    '''f docs.'''"], 1, 2, "def f() f docs.", True),  # signature + docstring
        (["    '''f docs.'''"], 1, 1, "pkg.f: f docs.", False),  # every word is needed
        (["x"], 2, 2, "x", False),  # past the end
        (["x"], 1, 1, "...", False),  # no words
    ],
)
def test_range_holds(lines: list[str], start: int, end: int, text: str, holds: bool) -> None:
    assert range_holds(lines, start, end, text) is holds


def test_locate_prefers_the_tightest_then_nearest_span() -> None:
    text = FileText("alpha beta\n\nalpha\nnoise\nbeta\n\nalpha beta\n")
    assert text.locate("alpha beta") == (1, 1)
    assert text.locate("alpha beta", near=7) == (7, 7)
    assert text.locate("gamma") is None
    assert words("Don't_stop-me") == ["don", "t", "stop", "me"]


# markdownlint 0.38.0's lib/markdownlint.d.mts (MIT), cut: a type alias whose fields each carry a
# comment above them. Its passage leads with the fields, then the comments (probe89).
RULE_PARAMS = """\
/**
 * Rule parameters.
 */
export type RuleParams = {
    /**
     * File/string name.
     */
    name: string;
    /**
     * Markdown parser data.
     */
    parsers: MarkdownParsers;
    /**
     * File/string lines.
     */
    lines: readonly string[];
    /**
     * Front matter lines.
     */
    frontMatterLines: readonly string[];
    /**
     * Rule configuration.
     */
    config: RuleConfiguration;
    /**
     * Version of the markdownlint library.
     */
    version: string;
};
"""


def test_a_fresh_ingest_of_a_commented_type_alias_is_healthy(tmp_path: Path, root: Path) -> None:
    """Before: its anchor was reported shifted right after ingest (`credo doctor` exited 1)."""
    (root / "lib").mkdir()
    (root / "lib" / "types.d.ts").write_text(RULE_PARAMS, encoding="utf-8")
    with Memory(tmp_path / "memory.db", root=root) as memory:
        ingest_paths(memory.store, [root / "lib"], root=root)
        report = check_anchors(memory.store, root)
        assert memory.stats().anchors >= 1
    assert report.shifted == [] and report.healthy


def test_a_shifted_commented_type_alias_is_found_and_fixed(tmp_path: Path, root: Path) -> None:
    """Its passage is out of its lines' order: held in place (above), and found again once its
    file shifts, so `credo doctor --fix` moves it (before: found nowhere, never fixed; review90)."""
    (root / "lib").mkdir()
    path = root / "lib" / "types.d.ts"
    path.write_text(RULE_PARAMS, encoding="utf-8")
    with Memory(tmp_path / "memory.db", root=root) as memory:
        ingest_paths(memory.store, [root / "lib"], root=root)
        path.write_text("// header\n// added\n\n" + RULE_PARAMS, encoding="utf-8")
        [problem] = check_anchors(memory.store, root).shifted
        assert problem.found is not None
        assert len(fix_anchors(memory.store, root).fixed) == 1
        assert check_anchors(memory.store, root).healthy


def test_locate_finds_lines_out_of_order_only_where_they_stand_together() -> None:
    body = [f"filler line {number}" for number in range(200)]
    body[10], body[11], body[150] = "name: string;", "version: string;", "kind: string;"
    text = FileText("\n".join(body))
    assert text.locate("version: string;\nname: string;", near=1) == (11, 12)
    assert text.locate("kind: string;\nname: string;", near=1) is None  # scattered
    assert text.locate("version: string;\nmissing: string;", near=1) is None
