"""A file's text split into the passages ingest writes: the pure part of ingesting a file,
the same in the writer's process and in a worker's (`pool`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from credo.knowledge.chunk import Chunk, split_file
from credo.knowledge.chunk.passage import passages


class Split(NamedTuple):
    """A file's passages and its code definitions' line spans (for the definition lane):
    all of them, and those that declare members (``Chunk.members``)."""

    chunks: list[Chunk]
    definitions: list[tuple[int, int]]
    scopes: list[tuple[int, int]]


def split_passages(path: str, text: str) -> Split:
    """The passages of the file at ``path`` holding ``text`` (its name picks the reader;
    a pip-tools input's folder too: `language_for`)."""
    with collector_paused():
        fine = split_file(path, text)
    # A constant's chunk (``Chunk.value``) is a passage alone and in no definition's span:
    # the file's other passages, and the definition lane's statistics, are as without it.
    values = [c for c in fine if c.value]
    if values:
        fine = [c for c in fine if not c.value]
    heads = [c for c in fine if c.role == "definition"]
    spans = [(c.start_line, c.end_line) for c in [*heads, *values]]
    scopes = [(c.start_line, c.end_line) for c in heads if c.members]
    return Split([*passages(fine), *values], spans, scopes)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while one file is parsed.

    A parse allocates a tree of many small objects (a docutils doctree, markdown-it's
    tokens, a syntax tree's nodes) that stays alive until the chunks are read from it;
    each allocation burst runs a collection that walks the young tree to find nothing,
    and a full one walks all of it: a sixth of the CPU of ingesting a Sphinx tree
    (pytest's docs: 4.1 s with, 3.4 s without). The collector resumes after the file, and
    what the parse left cyclic (a doctree's parent links) is collected then, once."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
