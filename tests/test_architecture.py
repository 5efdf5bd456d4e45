"""The layering of STYLE.md and docs/ARCHITECTURE.md, enforced on the source, folder by folder:

    entry points -> surfaces -> memory -> retrieval | knowledge -> store -> base

Nothing imports upward (lazy and TYPE_CHECKING imports count too: an arrow is an arrow);
retrieval and knowledge stand side by side and never import each other; only the store
speaks SQL; surfaces do not import each other at module level; the read path stays light.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "credo"

# The loose modules at the package's top, by role. A new one is a decision: put it in a
# folder, or name it here (and in docs/ARCHITECTURE.md).
ENTRY_POINTS = {"__main__", "entry", "hookstart"}  # names installers write down
ROOT = {"__init__", "memory"}  # the composition root and the package face that exports it
BASE = {"config", "types", "errors", "tokens", "edge_types", "unionfind"}
FOLDERS = {"surfaces": 4, "agent": 3, "retrieval": 2, "knowledge": 2, "store": 1}
MAX_LINES = 600  # STYLE.md: a module past ~600 lines is two ideas


def _modules() -> dict[str, ast.Module]:
    found: dict[str, ast.Module] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", ".")
        found[name.removesuffix(".__init__")] = ast.parse(path.read_text(encoding="utf-8"))
    return found


MODULES = _modules()


def rank(name: str) -> int:
    """A module's layer: the higher one may import the lower, never the reverse."""
    if name in ENTRY_POINTS:
        return 5
    if name in ROOT:
        return 3
    if name in BASE:
        return 0
    folder = name.split(".")[0]
    if folder not in FOLDERS:
        raise AssertionError(f"credo.{name} belongs to no layer (see ENTRY_POINTS, BASE)")
    return FOLDERS[folder]


def imports(tree: ast.Module, *, top_level_only: bool) -> set[str]:
    """Every module a tree imports, as dotted names; credo's own without the ``credo.``
    prefix, resolved to the submodule where ``from credo.x import y`` names one."""
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {_own(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, "credo uses absolute imports only"
            base = _own(node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base != "__init__" else alias.name
                found.add(sub if sub in MODULES else base)
    return found


def _own(dotted: str) -> str:
    if dotted == "credo":
        return "__init__"
    return dotted.removeprefix("credo.") if dotted.startswith("credo.") else "/" + dotted


def credo_imports(name: str, *, top_level_only: bool = False) -> set[str]:
    return {i for i in imports(MODULES[name], top_level_only=top_level_only) if i in MODULES}


def test_every_module_belongs_to_a_layer_and_the_top_stays_small() -> None:
    for name in MODULES:
        rank(name)
    loose = {n for n in MODULES if "." not in n and n not in FOLDERS}
    assert loose == ENTRY_POINTS | ROOT | BASE
    assert len(loose - {"__init__"}) <= 10


SIBLINGS = {"retrieval", "knowledge"}


def violations(name: str, imported: set[str]) -> set[str]:
    """The imports of ``name`` that point upward, or across to the sibling layer."""
    bad = {i for i in imported if rank(i) > rank(name)}
    side = name.split(".")[0]
    if side in SIBLINGS:
        bad |= {i for i in imported if i.split(".")[0] in SIBLINGS - {side}}
    return bad


@pytest.mark.parametrize("name", sorted(MODULES))
def test_nothing_imports_upward_or_across(name: str) -> None:
    bad = violations(name, credo_imports(name))
    assert bad == set(), f"credo.{name} imports {sorted(bad)}"


def test_only_the_store_imports_sqlite3() -> None:
    offenders = [
        name
        for name, tree in MODULES.items()
        if not name.startswith("store") and "/sqlite3" in imports(tree, top_level_only=False)
    ]
    assert offenders == []


SHARED_SURFACES = {"surfaces.render", "surfaces.install"}


def test_surfaces_do_not_import_each_other_at_module_level() -> None:
    """The CLI is one surface spread over modules loaded lazily; they share its helpers.
    The renderer is shared by all, and ``install`` by the client setups (file edits, the
    server check, the byte-compile); the rest (MCP server, hook, setups) stand alone."""
    for name in MODULES:
        if not name.startswith("surfaces.") or name in SHARED_SURFACES:
            continue
        own = "surfaces.cli" if name.startswith("surfaces.cli") else name
        others = {
            i
            for i in credo_imports(name, top_level_only=True)
            if i.startswith("surfaces.") and i not in SHARED_SURFACES and not i.startswith(own)
        }
        assert others == set(), f"credo.{name} imports {sorted(others)} at module level"


def test_no_module_is_two_ideas() -> None:
    long = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_architecture_doc_names_every_room() -> None:
    """docs/ARCHITECTURE.md names each loose module and each folder of the package."""
    doc = (PACKAGE.parents[1] / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    folders = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py")}
    folders = {f.removesuffix("__init__.py") for f in folders if f != "__init__.py"}
    missing = {f"{n}.py" for n in ENTRY_POINTS | ROOT | BASE if f"{n}.py" not in doc}
    missing |= {f for f in folders if f.rstrip("/").rsplit("/", 1)[-1] + "/" not in doc}
    assert missing == set()


READ_PATH = [
    "__init__",
    "memory",
    "config",
    "tokens",
    "types",
    "errors",
    "surfaces.hook",
    "surfaces.render",
    "surfaces.cli.fast",
    *(n for n in MODULES if n.startswith(("store", "retrieval")) and n != "retrieval.hrr"),
]


@pytest.mark.parametrize("heavy", ["numpy", "click", "rich", "mcp"])
def test_the_read_path_does_not_import_heavy_libraries_up_front(heavy: str) -> None:
    """Memory, the retrieval pipeline, the store and the hook's surfaces load none of them at
    module level (the HRR maths is numpy; it loads only with the structural lane)."""
    for name in READ_PATH:
        imported = imports(MODULES[name], top_level_only=True)
        assert not any(i == "/" + heavy or i.startswith(f"/{heavy}.") for i in imported), name


@pytest.mark.parametrize(
    ("module", "source", "flagged"),
    [
        ("store.beliefs", "from credo.memory import Memory", "memory"),
        ("knowledge.dedup", "if TYPE_CHECKING:\n    from credo.memory import Memory", "memory"),
        ("retrieval.pipeline", "from credo.knowledge import ingest", "knowledge.ingest"),
        ("knowledge.doctor", "from credo.retrieval.lanes import doc", "retrieval.lanes.doc"),
        ("types", "import credo.store", "store"),
        ("surfaces.render", "def f():\n    from credo import entry", "entry"),
    ],
)
def test_the_rules_can_fail(module: str, source: str, flagged: str) -> None:
    """An upward or sideways arrow, in any import form, is seen."""
    imported = {i for i in imports(ast.parse(source), top_level_only=False) if i in MODULES}
    assert violations(module, imported) == {flagged}
