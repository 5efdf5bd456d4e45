"""Claude Code hook latency, end to end, as Claude Code runs it: a fresh process per prompt,
the UserPromptSubmit JSON on stdin, the memory block read from stdout.

    python bench/hook_latency.py [--beliefs 10000] [--edges-per-belief 2] [--prompts 60]
                                 [--pythonpath PATCHED_SRC]

The store (10k beliefs, 20k edges by default; bench/synth.py Zipf text) is built once with
``Memory.import_records`` in a temporary git project. Three commands are timed per prompt,
interleaved so machine load hits them alike:

- the installed hook: the command ``credo setup claude`` writes (``python -S
  .../credo/hookstart.py hook prompt``), run through ``sh -c``;
- ``credo hook prompt``: the console script next to this interpreter;
- ``python -m credo.surfaces.hook``: the same hook without the click CLI layer;
- ``python -c pass`` and ``python -S -c pass``: the interpreter's own start-up, the floors.

Target (issue #6): p50 <= 100 ms for the installed hook at 10k beliefs / 20k edges. Then
``python -X importtime`` of one hook run is printed (the largest cumulative imports).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo
from credo import Memory
from credo.surfaces.claude_setup import credo_argv, hook_command
from synth import ZipfText, write_records


def build_project(root: Path, beliefs: int, edges_per_belief: int) -> Path:
    project = root / "proj"
    (project / ".git").mkdir(parents=True)
    records = write_records(root / "records.jsonl", beliefs, edges_per_belief, text="zipf")
    started = time.perf_counter()
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.import_records(records)
        stats = memory.stats()
    print(
        f"store: {stats.beliefs} beliefs, {stats.edges} edges "
        f"(built in {time.perf_counter() - started:.1f} s)"
    )
    return project


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(
    argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str]
) -> tuple[float, float, bytes]:
    """Wall-clock ms (what the user waits for) and CPU ms of the child (user + system: much
    less sensitive to other load on the machine), and what it printed."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, cwd=cwd, env=env, capture_output=True, check=True)
    wall = (time.perf_counter() - started) * 1000
    return wall, (_children_cpu() - cpu) * 1000, done.stdout


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def importtime(stdin: bytes, cwd: Path, env: dict[str, str], top: int) -> None:
    """The largest cumulative imports of one run of the installed hook command."""
    installed = shlex.split(hook_command())
    argv = [installed[0], "-X", "importtime", *installed[1:]]
    done = subprocess.run(argv, input=stdin, cwd=cwd, env=env, capture_output=True, check=True)
    rows: list[tuple[int, int, str]] = []
    for line in done.stderr.decode().splitlines():
        fields = line.removeprefix("import time:").split("|")
        if len(fields) == 3 and fields[0].strip().isdigit():
            rows.append((int(fields[1]), int(fields[0]), fields[2]))
    total = sum(cumulative for cumulative, _, name in rows if not name.startswith("  "))
    print(f"\ninstalled hook with -X importtime: {total / 1000:.1f} ms in imports")
    print(f"{'cumulative ms':>14} {'self ms':>8}  module")
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"{cumulative / 1000:>14.1f} {own / 1000:>8.1f}  {name.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beliefs", type=int, default=10_000)
    parser.add_argument("--edges-per-belief", type=int, default=2)
    parser.add_argument("--prompts", type=int, default=60)
    parser.add_argument("--top", type=int, default=15, help="importtime rows to print")
    parser.add_argument(
        "--pythonpath", help="Put this folder first on PYTHONPATH (time a patched credo tree)."
    )
    args = parser.parse_args()

    # pip byte-compiles an installed package; an editable tree under
    # PYTHONDONTWRITEBYTECODE=1 (this environment) would otherwise be compiled on every run.
    package = Path(credo.__file__).parent
    compileall.compile_dir(package, quiet=1)
    print(f"byte-compiled {package}")
    root = Path(tempfile.mkdtemp(prefix="credo-hook-bench-"))
    try:
        project = build_project(root, args.beliefs, args.edges_per_belief)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
        env["CREDO_HOOK_LOG"] = str(root / "hook.log")
        if args.pythonpath:
            env["PYTHONPATH"] = args.pythonpath
        text = ZipfText(seed=11)
        load = os.getloadavg()
        commands = {
            # what `credo setup claude` installs, run through a shell as Claude Code does
            "installed hook": ["sh", "-c", hook_command()],
            "credo hook prompt": [*credo_argv(), "hook", "prompt"],
            "python -m credo.surfaces.hook": [sys.executable, "-m", "credo.surfaces.hook"],
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -S -c pass": [sys.executable, "-S", "-c", "pass"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        printed = 0
        for _ in range(args.prompts):
            payload = json.dumps(
                {
                    "session_id": "bench",
                    "transcript_path": str(root / "t.jsonl"),
                    "cwd": str(project),
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": f"How does {text.query()} work here?",
                }
            ).encode()
            for name, argv in commands.items():
                elapsed, used, out = timed(argv, payload, project, env)
                times[name].append(elapsed)
                cpu[name].append(used)
                if "pass" not in name:
                    printed += bool(out)
        print(f"{args.prompts} prompts, fresh process each; {printed} hook runs printed a block")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in load)}")
        print(f"{'command':<24} {'p50 ms':>8} {'p99 ms':>8} {'min ms':>8} {'cpu p50 ms':>11}")
        for name, values in times.items():
            print(
                f"{name:<24} {statistics.median(values):>8.1f} "
                f"{percentile(values, 0.99):>8.1f} {min(values):>8.1f} "
                f"{statistics.median(cpu[name]):>11.1f}"
            )
        hook_p50 = statistics.median(times["installed hook"])
        verdict = "PASS" if hook_p50 <= 100 else "FAIL"
        print(f"target p50 <= 100 ms for the installed hook: {verdict} ({hook_p50:.1f} ms)")
        if (root / "hook.log").exists():
            print("hook log:", (root / "hook.log").read_text().strip()[:500])
        importtime(payload, project, env, args.top)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
