"""What a process that only reads pays for. Open + retrieve, the path the API, the hook and
`credo search` share, loads no write-path module: the record classes only writes and the
views of edges use live in ``credo.edge_types`` and ``credo.store.rows``, because a named
tuple class costs ~0.2 ms to build in every fresh process and the first query after open
has a latency target (issue #3, docs/BENCHMARKS.md § Retrieval latency). The edge records
still import from ``credo.types``, their public home."""

from __future__ import annotations

import ast
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from credo import Memory
from tests.conftest import keep_global

# Loaded by the first write (hrr_sync, identity, the row records), an edge read or write
# (edge_types), an export (records) or an anchor write (docuri) only.
WRITE_MODULES = {
    "credo.knowledge.docuri",
    "credo.edge_types",
    "credo.retrieval.hrr_sync",
    "credo.knowledge.identity",
    "credo.knowledge.records",
    "credo.store.rows",
}

# Runs ACTION, then prints the modules loaded.
PROBE = """
import sys
ACTION
sys.stdout.write(repr(sorted(sys.modules)))
"""

RETRIEVE = """
from credo import Memory
with Memory(sys.argv[1], root=sys.argv[2]) as memory:
    result = memory.retrieve("how do we deploy the service", with_doc_anchors=True)
assert result.ids and result.doc_anchors, result
"""

HOOK = """
import io, json
from credo.surfaces import hook
payload = json.dumps({"prompt": "how do we deploy the service", "cwd": sys.argv[2]})
out = io.BytesIO()
assert hook.run(io.BytesIO(payload.encode()), out, db=sys.argv[1]) == 0
assert b"deploy" in out.getvalue(), out.getvalue()
"""


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store each default lane finds something in: a lock, edges, a document anchor."""
    path = tmp_path / "memory.db"
    with Memory(path, root=tmp_path) as memory:
        memory.remember("Never force-push to main", lock=True, id="rule")
        memory.remember("We deploy the service with make deploy", doc="docs/deploy.md", id="d")
        memory.remember("The deploy script runs the service tests first", id="t")
        memory.remember("The service reads its settings from config.toml", id="c")
        memory.relate("t", "d", "SUPPORTS")
        memory.relate("c", "d", "RELATES_TO")
    return path


def _modules_after(action: str, store: Path) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["CREDO_HOOK_LOG"] = str(store.parent / "hook.log")
    env = keep_global(env)
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("ACTION", action), str(store), str(store.parent)],
        cwd=store.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(ast.literal_eval(done.stdout))


@pytest.mark.parametrize("action", [RETRIEVE, HOOK], ids=["retrieve", "hook"])
def test_a_read_loads_no_write_path_module(store: Path, action: str) -> None:
    assert _modules_after(action, store) & WRITE_MODULES == set()


def test_a_write_then_loads_what_it_needs(store: Path) -> None:
    action = RETRIEVE + "\nwith Memory(sys.argv[1]) as memory:\n    memory.remember('new')\n"
    assert {
        "credo.retrieval.hrr_sync",
        "credo.knowledge.identity",
        "credo.store.rows",
    } <= _modules_after(action, store)


def test_the_edge_records_still_import_from_credo_types() -> None:
    import credo.types
    from credo import edge_types
    from credo.types import EDGE_VALENCE, Edge, EdgeType

    assert (Edge, EdgeType, EDGE_VALENCE) == (
        edge_types.Edge,
        edge_types.EdgeType,
        edge_types.EDGE_VALENCE,
    )
    with pytest.raises(AttributeError, match="no_such_name"):
        credo.types.no_such_name  # noqa: B018 (the access is the test)


def test_the_moved_records_compare_and_pickle_as_before() -> None:
    from credo.store.rows import BeliefKey, FileAnchor
    from credo.types import EDGE_VALENCE, Edge, EdgeType

    edge = Edge("a", "b", EdgeType.CITES, EDGE_VALENCE[EdgeType.CITES])
    assert edge == ("a", "b", "CITES", 0.5, None, 0.0)
    assert pickle.loads(pickle.dumps(edge)) == edge
    anchor = FileAnchor(BeliefKey("b1", "h", "document", False, None), "a.md#L1-L2", "L1-L2")
    assert pickle.loads(pickle.dumps(anchor)) == anchor
    assert repr(edge).startswith("Edge(src='a', dst='b', type=<EdgeType.CITES: 'CITES'>")


def test_a_connection_that_has_only_read_keeps_hrr_traces_true(tmp_path: Path) -> None:
    """The HRR edge watch starts with the first write (hrr_sync is not loaded at open): a
    connection opened before another one enables the lane still updates the traces."""
    path = tmp_path / "m.db"
    with Memory(path, root=tmp_path) as early, Memory(path, root=tmp_path) as other:
        for name in "xyz":
            other.remember(f"node {name}", id=name)
        early.retrieve("node")  # reads only: no watch yet
        other.enable_hrr(dim=256)
        early.relate("y", "x", "CITES")  # early's first write
        hrr = {"hrr": True, "bm25f": False, "heat": False, "bfs": False, "doc": False}
        assert other.retrieve("what cites x", lanes=hrr).ids == ["y"]


# Ingests FILES ([(name, text)]) from a new folder named FOLDER under the project root.
INGEST = """
from pathlib import Path
from credo import Memory
folder = Path(sys.argv[2]) / FOLDER
folder.mkdir()
for name, text in FILES:
    (folder / name).write_text(text)
with Memory(sys.argv[1], root=sys.argv[2]) as memory:
    assert memory.ingest(folder).files_ingested == len(FILES)
"""


def _ingest(folder: str, files: list[tuple[str, str]]) -> str:
    return INGEST.replace("FOLDER", repr(folder)).replace("FILES", repr(files))


def test_a_documentation_ingest_loads_no_code_splitter(store: Path) -> None:
    # The code splitters and pathspec (no .gitignore here) are imported on first use:
    # ~4% of the instructions of ingesting a small documentation tree.
    docs = [("guide.md", "# Guide\n\nRun `make deploy`.\n"), ("api.rst", "API\n===\n\nText.\n")]
    loaded = _modules_after(_ingest("docs", docs), store)
    assert "credo.knowledge.chunk.markdown" in loaded
    assert not {m for m in loaded if m.startswith("credo.knowledge.chunk.code")}
    assert "pathspec" not in loaded
    code = [("x.py", "def f():\n    return 1\n")]
    assert "credo.knowledge.chunk.code" in _modules_after(_ingest("src", code), store)


def test_each_markup_loads_its_own_splitter_only(store: Path) -> None:
    # A Markdown tree never loads the rst walker, an rst tree never the Markdown reader.
    markdown = _modules_after(_ingest("md", [("guide.md", "# Guide\n\nText.\n")]), store)
    assert "credo.knowledge.chunk.markdown" in markdown
    assert "credo.knowledge.chunk.rst" not in markdown
    rst = _modules_after(_ingest("rst", [("api.rst", "API\n===\n\nText.\n")]), store)
    assert "credo.knowledge.chunk.rst" in rst
    assert "credo.knowledge.chunk.markdown" not in rst
