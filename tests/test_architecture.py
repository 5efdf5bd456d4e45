"""The layering of STYLE.md, enforced on the source: the store is the only layer that speaks
SQL, surfaces do not import each other at module level, and the read path stays light."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "credo"
SURFACES = {"cli", "cli_agent", "cli_dedup", "cli_fast", "cli_ops", "mcp_server", "hook", "demo"}
# The CLI is one surface spread over modules loaded lazily; they share its helpers.
CLI_PARTS = {"cli", "cli_agent", "cli_dedup", "cli_fast", "cli_ops", "demo"}


def _modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", "."): ast.parse(
            path.read_text(encoding="utf-8")
        )
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imports(tree: ast.Module, *, top_level_only: bool) -> set[str]:
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_only_the_store_imports_sqlite3() -> None:
    offenders = [
        name
        for name, tree in _modules().items()
        if not name.startswith("store") and "sqlite3" in _imports(tree, top_level_only=False)
    ]
    assert offenders == []


def test_surfaces_do_not_import_each_other_at_module_level() -> None:
    for name, tree in _modules().items():
        if name not in SURFACES:
            continue
        imported = {i.removeprefix("credo.") for i in _imports(tree, top_level_only=True)}
        allowed = CLI_PARTS if name in CLI_PARTS else {name}
        assert not (imported & (SURFACES - allowed)), name


def test_engine_and_store_never_import_surfaces() -> None:
    for name, tree in _modules().items():
        if name in SURFACES or name in {"entry", "__main__", "hookstart"}:
            continue
        imported = {i.removeprefix("credo.") for i in _imports(tree, top_level_only=False)}
        assert not (imported & SURFACES), name


@pytest.mark.parametrize("heavy", ["numpy", "click", "rich", "mcp"])
def test_the_read_path_does_not_import_heavy_libraries_up_front(heavy: str) -> None:
    """Memory, the retrieval pipeline and the store load none of them at module level."""
    modules = _modules()
    read_path = ["memory", "retrieval", "rank", "tokens", "render", "cluster", "pack", "config"]
    read_path += [n for n in modules if n.startswith(("store", "lanes"))]
    for name in read_path:
        imported = _imports(modules[name], top_level_only=True)
        assert not any(i == heavy or i.startswith(heavy + ".") for i in imported), name
