"""What the prompt hook injects, in bytes, on a real project: credo's own docs and source
ingested, the installed hook command run per prompt as Claude Code runs it.

    python bench/injection_size.py [--budgets 1200,2400]

The prompts below were written before any run: acknowledgements, one-word prompts and
real requests a developer would type in this repository. For each hook budget
(``CREDO_HOOK_TOKEN_BUDGET``; 1200 is the default, 2400 was the hook's budget before the
agent's-day work, when it used search's) it prints the bytes of each class of prompt:
mean, max, and how many blocks pass 6 KB (the issue's ceiling for a real prompt).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import credo
from credo import Memory
from credo.surfaces.claude_setup import hook_argv

REPO = Path(__file__).resolve().parents[1]
ACKS = ["yes", "continue", "ok thanks", "sounds good, go ahead", "lgtm", "y"]
ONE_WORD = ["deploy", "tests", "hooks", "clustering"]
REAL = [
    "How does the hook decide what goes into the memory block for a prompt?",
    "Where is the token budget for the pack set, and how are locked beliefs charged?",
    "add a new lane to retrieval that boosts recently used beliefs",
    "why does credo search show a trail after some results?",
    "Explain how supersession works when a correction replaces an old belief",
    "fix the failing migration test for the context column",
    "How do I set credo up for Codex and Cursor?",
    "what does the doctor command check about document anchors?",
    "make the MCP server return the rendered block for search_memory",
    "How are near-duplicate beliefs found and merged by dedup?",
    "Which settings can go in .credo.toml and which env variables override them?",
    "refactor the BM25F weights so the context column counts less",
]


def run_hook(argv: list[str], prompt: str, project: Path, env: dict[str, str]) -> bytes:
    payload = {
        "session_id": "size-bench",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }
    done = subprocess.run(
        argv, input=json.dumps(payload).encode(), cwd=project, env=env, capture_output=True
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="1200,2400")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="credo-size-bench-"))
    try:
        project = root / "proj"
        (project / ".git").mkdir(parents=True)
        with Memory(project / ".credo" / "memory.db", root=REPO) as memory:
            memory.ingest(REPO / "docs", REPO / "README.md", Path(credo.__file__).parent)
            memory.remember("Never push directly to main; open a pull request", lock=True)
            stats = memory.stats()
        print(f"store: {stats.beliefs} beliefs from credo's docs and source, 1 lock")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
        env.update(CREDO_HOOK_LOG=str(root / "hook.log"), CREDO_CAPTURE="0")
        env["CREDO_GLOBAL_DB"] = "off"
        argv = [*hook_argv(), "hook", "prompt"]
        print(f"{'budget':>6} {'prompts':<16} {'n':>3} {'mean B':>8} {'max B':>7} {'> 6 KB':>7}")
        for budget in (int(b) for b in args.budgets.split(",")):
            env["CREDO_HOOK_TOKEN_BUDGET"] = str(budget)
            classes = (("acknowledgement", ACKS), ("one word", ONE_WORD), ("real", REAL))
            for name, prompts in classes:
                sizes = [len(run_hook(argv, p, project, env)) for p in prompts]
                over = sum(size > 6 * 1024 for size in sizes)
                print(
                    f"{budget:>6} {name:<16} {len(sizes):>3} {statistics.mean(sizes):>8.0f} "
                    f"{max(sizes):>7} {over:>7}"
                )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
