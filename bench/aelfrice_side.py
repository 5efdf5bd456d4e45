"""aelfrice 5.2.0 beside credo in a bench: its interpreter, and a child process that answers.

aelfrice 5.2.0 needs Python >= 3.12 (on 3.11 pip offers only its 0.0.1), so a bench that puts
it beside credo runs it in a process of its own interpreter: ``aelfrice_python`` finds one
that has it, else makes a venv (default ``~/.cache/credo-bench/aelfrice-5.2.0``) from the
first Python 3.12 or 3.13 found (on PATH, then pyenv's) and installs aelfrice there from
PyPI at bench time. Nothing of aelfrice is kept in this repository.

``AelfriceChild`` is one long-lived child over a store of its own, spoken to in JSON lines:
``load`` inserts credo-style records (beliefs, edges) through ``MemoryStore.insert_belief``
/ ``insert_edge`` in one transaction; ``retrieve`` answers with
``aelfrice.retrieval.retrieve(store, query, token_budget=..., user_locks=())``, its
production path (the keyword index cached on the store for the process's life), returning
the beliefs' ids and contents in its order. The child runs with its own HOME and working
folder, so no configuration or user store of this machine's is read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

AELFRICE = "aelfrice==5.2.0"
DEFAULT_VENV = Path.home() / ".cache" / "credo-bench" / "aelfrice-5.2.0"

# The child: one JSON request a line on stdin, one JSON answer a line on stdout.
CHILD = r"""
import json, sys, time
from aelfrice.models import Belief, Edge
from aelfrice.retrieval import retrieve
from aelfrice.store import MemoryStore

store = MemoryStore(sys.argv[1])
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "load":
        started = time.perf_counter()
        with store.transaction():
            for r in request["records"]:
                if r["kind"] == "belief":
                    store.insert_belief(Belief(
                        id=r["id"], content=r["content"], content_hash="h" + r["id"],
                        alpha=1.0, beta=1.0, type="factual", lock_level="none",
                        locked_at=None, created_at=r["created_at"], last_retrieved_at=None,
                        session_id=r.get("session")))
                else:
                    store.insert_edge(Edge(src=r["src"], dst=r["dst"], type=r["type"],
                                           weight=1.0))
        answer = {"seconds": time.perf_counter() - started}
    else:
        got = retrieve(store, request["query"], token_budget=request["budget"], user_locks=())
        answer = {"ids": [b.id for b in got], "contents": [b.content for b in got]}
    print(json.dumps(answer), flush=True)
"""


def aelfrice_python(venv: Path = DEFAULT_VENV) -> Path:
    """An interpreter that has aelfrice 5.2.0: ``venv``'s, made and filled if need be."""
    python = venv / "bin" / "python"
    if python.exists() and _has_aelfrice(python):
        return python
    base = next((p for p in _candidates() if _runs_312(p)), None)
    if base is None:
        sys.exit("Error: aelfrice 5.2.0 needs Python >= 3.12; none found (give --python)")
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", AELFRICE], check=True)
    return python


def child_env(home: Path) -> dict[str, str]:
    """This process's environment without credo's or aelfrice's settings, ``home`` as HOME,
    one OpenBLAS thread (its spinning workers would count against it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AELFRICE", "CREDO"))}
    env.update(HOME=str(home), OPENBLAS_NUM_THREADS="1")
    return env


def _candidates() -> list[str]:
    """python3.12 / python3.13 on PATH, then pyenv's installs (a pyenv shim of a version
    that is not selected exits 127, so each is tried)."""
    found = [p for p in (shutil.which("python3.12"), shutil.which("python3.13")) if p]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    return found + [str(p) for p in sorted(pyenv.glob("3.1[23]*/bin/python3"))]


def _runs_312(python: str) -> bool:
    probe = "import sys; print(sys.version_info >= (3, 12))"
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == "True"


def _has_aelfrice(python: Path) -> bool:
    probe = "import importlib.metadata as m; print(m.version('aelfrice'))"
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == AELFRICE.split("==")[1]


class AelfriceChild:
    """One aelfrice process over a new store in ``folder`` (its HOME and working folder)."""

    def __init__(self, python: Path, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [str(python), "-c", CHILD, str(folder / "memory.db")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=folder,
            env=child_env(folder),
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"Error: the aelfrice child ended (exit {self.process.wait()})")
        return json.loads(line)

    def load(self, records: list[dict[str, Any]]) -> float:
        """Insert credo records; a belief's ``created_at`` (epoch seconds) becomes ISO 8601."""
        converted = [
            {**r, "created_at": _iso(r.get("created_at"))} if r["kind"] == "belief" else r
            for r in records
        ]
        return float(self.ask({"op": "load", "records": converted})["seconds"])

    def retrieve(self, query: str, budget: int) -> tuple[list[str], list[str]]:
        """The ids and contents aelfrice returns for ``query`` at ``budget`` tokens."""
        answer = self.ask({"op": "retrieve", "query": query, "budget": budget})
        return answer["ids"], answer["contents"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _iso(created_at: object) -> str:
    seconds = float(created_at) if isinstance(created_at, int | float) else 0.0
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
