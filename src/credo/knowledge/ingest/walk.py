"""The disk side of ingest: which files a run reads (the walk rules of `credo.knowledge.ingest`)
and reading one of them, or the reason it is skipped."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from credo.config import CONFIG_FILE
from credo.errors import InvalidInputError
from credo.knowledge.chunk import language_for
from credo.knowledge.chunk.language import NAMES
from credo.knowledge.encoding import UTF16_BOMS, decode_text
from credo.knowledge.ingest.reader_version import READER_VERSION

if TYPE_CHECKING:
    import pathspec

# Larger files are logs, dumps or generated code, not documentation worth a belief per line.
MAX_FILE_BYTES = 2 * 1024 * 1024
# git's own binary test: a NUL byte within the first 8 KB.
SNIFF_BYTES = 8192
# Never entered: version control, credo's own store, caches and dependency trees.
SKIP_DIRS = frozenset({".git", ".credo", "__pycache__", "node_modules", ".venv"})
# Never read by a folder's walk: git's rules, and credo's own settings (TOML, which credo
# reads as a document now, and which may name a PostgreSQL store with its password).
SKIP_FILES = frozenset({".gitignore", CONFIG_FILE})
# Copies of other projects' code, kept beside a project's own (GitHub Linguist's vendor.yml
# rules for vendored dependencies: ``(^|/)[Vv]+endor/``, ``third[-_]?party/``,
# ``3rd[-_]?party/``, ``bower_components/``): Go's ``go mod vendor``, Composer, Bundler,
# Chromium-style third_party trees. Their definitions answer a question about the project
# as well as its own do ("where is the rate limit configured" -> a vendored token bucket),
# so a folder's walk leaves them out and reports them (``vendored``), unless the run asks
# for them (``vendored=True``) or names the folder itself. Linguist's broader rules are left
# out on purpose: ``extern(al)?/``, ``dist/``, ``deps/`` and ``cache/`` often hold a
# project's own code or its only readable build (an npm package's ``dist/``).
VENDORED_DIRS = frozenset(
    {
        "vendor",
        "Vendor",
        "third_party",
        "third-party",
        "thirdparty",
        "3rd_party",
        "3rd-party",
        "3rdparty",
        "bower_components",
    }
)
# A Sphinx HTML build (``make html``'s output, shipped in some sdists or committed for a
# docs site) holds ``_sources/``, a copy of every reST page, and ``_static/``, Sphinx's and
# the theme's scripts. Read, the copies answered each docs question under the copy's path
# (alembic's sdist: every hit in docs/_sources/, first in walk order, none in docs/build/,
# the pages a person edits) and searchtools.js answered questions about "exclude". The build
# is known by the ``searchindex.js`` Sphinx writes beside them (a docs source has none); the
# HTML pages are unsupported anyway. A walk leaves both folders out, whatever ``vendored``,
# and reports each (``sphinx_build``); a run that names one reads it.
SPHINX_INDEX = "searchindex.js"
SPHINX_COPIES = frozenset({"_sources", "_static"})
# A coding agent's own setup, which `credo setup` writes into the project: Claude Code's
# settings (credo's hooks beside the agent's permissions; ``settings.local.json`` is a
# person's own), and an MCP server list (``.mcp.json``, Cursor's ``.cursor/mcp.json``) that
# names credo's server alone. Read as configuration, their lines ("hooks › UserPromptSubmit ›
# command: ... credo hook prompt") answered every "how is X configured" question. A server
# list that names other servers too is read: which MCP servers a project uses is a fact about
# the project (the question "which MCP servers does this project use" has its answer there),
# and credo's entry among them is one passage of it. A walk leaves these files out, each
# reported (``agent_config``); a file named on the command line is read (the user asked).
_AGENT_SETTINGS = frozenset({"settings.json", "settings.local.json"})  # in .claude/
_SERVER_LISTS = {".mcp.json": None, "mcp.json": ".cursor"}  # name -> the folder it must be in
_CREDO_SERVER = "credo"  # = credo.surfaces.install.SERVER_NAME
_SERVER_LIST_BYTES = 64 * 1024
SKIP_REASONS = (
    "agent_config",
    "secrets",
    "unsupported",
    "too_large",
    "binary",
    "not_utf8",
    "minified",
    "lock",
    "generated",
    "unreadable",
    "outside",
    "vendored",
    "sphinx_build",
    "stub",
)
# A file that now reads as one of these holds none of what was read from it before: its
# beliefs are retired (a file that cannot be read just now keeps them). "unsupported": a
# reader that no longer reads a name it read before (LICENSE.txt, probe77).
STALE_REASONS = frozenset(
    {"too_large", "binary", "not_utf8", "minified", "lock", "generated", "unsupported"}
)
# Minified JavaScript (GitHub Linguist's rule; .js, .mjs and .cjs only): a name like
# x.min.js, or lines longer than 110 characters on average. Its passages are one-line
# fragments (`emit:function(n,t)`), copies of a source the tree usually holds too.
_MINIFIED_STEMS = (".min", "-min")
_MINIFIABLE = frozenset({"js", "mjs", "cjs", "json"})
MINIFIED_MEAN_LINE = 110
# A JSON file shorter than this is a config whatever its layout (``{"extends": "..."}``).
_MINIFIED_JSON_BYTES = 2048
# Lock files hold resolved versions and hashes, written by a tool, thousands of lines
# nobody asks a question of: skipped by name, whatever their format.
# (go.sum is Go's: the checksum of each module version go.mod requires, probe90)
_LOCK_NAMES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "packages.lock.json",
        "go.sum",
        "go.work.sum",
    }
)
_LOCK_SUFFIXES = (".lock", ".lockb", "-lock.json", "-lock.yaml", ".lock.json")
# A JSON data dump, not a configuration: a top-level array past 64 KB (records), or any
# JSON past 512 KB (a configuration that long is generated: a schema bundle, a fixture).
_DATA_ARRAY_BYTES = 64 * 1024
_DATA_JSON_BYTES = 512 * 1024


def start_path(raw: str | os.PathLike[str]) -> Path:
    # abspath, not resolve: a symlinked file keeps the path the user sees.
    path = Path(os.path.abspath(os.fspath(raw)))
    if not os.path.lexists(path):
        raise InvalidInputError(f"cannot ingest {os.fspath(raw)!r}: no such file or folder")
    return path


Specs = tuple[tuple[Path, "pathspec.GitIgnoreSpec"], ...]


class Walked(NamedTuple):
    """What `walk_files` found: the candidate files, in walk order, each once; the files a
    folder's walk reached through a symbolic link that leads out of both the root and the
    folder given; the vendored folders (`VENDORED_DIRS`) it left out, in walk order; the
    agent's setup files it left out (`agent_config`); a Sphinx build's copies it left out
    (`SPHINX_COPIES`), in walk order."""

    files: list[Path]
    outside: list[Path]
    vendored: list[Path]
    agent: list[Path]
    built: list[Path]


def agent_config(path: Path) -> bool:
    """Whether ``path`` is a coding agent's setup that a walk leaves out (`_AGENT_SETTINGS`):
    Claude Code's settings, or an MCP server list naming only credo's server."""
    name, folder = path.name, path.parent.name
    if name in _AGENT_SETTINGS:
        return folder == ".claude"
    if name not in _SERVER_LISTS or _SERVER_LISTS[name] not in (None, folder):
        return False
    import json  # (only for a file of these names)

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # a FIFO would block the walk (`read_file` says unreadable)
        with open(path, "rb") as handle:
            data = json.loads(handle.read(_SERVER_LIST_BYTES + 1)[:_SERVER_LIST_BYTES])
    except (OSError, ValueError):
        return False  # (read as any other file: its own skip reason, or its text)
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return isinstance(servers, dict) and list(servers) == [_CREDO_SERVER] and len(data) == 1


def walk_files(starts: Sequence[Path], root: Path, *, vendored: bool = False) -> Walked:
    """The files under ``starts`` (the walk rules of `credo.knowledge.ingest`); with
    ``vendored``, the walk enters vendored folders too."""
    seen: dict[Path, None] = {}
    outside: dict[Path, None] = {}
    visited: set[tuple[int, int]] = set()
    left_out: dict[Path, None] | None = None if vendored else {}
    built: dict[Path, None] = {}
    agent: dict[Path, None] = {}
    for start in starts:
        if os.path.isdir(start):
            bounds = (os.path.realpath(root), os.path.realpath(start))
            specs = _ancestor_specs(start, root)
            for path in _walk_dir(start, specs, visited, left_out, built):
                if agent_config(path):
                    agent.setdefault(path, None)
                    continue
                # A cloned repository's link to ~/.aws/credentials would otherwise put the
                # file's text into the agent's prompt. A file named explicitly is read.
                if path not in seen and not _within(os.path.realpath(path), bounds):
                    outside.setdefault(path, None)
                    continue
                seen.setdefault(path, None)
        else:
            seen.setdefault(start, None)
    folders = [] if left_out is None else [f for f in left_out if not _named(f, starts)]
    return Walked(
        list(seen),
        [path for path in outside if path not in seen],
        folders,
        [path for path in agent if path not in seen],
        [folder for folder in built if not _named(folder, starts)],
    )


def stubs_beside_sources(files: Sequence[Path]) -> list[Path]:
    """The ``.pyi`` stubs among ``files`` whose module's ``.py`` is among them too. A stub
    repeats its module's signatures without their docstrings: read as passages of its own,
    each answered beside (or above) the definition it copies. Left out (reason ``stub``);
    a stub without its ``.py`` (a C extension's, a stub-only package) is the module's only
    text and is read."""
    names = {os.fspath(path) for path in files}
    return [
        path
        for path in files
        if path.suffix == ".pyi" and os.fspath(path.with_suffix(".py")) in names
    ]


def _named(folder: Path, starts: Sequence[Path]) -> bool:
    """Whether the run names ``folder`` or a path inside it: that one is read (whole or in
    part), so it is not reported as left out."""
    return any(folder == start or folder in start.parents for start in starts)


def _within(real: str, bounds: tuple[str, ...]) -> bool:
    return any(real == bound or real.startswith(bound.rstrip(os.sep) + os.sep) for bound in bounds)


def _ancestor_specs(folder: Path, root: Path) -> Specs:
    """The .gitignore files of the folders from the root down to ``folder``'s parent."""
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        return ()
    specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
    current = root
    for part in ("", *parts[:-1]):
        current = current / part if part else current
        spec = _load_spec(current)
        if spec is not None:
            specs.append((current, spec))
    return tuple(specs)


def _load_spec(folder: Path) -> pathspec.GitIgnoreSpec | None:
    path = folder / ".gitignore"
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a FIFO would block the walk, a device never end
        with open(path, "rb") as handle:
            text = handle.read(MAX_FILE_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None
    import pathspec  # only where a .gitignore is read: its import is ~1% of a small ingest

    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


def _ignored(path: Path, is_dir: bool, specs: Specs) -> bool:
    # The deepest .gitignore with a matching pattern decides, as in git.
    for base, spec in reversed(specs):
        relative = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        verdict = spec.check_file(relative).include
        if verdict is not None:
            return verdict
    return False


def _walk_dir(
    top: Path,
    specs: Specs,
    visited: set[tuple[int, int]],
    vendored: dict[Path, None] | None = None,
    built: dict[Path, None] | None = None,
) -> Iterator[Path]:
    """The files under ``top``; a vendored folder met is added to ``vendored`` and not
    entered (None: entered like any other); so is a Sphinx build's copy to ``built``."""
    stack: list[tuple[Path, Specs]] = [(top, specs)]
    while stack:
        folder, inherited = stack.pop()
        try:
            info = os.stat(folder)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in visited:
            continue  # a symlink loop or a second link to the same folder
        visited.add((info.st_dev, info.st_ino))
        own = _load_spec(folder)
        active = (*inherited, (folder, own)) if own is not None else inherited
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subfolders: list[Path] = []
        sphinx = any(e.name == SPHINX_INDEX and not _is_dir(e) for e in entries)
        for entry in entries:
            path = Path(entry.path)
            is_dir = _is_dir(entry)
            if is_dir and entry.name in SKIP_DIRS:
                continue
            if _ignored(path, is_dir, active):
                continue
            if is_dir and vendored is not None and entry.name in VENDORED_DIRS:
                vendored.setdefault(path, None)
                continue
            if is_dir and sphinx and entry.name in SPHINX_COPIES:
                if built is not None:
                    built.setdefault(path, None)
                continue
            if is_dir:
                subfolders.append(path)
            elif entry.name not in SKIP_FILES:
                yield path  # files, and links that lead nowhere (reported unreadable)
        stack.extend((sub, active) for sub in reversed(subfolders))


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def hidden_by_walk(
    path: Path,
    start: Path,
    root: Path,
    loaded: dict[Path, object] | None = None,
    *,
    vendored: bool = False,
) -> bool:
    """Whether the walk of the folder ``start`` leaves ``path`` (under it) out: a folder
    never entered, a vendored one (unless ``vendored``), a Sphinx build's copies or a
    ``.gitignore`` on the way, as `_walk_dir` decides. ``loaded`` keeps the ``.gitignore``
    files read, for a caller that asks about many paths."""
    try:
        parts = path.relative_to(start).parts
    except ValueError:
        return False
    loaded = {} if loaded is None else loaded
    specs = list(_ancestor_specs(start, root))
    folder = start
    for depth, part in enumerate(parts, 1):
        if folder not in loaded:
            loaded[folder] = _load_spec(folder)
        own = cast("pathspec.GitIgnoreSpec | None", loaded[folder])
        if own is not None:
            specs.append((folder, own))
        is_dir = depth < len(parts)
        if part in (SKIP_DIRS if is_dir else SKIP_FILES):
            return True
        if not is_dir and agent_config(folder / part):
            return True
        if _ignored(folder / part, is_dir, tuple(specs)):
            return True
        if is_dir and not vendored and part in VENDORED_DIRS:
            return True
        if is_dir and part in SPHINX_COPIES and sphinx_build(folder):
            return True
        folder = folder / part
    return False


def sphinx_build(folder: Path) -> bool:
    """Whether ``folder`` is a Sphinx HTML build (`SPHINX_INDEX` in it, as a file)."""
    return os.path.isfile(folder / SPHINX_INDEX)


def unique_names(files: Iterable[Path]) -> dict[str, Path]:
    """File name -> path, for names found exactly once in the tree."""
    counts: dict[str, list[Path]] = {}
    for path in files:
        counts.setdefault(path.name, []).append(path)
    return {name: paths[0] for name, paths in counts.items() if len(paths) == 1}


# READER_VERSION and its history: reader_version.py (walk keeps the name: the ledger reads it here).


class Read(NamedTuple):
    text: str
    digest: str  # the ledger's key: the bytes' sha256 and READER_VERSION (`ledger_key`)
    size: int
    mtime: float


def ledger_key(data: bytes) -> str:
    """What the ingest ledger keeps of a file's bytes to know it unchanged: their sha256,
    and the reader that read them."""
    return hashlib.sha256(data).hexdigest() + _reader_mark()


def by_this_reader(key: str) -> bool:
    """Whether a ledger key (`ledger_key`) was written by this credo's reader."""
    return key.endswith(_reader_mark())


def _reader_mark() -> str:
    return f"/r{READER_VERSION}"


# Files that hold credentials themselves, never read (chunk/language.py: redaction knows
# the shapes of secrets, not every name a project gives one): reported as ``secrets`` so a
# user sees why, not as a type credo cannot read. A dotenv's committed example copies
# (``.env.example``, ``.sample``, ``.template``: the names chunk/language.py reads) are read.
_SECRET_NAMES = frozenset({".env", ".npmrc", ".pypirc", ".netrc", ".pgpass", ".git-credentials"})


def holds_secrets(name: str) -> bool:
    """Whether a file named ``name`` is one of `_SECRET_NAMES` or a dotenv variant
    (``.env.local``, ``.env.production``) other than the example copies credo reads."""
    lower = name.lower()
    return lower in _SECRET_NAMES or (lower.startswith(".env.") and NAMES.get(lower) != "dotenv")


def is_lock_file(name: str) -> bool:
    """Whether a file named ``name`` is a package manager's lock file (never read)."""
    lower = name.lower()
    return lower in _LOCK_NAMES or lower.endswith(_LOCK_SUFFIXES)


def _generated(name: str, text: str) -> bool:
    """A JSON data dump (see `_DATA_JSON_BYTES`), not a configuration file."""
    size = len(text)
    if size <= _DATA_ARRAY_BYTES or language_for(name) != "json":  # most files: one compare
        return False
    return size > _DATA_JSON_BYTES or text.lstrip()[:1] == "["


def _minified(name: str, text: str) -> bool:
    extension = name.rpartition(".")[2].lower()
    if extension not in _MINIFIABLE:
        return False  # (TypeScript compiles to JavaScript: it is never minified itself)
    if extension == "json" and len(text) < _MINIFIED_JSON_BYTES:
        return False
    if name.rpartition(".")[0].lower().endswith(_MINIFIED_STEMS):
        return True
    lines = text.count("\n") + (not text.endswith("\n"))
    return len(text) - text.count("\n") > MINIFIED_MEAN_LINE * max(lines, 1)


def read_file(path: Path) -> Read | str:
    """The file's text, or the reason it is skipped."""
    if is_lock_file(path.name):
        return "lock"
    if holds_secrets(path.name):
        return "secrets"
    if "#" in path.as_posix() or language_for(path.as_posix()) is None:
        return "unsupported"
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return "unreadable"  # a FIFO would block, a device would never end
        if info.st_size > MAX_FILE_BYTES:
            return "too_large"
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return "unreadable"
    if len(data) > MAX_FILE_BYTES:
        return "too_large"
    # (UTF-16 text holds NULs: with its BOM it is read, if it decodes to text)
    sniffed = b"\x00" in data[:SNIFF_BYTES]
    if sniffed and data[:2] not in UTF16_BOMS:
        return "binary"
    text = decode_text(data)
    if text is None:
        return "binary" if sniffed else "not_utf8"
    if _minified(path.name, text):
        return "minified"
    if _generated(path.name, text):
        return "generated"
    return Read(text, ledger_key(data), len(data), info.st_mtime)
