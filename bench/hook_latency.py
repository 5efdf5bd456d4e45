"""Claude Code hook latency, end to end, as Claude Code runs it: a fresh process per event,
the hook JSON on stdin, the output read from stdout.

    python bench/hook_latency.py [--beliefs 10000] [--edges-per-belief 2] [--prompts 60]
                                 [--pythonpath PATCHED_SRC]

The store (10k beliefs, 20k edges by default; bench/synth.py Zipf text) is built once with
``Memory.import_records`` in a temporary git project, with the default settings (capture on,
the injection journal written on every injection). Timed per round, interleaved so machine
load hits them alike:

- ``prompt hook``: the command ``credo setup claude`` installs for UserPromptSubmit
  (``python -S .../credo/hookstart.py hook prompt``, through ``sh -c``). One prompt in four
  states a rule or corrects one, so capture writes a belief (and may supersede one); the
  rest are questions, which are retrieved for and journalled;
- ``prompt hook, questions``: the same command on questions only;
- ``session-start hook``: SessionStart (locks + most useful beliefs);
- ``stop hook``: Stop, over a 200-turn transcript (capture re-read, automatic feedback);
- ``prompt hook, warm``: the same command and payloads as ``prompt hook``, answered by a
  ``credo serve`` kept running on the store (docs/AGENT.md § Warm engine); every other
  command runs with ``CREDO_WARM=off``, the direct path;
- ``credo hook prompt``: the console script next to this interpreter;
- ``python -c pass`` and ``python -S -c pass``: the interpreter's own start-up, the floors.

Targets (issue #16): the installed prompt hook p50 <= 100 ms at 10k with capture on;
SessionStart <= 150 ms. Issue #17: the warm prompt hook p50 <= 3x
``python -S -c pass``. Then ``python -X importtime`` of one prompt hook is printed.
The package is byte-compiled first, as ``credo setup claude`` does for an install.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo
from credo import Memory
from credo.surfaces.claude_setup import hook_argv
from credo.surfaces.install import credo_argv
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


def start_server(project: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``credo serve`` on the bench store, once its socket answers."""
    from credo.surfaces import warm

    store = project / ".credo" / "memory.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "credo", "--db", str(store), "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    probe = json.dumps({"cwd": str(project), "hook_event_name": "Elsewhere"}).encode()
    deadline = time.monotonic() + 60
    saved = dict(os.environ)
    os.environ.update({k: v for k, v in env.items()})
    for name in [n for n in os.environ if n.startswith("CREDO_") and n not in env]:
        del os.environ[name]
    try:
        while warm.ask("prompt", probe) is None:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"credo serve did not start: {server.stderr.read()!r}")
            time.sleep(0.05)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return server


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


def installed(event: str) -> str:
    """The hook command ``credo setup claude`` writes for ``event``."""
    return shlex.join([*hook_argv(), "hook", event])


RULES = [
    "No, we never use {a} in this repository. Always use {b} instead.",
    "From now on, always run the {a} check before you push.",
    "I prefer {a} over {b} for new modules.",
    "Actually the {a} service listens on port 5433, not 5432.",
]


def prompt_payload(project: Path, transcript: Path, prompt: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": str(transcript),
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    ).encode()


def write_transcript(path: Path, text: ZipfText, turns: int) -> None:
    """A Claude Code transcript: user prompts and assistant replies, one JSON per line."""
    with path.open("w", encoding="utf-8") as out:
        for turn in range(turns):
            user = (
                RULES[turn % 4].format(a=text.query(), b=text.query())
                if turn % 10 == 0
                else (f"How does {text.query()} work here?")
            )
            reply = f"It works through {text.query()} and {text.query()}."
            for kind, content in (("user", user), ("assistant", [{"type": "text", "text": reply}])):
                record = {"type": kind, "message": {"role": kind, "content": content}}
                out.write(json.dumps(record) + "\n")


def importtime(stdin: bytes, cwd: Path, env: dict[str, str], top: int) -> None:
    """The largest cumulative imports of one run of the installed prompt hook."""
    installed_hook = shlex.split(installed("prompt"))
    argv = [installed_hook[0], "-X", "importtime", *installed_hook[1:]]
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
        "--settle",
        type=float,
        default=0.3,
        help="Seconds of rest before each timed command: the capture a prompt hook leaves "
        "to a detached child (or to the warm server) finishes before the next is timed.",
    )
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
    server: subprocess.Popen[bytes] | None = None
    try:
        project = build_project(root, args.beliefs, args.edges_per_belief)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
        env["CREDO_HOOK_LOG"] = str(root / "hook.log")
        run = root / "run"  # the sockets' folder ($XDG_RUNTIME_DIR/credo), this run's own
        run.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(run)
        if args.pythonpath:
            env["PYTHONPATH"] = args.pythonpath
        direct_env = {**env, "CREDO_WARM": "off"}
        server = start_server(project, env)
        text = ZipfText(seed=11)
        transcript = root / "transcript.jsonl"
        write_transcript(transcript, text, 200)
        load = os.getloadavg()
        commands = {
            # what `credo setup claude` installs, run through a shell as Claude Code does
            "prompt hook": ["sh", "-c", installed("prompt")],
            "prompt hook, questions": ["sh", "-c", installed("prompt")],
            "prompt hook, warm": ["sh", "-c", installed("prompt")],
            "session-start hook": ["sh", "-c", installed("session-start")],
            "stop hook": ["sh", "-c", installed("stop")],
            "credo hook prompt": [*credo_argv(), "hook", "prompt"],
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -S -c pass": [sys.executable, "-S", "-c", "pass"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        printed: dict[str, int] = dict.fromkeys(commands, 0)
        for round_ in range(args.prompts):
            question = f"How does {text.query()} work here?"
            rule = RULES[round_ % 4].format(a=text.query(), b=text.query())
            payloads = {
                "prompt hook": prompt_payload(
                    project, transcript, rule if round_ % 4 == 0 else question
                ),
                "prompt hook, warm": prompt_payload(
                    project, transcript, rule if round_ % 4 == 0 else question
                ),
                "prompt hook, questions": prompt_payload(project, transcript, question),
                "session-start hook": json.dumps(
                    {
                        "session_id": "bench",
                        "transcript_path": str(transcript),
                        "cwd": str(project),
                        "hook_event_name": "SessionStart",
                        "source": "startup",
                    }
                ).encode(),
                "stop hook": json.dumps(
                    {
                        "session_id": "bench",
                        "transcript_path": str(transcript),
                        "cwd": str(project),
                        "hook_event_name": "Stop",
                        "stop_hook_active": False,
                        "last_assistant_message": f"It works through {text.query()}.",
                    }
                ).encode(),
            }
            for name, argv in commands.items():
                payload = payloads.get(name, payloads["prompt hook, questions"])
                chosen = env if name.endswith(", warm") else direct_env
                time.sleep(args.settle)
                elapsed, used, out = timed(argv, payload, project, chosen)
                times[name].append(elapsed)
                cpu[name].append(used)
                printed[name] += bool(out)
        server.send_signal(signal.SIGTERM)
        _, said = server.communicate(timeout=30)
        print(f"credo serve: {said.decode().strip().splitlines()[-1]}")
        with Memory(project / ".credo" / "memory.db", root=project) as memory:
            stats = memory.stats()
            journal = memory.store.conn.execute("SELECT count(*) FROM injections").fetchone()[0]
            captured = memory.store.conn.execute("SELECT count(*) FROM captures").fetchone()[0]
        print(
            f"{args.prompts} rounds, fresh process each; after them: {stats.beliefs} beliefs, "
            f"{captured} captured, {journal} injections journalled"
        )
        print(f"load average before: {' '.join(f'{x:.2f}' for x in load)}")
        header = f"{'command':<24} {'p50 ms':>8} {'p99 ms':>8} {'min ms':>8} {'cpu p50 ms':>11}"
        print(f"{header} {'printed':>8}")
        for name, values in times.items():
            print(
                f"{name:<24} {statistics.median(values):>8.1f} "
                f"{percentile(values, 0.99):>8.1f} {min(values):>8.1f} "
                f"{statistics.median(cpu[name]):>11.1f} {printed[name]:>8}"
            )
        for name, target in (("prompt hook", 100), ("session-start hook", 150)):
            p50 = statistics.median(times[name])
            verdict = "PASS" if p50 <= target else "FAIL"
            print(f"target p50 <= {target} ms for the {name}: {verdict} ({p50:.1f} ms)")
        floor = statistics.median(times["python -S -c pass"])
        for name in ("prompt hook, warm", "prompt hook"):
            ratio = statistics.median(times[name]) / floor
            print(f"{name}: p50 {ratio:.2f}x python -S -c pass", end="")
            if name.endswith(", warm"):
                print(f" (target <= 3x: {'PASS' if ratio <= 3 else 'FAIL'})", end="")
            print()
        if (root / "hook.log").exists():
            print("hook log:", (root / "hook.log").read_text().strip()[:500])
        payload = payloads["prompt hook, questions"]
        importtime(payload, project, direct_env, args.top)
    finally:
        if server is not None and server.poll() is None:
            server.kill()
            server.wait()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
