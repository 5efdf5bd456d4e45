"""Two versions of ``credo serve`` in turn on one store: the installed prompt hook it answers.

    PYTHONPATH=src python bench/compare_serve.py OLD_SRC NEW_SRC PROJECT
                                                 [--rounds 4] [--hooks 15] [--pause 5]

Each SRC is a folder holding the ``credo`` package (``git worktree add /tmp/old <commit>``,
then ``/tmp/old/src``); PROJECT a git project whose ``.credo/memory.db`` both trees can open
(for example one built by bench/synth.py records). Per round, for each tree in turn (which
goes first alternates): ``credo serve`` from that tree is started on the store, ``--pause``
seconds pass (a session's first prompt comes a few seconds after its server starts), then
``--hooks`` questions go through the installed hook command (``sh -c "python -S
.../hookstart.py hook prompt"``, this tree's client), each followed by ``python -S -c pass``,
the floor. Printed per round: the hook's p50 and its ratio to the floor, the server's own
answer time (``CREDO_HOOK_TRACE``, the first answer left out) and its ``VmHWM``.
Capture is off (``CREDO_CAPTURE=0``).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shlex
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo.surfaces.claude_setup import hook_argv
from scale import load, peak_rss_mib, prompt, run, start_server
from synth import ZipfText


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("project", type=Path)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--hooks", type=int, default=15)
    parser.add_argument("--pause", type=float, default=5.0)
    args = parser.parse_args()
    trees = {"old": str(Path(args.old).resolve()), "new": str(Path(args.new).resolve())}
    for source in trees.values():
        compileall.compile_dir(Path(source) / "credo", quiet=1)
    hook = shlex.join([*hook_argv(), "hook", "prompt"])
    text = ZipfText(seed=21)
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory(prefix="cs-", dir="/tmp") as folder:
        sockets = Path(folder) / "run"
        sockets.mkdir(mode=0o700)
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
            for name in order:
                log = Path(folder) / f"{name}-{round_}.log"
                env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
                env.update(
                    CREDO_CAPTURE="0",
                    CREDO_HOOK_TRACE="1",
                    CREDO_HOOK_LOG=str(log),
                    XDG_RUNTIME_DIR=str(sockets),
                    PYTHONPATH=trees[name],
                )
                server = start_server(args.project, env)
                try:
                    time.sleep(args.pause)
                    hooks, floors = [], []
                    for i in range(args.hooks):
                        payload = prompt(
                            args.project, f"{name}{round_}-{i}", f"How does {text.query()} work?"
                        )
                        hooks.append(run(["sh", "-c", hook], payload, args.project, env)[0])
                        floor = [sys.executable, "-S", "-c", "pass"]
                        floors.append(run(floor, b"", args.project, env)[0])
                    hwm, _ = peak_rss_mib(server.pid)
                finally:
                    server.send_signal(signal.SIGTERM)
                    server.communicate(timeout=60)
                answers = [
                    float(line.rsplit(" in ", 1)[1].split()[0])
                    for line in log.read_text().splitlines()
                    if "warm ok prompt" in line
                ][1:]  # the first is the start-up probe's
                p50, floor_p50 = statistics.median(hooks), statistics.median(floors)
                answer = statistics.median(answers)
                results[name].append((p50, p50 / floor_p50, answer))
                print(
                    f"round {round_} {name}: hook p50 {p50:.1f} ms = {p50 / floor_p50:.2f}x "
                    f"python -S -c pass ({floor_p50:.1f}); server answer p50 {answer:.1f} ms "
                    f"(max {max(answers):.0f}); VmHWM {hwm:.0f} MiB; load {load()}",
                    flush=True,
                )
    for name, rows in results.items():
        print(
            f"{name}: hook p50 {' / '.join(f'{r[0]:.1f}' for r in rows)} ms; ratio "
            f"{' / '.join(f'{r[1]:.2f}' for r in rows)}; answer "
            f"{' / '.join(f'{r[2]:.1f}' for r in rows)} ms"
        )


if __name__ == "__main__":
    main()
