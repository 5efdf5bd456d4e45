"""A throw-away trial (issue #14): WordNet synonyms on the query side, patched in from here.

    PYTHONPATH=src python bench/synonym_trial.py --variant b [--log OUT.jsonl] \\
        -- bench/docs_multi.py --per-query
    PYTHONPATH=src python bench/synonym_trial.py --variant d --source c --weight 0.1 \\
        -- bench/devsets/run.py
    PYTHONPATH=src python bench/synonym_trial.py --show "how do I emphasise a line"

Runs another bench script in this process (``runpy``) with credo's ranking patched; nothing
here is shipped code and credo does not depend on WordNet. The variants are those
pre-registered in ``bench/synonym_trial.md``:

    main   the code unpatched
    a      synonyms of every sense of each query word, extra keyword terms at full weight
    b      synonyms of each part of speech's first (most frequent) sense, the same way
    c      as b, for a query word whose stem is in <= 2 beliefs of the store, and only
           synonyms whose stem the store holds
    d      the synonyms of ``--source`` (a, b or c) as a lane of their own, ``syn``: the
           BM25F FTS5 gives each candidate for the synonyms alone, weight ``--weight``

WordNet 3.0 is read from ``--wordnet`` (Debian's ``wordnet-base``: ``/usr/share/wordnet``):
``index.<pos>`` lists a lemma's synsets in sense order (tag counts, most frequent first),
``data.<pos>`` a synset's lemmas (``offset lex_filenum ss_type w_cnt word lex_id ...``, the
count in hex), ``<pos>.exc`` the irregular forms ``morphy`` reads first.
"""

from __future__ import annotations

import argparse
import json
import re
import runpy
import sqlite3
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from credo.retrieval import pipeline
from credo.store.fts import MAX_QUERY_TERMS, STOPWORDS, query_terms
from credo.store.inflection import with_base_words
from credo.store.stem import stem

WORDNET = Path("/usr/share/wordnet")
POS = ("noun", "verb", "adj", "adv")
# WordNet's morphy detachment rules (wn's morph.c), per part of speech.
DETACH: Mapping[str, tuple[tuple[str, str], ...]] = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}
GAP_DF = 2  # (c): a query word is a gap when its stem is in at most this many beliefs
_WORD = re.compile(r"[a-z]{3,}")
_LEMMA = re.compile(r"[a-z]+")
_MARKER = re.compile(r"\((a|p|ip)\)$")


class WordNet:
    """Lemma -> synset offsets per part of speech, offset -> lemmas, and the exceptions."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.index: dict[str, dict[str, list[int]]] = {}
        self.exc: dict[str, dict[str, list[str]]] = {}
        for pos in POS:
            self.index[pos] = _read_index(folder / f"index.{pos}")
            self.exc[pos] = _read_exc(folder / f"{pos}.exc")
        self._data: dict[str, BinaryIO] = {}

    def synset(self, pos: str, offset: int) -> list[str]:
        """The lemmas of the synset at ``offset`` of ``data.<pos>``, as written there."""
        handle = self._data.get(pos)
        if handle is None:
            handle = self._data[pos] = (self.folder / f"data.{pos}").open("rb")
        handle.seek(offset)
        fields = handle.readline().decode("utf-8").split(" ")
        count = int(fields[3], 16)
        return [fields[4 + 2 * i] for i in range(count)]

    def base(self, word: str, pos: str) -> str | None:
        """The word itself when ``index.<pos>`` holds it, else WordNet's morphy."""
        index = self.index[pos]
        if word in index:
            return word
        for form in self.exc[pos].get(word, ()):
            if form in index:
                return form
        for suffix, ending in DETACH[pos]:
            if word.endswith(suffix):
                form = word[: len(word) - len(suffix)] + ending
                if form in index:
                    return form
        return None

    def senses(self, word: str, *, first: bool) -> list[tuple[str, list[str]]]:
        """(pos, lemmas) of the word's synsets: noun, verb, adj, adv, each in sense order
        (only the first of each part of speech when ``first``)."""
        out = []
        for pos in POS:
            base = self.base(word, pos)
            if base is None:
                continue
            offsets = self.index[pos][base]
            for offset in offsets[:1] if first else offsets:
                out.append((pos, self.synset(pos, offset)))
        return out


def _read_index(path: Path) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.startswith(" "):  # the licence header
            continue
        f = line.split()
        synsets, pointers = int(f[2]), int(f[3])
        offsets = f[4 + pointers + 2 :]
        assert len(offsets) == synsets, line
        out[f[0]] = [int(o) for o in offsets]
    return out


def _read_exc(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text("utf-8").splitlines():
        f = line.split()
        if len(f) >= 2:
            out.setdefault(f[0], []).extend(f[1:])
    return out


def clean(lemma: str) -> str | None:
    """A lemma as a single lower-case word, or None (multi-word, hyphen, digit, ...)."""
    word = _MARKER.sub("", lemma.lower())
    return word if _LEMMA.fullmatch(word) else None


# -- the expansion ------------------------------------------------------------------------


class Trial:
    """The variant's state: WordNet, the store of the retrieve under way, the log."""

    def __init__(self, variant: str, source: str, weight: float, log: Path | None) -> None:
        self.variant = variant
        self.source = source if variant == "d" else variant
        self.weight = weight
        self.wordnet = WordNet(WORDNET) if variant != "main" else None
        self.store: Any = None
        self.pending: list[str] = []  # (d): the synonyms of the query under way
        self.log = log.open("a", encoding="utf-8") if log else None

    def df(self, term_stem: str) -> int:
        """Live beliefs whose indexed text holds ``term_stem`` (FTS5's row vocabulary)."""
        conn: sqlite3.Connection = self.store.conn
        ask = "SELECT doc FROM temp.syn_vocab WHERE term = ?"
        try:
            row = conn.execute(ask, (term_stem,)).fetchone()
        except sqlite3.OperationalError:  # this connection has no vocabulary table yet
            conn.execute(
                "CREATE VIRTUAL TABLE temp.syn_vocab USING fts5vocab(main, beliefs_fts, row)"
            )
            row = conn.execute(ask, (term_stem,)).fetchone()
        return int(row[0]) if row else 0

    def synonyms(self, words: list[str], asked: list[str]) -> list[tuple[str, str]]:
        """(query word, synonym) pairs, as pre-registered, in order, distinct."""
        assert self.wordnet is not None
        gap = self.source == "c"
        taken = {stem(t) for t in asked}
        out: list[tuple[str, str]] = []
        for word in words:
            if not _WORD.fullmatch(word):
                continue
            if gap and self.df(stem(word)) > GAP_DF:
                continue
            for _, lemmas in self.wordnet.senses(word, first=self.source != "a"):
                for lemma in lemmas:
                    syn = clean(lemma)
                    if syn is None or len(syn) < 3 or syn in STOPWORDS:
                        continue
                    syn_stem = stem(syn)
                    if syn_stem in taken:
                        continue
                    if gap and self.df(syn_stem) < 1:
                        continue
                    taken.add(syn_stem)
                    out.append((word, syn))
        return out

    def with_synonyms(self, terms: list[str], text: str = "") -> list[str]:
        asked = with_base_words(terms, text)
        pairs = self.synonyms(terms, asked)
        cap = max(MAX_QUERY_TERMS, len(terms))
        if self.variant == "d":
            self.pending = [s for _, s in pairs]
            out = asked
        else:
            out = list(dict.fromkeys(asked + [s for _, s in pairs]))[:cap]
        if self.log is not None:
            self.log.write(json.dumps({"q": text, "syn": pairs, "terms": out}) + "\n")
        return out

    def install(self) -> None:
        if self.variant == "main":
            return
        rank = pipeline._rank
        compose = pipeline.compose

        def rank_hook(store: Any, text: str, *args: Any, **kwargs: Any) -> Any:
            self.store, self.pending = store, []
            return rank(store, text, *args, **kwargs)

        def compose_hook(
            lane_scores: Mapping[str, Mapping[str, float]],
            confidence: Mapping[str, float],
            weights: Any,
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            if self.pending and confidence:
                scores = self.store.keyword_scores(self.pending, list(confidence))
                lane_scores = {**lane_scores, "syn": scores}
                weights = weights._replace(lanes={**weights.lanes, "syn": self.weight})
            return compose(lane_scores, confidence, weights, *args, **kwargs)

        pipeline._rank = rank_hook  # type: ignore[assignment]
        # (``_rank``'s terms only: snippet.Terms reads ``base_terms`` as it was)
        pipeline.base_terms = lambda text: self.with_synonyms(query_terms(text), text)  # type: ignore[assignment]
        if self.variant == "d":
            pipeline.compose = compose_hook  # type: ignore[assignment]


def run_script(script: str, argv: list[str]) -> int:
    """``python script argv...`` in this process, its folder first on the path."""
    path = Path(script).resolve()
    sys.argv = [str(path), *argv]
    sys.path.insert(0, str(path.parent))
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in args:
        at = args.index("--")
        args, rest = args[:at], args[at + 1 :]
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=("main", "a", "b", "c", "d"), default="main")
    parser.add_argument("--source", choices=("a", "b", "c"), default="b", help="for d")
    parser.add_argument("--weight", type=float, default=0.1, help="for d: the lane's weight")
    parser.add_argument("--log", type=Path, default=None, help="JSON lines: query, synonyms")
    parser.add_argument("--show", default=None, help="print a query's synonyms and exit")
    opts = parser.parse_args(args)
    trial = Trial("b" if opts.show else opts.variant, opts.source, opts.weight, opts.log)
    if opts.show is not None:
        show: Callable[[str], None] = sys.stdout.write
        terms = query_terms(opts.show)
        for variant in ("a", "b"):
            trial.source = variant
            pairs = trial.synonyms(terms, with_base_words(terms, opts.show))
            show(f"{variant}: {pairs}\n")
        return 0
    if not rest:
        parser.error("name the bench script after --")
    trial.install()
    try:
        return run_script(rest[0], rest[1:])
    finally:
        if trial.log is not None:
            trial.log.close()


if __name__ == "__main__":
    raise SystemExit(main())
