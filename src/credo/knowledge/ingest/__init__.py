"""Document ingest: files and folders become beliefs anchored to their exact lines.

The package: ``walk`` (which files a run reads, and reading one), ``state`` (what one run
knows: its report, its caches, the CITES that wait), ``split`` (a file's text into passages,
the pure part), ``pool`` and ``worker`` (splitting ahead of the writer in other processes),
``writer`` (one changed file's beliefs, anchors and edges), ``edges`` (a file's ingest edges
kept equal to what it states) and ``run`` (``ingest_paths``:
the run itself, its commits and clean-up).

The rules (quoted in the docs):

- **Walk.** Folders are walked in name order. ``.gitignore`` files are honoured the way git
  reads them (a deeper file overrides a shallower one, ``!`` re-includes), including those
  in the folders between the project root and a folder given on the command line. The
  folders ``.git``, ``.credo``, ``__pycache__``, ``node_modules`` and ``.venv`` are never
  entered, and credo's own ``.credo.toml`` never read (it may name a store's password),
  nor a coding agent's setup that ``credo setup`` writes (`walk.agent_config`: Claude
  Code's ``.claude/settings.json`` and ``settings.local.json``, an ``.mcp.json`` or
  ``.cursor/mcp.json`` naming credo's server alone; each reported, ``agent_config``; one
  read before is retired at the walk, as a ``.gitignore``'d one is).
  Vendored folders (``vendor``, ``third_party``, ``bower_components`` and the
  other names of `walk.VENDORED_DIRS`, after GitHub Linguist's vendor rules: other
  projects' code copied in) are not entered either, each reported as skipped
  (``vendored``), unless the run asks for them (``vendored=True``, ``credo ingest
  --vendored``) or names the folder or a path inside it; one read before is retired at
  the next walk that leaves it out, as a ``.gitignore`` written since retires. A Sphinx
  HTML build's ``_sources`` (copies of the reST pages) and ``_static`` (Sphinx's scripts),
  the folders beside its ``searchindex.js``, are left out the same way, whatever
  ``vendored`` (``sphinx_build``; `walk.SPHINX_COPIES`). Symbolic
  links are followed, but a folder already visited (by its device and inode) is not
  entered twice, so link loops end, and a file a folder's walk reaches through a link
  that leads out of both the project root and the folder given is skipped
  (``outside``): a cloned repository's link to ``~/.ssh`` or ``~/.aws`` must not put those
  files into the agent's prompt (a file read before through such a link is retired at the
  folder's next walk, as a vanished one). A file named explicitly is read even if a
  ``.gitignore`` lists it or it lies outside: the user asked for it. A file read before
  that a folder's walk now leaves out (a ``.gitignore`` written since) is retired at that
  walk, as a vanished one, unless the same run names it.
- **Skips** (counted by reason in the report, never an error): ``agent_config`` (see
  Walk), ``stub`` (a ``.pyi`` whose module's ``.py`` the same run reads: it only repeats
  its signatures without their docstrings; one read before is retired; a stub alone is
  read, `walk.stubs_beside_sources`), ``secrets`` (a file that holds credentials itself,
  never read even when named: ``.env`` and its variants but the example copies,
  ``.npmrc``, ``.pypirc``, ``.netrc``, ``.pgpass``, ``.git-credentials``;
  `walk.holds_secrets`), ``unsupported`` (an
  extension no splitter reads and no name it knows, see `credo.knowledge.chunk.EXTENSIONS`
  and `credo.knowledge.chunk.language.NAMES`, or a ``#`` in the
  path, which a document URI cannot hold), ``outside`` (a link out of the tree, see Walk),
  ``too_large`` (over `MAX_FILE_BYTES`), ``binary`` (a NUL byte in the first
  `SNIFF_BYTES`, unless the file is text in UTF-16 with its BOM), ``not_utf8`` (not text
  in UTF-8 nor in the legacy encodings `credo.knowledge.encoding.decode_text` reads: a
  Latin-1 or cp1252 file, a UTF-8 one with a few stray bytes, UTF-16 with a BOM, are read
  when mostly printable), ``minified`` (JavaScript, .js, .mjs or
  .cjs, named ``*.min.js`` or ``*-min.js`` or whose lines average over 110 characters:
  GitHub Linguist's rule; JSON past 2 KB by the same measure), ``lock`` (a package
  manager's lock file by name: ``package-lock.json``, ``pnpm-lock.yaml``, ``*.lock``),
  ``generated`` (a JSON data dump: a top-level array past 64 KB, or any JSON past 512 KB)
  and ``unreadable`` (not a regular file, a dangling link, no permission, or an I/O
  error); and ``vendored`` and ``sphinx_build``, folders (their URIs end in ``/``), see
  Walk. A file read before that now reads as too large, binary, not text, minified, a
  lock file or generated has its beliefs retired (what was read is no longer what it
  holds); an unreadable one keeps them.
- **Unchanged files** (same sha256 as the ``ingested_files`` ledger records, read by the same
  reader: `walk.READER_VERSION`, and in the same package, see Anchors) are skipped; after a
  reader changes, each file is read once more.
- **Beliefs.** Each passage (`credo.knowledge.chunk.passage.passages` over the chunks of
  `credo.knowledge.chunk.split_file`) becomes one belief (origin ``document``, kind
  ``factual``), with its context (`context.context_field`: its trail and extra words, the
  index's third column), whose id derives from its normalised text the way
  ``Memory.remember`` derives it, so the same text anywhere is one belief: a belief whose
  text survives an edit keeps its id, and text found in several files is one belief with
  an anchor per file (each new file adds a corroboration). Within one file the first
  occurrence anchors the belief.
- **Anchors.** Each belief gets one ``ingest`` anchor per file, ``relpath#Lstart-Lend``
  with position_hint ``Lstart-Lend`` (a file outside the root is a ``file:///`` URI). On
  re-ingest the row is updated in place when the lines move. A path, file name or URL
  mentioned in a chunk (a link target or a bare word) becomes a ``derived`` anchor: URLs
  (``http``, ``https``, ``ftp``) as given, paths normalised and only when the file exists
  (relative to the chunk's file, then to the root; a bare file name also matches a file
  of that name found once in the walked tree). In a file inside a package below the root
  (the nearest folder with a ``package.json``, ``pyproject.toml``, ``go.mod``,
  ``Cargo.toml`` or ``setup.py``: `package.Packages`), a bare file name names a file of
  that package only: beside the chunk's file, or found once in the package. A manifest
  that appears or goes changes a file's package: the file is read again, and a belief
  read from it alone keeps only the derived anchors this reading gives. A folder's walk
  drops the derived anchors to files under it that are gone from the disk (the passage
  naming one may be unchanged, or live on in a copy elsewhere): a fresh ingest never
  writes them. A file new to the ledger is anchored the other way too: the unchanged files
  whose passages name it (a link waiting for it, or its name in their text) are read again
  (`run._read_namers_again`), as a fresh ingest would anchor them.
- **Edges.** A section's later passages are DERIVED_FROM its first, and a section's first
  passage DERIVED_FROM the first passage of the section around it; in code, definitions
  play the sections (method -> class), and a module docstring is what the top definitions
  hang from. A Markdown link to
  another file of the ingested tree (relative to the linking file, ``/`` meaning the root;
  ``#fragment`` and ``?query`` dropped) CITES that file's first top-level heading, else
  its first chunk. An edge ingest wrote lives while an ingested file states it: the store
  records which file states which edge (``edge_files``, `edges.settle`); when a file
  changes or vanishes, an edge it no longer states loses that file, and an edge no file
  states any more is deleted (a text in several files, and so its edges, lives while one
  of them states it). When a file's cite target changes or the file vanishes, the CITES of
  the files that link to it and were not read again follow (point at the new target, or
  go). An edge another writer wrote first (``relate``, a capture, an import of an edge
  its records say no file states) is never removed by ingest, even when a file states it
  too; ``relate`` refuses an edge that exists, so no edge is both. A link to a file with no
  cite target yet (not ingested, empty, or whose first passage is the linking one) makes no
  edge and waits
  (``pending_cites``): the CITES appears when that file gets a target. So after any
  edits, a re-ingest leaves the ingest edges a fresh ingest of the same files writes.
- **Vanished text.** After a file changes, a belief whose text left it loses nothing if it
  is still in the file elsewhere; otherwise it is marked stale (soft-deleted, the anchor
  kept for audit) when it is a ``document`` belief, unlocked, with no ``ingest`` anchor
  into another file; a belief that stands on another file, a locked one or one a person
  stated keeps living and only loses this file's anchor. A file that vanished from a
  folder being ingested is treated as emptied.
- **Workers.** When the files likely changed since the ledger's run (by size, mtime and
  reader) hold at least `pool.POOL_MIN_BYTES` and a CPU sits idle (by the load average;
  the idle CPUs plus the writer's own, at most `pool.MAX_WORKERS`: `pool._automatic_count`),
  worker processes read and split them ahead of the
  writer; the writer still reads, checks and writes every file in walk order, so the store
  is the serial run's. ``CREDO_INGEST_WORKERS=0`` keeps a run in one process; ``N`` starts
  ``N`` workers for any run.
- **Atomicity and audit.** Each file is written in one transaction scope, all or nothing
  (consecutive files share a commit, at most `GROUP_FILES` files or `GROUP_SECONDS`, to
  amortise the fsync; a failure rolls the group back and its files are re-read next run;
  a group's files are read and split before its transaction begins, so another writer
  waits only while a group writes);
  every write is logged
  in ``ingest_log`` (op ``ingest``, ``source_path`` the file's URI, the action in the
  payload; a deleted edge is an ``unedge``). A file whose links point at files ingested
  later in the same run has its CITES edges (and the removal of the edges it no longer
  states) and its ledger row written in one last transaction, so an interrupted run
  re-reads it next time instead of losing the edges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from credo.knowledge.ingest.run import ingest_paths
    from credo.knowledge.ingest.state import IngestReport

__all__ = ["IngestReport", "ingest_paths"]


def __getattr__(name: str) -> Any:
    # Loaded on first use, not with the package: a split worker (`worker`) imports only
    # the pure modules, and the writer's (run, writer, edges, the store) cost each worker
    # ~1 ms of start-up (PEP 562).
    if name == "ingest_paths":
        from credo.knowledge.ingest.run import ingest_paths

        return ingest_paths
    if name == "IngestReport":
        from credo.knowledge.ingest.state import IngestReport

        return IngestReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
