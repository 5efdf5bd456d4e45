"""Document ingest: walk, skips, beliefs, exact anchors, edges, re-ingest and anchor truth."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from credo import Memory
from credo.errors import InvalidInputError
from credo.knowledge import identity
from credo.knowledge.chunk import Chunk, split_file
from credo.knowledge.chunk.passage import passages
from credo.knowledge.doctor import check_anchors, range_holds
from credo.knowledge.ingest import IngestReport, ingest_paths, walk
from credo.knowledge.ingest.context import LENGTH_FILLER
from credo.store import Store
from credo.types import DocAnchor, EdgeType

GUIDE = """\
# Guide

Credo keeps beliefs in one SQLite file. Read [the deploy notes](deploy.md#steps) first.

## Install

- Install the package with pip before anything else.
- The settings live in docs/deploy.md and in settings.conf at the root.
- Nothing here mentions docs/missing.md for real.

```bash
pip install credo
```

### Upgrade

Upgrades run migrations forward only, see https://example.com/upgrade for details.
"""

DEPLOY = """\
# Deploy

Go back to the [guide](./guide.md) when lost.

## Steps

Deploy the service with care and watch the logs.
"""

TOOL = '''\
"""The tool module turns documents into beliefs."""

# Walk the tree in name order so runs are deterministic.
def walk():
    """Return every file under the root folder."""
'''


# The passages ingest makes of GUIDE and DEPLOY (what `test_every_passage_is_a_belief...`
# checks against the splitter): a heading leads its section's first passage.
GUIDE_INTRO = "Guide\nCredo keeps beliefs in one SQLite file. Read the deploy notes first."
GUIDE_INSTALL = (
    "Install\n"
    "Install the package with pip before anything else.\n"
    "The settings live in docs/deploy.md and in settings.conf at the root.\n"
    "Nothing here mentions docs/missing.md for real."
)
GUIDE_UPGRADE = (
    "Upgrade\nUpgrades run migrations forward only, see https://example.com/upgrade for details."
)
DEPLOY_INTRO = "Deploy\nGo back to the guide when lost."
DEPLOY_STEPS = "Steps\nDeploy the service with care and watch the logs."


def bid(text: str) -> str:
    return identity.derived_id(identity.content_hash(text))


def passages_of(relative: str, text: str) -> list[Chunk]:
    """What ingest indexes of a file: the splitter's chunks grouped into passages."""
    return passages(split_file(relative, text))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small project: docs, code, and every kind of file ingest must skip."""
    root = tmp_path / "project"
    write(root / "docs" / "guide.md", GUIDE)
    write(root / "docs" / "deploy.md", DEPLOY)
    write(root / "src" / "tool.py", TOOL)
    write(root / "settings.conf", "debug = true\n")
    write(root / ".gitignore", "secret.md\nbuild/\n")
    write(root / "secret.md", "# Secret\n\nThe password is hunter2 and must stay out.\n")
    write(root / "build" / "out.md", "# Built\n\nGenerated output that is ignored.\n")
    write(root / "node_modules" / "pkg" / "readme.md", "# Package\n\nVendored text here.\n")
    (root / "docs" / "blob.txt").write_bytes(b"PK\x03\x04\x00\x00binary")
    # No text in any encoding (a Latin-1 file is read: tests/test_ingest_encoding.py).
    (root / "docs" / "latin.md").write_bytes(bytes(range(0x80, 0x100)) * 4)
    os.symlink("..", root / "docs" / "loop")  # a folder link back up: a loop
    return root


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memory.db", root=tmp_path / "project") as memory:
        yield memory


def ingest(memory: Memory, *paths: Path) -> IngestReport:
    return ingest_paths(memory.store, list(paths), root=memory.root)


def ingest_anchors(store: Store) -> list[DocAnchor]:
    return [a for a in store.iter_anchors() if a.anchor_type == "ingest"]


def lines_of(root: Path, uri: str) -> list[str]:
    return (root / uri.partition("#")[0]).read_text(encoding="utf-8").split("\n")


def span(anchor: DocAnchor) -> tuple[int, int]:
    start, end = anchor.doc_uri.partition("#L")[2].split("-L")
    return int(start), int(end)


# -- walking and skipping ------------------------------------------------------------------


def test_ingest_reads_documents_and_code_and_counts_every_skip(tree: Path, mem: Memory) -> None:
    report = ingest(mem, tree)

    assert report.files_ingested == 3  # guide.md, deploy.md, tool.py
    assert report.skipped == {"binary": 1, "not_utf8": 1, "unsupported": 1}
    assert dict(report.skipped_files) == {
        "docs/blob.txt": "binary",
        "docs/latin.md": "not_utf8",
        "settings.conf": "unsupported",
    }
    files = {a.doc_uri.partition("#")[0] for a in ingest_anchors(mem.store)}
    assert files == {"docs/guide.md", "docs/deploy.md", "src/tool.py"}
    assert report.beliefs_added == mem.stats().beliefs
    assert report.seconds > 0


def test_the_summary_names_the_files_left_out_as_secrets(tmp_path: Path, mem: Memory) -> None:
    # "skipped: 1 secrets" alone left the user to guess which file (--json named it).
    root = tmp_path / "project"
    write(root / "docs" / "guide.md", GUIDE)
    write(root / "tests" / "fixtures" / ".netrc", "machine example.org login u password p\n")
    summary = ingest(mem, root).summary()
    assert "skipped: 1 secrets" in summary
    assert summary.splitlines()[-1] == "left out as holding secrets: tests/fixtures/.netrc"


def test_a_stub_beside_its_module_gives_no_passages(tmp_path: Path, mem: Memory) -> None:
    # more-itertools: recipes.pyi's copy of a signature answered beside the definition.
    root = tmp_path / "project"
    source = '''def sliding_window(iterable, n):
    """Return a sliding window of width n over the iterable."""
    return zip(*(iterable[i:] for i in range(n)))
'''
    stub = "def sliding_window(iterable: Iterable[T], n: int) -> Iterator[tuple[T, ...]]: ...\n"
    write(root / "pkg" / "recipes.py", source)
    write(root / "pkg" / "recipes.pyi", stub)
    write(root / "pkg" / "_speedups.pyi", "def fast_window(n: int) -> int: ...\n")
    ingest(mem, root / "pkg" / "recipes.pyi")  # a store from before the rule holds the stub
    assert mem.beliefs_for_doc("pkg/recipes.pyi")
    report = ingest(mem, root)
    assert report.skipped.get("stub") == 1
    assert ("pkg/recipes.pyi", "stub") in report.skipped_files
    assert mem.beliefs_for_doc("pkg/recipes.pyi") == []  # retired: its module is read
    assert mem.beliefs_for_doc("pkg/recipes.py")
    assert mem.beliefs_for_doc("pkg/_speedups.pyi")  # a stub alone is the module's only text


def test_a_licence_text_read_before_is_retired(
    tmp_path: Path, mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # itsdangerous: LICENSE.txt's "Neither the name of the copyright holder ... promote
    # products" answered a prompt about signing cookies; the bare LICENSE was never read.
    root = tmp_path / "project"
    legal = "Redistribution and use in source and binary forms are permitted.\n"
    write(root / "LICENSE.txt", legal)
    write(root / "docs" / "license.rst", "BSD-3-Clause License\n====================\n")
    write(root / "README.md", "# Tool\n\nUse it to sign cookies.\n")
    from credo.knowledge.chunk import language

    with monkeypatch.context() as before:  # a store from before the rule read it
        before.setattr(language, "_legal_text", lambda stem, extension: False)
        ingest(mem, root)
    assert mem.beliefs_for_doc("LICENSE.txt")
    report = ingest(mem, root)
    assert ("LICENSE.txt", "unsupported") in report.skipped_files
    assert mem.beliefs_for_doc("LICENSE.txt") == []  # retired
    assert mem.beliefs_for_doc("docs/license.rst")  # the docs site's own page is read
    assert mem.beliefs_for_doc("README.md")


def test_ignored_folders_and_files_never_become_beliefs(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    texts = " ".join(b.content for b in mem.store.iter_beliefs())
    assert "hunter2" not in texts  # .gitignore'd file
    assert "Generated output" not in texts  # .gitignore'd folder
    assert "Vendored" not in texts  # node_modules is never entered


def test_nested_gitignore_and_negation(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root / ".gitignore", "*.md\n!keep.md\n")
    write(root / "keep.md", "# Keep\n\nThis file is re-included by a negation.\n")
    write(root / "drop.md", "# Drop\n\nThis file is ignored by a pattern.\n")
    write(root / "sub" / ".gitignore", "!inner.md\n")
    write(root / "sub" / "inner.md", "# Inner\n\nA deeper gitignore re-includes this.\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        files = {a.doc_uri.partition("#")[0] for a in ingest_anchors(memory.store)}
    assert files == {"keep.md", "sub/inner.md"}


def test_gitignore_above_a_given_folder_applies(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root / ".gitignore", "docs/private/\n")
    write(root / "docs" / "private" / "x.md", "# Private\n\nNot for the memory at all.\n")
    write(root / "docs" / "public.md", "# Public\n\nFine to remember this text.\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = ingest(memory, root / "docs")
    assert report.files_ingested == 1


def test_a_named_file_is_read_even_if_ignored(tree: Path, mem: Memory) -> None:
    report = ingest(mem, tree / "secret.md")
    assert report.files_ingested == 1


def test_too_large_dangling_link_and_unknown_extension(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from credo.knowledge.ingest import walk

    monkeypatch.setattr(walk, "MAX_FILE_BYTES", 100)
    root = tmp_path / "project"
    write(root / "big.md", "# Big\n\n" + "A long paragraph of words. " * 20)
    write(root / "small.md", "# Small\n\nA short file.\n")
    write(root / "image.png", "not really an image")
    os.symlink(root / "gone.md", root / "dangling.md")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = ingest(memory, root)
    assert report.skipped == {"too_large": 1, "unreadable": 1, "unsupported": 1}
    assert report.files_ingested == 1


def test_symlink_loop_ends_and_symlinked_file_is_read_once_per_path(
    tree: Path, mem: Memory
) -> None:
    os.symlink(tree / "docs" / "deploy.md", tree / "deploy-link.md")
    report = ingest(mem, tree)
    assert report.files_ingested == 4
    uris = {a.doc_uri for a in mem.anchors(bid(DEPLOY_INTRO)) if a.anchor_type == "ingest"}
    assert uris == {"docs/deploy.md#L1-L3", "deploy-link.md#L1-L3"}


def test_missing_path_is_refused_before_writing(tree: Path, mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="no such file"):
        ingest(mem, tree / "docs", tree / "nope")
    assert mem.stats().beliefs == 0


def test_progress_reports_each_file(tree: Path, mem: Memory) -> None:
    calls: list[tuple[int, int, str]] = []
    report = ingest_paths(
        mem.store, [tree], root=tree, progress=lambda d, t, p: calls.append((d, t, p))
    )
    assert [c[0] for c in calls] == list(range(1, report.files_seen + 1))
    assert {c[1] for c in calls} == {report.files_seen}
    assert "docs/guide.md" in {c[2] for c in calls}


def test_file_outside_root_is_a_file_uri(tmp_path: Path) -> None:
    outside = write(
        tmp_path / "elsewhere" / "notes.md",
        "# Notes\n\nKept outside the root.\n\n## More\n\nA second section.\n",
    )
    with Memory(tmp_path / "m.db", root=tmp_path / "project") as memory:
        ingest(memory, outside)
        uris = {a.doc_uri for a in ingest_anchors(memory.store)}
    assert uris == {f"file://{outside.as_posix()}#L1-L3", f"file://{outside.as_posix()}#L5-L7"}


# -- beliefs, anchors, edges ---------------------------------------------------------------


def test_every_passage_is_a_belief_with_its_exact_lines(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    indexed = set()
    for relative in ("docs/guide.md", "docs/deploy.md", "src/tool.py"):
        text = (tree / relative).read_text(encoding="utf-8")
        for chunk in passages_of(relative, text):
            belief_id = bid(chunk.text)
            indexed.add(belief_id)
            belief = mem.get(belief_id)
            assert belief.origin == "document" and belief.kind == "factual"
            hint = f"L{chunk.start_line}-L{chunk.end_line}"
            anchor = mem.store.get_anchor(belief_id, f"{relative}#{hint}")
            assert anchor is not None and anchor.anchor_type == "ingest"
            assert anchor.position_hint == hint
    assert {b.id for b in mem.store.iter_beliefs()} == indexed  # no fine chunk on its own
    assert {GUIDE_INTRO, GUIDE_INSTALL, GUIDE_UPGRADE, DEPLOY_INTRO, DEPLOY_STEPS} <= {
        b.content for b in mem.store.iter_beliefs()
    }
    for anchor in ingest_anchors(mem.store):
        start, end = span(anchor)
        lines = lines_of(tree, anchor.doc_uri)
        assert range_holds(lines, start, end, mem.get(anchor.belief_id).content)


def test_sections_become_derived_from_edges(tree: Path, mem: Memory) -> None:
    # A section too long for one passage: its later passages hang off its first one.
    # Five paragraphs of 300 characters: two fit in a passage (with the heading), three do not.
    steps = [
        f"Step {i} of the long runbook is done by hand, in plain words. " * 5 for i in range(5)
    ]
    write(tree / "docs" / "long.md", "# Long\n\n" + "\n\n".join(s.strip() for s in steps) + "\n")
    ingest(mem, tree)

    edges = {(e.src, e.dst) for e in mem.store.iter_edges() if e.type == EdgeType.DERIVED_FROM}
    code = {bid(p.text) for p in passages_of("src/tool.py", TOOL)}
    edges = {(src, dst) for src, dst in edges if src not in code}  # the Markdown's alone
    long_passages = passages_of("docs/long.md", (tree / "docs" / "long.md").read_text())
    assert [(p.start_line, p.end_line) for p in long_passages] == [(1, 5), (7, 9), (11, 11)]
    first, *rest = (bid(p.text) for p in long_passages)
    assert edges == {
        (bid(GUIDE_INSTALL), bid(GUIDE_INTRO)),  # subsection -> parent section
        (bid(GUIDE_UPGRADE), bid(GUIDE_INSTALL)),
        (bid(DEPLOY_STEPS), bid(DEPLOY_INTRO)),
        *((later, first) for later in rest),  # later passage -> its section's first
    }
    assert all(e.weight == 0.5 for e in mem.store.iter_edges())


def test_links_between_ingested_files_become_cites(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)

    cites = {(e.src, e.dst) for e in mem.store.iter_edges() if e.type == EdgeType.CITES}
    # Each link sits in its file's first passage, which also opens the file under its
    # top-level heading: the passage a link to the file cites. deploy.md is walked before
    # guide.md: its CITES waited for guide.md's beliefs.
    assert cites == {(bid(GUIDE_INTRO), bid(DEPLOY_INTRO)), (bid(DEPLOY_INTRO), bid(GUIDE_INTRO))}


def test_derived_anchors_only_for_urls_and_existing_paths(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    derived = {
        (a.belief_id, a.doc_uri) for a in mem.store.iter_anchors() if a.anchor_type == "derived"
    }

    settings = bid(GUIDE_INSTALL)
    upgrade = bid(GUIDE_UPGRADE)
    intro = bid(GUIDE_INTRO)
    assert (settings, "docs/deploy.md") in derived
    assert (settings, "settings.conf") in derived  # exists, though not a document credo reads
    assert (upgrade, "https://example.com/upgrade") in derived
    assert (intro, "docs/deploy.md") in derived  # a link target, fragment dropped
    assert not any("missing" in uri for _, uri in derived)
    assert all(
        a.position_hint is None for a in mem.store.iter_anchors() if a.anchor_type == "derived"
    )


def test_every_write_is_logged_with_the_file_as_source(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    entries = list(mem.store.log_entries())
    assert entries and all(e.op == "ingest" for e in entries)
    assert {e.source_path for e in entries} == {"docs/guide.md", "docs/deploy.md", "src/tool.py"}
    added = [e for e in entries if e.payload.get("action") == "add"]
    assert len(added) == mem.stats().beliefs
    anchors = [e for e in entries if e.payload.get("action") == "anchor"]
    assert len(anchors) == mem.stats().anchors
    edges = [e for e in entries if e.payload.get("action") == "edge"]
    assert len(edges) == mem.stats().edges


# -- re-ingest -----------------------------------------------------------------------------


def test_reingest_of_an_unchanged_tree_adds_nothing(tree: Path, mem: Memory) -> None:
    first = ingest(mem, tree)
    before = mem.stats()
    second = ingest(mem, tree)
    after = mem.stats()
    assert second.files_unchanged == first.files_ingested
    assert second.files_ingested == 0
    assert (second.beliefs_added, second.edges_added, second.anchors_added) == (0, 0, 0)
    assert (after.beliefs, after.edges, after.anchors, after.log_entries) == (
        before.beliefs,
        before.edges,
        before.anchors,
        before.log_entries,
    )


def test_a_newer_reader_reads_every_file_once_more_and_keeps_what_it_reads_the_same(
    tree: Path, mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ingest(mem, tree)
    ids = {(b.id, b.deleted_at) for b in mem.store.iter_beliefs()}
    monkeypatch.setattr(walk, "READER_VERSION", walk.READER_VERSION + 1)
    again = ingest(mem, tree)  # what credo made of the files may have changed: read them
    assert again.files_ingested == first.files_ingested and again.files_unchanged == 0
    assert again.beliefs_added == 0
    assert {(b.id, b.deleted_at) for b in mem.store.iter_beliefs()} == ids
    third = ingest(mem, tree)
    assert third.files_unchanged == first.files_ingested and third.files_ingested == 0


def test_reingest_after_an_edit_moves_anchors_and_marks_vanished_text_stale(
    tree: Path, mem: Memory
) -> None:
    ingest(mem, tree)
    removed_id = bid(GUIDE_UPGRADE)
    moved_id = bid(GUIDE_INSTALL)
    upgrade = "\n### Upgrade\n\n" + GUIDE_UPGRADE.partition("\n")[2] + "\n"
    assert upgrade in GUIDE
    # A new section above Install (its passage is new, Install's moves down four lines)
    # and the Upgrade section gone (its passage vanishes); the intro stays on lines 1-3.
    edited = GUIDE.replace(upgrade, "").replace(
        "## Install\n", "## News\n\nA new line.\n\n## Install\n"
    )
    write(tree / "docs" / "guide.md", edited)

    report = ingest(mem, tree)

    assert report.files_ingested == 1 and report.files_unchanged == 2
    assert report.beliefs_added == 1 and report.beliefs_stale == 1
    assert report.beliefs_kept == 1  # the intro on lines 1-3
    assert report.beliefs_moved == 1
    assert mem.get(bid("News\nA new line.")).deleted_at is None
    # The surviving passage kept its id; its one ingest anchor row moved (no second row).
    # (Its range ends where the splitter ends the section: after the code block, if the
    # splitter takes code blocks as passage lines.)
    before = next(p for p in passages_of("guide.md", GUIDE) if p.text == GUIDE_INSTALL)
    after = next(p for p in passages_of("guide.md", edited) if p.text == GUIDE_INSTALL)
    assert (before.start_line, after.start_line) == (5, 9)
    assert after.end_line == before.end_line + 4
    guide_anchors = [a for a in mem.anchors(moved_id) if a.anchor_type == "ingest"]
    assert [a.doc_uri for a in guide_anchors] == [
        f"docs/guide.md#L{after.start_line}-L{after.end_line}"
    ]
    # The vanished passage is soft-deleted; its anchor stays for audit.
    gone = mem.get(removed_id)
    assert gone.deleted_at is not None
    assert {a.doc_uri for a in mem.anchors(removed_id)} == {
        "docs/guide.md#L15-L17",
        "https://example.com/upgrade",  # its derived anchor too
    }
    for anchor in ingest_anchors(mem.store):
        belief = mem.get(anchor.belief_id)
        if belief.deleted_at is None:
            start, end = span(anchor)
            assert range_holds(lines_of(tree, anchor.doc_uri), start, end, belief.content)


def test_text_that_returns_revives_its_belief(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    write(tree / "docs" / "deploy.md", DEPLOY.replace("when lost", "if lost"))
    ingest(mem, tree)
    back = bid(DEPLOY_INTRO)
    assert mem.get(back).deleted_at is not None
    write(tree / "docs" / "deploy.md", DEPLOY)
    report = ingest(mem, tree)
    assert report.beliefs_revived == 1
    assert mem.get(back).deleted_at is None


def test_same_text_in_two_files_is_one_belief_with_two_anchors(tmp_path: Path) -> None:
    root = tmp_path / "project"
    # The same section (heading and text) in both files: the same passage text.
    shared = "## Backups\n\nBackups run every night at two and are kept for thirty days.\n"
    write(root / "a.md", shared)
    write(root / "b.md", f"# Beta\n\nIntro line for beta.\n\n{shared}")
    belief_id = bid("Backups\nBackups run every night at two and are kept for thirty days.")
    with Memory(tmp_path / "m.db", root=root) as memory:
        report = ingest(memory, root)
        assert report.beliefs_corroborated == 1
        assert {a.doc_uri for a in memory.anchors(belief_id)} == {"a.md#L1-L3", "b.md#L5-L7"}
        assert memory.get(belief_id).corroborations == 1

        write(root / "a.md", "# Alpha\n\nSomething else now.\n")
        report = ingest(memory, root)
        assert report.beliefs_stale == 0  # still stands on b.md
        assert memory.get(belief_id).deleted_at is None
        assert [a.doc_uri for a in memory.anchors(belief_id)] == ["b.md#L5-L7"]

        write(root / "b.md", "# Beta\n\nIntro line for beta.\n")
        report = ingest(memory, root)
        assert report.beliefs_stale == 1
        assert memory.get(belief_id).deleted_at is not None


def test_repeated_text_in_one_file_anchors_its_first_occurrence(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(  # (top-level sections: no outer title tells the second apart)
        root / "a.md",
        "# Example\n\nOne thing.\n\n# Example\n\nOne thing.\n\n## Detail\n\nOther thing.\n",
    )
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        example = bid("Example\nOne thing.")
        assert [a.doc_uri for a in memory.anchors(example)] == ["a.md#L1-L3"]
        # The subsection of the second occurrence derives from the one belief of both.
        other = bid("Detail\nOther thing.")
        assert {e.dst for e in memory.edges(other) if e.src == other} == {example}


def test_a_repeated_section_under_another_is_a_belief_of_its_own(tmp_path: Path) -> None:
    """Two "Example" sections with the same text under "A": the second leads with its
    outer title (chunk/passage.py), so it is anchored, and its subsection derives from it."""
    root = tmp_path / "project"
    write(
        root / "a.md",
        "# A\n\n## Example\n\nOne thing.\n\n"
        "## Example\n\nOne thing.\n\n### Detail\n\nOther thing.\n",
    )
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        example = bid("Example\nOne thing.")
        again = bid("A › Example\nOne thing.")
        assert [a.doc_uri for a in memory.anchors(example)] == ["a.md#L3-L5"]
        assert [a.doc_uri for a in memory.anchors(again)] == ["a.md#L7-L9"]
        other = bid("Detail\nOther thing.")
        assert {e.dst for e in memory.edges(other) if e.src == other} == {again}
        # its lines hold its own words: `credo doctor` finds every anchor where it says
        report = check_anchors(memory.store, root)
        assert report.healthy and report.ok == report.checked
        assert range_holds(["## Example", "", "One thing."], 1, 3, "A › Example\nOne thing.")


def test_a_stated_belief_is_corroborated_never_staled(tmp_path: Path) -> None:
    root = tmp_path / "project"
    fact = "The staging database is rebuilt every Monday morning."
    # The fact before the first heading is a passage of its own, word for word.
    write(root / "ops.md", f"{fact}\n\n# Ops\n\nNothing to see.\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        stated = memory.remember(fact)
        report = ingest(memory, root)
        assert report.beliefs_corroborated == 1 and report.beliefs_added == 1
        assert memory.get(stated).origin == "user_stated"
        write(root / "ops.md", "# Ops\n\nNothing to see.\n")
        report = ingest(memory, root)
        assert report.beliefs_stale == 0
        assert memory.get(stated).deleted_at is None
        assert memory.anchors(stated) == []


def test_a_vanished_file_under_an_ingested_folder_goes_stale(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    (tree / "docs" / "deploy.md").unlink()
    report = ingest(mem, tree / "docs")
    assert report.files_removed == 1
    assert mem.get(bid(DEPLOY_STEPS)).deleted_at is not None
    assert mem.get(bid(DEPLOY_INTRO)).deleted_at is not None
    assert mem.store.get_ingested_file("docs/deploy.md") is None


def test_hard_forget_cascades_to_anchors(tree: Path, mem: Memory) -> None:
    ingest(mem, tree)
    guide = bid(GUIDE_INTRO)
    assert mem.anchors(guide)
    mem.forget(guide, hard=True)
    assert mem.store.anchors_for([guide]) == {}
    assert all(a.belief_id != guide for a in mem.store.iter_anchors())
    assert mem.store.integrity_check() == []


# -- the context field: path and section trail ---------------------------------------------


def context_of(memory: Memory, belief_id: str) -> str:
    row = memory.store.conn.execute("SELECT context FROM beliefs WHERE id = ?", (belief_id,))
    return str(row.fetchone()[0])


def test_a_word_only_in_a_heading_or_the_path_finds_the_passage(tmp_path: Path) -> None:
    root = tmp_path / "project"
    # "Wombat" titles a section that holds only a subsection, so it is no passage's text;
    # "kubernetes" is a folder name; "LoadBalancerPool" only a file name (split for the
    # index). A second file holds the passage's words, so that only the context decides.
    setup = "Setup\nInstall the agent on every node before the first deploy."
    write(
        root / "docs" / "kubernetes" / "LoadBalancerPool.md",
        "# Wombat\n\n## Setup\n\nInstall the agent on every node before the first deploy.\n",
    )
    write(root / "docs" / "other.md", "# Other\n\nInstall the agent by hand on a laptop.\n")
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        passage = bid(setup)
        assert [b.content for b in memory.store.iter_beliefs() if b.id == passage] == [setup]
        # The trail, the own title and the split file name; a short passage's filler.
        head, extra, filler = context_of(memory, passage).split("\n")
        assert head == "docs/kubernetes/LoadBalancerPool.md › Wombat › Setup L3-L5"
        assert extra == "Setup load balancer pool"
        assert set(filler.split()) == {LENGTH_FILLER}
        texts = " ".join(b.content for b in memory.store.iter_beliefs()).lower()
        for word in ("wombat", "kubernetes", "balancer"):
            assert word not in texts
            hits = memory.retrieve(word).beliefs
            assert [b.id for b in hits][:1] == [passage], word


def test_renaming_a_heading_updates_the_context_of_kept_passages(tmp_path: Path) -> None:
    root = tmp_path / "project"
    page = root / "ops.md"
    # Rotas' passage does not hold its parent's title; the second passage of "Long" does
    # not hold its own heading: renaming either heading leaves their text as it was.
    steps = "\n\n".join(
        f"Step {i} of the long runbook is done by hand, in plain words. " * 5 for i in range(3)
    )
    text = (
        f"# Handbook\n\n## Rotas\n\nThe pager rotates every Monday at nine.\n\n## Long\n\n{steps}\n"
    )
    write(page, text)
    rotas = bid("Rotas\nThe pager rotates every Monday at nine.")
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        later = [p for p in passages_of("ops.md", text) if p.section == ("Handbook", "Long")][1]
        assert not later.text.startswith("Long")
        second = bid(later.text)
        assert context_of(memory, rotas).split("\n")[:2] == [
            "ops.md › Handbook › Rotas L3-L5",
            "Rotas",
        ]
        assert context_of(memory, second).split("\n")[:2] == [
            "ops.md › Handbook › Long L13-L13",
            "Long",
        ]

        write(page, text.replace("# Handbook", "# Playbook").replace("## Long", "## Lengthy"))
        report = ingest(memory, root)

        assert report.beliefs_kept == 2 and report.beliefs_stale == 1  # Long's first passage
        assert memory.get(rotas).deleted_at is None and memory.get(second).deleted_at is None
        assert context_of(memory, rotas).split("\n")[:2] == [
            "ops.md › Playbook › Rotas L3-L5",
            "Rotas",
        ]
        assert context_of(memory, second).split("\n")[:2] == [
            "ops.md › Playbook › Lengthy L13-L13",
            "Lengthy",
        ]
        assert {rotas, second} <= {b.id for b in memory.retrieve("playbook").beliefs}
        assert memory.retrieve("handbook").beliefs == ()
        assert memory.store.integrity_check() == []


# -- anchor truth under random edits -------------------------------------------------------

WORDS = (
    "store belief anchor edge lane budget cluster query index token section heading "
    "paragraph bullet link path module option flag value error cache backup schema "
    "migration deploy install config retrieval ranking doctor hook server"
).split()


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
    return " ".join(words).capitalize() + f" {rng.randrange(10**6)}."


def _section(rng: random.Random, level: int) -> list[str]:
    lines = [f"{'#' * level} {rng.choice(WORDS).title()} {rng.randrange(10**6)}", ""]
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            lines += [_sentence(rng), ""]
        else:
            lines += [f"- {_sentence(rng)}" for _ in range(rng.randint(1, 4))] + [""]
    return lines


def _document(rng: random.Random) -> list[str]:
    lines = [f"# Page {rng.randrange(10**6)}", "", _sentence(rng), ""]
    for _ in range(rng.randint(2, 5)):
        lines += _section(rng, rng.choice((2, 2, 3)))
    return lines


def _sections(lines: list[str]) -> list[tuple[int, int]]:
    starts = [i for i, line in enumerate(lines) if line.startswith("#")]
    return [(s, e) for s, e in zip(starts, [*starts[1:], len(lines)], strict=True)]


def _edit(rng: random.Random, lines: list[str], donor: list[str]) -> list[str]:
    """One random edit: insert, delete or move lines, move or copy a section."""
    lines = list(lines)
    choice = rng.randrange(6)
    if choice == 0:  # insert fresh lines
        at = rng.randrange(len(lines) + 1)
        lines[at:at] = ["", _sentence(rng), ""]
    elif choice == 1 and len(lines) > 4:  # delete a run of lines
        at = rng.randrange(len(lines))
        del lines[at : at + rng.randint(1, 3)]
    elif choice == 2 and len(lines) > 4:  # move a line elsewhere
        line = lines.pop(rng.randrange(len(lines)))
        at = rng.randrange(len(lines) + 1)
        lines[at:at] = ["", line, ""]
    elif choice == 3 and len(_sections(lines)) > 1:  # move a section
        start, end = rng.choice(_sections(lines))
        block = lines[start:end]
        del lines[start:end]
        at = rng.choice([s for s, _ in _sections(lines)] + [len(lines)])
        lines[at:at] = block
    elif choice == 4 and _sections(donor):  # copy a section from another file
        start, end = rng.choice(_sections(donor))
        lines += ["", *donor[start:end]]
    else:  # rewrite one line's words
        at = rng.randrange(len(lines))
        if lines[at].strip():
            lines[at] = lines[at].replace(" ", "  ", 1) + " changed"
    return lines


def _expected(root: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """Belief content hash -> {file: first passage range}, from the splitter and
    `passages` themselves."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    for path in sorted(root.rglob("*.md")):
        relative = path.relative_to(root).as_posix()
        for chunk in passages_of(relative, path.read_text(encoding="utf-8")):
            by_file = found.setdefault(identity.content_hash(chunk.text), {})
            by_file.setdefault(relative, (chunk.start_line, chunk.end_line))
    return found


def _check_truth(memory: Memory, root: Path) -> tuple[int, int]:
    """(anchors of surviving beliefs checked, of them holding their text); asserts that
    every vanished belief is stale and every surviving one is live and anchored."""
    expected = _expected(root)
    anchors = memory.store.anchors_for(b.id for b in memory.store.iter_beliefs())
    checked = held = 0
    for belief in memory.store.iter_beliefs():
        files = expected.get(belief.content_hash)
        if files is None:
            assert belief.deleted_at is not None, f"vanished belief {belief.id} is not stale"
            continue
        assert belief.deleted_at is None, f"surviving belief {belief.id} was marked stale"
        ingest_uris = {a.doc_uri for a in anchors.get(belief.id, []) if a.anchor_type == "ingest"}
        assert {u.partition("#")[0] for u in ingest_uris} == set(files)
        for uri in ingest_uris:
            checked += 1
            start, end = (int(x) for x in uri.partition("#L")[2].split("-L"))
            held += range_holds(lines_of(root, uri), start, end, belief.content)
            assert (start, end) == files[uri.partition("#")[0]]
    return checked, held


@pytest.mark.parametrize("seed", range(1, 9))
def test_anchor_truth_over_random_edits(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "docs"
    # A passage per section (~4 a page): 24 pages give ~700 anchors to check.
    names = [f"area{i % 3}/page{i}.md" for i in range(24)]
    contents = {name: _document(rng) for name in names}
    for name, lines in contents.items():
        write(root / name, "\n".join(lines))
    checked_total = held_total = 0
    with Memory(tmp_path / "m.db", root=root) as memory:
        ingest(memory, root)
        for _ in range(6):
            for name in rng.sample(names, 8):
                for _ in range(rng.randint(1, 4)):
                    contents[name] = _edit(rng, contents[name], contents[rng.choice(names)])
                write(root / name, "\n".join(contents[name]))
            report = ingest(memory, root)
            assert report.files_ingested + report.files_unchanged == len(names)
            checked, held = _check_truth(memory, root)
            checked_total += checked
            held_total += held
    assert checked_total > 500
    assert held_total / checked_total >= 0.99
