"""Instructions a Python child process executes, counted by valgrind's cachegrind.

Instruction counts do not move with the machine's load, so the benches that compare two
trees' work per query (`truth_instructions.py`, `warm_instructions.py`) read them here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


def python_instructions(
    src: Path, code: str, args: Sequence[str], env: Mapping[str, str] | None = None
) -> int:
    """cachegrind's ``I refs`` of ``python -c code *args`` importing credo from ``src``."""
    # One hash seed for every child: set and dict orders, and so the work, the same.
    child_env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0", **(env or {})}
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            # the interpreter itself, not a shim script that would start it
            os.path.realpath(sys.executable),
            "-c",
            code,
            *args,
        ],
        env=child_env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))
