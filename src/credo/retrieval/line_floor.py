"""Which candidates are long enough to cut, and the least their lines can cost.

Both answers read each candidate's text length, most texts not in cache: a caller that
needs both (the pipeline, with groups kept aside) reads the lengths once
(``text_lengths``) and hands them to each. The compress stage (``compress.py``) and the
truth graph's per-group figures ask the same questions of the same texts.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Iterable, Mapping

SHORT_CHARS = 200  # at most this long: verbatim (~50 tokens)


def text_lengths(ids: list[str], content: Mapping[str, str]) -> list[int]:
    """The length of each of ``ids``' texts, in order."""
    return list(map(len, map(content.__getitem__, ids)))


def least_chars(
    ids: list[str], content: Mapping[str, str], lengths: Iterable[int] | None = None
) -> int:
    """The characters the lines of ``ids`` take at the least: each its text, id and "[] \n"
    (``lengths``: their texts' lengths, when read already)."""
    if lengths is None:
        lengths = map(len, map(content.__getitem__, ids))
    # (the ids' characters by one join, C-level, not a ``len`` call an id: ~36.1k -> ~19.0k
    # a query for ~112 candidates given their lengths; the same sum)
    return sum(lengths) + len("".join(ids)) + 4 * len(ids)


def long_ids(
    ids: list[str], content: Mapping[str, str], lengths: Iterable[int] | None = None
) -> list[str]:
    """The ids whose text is longer than ``SHORT_CHARS``, in order (``lengths``: their
    texts' lengths, when read already)."""
    if lengths is None:
        lengths = map(len, map(content.__getitem__, ids))
    # (a comprehension: ``map(SHORT_CHARS.__lt__, ...)`` calls a method-wrapper, which
    # builds an argument tuple an item: ~53.8k -> ~39.2k a query for ~112 candidates)
    return [i for i, chars in zip(ids, lengths, strict=True) if chars > SHORT_CHARS]
