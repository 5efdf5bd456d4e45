"""What a re-ingest must take out of the store although the file is still on the disk (probe62,
a polyglot monorepo): a file a new ``.gitignore`` hides, a file that now reads as one credo
skips (grown past the size cap, no longer UTF-8, binary), and minified JavaScript, which is
never read. Through the real ``credo`` entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CliRun

MINIFIED = (
    "module.exports=function(n){return{all:n=n||new Map,on:function(e,t){var i=n.get(e);"
    "i?i.push(t):n.set(e,[t])},off:function(e,t){var i=n.get(e);i&&(t?i.splice(i.indexOf(t)"
    ">>>0,1):n.set(e,[]))},emit:function(e,t){var i=n.get(e);i&&i.slice().map(function(n)"
    '{n(t)}),(i=n.get("*"))&&i.slice().map(function(n){n(e,t)})}}};\n'
    "//# sourceMappingURL=mitt.js.map\n"
)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "mono"
    (root / ".git").mkdir(parents=True)
    return root


def _in(root: Path) -> CliRun:
    """The CLI run from the project's root (anchors are relative to it)."""
    return CliRun(root.parent / "cli.db", root)


def _ingest(run: CliRun, root: Path) -> dict[str, object]:
    return json.loads(run("ingest", str(root), "--json", check=True).stdout)


def _paths(run: CliRun, query: str) -> set[str]:
    found = json.loads(run("search", query, "--json", check=True).stdout)
    return {
        anchor["doc_uri"].split("#")[0]
        for belief in found["beliefs"]
        for anchor in belief["doc_anchors"]
    }


def test_a_folder_a_new_gitignore_hides_is_retired(tmp_path: Path) -> None:
    root = _project(tmp_path)
    run = _in(root)
    lib = root / "services" / "zod" / "lib"
    lib.mkdir(parents=True)
    (lib / "types.js").write_text(
        "/** Compiled: the number schema's limit setter. */\n"
        "function setNumberLimit(kind, value) {\n  return kind + value;\n}\n",
        encoding="utf-8",
    )
    (root / "services" / "zod" / "README.md").write_text(
        "# Zod\n\n## Numbers\n\nA number schema takes limits.\n", encoding="utf-8"
    )
    _ingest(run, root)
    assert "services/zod/lib/types.js" in _paths(run, "setNumberLimit")
    # The user sees the compiled files in the hits and ignores the folder, as git would.
    (root / "services" / "zod" / ".gitignore").write_text("lib/\n", encoding="utf-8")
    report = _ingest(run, root)
    assert report["files_removed"] == 1
    assert "services/zod/lib/types.js" not in _paths(run, "setNumberLimit")
    assert "services/zod/README.md" in _paths(run, "number schema limits")
    # A file named explicitly is still read, and kept while it is named.
    named = lib / "types.js"
    _ingest_named = json.loads(run("ingest", str(named), "--json", check=True).stdout)
    assert _ingest_named["files_ingested"] == 1
    assert "services/zod/lib/types.js" in _paths(run, "setNumberLimit")
    both = json.loads(run("ingest", str(root), str(named), "--json", check=True).stdout)
    assert both["files_removed"] == 0
    assert "services/zod/lib/types.js" in _paths(run, "setNumberLimit")


def test_a_file_that_now_reads_as_skipped_is_retired(tmp_path: Path) -> None:
    root = _project(tmp_path)
    run = _in(root)
    notes = root / "notes.md"
    notes.write_text(
        "# Notes\n\n## Secrets rotation\n\nThe signing key rotates every 30 days.\n",
        encoding="utf-8",
    )
    _ingest(run, root)
    assert "notes.md" in _paths(run, "signing key rotates")
    # An edit that leaves no text (a legacy file is read: tests/test_ingest_encoding.py):
    # the new bytes are not read, and the old text is no longer true.
    notes.write_bytes(bytes(range(0x80, 0x100)) * 4)
    report = _ingest(run, root)
    assert report["skipped"] == {"not_utf8": 1} and report["files_removed"] == 1
    assert "notes.md" not in _paths(run, "signing key rotates")
    assert "30 days" not in run("search", "signing key rotates", check=True).stdout
    # The text report says what went (it said nothing of removed files).
    notes.write_text("# Notes\n\nThe signing key rotates every 30 days.\n", encoding="utf-8")
    _ingest(run, root)
    notes.write_bytes(b"\x00binary now")
    said = run("ingest", str(root), check=True).stdout
    assert said.startswith("0 files ingested, 0 unchanged, 1 removed, skipped: 1 binary"), said
    # Fixed again: read again.
    notes.write_text("# Notes\n\nThe signing key rotates every 7 days.\n", encoding="utf-8")
    assert _ingest(run, root)["files_ingested"] == 1
    assert "notes.md" in _paths(run, "signing key rotates")


def test_minified_javascript_is_skipped(tmp_path: Path) -> None:
    root = _project(tmp_path)
    run = _in(root)
    dist = root / "packages" / "mitt" / "dist"
    dist.mkdir(parents=True)
    (dist / "mitt.js").write_text(MINIFIED, encoding="utf-8")
    (dist / "mitt.min.js").write_text(
        "export const emit = (type, evt) => type;\n", encoding="utf-8"
    )
    (root / "packages" / "mitt" / "index.ts").write_text(
        "/** Invoke all handlers for the given type. */\n"
        "export function emit(type: string, evt: unknown): void {\n  void type;\n}\n",
        encoding="utf-8",
    )
    # TypeScript is never minified (it compiles to JavaScript): long declaration lines stay.
    (root / "packages" / "mitt" / "types.d.ts").write_text(
        "export type EventHandlerMap = "
        + " | ".join(f"HandlerVariantNumber{i}" for i in range(9))
        + ";\n",
        encoding="utf-8",
    )
    report = _ingest(run, root)
    assert report["skipped"] == {"minified": 2}
    assert sorted(report["skipped_files"]) == [
        ["packages/mitt/dist/mitt.js", "minified"],
        ["packages/mitt/dist/mitt.min.js", "minified"],
    ]
    assert report["files_ingested"] == 2  # index.ts and types.d.ts
    found = _paths(run, "emit function handlers")
    assert "packages/mitt/index.ts" in found
    assert not [path for path in found if path.startswith("packages/mitt/dist/")]


def test_a_passage_too_long_to_keep_is_reported(tmp_path: Path) -> None:
    root = _project(tmp_path)
    run = _in(root)
    # A run-on paragraph (no sentence ends) past the belief size limit: one passage.
    clause = "the replica in Zurich takes the nightly backup job, "
    (root / "runon.md").write_text(
        "# Run-on\n\n" + clause * 500 + "and nothing else\n\n## Short\n\nA short section.\n",
        encoding="utf-8",
    )
    report = _ingest(run, root)
    assert report["chunks_rejected"] == 1 and report["files_ingested"] == 1
    assert report["chunks_rejected_at"] == ["runon.md#L1-L3"]
    # The text report said "1 files ingested" and nothing of the text it left out.
    (root / "runon.md").write_text(
        "# Run-on\n\n" + clause * 501 + "and nothing else\n", encoding="utf-8"
    )
    said = run("ingest", str(root), check=True).stdout
    assert "1 passage left out (over 20000 characters or holding a NUL)" in said, said
    # ... and where, so a user can judge it (probe81: a 100 KB FASTA example went unnamed)
    assert "left out (over 20000 characters or holding a NUL): runon.md#L1-L3" in said, said


_GUIDE = "# Deploys\n\nA deploy waits for the canary's error budget before it widens the rollout.\n"


def _trails(memory: object, query: str) -> list[str]:
    hits = memory.retrieve(query).beliefs  # type: ignore[attr-defined]
    return [hit.trail for hit in hits if "canary" in hit.content]


@pytest.mark.parametrize("how", ["deleted", "edited", "ignored"])
def test_a_copy_takes_the_trail_when_the_first_file_loses_the_text(
    tmp_path: Path, how: str
) -> None:
    """alembic's docs/_sources/ (read first) and docs/build/ (the source) held the same
    pages; once the first copy went, every hit still named it (probe78): the copy, found
    unchanged, was never read again to take the passage's context."""
    from credo import Memory

    root = _project(tmp_path)
    (root / "a").mkdir()
    (root / "b").mkdir()
    (root / "a" / "guide.md").write_text(_GUIDE)
    (root / "b" / "guide.md").write_text(_GUIDE)
    query = "deploy waits for the canary error budget"
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        assert all(t.startswith("a/guide.md") for t in _trails(memory, query))
        if how == "deleted":
            (root / "a" / "guide.md").unlink()
        elif how == "edited":
            (root / "a" / "guide.md").write_text("# Deploys\n\nWe deploy by hand now.\n")
        else:
            (root / ".gitignore").write_text("a/\n")
        report = memory.ingest(root)
        trails = _trails(memory, query)
        assert trails and all(t.startswith("b/guide.md") for t in trails), trails
        assert report.beliefs_stale == 0 or how == "edited"
        again = memory.ingest(root)  # (nothing left to move: nothing read)
        assert again.files_ingested == 0 and _trails(memory, query) == trails


def test_a_copy_is_not_read_again_when_the_trail_names_it(tmp_path: Path) -> None:
    from credo import Memory

    root = _project(tmp_path)
    (root / "a").mkdir()
    (root / "b").mkdir()
    (root / "a" / "guide.md").write_text(_GUIDE)
    (root / "b" / "guide.md").write_text(_GUIDE)
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        (root / "b" / "guide.md").unlink()  # (the copy the trail does not name)
        report = memory.ingest(root)
        assert report.files_ingested == 0 and report.files_removed == 1
        assert report.files_unchanged == 1


def test_a_copy_read_first_in_the_run_that_drops_the_old_file_takes_the_trail(
    tmp_path: Path,
) -> None:
    """The copy is new to the store and read before the run retires the first file (a
    `.gitignore` hides it): the first file was still on the disk when the copy was read."""
    from credo import Memory

    root = _project(tmp_path)
    (root / "a").mkdir()
    (root / "b").mkdir()
    (root / "a" / "guide.md").write_text(_GUIDE)
    query = "deploy waits for the canary error budget"
    with Memory(tmp_path / "m.db", root=root) as memory:
        memory.ingest(root)
        (root / "b" / "guide.md").write_text(_GUIDE)
        (root / ".gitignore").write_text("a/\n")
        report = memory.ingest(root)
        assert report.files_removed == 1 and report.beliefs_stale == 0
        trails = _trails(memory, query)
        assert trails and all(t.startswith("b/guide.md") for t in trails), trails
