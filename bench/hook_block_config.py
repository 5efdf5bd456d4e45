"""The hook's block on configuration files: its bytes, and how many passages keep their lines.

    python bench/hook_block_config.py

The corpora and questions of bench/config_questions.py and bench/project_files.py (YAML,
TOML, JSON, INI and the files beside them; nothing committed: fetched by
``docs_corpora.fetch``). Each corpus is ingested into a fresh store, then each question is
run through the hook's own retrieval at its default budget (``hook.retrieve_for_hook``,
``config.HookSettings().token_budget``, 1,200 tokens, under its 6 KB cap). Prints per corpus
the block's bytes (p50, max), and the passages shown on their own lines (a key block,
``tokens.keeps_lines``) out of all shown. bench/docs_pack.py prints the same bytes for the
documentation corpora (``docs_multi.py --pack``: "hook block").
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "heldout"))

from config_questions import CONFIG
from config_questions import QUERIES as CONFIG_QUERIES
from credo import Memory
from credo.config import HookSettings, Settings
from credo.surfaces.hook import retrieve_for_hook
from docs_corpora import Corpus, fetch
from docs_multi import load_queries
from project_files import PROJECT
from project_files import QUERIES as PROJECT_QUERIES


def main() -> int:
    return report(((CONFIG, CONFIG_QUERIES), (PROJECT, PROJECT_QUERIES)))


def report(sets: Iterable[tuple[Sequence[Corpus], Path]]) -> int:
    """Print the block's bytes and kept passages for each corpus of ``sets`` (corpora and
    the folder of their questions), then for all questions together."""
    budget = HookSettings().token_budget
    sizes_all: list[int] = []
    for corpora, folder in sets:
        for corpus in corpora:
            path = folder / f"{corpus.name}.json"
            if not path.exists():
                continue
            queries, _ = load_queries(path)
            root = fetch(corpus)
            with tempfile.TemporaryDirectory(prefix="credo-block-") as tmp:
                memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
                try:
                    memory.ingest(*corpus.files(root))
                    sizes, kept, shown = [], 0, 0
                    for q in queries:
                        result, block = retrieve_for_hook(memory, q.text, budget)
                        sizes.append(len(block.encode("utf-8")))
                        shown += len(result.beliefs)
                        kept += sum("\n" in line for line in _entries(block))
                finally:
                    memory.close()
            sizes_all += sizes
            print(
                f"{corpus.name:<18} {len(queries):>3} questions  block bytes p50 "
                f"{statistics.median(sizes):.0f} max {max(sizes)}  "
                f"passages on their own lines {kept}/{shown}",
                flush=True,
            )
    if sizes_all:
        print(
            f"{'all':<18} {len(sizes_all):>3} questions  block bytes p50 "
            f"{statistics.median(sizes_all):.0f} max {max(sizes_all)}"
        )
    return 0


def _entries(block: str) -> list[str]:
    """The block's entries, a key block's lines (behind the gutter, "| ") joined to theirs."""
    out: list[str] = []
    for line in block.split("\n"):
        if line.startswith("| ") and out:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
