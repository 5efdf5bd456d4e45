"""The capture patterns compiled on first use (cap86): importing capture compiles none of
them, and each answers exactly as the pattern compiled at import did (days86's sources),
on every labelled capture prompt and on soups of their gate words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge import changeover, evidence, lead_in, signals
from credo.knowledge.capture import _clean, extract_statements
from credo.knowledge.lazy_pattern import LazyPattern
from credo.knowledge.prose import sentences as sentence_spans

CAPTURE_DEV = Path(__file__).resolve().parents[1] / "bench" / "capture"

# days86's patterns as they were compiled at import (2d9a0ce), rebuilt from today's parts.
_MIND_BRANCH = (
    r"|^(?:so\s+)?(?:we|i)(?:'ve|\s+have)?\s+changed\s+(?:our|my)\s+minds?\b"
    r"(?=[^,:;—–-]{0,40}[,:;—–-])"
)
EAGER_CORRECTION_LEAD = re.compile(
    signals.CORRECTION_LEAD.pattern + _MIND_BRANCH, signals.CORRECTION_LEAD.flags
)
EAGER_LEAD_IN = re.compile(
    lead_in._FORM % (lead_in._LEAD_WORDS + lead_in._CHANGED_MIND), re.VERBOSE
)
EAGER_ROLE = re.compile(evidence.ROLE.pattern, evidence.ROLE.flags)
EAGER = {
    "changeover": re.compile(changeover.CHANGEOVER.pattern, changeover.CHANGEOVER.flags),
    "changing_over": re.compile(changeover.CHANGING_OVER.pattern, changeover.CHANGING_OVER.flags),
}


def _same_match(a: re.Match[str] | None, b: re.Match[str] | None) -> bool:
    return (a is None) == (b is None) and (a is None or a.span() == b.span())  # type: ignore[union-attr]


def _assert_same(sentence: str) -> None:
    clean = _clean(sentence).lower()
    assert lead_in.lead_in(clean) == EAGER_LEAD_IN.sub("", clean), sentence
    assert lead_in.correction_lead(clean) == (EAGER_CORRECTION_LEAD.match(clean) is not None)
    assert _same_match(changeover.CHANGEOVER.search(clean), EAGER["changeover"].search(clean))
    assert _same_match(changeover.CHANGING_OVER.search(clean), EAGER["changing_over"].search(clean))
    for text in (sentence, sentence.strip()):
        assert _same_match(evidence.ROLE.search(text), EAGER_ROLE.search(text)), text
        assert _same_match(evidence.ROLE.match(text), EAGER_ROLE.match(text)), text


def _labelled_sentences() -> list[str]:
    out = []
    for path in sorted(CAPTURE_DEV.glob("dev*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                prompt = json.loads(line)["prompt"]
                out.extend(prompt[start:end] for start, end in sentence_spans(prompt))
    return out


def test_every_labelled_sentence_reads_as_with_the_eager_patterns() -> None:
    sentences = _labelled_sentences()
    assert len(sentences) > 1000
    for sentence in sentences:
        _assert_same(sentence)


GATE_WORDS = st.sampled_from(
    "we we've i so have our my the team changed minds mind on about cache lru_cache "
    "functools.lru_cache : , ; - decided agreed to use drop moved switched from off replaced "
    "by with are 're moving switching call standup zoom not instead of teams redis "
    "Maria Dana is the release manager maintainer owner lead for this project ask her "
    "no actually ok".split(" ")
)


@settings(max_examples=500, deadline=None)
@given(st.lists(GATE_WORDS, max_size=14).map(" ".join))
def test_lazy_patterns_answer_as_the_eager_ones(text: str) -> None:
    _assert_same(text)


HEADS = st.sampled_from(
    ["", "Maria is the", "Dana is our", "The", "Our", "We", "So we've", "no, we", "I", "we're"]
)
MIDDLES = st.sampled_from(
    [
        "release manager",
        "owner",
        "docs lead",
        "maintainer",
        "changed our mind on the cache",
        "changed my minds",
        "decided to drop",
        "agreed to use",
        "moving the call",
        "switching the job store",
        "moved from",
        "replaced",
    ]
)
TAILS = st.sampled_from(
    [
        "",
        "is Dana.",
        "for this project is Sam",
        ": use functools.lru_cache",
        "to Zoom, not Teams",
        "to redis, not celery",
        "python 3.8.",
        "black to ruff",
        "json.dumps with orjson",
        "; ask her first",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.tuples(HEADS, MIDDLES, TAILS).map(" ".join))
def test_lazy_patterns_answer_as_the_eager_ones_on_their_forms(text: str) -> None:
    _assert_same(text)


def test_the_labelled_prompts_give_the_same_statements_after_a_compile() -> None:
    """A pattern compiled midway (by the first sentence holding its gate word) changes no
    later answer: every labelled prompt read twice gives the same statements."""
    prompts = [
        json.loads(line)["prompt"]
        for path in sorted(CAPTURE_DEV.glob("dev*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    first = [extract_statements(prompt) for prompt in prompts]
    assert [extract_statements(prompt) for prompt in prompts] == first


def test_importing_capture_compiles_none_of_the_lazy_patterns() -> None:
    code = (
        "import credo.knowledge.capture\n"
        "from credo.knowledge import changeover, evidence, lead_in, passing\n"
        "lazy = [changeover.CHANGEOVER, changeover.CHANGING_OVER, evidence.ROLE,\n"
        "        lead_in._LEAD_IN_MIND, lead_in._CHANGED_MIND_LEAD, passing._TRY_OUT]\n"
        "print(sum(p._compiled is not None for p in lazy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0"


def test_a_gate_closed_text_is_not_searched() -> None:
    pattern = LazyPattern(r"\bmind\b", gate=("mind",))
    assert pattern.search("no gate word here") is None
    assert pattern.sub("", "no gate word here") == "no gate word here"
    assert pattern._compiled is None
    assert pattern.search("never mind").span() == (6, 10)  # type: ignore[union-attr]
    assert pattern.sub("", "never mind") == "never "
