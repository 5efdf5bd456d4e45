"""What a process that only reads pays for. Open + retrieve, the path the API, the hook and
`credo search` share, loads no write-path module and builds none of the classes that only
writes and the audit views use: a named tuple class costs ~0.2 ms to build in every fresh
process, and the first query after open has a latency target (issue #3, docs/BENCHMARKS.md
§ Retrieval latency). Those classes are made on first use (``credo.types.once``); every
name still imports, as one class, and pickles."""

from __future__ import annotations

import ast
import importlib
import os
import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from credo import Memory
from credo.types import once

# module -> the names it makes on first use
DEFERRED = {
    "credo.types": ("EdgeType", "EDGE_VALENCE", "Edge", "StoreStats"),
    "credo.store.beliefs": ("NewBelief",),
    "credo.store.log": ("LogEntry",),
    "credo.store.files": ("IngestedFile", "BeliefKey", "FileAnchor"),
    "credo.cluster": ("RetrievalCluster",),
    "credo.pack": ("PackResult",),
}
# Loaded by the first write (hrr_sync, identity, docuri) or an export (records) only.
WRITE_MODULES = {"credo.hrr_sync", "credo.records", "credo.identity", "credo.docuri"}

# Runs ACTION, then prints (the loaded modules, the deferred names already built).
PROBE = """
import sys
ACTION
deferred = DEFERRED
built = sorted(
    f"{module}.{name}"
    for module, names in deferred.items()
    for name in names
    if name in vars(sys.modules.get(module, sys))
)
sys.stdout.write(repr((sorted(sys.modules), built)))
"""

RETRIEVE = """
from credo import Memory
with Memory(sys.argv[1], root=sys.argv[2]) as memory:
    result = memory.retrieve("how do we deploy the service", with_doc_anchors=True)
assert result.ids and result.doc_anchors, result
"""

HOOK = """
import io, json
from credo import hook
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


def _probe(action: str, store: Path) -> tuple[set[str], list[str]]:
    script = PROBE.replace("ACTION", action).replace("DEFERRED", repr(DEFERRED))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["CREDO_HOOK_LOG"] = str(store.parent / "hook.log")
    done = subprocess.run(
        [sys.executable, "-c", script, str(store), str(store.parent)],
        cwd=store.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modules, built = ast.literal_eval(done.stdout)
    return set(modules), built


def test_open_and_retrieve_build_no_write_path_class(store: Path) -> None:
    modules, built = _probe(RETRIEVE, store)
    assert modules & WRITE_MODULES == set()
    assert built == []


def test_the_hook_builds_no_write_path_class(store: Path) -> None:
    """The hook also renders: render.py names Edge and StoreStats for type checking only."""
    modules, built = _probe(HOOK, store)
    assert modules & WRITE_MODULES == set()
    assert built == []


def test_a_write_then_builds_what_it_needs(store: Path) -> None:
    action = RETRIEVE + "\nwith Memory(sys.argv[1]) as memory:\n    memory.remember('new')\n"
    modules, built = _probe(action, store)
    assert {"credo.hrr_sync", "credo.identity"} <= modules
    assert "credo.store.beliefs.NewBelief" in built


@pytest.mark.parametrize(
    ("module", "name"), [(m, n) for m, names in DEFERRED.items() for n in names]
)
def test_every_deferred_name_imports_as_one_plain_class(module: str, name: str) -> None:
    namespace = importlib.import_module(module)
    value = getattr(namespace, name)
    assert getattr(namespace, name) is value
    assert vars(namespace)[name] is value  # built once, then an ordinary module attribute
    if isinstance(value, type):
        assert (value.__module__, value.__qualname__) == (module, name)
        assert pickle.loads(pickle.dumps(value)) is value


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("credo.store", "NewBelief"),
        ("credo.store", "LogEntry"),
        ("credo.memory", "ExportReport"),
    ],
)
def test_re_exported_names_still_import(module: str, name: str) -> None:
    value = getattr(importlib.import_module(module), name)
    home = importlib.import_module(value.__module__)
    assert getattr(home, name) is value


@pytest.mark.parametrize("module", [*DEFERRED, "credo.store", "credo.memory"])
def test_an_unknown_name_is_still_an_attribute_error(module: str) -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        importlib.import_module(module).no_such_name  # noqa: B018 (the access is the test)


def test_records_built_on_first_use_compare_and_pickle_as_before() -> None:
    from credo.store.files import BeliefKey, FileAnchor
    from credo.types import EDGE_VALENCE, Edge, EdgeType

    edge = Edge("a", "b", EdgeType.CITES, EDGE_VALENCE[EdgeType.CITES])
    assert edge == ("a", "b", "CITES", 0.5, None, 0.0)
    assert pickle.loads(pickle.dumps(edge)) == edge
    anchor = FileAnchor(BeliefKey("b1", "h", "document", False, None), "a.md#L1-L2", "L1-L2")
    assert pickle.loads(pickle.dumps(anchor)) == anchor
    assert repr(edge).startswith("Edge(src='a', dst='b', type=<EdgeType.CITES: 'CITES'>")


def test_once_defines_once_when_threads_race() -> None:
    calls: list[int] = []
    inside = threading.Event()

    @once
    def define() -> None:
        calls.append(1)
        inside.set()
        time.sleep(0.05)  # a second caller arrives while the first is still defining

    first = threading.Thread(target=define)
    first.start()
    inside.wait()
    second = threading.Thread(target=define)
    second.start()
    first.join()
    second.join()
    define()
    assert calls == [1]


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
