"""Which candidates are records of past changes (a changelog's passages), tests, or
passages inside a definition that are not its own.

A changelog (``CHANGES.md``, ``HISTORY.rst``, ``docs/whatsnew/3.12.rst``...) mentions every
feature again, once when it came and once each time it changed, in one-line entries packed
with the words of the documentation that explains it. So its passages compete with the
pages a question is about, and a list of unrelated entries matches the words of a question
spread over several of them. What was changed, and when, is what a changelog answers; how
something works now is what the rest of the documentation does. `rank.compose` weighs a
changelog passage's lanes by `rank.Weights.history` (below 1): it still answers the
questions whose words it matches best ("which release added X?").

Told by the trail ingest gives a passage (``CHANGES.md › Version 2.0.0 L12-L30``): a
documentation file (Markdown, reStructuredText, AsciiDoc, plain text) whose name, or a
folder of whose path, is one a changelog goes by. Code is never one (``history.py`` is a
module). Pure; no I/O.

A project's tests are the other kind (`is_test`): a test of a behaviour says in comments,
names and literals what the code under test does, in the words a question about that code
uses, and it is usually longer, so it matches more of them; but the question is about
where the behaviour is done, not where it is exercised. Measured (docs/BENCHMARKS.md §
Ranking, fifteenth pass): with their tests beside the source, credo's figures fell more
than the lexical baselines' on four held-out projects. `rank.compose` weighs test code's
lanes by `rank.Weights.tests`, except for a question that names tests itself
(`asks_for_tests`) or names a test file ("errors_test.go: what is expected..."; the pipeline
tells it by the doc lane's matches). Told by the path: a folder ``test``, ``tests``,
``testing`` or ``__tests__``, or a file ``test_*``, ``*_test.py``, ``*_test.go`` (the name
the go tool requires of a test file), ``conftest.py``, ``*.test.js``, ``*.spec.ts``...,
``tests.py`` (a Django app's tests module); or by a Rust file's module ``tests``, in the
trail or in a file of its own (``tests.rs``, from ``#[cfg(test)] mod tests;``).

The third kind is a code passage inside a definition that is not the definition's own
head (`inner_passages`): a paragraph of a long docstring, a comment in a body. Questions
about code ask where something is done, and their answer is a definition (the function
with its doc comment), which the definition's head passage stands for; a passage inside
another definition is a detail of that one. Such a passage matched a question's words more
densely than the function it was about: a ``Retry`` class docstring's paragraph on
``backoff_factor`` over ``get_backoff_time``, attrs' ``define`` docstring over the
validator asked about (day-code66: at 0.9 the first match of nine code questions rose,
none fell). `rank.compose` weighs its lanes by `rank.Weights.inner`. Told by the rows the
definition lane read (``Store.passage_definitions``): a keyword hit that sits in a
definition and is the head of none; a candidate no row was read for (a graph lane's, or the
definition lane switched off) is left alone.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING

from credo.store.changelog import is_changelog_path
from credo.types import TRAIL_SEPARATOR, split_lines, split_trail

if TYPE_CHECKING:
    from credo.store.defns import DefnHit


# The patterns are compiled on first use (`cache`): a store without passages of files (a
# hook's prompt over beliefs alone) never asks for them.
@cache
def _test_path() -> re.Pattern[str]:
    return re.compile(
        r"(?:^|/)(?:tests?|testing|__tests__)/"
        r"|(?:^|/)(?:test_[^/]*\.py|[^/]*_test\.(?:py|go)|conftest\.py|tests\.(?:py|rs)"
        r"|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?)$"
    )


_TEST_STEMS = frozenset({"test", "tests", "testing", "pytest", "fixture", "fixtures"})


@lru_cache(maxsize=8192)  # (a query asks it of every candidate's trail: a lookup when met)
def is_history(trail: str) -> bool:
    """True when `trail` (a passage's, as ingest writes it) places it in a changelog."""
    return _is_history_path(trail.split(TRAIL_SEPARATOR, 1)[0])


@lru_cache(maxsize=4096)
def _is_history_path(head: str) -> bool:
    """`head`: a trail up to its first separator (a path, or a path and its lines)."""
    return is_changelog_path(_path_of(head))


@lru_cache(maxsize=8192)  # (as ``is_history``)
def is_test(trail: str) -> bool:
    """True when `trail` (a passage's, as ingest writes it) places it in a project's tests."""
    test = _is_test_path(trail.split(TRAIL_SEPARATOR, 1)[0])
    return _in_rust_tests(trail) if test is None else test


@lru_cache(maxsize=4096)
def _is_test_path(head: str) -> bool | None:
    """Whether the path of `head` is a test file, or None for a Rust source, whose trail
    tells (`_in_rust_tests`). Cached per head: a query asks it of every candidate."""
    path = _path_of(head).lower().replace("\\", "/")
    if _test_path().search(path) is not None:
        return True
    return None if path.endswith(".rs") else False


@lru_cache(maxsize=4096)
def _in_rust_tests(trail: str) -> bool:
    """A Rust file's unit tests sit beside its code, in a module ``tests`` (the
    ``#[cfg(test)] mod tests`` the Rust book prescribes): anyhow's src/fmt.rs ›
    tests › one_digit (day-probe76)."""
    return "tests" in split_trail(trail).titles


def _path_of(head: str) -> str:
    """The file path of a trail's head: without its line range and its ``#`` fragment."""
    return split_lines(head)[0].rsplit("#", 1)[0]


def asks_for_tests(terms: Iterable[str]) -> bool:
    """True when the query's words (as `query_terms` gives them) name tests: then a test
    is what it is about, and test code keeps its full weight."""
    return any(term.lower() in _TEST_STEMS for term in terms)


def weighed_tests(
    terms: Iterable[str], trails: Mapping[str, str], named: Iterable[str]
) -> set[str]:
    """The candidates (`trails`: id -> trail) whose lanes weigh `rank.Weights.tests`: test
    code, unless the question names tests (`asks_for_tests`) or a test file: one of the
    `named` beliefs (the doc lane's, anchored in a file the question names) is test code
    ("errors_test.go: what is expected..." asks for that file as "which test..." does)."""
    if not trails:  # (no candidate is a file's: none is test code, whatever was asked)
        return set()
    if asks_for_tests(terms) or any(is_test(trails[i]) for i in named if i in trails):
        return set()
    return set(compress(trails, map(is_test, trails.values())))  # (C-level, in trails' order)


def inner_passages(rows: Mapping[str, "list[DefnHit]"]) -> set[str]:
    """The passages of ``rows`` (id -> the definitions it sits in, as
    ``Store.passage_definitions`` reads them) that sit in a definition and are the head of
    none: a docstring paragraph or a comment inside a definition. A passage whose text is
    in two files is a head if it is one in either."""
    return {i for i, found in rows.items() if found and not any(map(_IS_HEAD, found))}


_IS_HEAD = itemgetter(5)  # (a ``DefnHit``'s: the passage is the definition's head)


def weighed_sets(
    terms: Iterable[str],
    trails: Mapping[str, str],
    named: Iterable[str],
    defs: Mapping[str, "list[DefnHit]"],
) -> tuple[set[str], set[str], set[str]]:
    """The candidates ``compose`` weighs down, in its argument order: changelog passages
    (``is_history``), test code not asked for (``weighed_tests``) and passages inside a
    definition that are not its head (``inner_passages``)."""
    history = set(compress(trails, map(is_history, trails.values())))  # (C-level, in order)
    return history, weighed_tests(terms, trails, named), inner_passages(defs)
