"""LoCoMo turn-level retrieval benchmark: credo against a plain SQLite FTS5 baseline.

    python bench/locomo.py [--systems fts5-baseline,credo] [--retrieve-kwargs JSON]
                           [--label NAME] [--json OUT] [--dataset PATH]

Task (../shared/datasets/locomo/README.md): one memory per dialog turn, consecutive turns of
a session chained with TEMPORAL_NEXT (earlier -> later); every question is a query and its
evidence turns are the relevant memories. Each conversation gets its own fresh store.

Figures, overall and per category (1-5): recall@5, recall@10, nDCG@10, all evidence in the
top 10 (multi-evidence questions only), recall inside a 1,500-token pack (what the prompt
hook injects), question counts and mean retrieve latency.

Recall inside the pack counts a turn as packed whatever the pack shows of it, so a pack that
cuts turns to fit more of them scores higher even where the cut drops the answer. "Answer
terms in pack" checks what the agent reads: for each question whose answer shares a term
with its evidence turns (terms as the keyword index holds them: ``query_terms``, folded and
stemmed), the share of those shared terms that the pack's rendered text of the evidence turns
still holds (0 for an evidence turn left out). A baseline shows every turn whole.

Systems:
    fts5-baseline  standalone FTS5 table (porter unicode61), OR of quoted non-stopword terms
                   (credo's own ``query_terms``), ordered by bm25(); its pack is the ranked
                   list cut at 1,500 tokens, ceil(characters / 4) per turn.
    credo          ``Memory.retrieve(question, token_budget=...)``: the order of ``.beliefs``
                   at a 100,000-token budget for the ranking metrics, and what it packs at
                   1,500 tokens for the pack metric.
    aelfrice       aelfrice 5.2.0's ``retrieve`` in a Python >= 3.12 child process
                   (bench/aelfrice_side.py; installed from PyPI at bench time into a venv of
                   its own), read as credo is; its pack charged ceil(characters / 4).

Lane ablations run from the command line, for example
    python bench/locomo.py --systems credo --label no-heat \
        --retrieve-kwargs '{"lanes": {"heat": false}}'

Other benches import ``load_conversations`` and ``evaluate``. The dataset is read by path
(CC BY-NC 4.0: never copy it into the repository).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo.store.fts import query_terms
from credo.store.stem import stem, tokens
from metrics import all_found_at_k, ndcg_at_k, recall_at_k, recall_within_budget

_DATASET_PATH = Path("shared") / "datasets" / "locomo" / "locomo-dev.json"
# ../shared sits beside the checkout (CI's layout); a worktree nested deeper finds it higher up.
DEFAULT_DATASET = next(
    (
        folder / _DATASET_PATH
        for folder in Path(__file__).resolve().parents[1:]
        if (folder / _DATASET_PATH).is_file()
    ),
    Path(__file__).resolve().parents[2] / _DATASET_PATH,
)
PACK_BUDGET = 1_500
# Large enough that no conversation (at most ~700 turns of ~30 tokens) is cut: the ranking
# metrics then see credo's full order.
RANK_BUDGET = 100_000
CATEGORIES = (1, 2, 3, 4, 5)
# The reading of LoCoMo's category numbers most evaluations use (the paper lists them in a
# different order); category 1 questions nearly all have several evidence turns.
CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
_SESSION_KEY = re.compile(r"session_(\d+)")
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"


# -- data ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    id: str  # f"{sample_id}:{dia_id}"
    content: str
    session: str  # f"{sample_id}:session_{n}"
    created_at: float


@dataclass(frozen=True, slots=True)
class Question:
    id: str  # f"{sample_id}:q{index}", index into the conversation's qa list
    text: str
    category: int
    evidence: frozenset[str]  # turn ids
    answer: str = ""  # the reference answer ("" for questions without one)


@dataclass(frozen=True, slots=True)
class Conversation:
    sample_id: str
    turns: tuple[Turn, ...]
    sessions: tuple[tuple[str, ...], ...]  # turn ids per session, in dialog order
    questions: tuple[Question, ...]  # only questions with at least one valid evidence turn
    dropped_evidence: tuple[str, ...] = ()  # raw evidence entries naming no turn
    excluded_questions: int = 0  # questions left with no valid evidence

    def records(self) -> list[dict[str, Any]]:
        """The conversation as credo records: one belief per turn, TEMPORAL_NEXT edges."""
        out: list[dict[str, Any]] = [
            {
                "kind": "belief",
                "id": t.id,
                "content": t.content,
                "session": t.session,
                "origin": "conversation",
                "created_at": t.created_at,
            }
            for t in self.turns
        ]
        for session in self.sessions:
            out.extend(
                {"kind": "edge", "src": a, "dst": b, "type": "TEMPORAL_NEXT"}
                for a, b in itertools.pairwise(session)
            )
        return out


def _session_numbers(conversation: Mapping[str, Any]) -> list[int]:
    numbers = [
        int(m.group(1))
        for key, value in conversation.items()
        if (m := _SESSION_KEY.fullmatch(key)) and isinstance(value, list)
    ]
    return sorted(numbers)


def _session_start(raw: object, fallback: float) -> float:
    """The session's timestamp (read as UTC, so the result does not depend on the machine);
    turns are then spaced a second apart, which keeps created_at in dialog order."""
    if isinstance(raw, str):
        try:
            return datetime.strptime(raw, _DATE_FORMAT).replace(tzinfo=UTC).timestamp()
        except ValueError:
            pass
    return fallback


def _turn_content(turn: Mapping[str, Any]) -> str:
    content = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    if caption:
        content += f" [image: {caption}]"
    return content


def _parse_turns(
    sample_id: str, conversation: Mapping[str, Any]
) -> tuple[list[Turn], list[tuple[str, ...]]]:
    turns: list[Turn] = []
    sessions: list[tuple[str, ...]] = []
    for n in _session_numbers(conversation):
        start = _session_start(conversation.get(f"session_{n}_date_time"), float(n * 86_400))
        session_ids: list[str] = []
        for i, raw in enumerate(conversation[f"session_{n}"]):
            turn = Turn(
                id=f"{sample_id}:{raw['dia_id']}",
                content=_turn_content(raw),
                session=f"{sample_id}:session_{n}",
                created_at=start + i,
            )
            turns.append(turn)
            session_ids.append(turn.id)
        sessions.append(tuple(session_ids))
    return turns, sessions


def split_evidence(entries: Sequence[str]) -> list[str]:
    """Evidence dia_ids, with entries holding several ids (``"D1:3; D1:5"``) split apart."""
    return [part.strip() for entry in entries for part in entry.split(";") if part.strip()]


def _parse_conversation(sample: Mapping[str, Any]) -> Conversation:
    sample_id = str(sample["sample_id"])
    turns, sessions = _parse_turns(sample_id, sample["conversation"])
    known = {t.id for t in turns}
    questions: list[Question] = []
    dropped: list[str] = []
    excluded = 0
    for index, qa in enumerate(sample["qa"]):
        evidence: set[str] = set()
        for dia_id in split_evidence(qa.get("evidence", [])):
            turn_id = f"{sample_id}:{dia_id}"
            if turn_id in known:
                evidence.add(turn_id)
            else:
                dropped.append(turn_id)
        if not evidence:
            excluded += 1
            continue
        questions.append(
            Question(
                id=f"{sample_id}:q{index}",
                text=str(qa["question"]),
                category=int(qa["category"]),
                evidence=frozenset(evidence),
                answer=str(qa.get("answer", "")),
            )
        )
    return Conversation(
        sample_id=sample_id,
        turns=tuple(turns),
        sessions=tuple(sessions),
        questions=tuple(questions),
        dropped_evidence=tuple(dropped),
        excluded_questions=excluded,
    )


def load_conversations(path: str | os.PathLike[str] = DEFAULT_DATASET) -> list[Conversation]:
    """Parse a LoCoMo JSON file (the benchmark's own layout) into conversations.

    Evidence ids that name no turn of their conversation are dropped and questions left
    without evidence are excluded; both are counted on each ``Conversation``.
    """
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return [_parse_conversation(sample) for sample in data]


# -- systems -------------------------------------------------------------------------------


class SystemUnavailableError(RuntimeError):
    """A system cannot run in this checkout (for example an API that does not exist yet)."""


class Index(Protocol):
    """One conversation loaded into a system."""

    def rank(self, question: str) -> list[str]:
        """Turn ids, best first."""
        ...

    def pack(self, question: str, budget: int) -> list[tuple[str, int, str]]:
        """What the system would inject at ``budget`` tokens: (turn id, token cost, the text
        shown of the turn), in order."""
        ...

    def close(self) -> None: ...


class System(Protocol):
    name: str

    def open(self, conversation: Conversation, folder: Path) -> Index: ...


def token_cost(content: str) -> int:
    """The README's estimator for systems without their own packer: ceil(characters / 4)."""
    return math.ceil(len(content) / 4)


class _Fts5Index:
    def __init__(self, conversation: Conversation) -> None:
        # A private in-memory database: the baseline must not share anything with credo's
        # store except the query tokenisation.
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE turns USING fts5("
            "id UNINDEXED, content, tokenize = 'porter unicode61')"
        )
        self.conn.executemany(
            "INSERT INTO turns (id, content) VALUES (?, ?)",
            [(t.id, t.content) for t in conversation.turns],
        )
        self.cost = {t.id: token_cost(t.content) for t in conversation.turns}
        self.content = {t.id: t.content for t in conversation.turns}

    def rank(self, question: str) -> list[str]:
        terms = query_terms(question)
        if not terms:
            return []
        expression = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        rows = self.conn.execute(
            "SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns), id",
            (expression,),
        ).fetchall()
        return [str(r[0]) for r in rows]

    def pack(self, question: str, budget: int) -> list[tuple[str, int, str]]:
        # recall_within_budget cuts this at the budget; the full ranking is cheap here.
        return [(i, self.cost[i], self.content[i]) for i in self.rank(question)]

    def close(self) -> None:
        self.conn.close()


class Fts5Baseline:
    name = "fts5-baseline"

    def open(self, conversation: Conversation, folder: Path) -> Index:
        return _Fts5Index(conversation)


class _CredoIndex:
    def __init__(self, conversation: Conversation, folder: Path, kwargs: Mapping[str, Any]) -> None:
        from credo import Memory

        self.memory = Memory(folder / "memory.db", root=folder)
        self.memory.import_records(conversation.records())
        self.kwargs = dict(kwargs)

    def rank(self, question: str) -> list[str]:
        result = self.memory.retrieve(question, token_budget=RANK_BUDGET, **self.kwargs)
        return [b.id for b in result.beliefs]

    def pack(self, question: str, budget: int) -> list[tuple[str, int, str]]:
        result = self.memory.retrieve(question, token_budget=budget, **self.kwargs)
        # ``shown``: the text the pack renders (a belief of a credo before compress: content)
        return [(b.id, b.tokens, getattr(b, "shown", b.content)) for b in result.beliefs]

    def close(self) -> None:
        self.memory.close()


class CredoSystem:
    """credo's own retrieval; ``retrieve_kwargs`` go to ``Memory.retrieve`` unchanged."""

    name = "credo"

    def __init__(self, retrieve_kwargs: Mapping[str, Any] | None = None) -> None:
        from credo.memory import Memory

        if not callable(getattr(Memory, "retrieve", None)):
            raise SystemUnavailableError(
                "system 'credo' needs Memory.retrieve(query, token_budget=...), which this "
                "checkout does not have yet; run `python bench/locomo.py --systems "
                "fts5-baseline` until it lands"
            )
        self.retrieve_kwargs = dict(retrieve_kwargs or {})

    def open(self, conversation: Conversation, folder: Path) -> Index:
        return _CredoIndex(conversation, folder, self.retrieve_kwargs)


class _AelfriceIndex:
    def __init__(self, python: Path, conversation: Conversation, folder: Path) -> None:
        from aelfrice_side import AelfriceChild

        self.child = AelfriceChild(python, folder / "aelfrice")
        self.child.load(conversation.records())

    def rank(self, question: str) -> list[str]:
        return self.child.retrieve(question, RANK_BUDGET)[0]

    def pack(self, question: str, budget: int) -> list[tuple[str, int, str]]:
        # aelfrice packs by its own estimator; charged here as the FTS5 baseline is
        ids, contents = self.child.retrieve(question, budget)
        return [(i, token_cost(c), c) for i, c in zip(ids, contents, strict=True)]

    def close(self) -> None:
        self.child.close()


class AelfriceSystem:
    """aelfrice 5.2.0 (bench/aelfrice_side.py: a Python >= 3.12 child process, its
    production ``retrieve``): the order it returns at 100,000 tokens ranks, what it returns
    at 1,500 tokens packs."""

    name = "aelfrice"

    def __init__(self) -> None:
        from aelfrice_side import aelfrice_python

        self.python = aelfrice_python()

    def open(self, conversation: Conversation, folder: Path) -> Index:
        return _AelfriceIndex(self.python, conversation, folder)


def make_system(name: str, retrieve_kwargs: Mapping[str, Any] | None = None) -> System:
    if name == Fts5Baseline.name:
        return Fts5Baseline()
    if name == CredoSystem.name:
        return CredoSystem(retrieve_kwargs)
    if name == AelfriceSystem.name:
        return AelfriceSystem()
    raise SystemUnavailableError(f"unknown system {name!r}; use fts5-baseline, credo or aelfrice")


# -- evaluation ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Scores:
    """Per-question figures of one group (overall or a category)."""

    recall5: list[float] = field(default_factory=list)
    recall10: list[float] = field(default_factory=list)
    ndcg10: list[float] = field(default_factory=list)
    all10: list[float] = field(default_factory=list)  # multi-evidence questions only
    pack_recall: list[float] = field(default_factory=list)
    answer_in_pack: list[float] = field(default_factory=list)  # questions with answer terms
    pack_items: list[int] = field(default_factory=list)
    pack_tokens: list[int] = field(default_factory=list)
    rank_ms: list[float] = field(default_factory=list)
    pack_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        def mean(values: Sequence[float]) -> float | None:
            return statistics.fmean(values) if values else None

        return {
            "questions": len(self.recall5),
            "recall@5": mean(self.recall5),
            "recall@10": mean(self.recall10),
            "ndcg@10": mean(self.ndcg10),
            "all_evidence@10": mean(self.all10),
            "multi_evidence_questions": len(self.all10),
            f"recall@pack{PACK_BUDGET}": mean(self.pack_recall),
            "answer_terms_in_pack": mean(self.answer_in_pack),
            "answer_questions": len(self.answer_in_pack),
            "pack_beliefs_mean": mean(self.pack_items),
            "pack_tokens_mean": mean(self.pack_tokens),
            "rank_ms_mean": mean(self.rank_ms),
            "pack_ms_mean": mean(self.pack_ms),
        }


def _timed(call: Any, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    value = call(*args)
    return value, (time.perf_counter() - started) * 1000.0


def terms(text: str) -> set[str]:
    """The keyword index's terms of ``text``: its ``query_terms``, folded and stemmed."""
    return {stem(t) for term in query_terms(text) for t in tokens(term)}


def answer_in_pack(
    question: Question, shown: Mapping[str, str], evidence_text: Mapping[str, str]
) -> float | None:
    """Share of the answer's terms found in the evidence turns that the pack still shows of
    them (module docstring); None when the answer shares no term with its evidence."""
    answer = terms(question.answer)
    wanted = answer & set().union(*(terms(evidence_text[e]) for e in question.evidence))
    if not wanted:
        return None
    seen = set().union(*(terms(shown[e]) for e in question.evidence if e in shown))
    return len(wanted & seen) / len(wanted)


def _score_question(
    index: Index,
    question: Question,
    budget: int,
    groups: Sequence[_Scores],
    evidence_text: Mapping[str, str],
) -> None:
    ranked, rank_ms = _timed(index.rank, question.text)
    packed, pack_ms = _timed(index.pack, question.text, budget)
    relevant = question.evidence
    fitted: list[int] = []
    shown: dict[str, str] = {}
    used = 0
    for turn_id, cost, text in packed:  # what fits, the same cut recall_within_budget makes
        if used + cost > budget:
            break
        used += cost
        fitted.append(cost)
        shown[turn_id] = text
    answer = answer_in_pack(question, shown, evidence_text)
    for group in groups:
        group.recall5.append(recall_at_k(ranked, relevant, 5))
        group.recall10.append(recall_at_k(ranked, relevant, 10))
        group.ndcg10.append(ndcg_at_k(ranked, relevant, 10))
        if len(relevant) > 1:
            group.all10.append(float(all_found_at_k(ranked, relevant, 10)))
        group.pack_recall.append(
            recall_within_budget([(i, cost) for i, cost, _ in packed], relevant, budget)
        )
        if answer is not None:
            group.answer_in_pack.append(answer)
        group.pack_items.append(len(fitted))
        group.pack_tokens.append(used)
        group.rank_ms.append(rank_ms)
        group.pack_ms.append(pack_ms)


def evaluate(
    system: System,
    conversations: Sequence[Conversation],
    *,
    pack_budget: int = PACK_BUDGET,
    progress: bool = False,
) -> dict[str, Any]:
    """Run every question of every conversation through ``system``; return the figures.

    Each conversation is loaded into a fresh index in its own temporary folder. The result
    holds ``overall`` and ``by_category`` (keys "1".."5") summaries plus setup seconds.
    """
    overall = _Scores()
    by_category = {c: _Scores() for c in CATEGORIES}
    setup_seconds = 0.0
    for conversation in conversations:
        with tempfile.TemporaryDirectory(prefix="credo-locomo-") as folder:
            started = time.perf_counter()
            index = system.open(conversation, Path(folder))
            setup_seconds += time.perf_counter() - started
            text = {t.id: t.content for t in conversation.turns}
            try:
                for question in conversation.questions:
                    groups = [overall, by_category.setdefault(question.category, _Scores())]
                    _score_question(index, question, pack_budget, groups, text)
            finally:
                index.close()
        if progress:
            print(f"  {system.name}: {conversation.sample_id} done", file=sys.stderr)
    return {
        "system": system.name,
        "pack_budget": pack_budget,
        "setup_seconds": setup_seconds,
        "overall": overall.summary(),
        "by_category": {str(c): s.summary() for c, s in sorted(by_category.items())},
    }


# -- report --------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(figures: Mapping[str, Any]) -> str:
    header = (
        f"{'group':<16}{'n':>5}{'R@5':>8}{'R@10':>8}{'nDCG@10':>9}"
        f"{'all@10':>8}{'(n)':>6}{f'R@{PACK_BUDGET}tok':>11}{'ans@pack':>9}{'ms/q':>8}"
    )
    rows = [header, "-" * len(header)]
    groups = [("overall", figures["overall"])] + [
        (f"{c} {CATEGORY_NAMES.get(int(c), '')}", s) for c, s in figures["by_category"].items()
    ]
    for name, s in groups:
        rows.append(
            f"{name:<16}{s['questions']:>5}{_fmt(s['recall@5']):>8}{_fmt(s['recall@10']):>8}"
            f"{_fmt(s['ndcg@10']):>9}{_fmt(s['all_evidence@10']):>8}"
            f"{s['multi_evidence_questions']:>6}{_fmt(s[f'recall@pack{PACK_BUDGET}']):>11}"
            f"{_fmt(s['answer_terms_in_pack']):>9}{_fmt(s['rank_ms_mean'], 2):>8}"
        )
    o = figures["overall"]
    rows.append(
        f"pack: {_fmt(o['pack_beliefs_mean'], 1)} beliefs, {_fmt(o['pack_tokens_mean'], 0)} "
        f"tokens on average; answer terms in pack {_fmt(o['answer_terms_in_pack'])} "
        f"({o['answer_questions']} questions); setup {figures['setup_seconds']:.2f}s; "
        f"ms/q is the ranking call (pack call {_fmt(o['pack_ms_mean'], 2)} ms)"
    )
    return "\n".join(rows)


def _dataset_notes(conversations: Sequence[Conversation]) -> dict[str, Any]:
    dropped = [d for c in conversations for d in c.dropped_evidence]
    return {
        "conversations": len(conversations),
        "turns": sum(len(c.turns) for c in conversations),
        "questions": sum(len(c.questions) for c in conversations),
        "dropped_evidence_ids": dropped,
        "excluded_questions": sum(c.excluded_questions for c in conversations),
    }


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument(
        "--systems",
        default="fts5-baseline,credo",
        help="comma-separated: fts5-baseline, credo, aelfrice (default: the first two)",
    )
    parser.add_argument(
        "--retrieve-kwargs",
        default="{}",
        help='JSON object passed to Memory.retrieve, e.g. \'{"lanes": {"heat": false}}\'',
    )
    parser.add_argument("--label", default="", help="a name for this run, kept in --json")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument("--progress", action="store_true", help="per-conversation progress")
    args = parser.parse_args(argv)
    try:
        args.retrieve_kwargs = json.loads(args.retrieve_kwargs)
    except json.JSONDecodeError as exc:
        parser.error(f"--retrieve-kwargs is not valid JSON: {exc}")
    if not isinstance(args.retrieve_kwargs, dict):
        parser.error("--retrieve-kwargs must be a JSON object")
    return args


def _iter_systems(
    names: Sequence[str], kwargs: Mapping[str, Any]
) -> Iterator[tuple[str, System | SystemUnavailableError]]:
    for name in names:
        try:
            yield name, make_system(name, kwargs)
        except SystemUnavailableError as exc:
            yield name, exc


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    conversations = load_conversations(args.dataset)
    notes = _dataset_notes(conversations)
    print(
        f"LoCoMo {args.dataset.name}: {notes['conversations']} conversations, "
        f"{notes['turns']} turns, {notes['questions']} questions scored"
    )
    print(
        f"dropped {len(notes['dropped_evidence_ids'])} evidence ids naming no turn "
        f"({', '.join(notes['dropped_evidence_ids']) or 'none'}); "
        f"excluded {notes['excluded_questions']} questions with no valid evidence"
    )
    # Settings that change credo's behaviour without a flag must be visible in the record.
    env = {k: v for k, v in sorted(os.environ.items()) if k.startswith("CREDO_")}
    if env:
        print(f"environment: {env}")
    results: dict[str, Any] = {}
    failed: dict[str, str] = {}
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    for name, system in _iter_systems(names, args.retrieve_kwargs):
        if isinstance(system, SystemUnavailableError):
            failed[name] = str(system)
            print(f"\n== {name}: not run\nerror: {system}", file=sys.stderr)
            continue
        figures = evaluate(system, conversations, progress=args.progress)
        results[name] = figures
        suffix = f" [{args.label}]" if args.label else ""
        kwargs = f" retrieve_kwargs={args.retrieve_kwargs}" if name == "credo" else ""
        print(f"\n== {name}{suffix}{kwargs}\n{format_table(figures)}")
    if args.json is not None:
        payload = {
            "label": args.label,
            "dataset": str(args.dataset),
            "retrieve_kwargs": args.retrieve_kwargs,
            "environment": env,
            "data": notes,
            "systems": results,
            "failed": failed,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", "utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
