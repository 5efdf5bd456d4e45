"""The speaker lane: a question about a person is answered by what that person said.

A conversation turn is stored as ``Name: text`` (how transcripts write turns, and how the
LoCoMo bench stores them). "What activities does Melanie partake in?" is answered by
Melanie's own turns ("Melanie: I signed up for a pottery class"), but to BM25F her name is
a near-zero-weight term (it opens half the turns) and a turn that merely addresses her
("Caroline: Melanie, how are the kids?") matches it as well. So, among the candidates the
other lanes found:

    s_speaker(c) = 1   if c opens with a label ``L: `` and every word of L (stopwords
                       aside) is a term of the query
                   0   otherwise

A label is one to three words of letters before ``": "``: a speaker's name, or a note's
short tag ("Decision: ...", "Licence: MIT"), which the query naming it makes relevant the
same way. Text without such a label (prose, code, "Error 42: ...") is untouched, so on
stores without labelled beliefs the lane does nothing. It adds no candidates (a named
speaker said half of a conversation), but it lifts the named speaker's turns that the graph
lanes reached only weakly over the relevance floor: on LoCoMo a 1,500-token pack then holds
~35 turns instead of ~31, for a question about one person more of what that person said.
The weight (0.2, rank.DEFAULT_WEIGHTS) was chosen on LoCoMo dev conversations 26 and 30 and
confirmed on 41, 42 and 43 (docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from itertools import compress, repeat

from credo.retrieval.known import MAX_KNOWN
from credo.store.fts import STOPWORDS

# A label ends within this many characters ("Name: " or "Three Word Tag: ").
MAX_LABEL_CHARS = 40
MAX_LABEL_WORDS = 3
_FOUND = (-1).__lt__  # str.find found it


def label_of(content: str) -> str:
    """The text of ``content``'s leading label as written (before the ``": "`` that may end
    one), or "" when no ``": "`` ends one within ``MAX_LABEL_CHARS`` (a label "" names no
    one either way). A belief's alone: kept per store version (``Known.labels``)."""
    label, colon, _ = content[: MAX_LABEL_CHARS + 2].partition(": ")
    return label if colon else ""


def label_words(content: str) -> tuple[str, ...] | None:
    """The lower-cased words of ``content``'s leading label, stopwords aside, or None when
    it has no label (or only stopwords in it)."""
    label, colon, _ = content[: MAX_LABEL_CHARS + 2].partition(": ")
    return _words(label) if colon else None


def _words(label: str) -> tuple[str, ...] | None:
    words = label.split(" ")
    if len(words) > MAX_LABEL_WORDS or not all(word.isalpha() for word in words):
        return None
    named = tuple(w for w in (word.lower() for word in words) if w not in STOPWORDS)
    return named or None


def speaker_lane(
    terms: Collection[str],
    contents: Mapping[str, str],
    labels: dict[str, str] | None = None,
) -> dict[str, float]:
    """s_speaker of each candidate (``contents``: candidate -> its text) whose label the
    query's ``terms`` (lower-cased, as ``fts.query_terms`` gives them) name. ``labels``:
    ``label_of`` each belief met so far at the store version (``Known.labels``), read and
    filled in: a first pass then finds no label it found before (a ``str.find`` a
    candidate cost ~0.2 us, more than the lane's whole answer on a store of notes)."""
    if labels is not None:
        return _named(terms, _labelled(contents, labels))
    # Only a text with ": " where a label may end can have one: those are found C-level
    # (on a store of notes, few or none), and only they are read in Python.
    texts = contents.values()
    ends = map(str.find, texts, repeat(": "), repeat(0), repeat(MAX_LABEL_CHARS + 2))
    found = compress(zip(contents, texts, strict=True), map(_FOUND, ends))
    return _named(terms, ((belief_id, label_of(content)) for belief_id, content in found))


def _labelled(contents: Mapping[str, str], labels: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(id, label) of the candidates with a label, each looked up in ``labels`` and, when
    not met yet, found and kept there (``Known``'s bound: started over past ``MAX_KNOWN``)."""
    ids = list(contents)
    found = list(map(labels.get, ids))  # (None: not met at the version)
    if None in found:
        for at in [at for at, label in enumerate(found) if label is None]:
            belief_id = ids[at]
            if len(labels) >= MAX_KNOWN:
                labels.clear()
            found[at] = labels[belief_id] = label_of(contents[belief_id])
    if not any(found):  # (none labelled, a store of notes or code: no pair made, -12k)
        return iter(())
    return compress(zip(ids, found, strict=True), found)  # ("": no label)


def _named(terms: Collection[str], labelled: Iterable[tuple[str, str]]) -> dict[str, float]:
    """1.0 for each (id, label) of ``labelled`` whose label's words ``terms`` all hold."""
    scores: dict[str, float] = {}
    # A conversation has a few speakers: each label is read once per query, not per turn.
    named_by: dict[str, bool] = {}
    for belief_id, label in labelled:
        named = named_by.get(label)
        if named is None:
            words = _words(label)
            named = named_by[label] = words is not None and all(w in terms for w in words)
        if named:
            scores[belief_id] = 1.0
    return scores
