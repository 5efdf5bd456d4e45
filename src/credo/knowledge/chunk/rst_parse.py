"""docutils configured to read any reStructuredText quietly, for `split_rst` to walk.

Imported only when an ``.rst`` file is split (`split_rst` imports it lazily), so docutils
never loads on the read path.

The configuration never prints, never raises on markup, never reads another file and
never runs code: ``report_level`` and ``halt_level`` 5 with the warning stream captured,
``file_insertion_enabled`` and ``raw_enabled`` off, no syntax highlighting, no transforms
(the walker resolves what it needs: hyperlink targets). Python warnings are silenced for
the parse.

Sphinx documents use directives and roles docutils does not know. While credo parses, the
docutils registries are swapped for credo's own (under a lock; the process's registries
are put back afterwards, and nothing another docutils user registered leaks in):

- a code directive (``code-block``, ``code``, ``sourcecode``, ``code-tab``) becomes a
  literal block, as ``::`` makes one, carrying its lines: the walker gives its names to
  its passage's context, never its text; its ``:caption:`` (and ``literalinclude``'s,
  whose file is not read) becomes a paragraph before it;
- other code and generated content is skipped: `SKIPPED_DIRECTIVES`; an autodoc directive
  (``autofunction:: pkg.name``) keeps its argument as a label and the prose written under
  it, like any other directive (its docstring is in the code, which credo reads itself);
- ``versionadded``, ``versionchanged``, ``deprecated`` and ``versionremoved`` keep their
  text, led by a label such as "versionchanged 2.1";
- any other unknown directive (``tab``, ``confval``, ``py:function``...; and ``class``,
  which Sphinx takes over from docutils) is parsed as a container: its argument becomes
  a label (a signature, a tab name) and its content is read as reStructuredText; its
  options are ignored, but for a description's ``:type:``, ``:default:`` and ``:value:``,
  a paragraph after the label (`rst_options`). ``only``, ``ifconfig``, ``tabs``
  and ``grid`` drop their argument (a condition, a layout); ``seealso``, ``todo``,
  ``hlist`` and ``glossary`` take none (text on their first line is content);
- docutils' own directives take options they do not know, as Sphinx gives them (an
  admonition's ``:collapsible:``, a rubric's ``:heading-level:``): docutils would refuse
  the whole directive and its text was lost (`_tolerant`);
- the ``changelog`` extension's ``changelog`` (a release: a section titled by its
  ``:version:``) and ``change`` (led by its ``:tags:`` and ``:tickets:``): `rst_options`;
- roles are `rst_roles.Roles`: any unknown role renders as its text (``:func:`~a.b``` as
  "a.b", ``:ref:`Label <target>``` as "Label"), ``:doc:`` and ``:download:`` targets
  become links; the default role, ``:pep:`` and ``:rfc:`` with an explicit title render
  as the title, the target kept for the chunk's context.

A parse that passes its time budget (checked each time a block's inline text is parsed)
raises `ParseTimeout`; the caller falls back to plain text. The budget is CPU time of the
parsing thread (`time.thread_time`): a loaded machine, where the parse waits for a core,
does not make a real file fall back (wall time did, at load 7-10 on 2 cores).
"""

from __future__ import annotations

import io
import re
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any
from unicodedata import east_asian_width

import docutils
from docutils import frontend, nodes, statemachine, utils
from docutils.parsers import rst
from docutils.parsers.rst import Directive, directives, roles, states, tableparser
from docutils.parsers.rst.languages import en

from credo.knowledge.chunk import (
    rst_glossary,
    rst_inline,
    rst_inner_titles,
    rst_nodes,
    rst_options,
    rst_roles,
    rst_views,
)
from credo.knowledge.chunk.rst_inline import ParseTimeout as ParseTimeout
from credo.knowledge.chunk.rst_plain import one_line_cells as _one_line_cells
from credo.knowledge.chunk.rst_plain import quick_bullets as _quick_bullets

# Directives whose content is code, a file list or generated from elsewhere.
SKIPPED_DIRECTIVES = frozenset(
    "literalinclude highlight highlightlang toctree index "
    "include raw contents sectnum header footer meta title target-notes "
    "doctest testcode testoutput testsetup testcleanup ipython jupyter-execute "
    "plot graphviz graph digraph inheritance-diagram mermaid uml productionlist "
    "tabularcolumns module currentmodule py:module py:currentmodule program "
    "sectionauthor moduleauthor codeauthor default-domain rst-class cssclass "
    "autosummary click prompt program-output command-output exec "
    "literalinclude-diff only-html spelling:word-list".split()
)
# Directives whose content is code written in the page: read as a literal block. (Doctests
# are skipped with their printed output: measured, their words mislead more than help.)
# (sphinx-tabs' ``code-tab`` too: its argument is a language and a tab name, its content
# code; skipped, nox's usage page lost every command it shows.)
CODE_DIRECTIVES = frozenset("code code-block sourcecode code-tab".split())
VERSION_DIRECTIVES = frozenset("versionadded versionchanged deprecated versionremoved".split())
# Unknown directives whose argument is a condition or a layout, not text to keep.
_CONTENT_ONLY = frozenset("only ifconfig tabs grid".split())
# Sphinx directives with content and no argument: text on the first line is content.
_BODY_ONLY = frozenset("seealso todo hlist glossary".split())
# Names Sphinx takes over from docutils: ``.. class:: Name(args)`` is the Python domain's
# class description (Sphinx styles an element with ``rst-class``). docutils' own ``class``
# hands its content to a pending node the walker skips: a described class's whole body,
# its nested methods and attributes too, was lost (scrapy's reference pages).
_SPHINX_NAMES = frozenset(("class",))
# Layout directives whose label picks one presentation of the same content (a tab's
# "pyproject.toml" / "setup.py", "Linux" / "Windows"): the label leads its first paragraph
# but is no context of the rest (it named every code example of setuptools' pages).
_LAYOUT = frozenset("tab group-tab tab-item card dropdown grid-item-card".split())
_OPTION = re.compile(r"\s*:[^:\s][^:]*:(?:\s|$)")
_CAPTION = re.compile(r"\s*:caption:\s+(\S.*)$")
_LOCK = threading.Lock()


def parse(text: str, budget: float) -> Any:
    """The docutils document of `text`, parsed within `budget` seconds.

    Raises:
        ParseTimeout: the budget ran out. docutils itself may raise on input it cannot
            handle (deep nesting); the caller treats any exception as "read as plain text".
    """
    document = utils.new_document("<rst>", _settings())
    with (
        _LOCK,
        _registries(),
        _pooled_state_machines(),
        _ascii_fast_paths(),
        _quick_literal_next(),
        _quick_lines(),
        _one_line_cells(),
        _quick_bullets(),
        rst_nodes.quick_links(),
        rst_nodes.no_section_ids(),
        rst_views.quick_views(),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        _DEADLINE.at = time.thread_time() + budget
        inliner = _INLINERS.pop() if _INLINERS else rst_inline.inliner(_DEADLINE)
        parser = rst.Parser(inliner=inliner)
        try:
            parser.parse(text, document)
        finally:
            # The parser's states and inliner form a cycle that outlives the parse; the
            # inliner's last node must not keep the doctree in it (see rst._release).
            inliner.parent = inliner.document = None
        # Kept for the next parse only from one that finished: a parse that raised may
        # leave them in the middle of a block.
        _INLINERS.append(inliner)
        _TOP.append(parser.statemachine)
    return document


_SETTINGS: Any = None


def _settings() -> Any:
    global _SETTINGS
    if _SETTINGS is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            settings: Any = frontend.get_default_settings(rst.Parser)
        settings.report_level = 5
        settings.halt_level = 5
        settings.file_insertion_enabled = False
        settings.raw_enabled = False
        settings.syntax_highlight = "none"
        settings.language_code = "en"
        settings.pep_references = False  # (`rst_inline.inliner` counts on both being off)
        settings.rfc_references = False
        settings.character_level_inline_markup = False
        _SETTINGS = settings
    settings = _SETTINGS.copy()
    settings.warning_stream = io.StringIO()  # captured, never shown
    return settings


@contextmanager
def _registries() -> Iterator[None]:
    saved = directives._directives, roles._roles  # type: ignore[attr-defined]
    directives._directives = _Directives()  # type: ignore[attr-defined]
    roles._roles = rst_roles.Roles()  # type: ignore[attr-defined]
    try:
        yield
    finally:
        directives._directives, roles._roles = saved  # type: ignore[attr-defined]


@contextmanager
def _pooled_state_machines() -> Iterator[None]:
    """Reuse the state machines docutils builds for each list, field list and run of
    directives, across blocks and parses.

    docutils builds a fresh one (fifteen states, each compiling its transition table)
    for every such block, about a third of the time a Sphinx page takes; it already
    keeps finished machines for reuse in ``nested_parse``, and this does the same in
    ``nested_list_parse``: a machine goes back to the pool when docutils unlinks it, and
    the next block of the same kind takes it (``run`` resets its position and states).
    The page's own machine (``RSTStateMachine``, built for each parse) and the inliner
    are kept the same way from a parse that finished (`parse`): a million and a half
    instructions and a million a page. docutils' own cache of machines for sections and
    other nested blocks (``RSTState.nested_sm_cache``, one list for every state) is
    swapped for credo's (`_NESTED`), so that every machine a parse runs was built by a
    parse (`rst_plain.quick_bullets` relies on it) and none leaves for another user."""
    saved = states.RSTState.nested_sm, states.RSTStateMachine, states.RSTState.nested_sm_cache
    states.RSTState.nested_sm = staticmethod(_machine)
    states.RSTStateMachine = _top_machine  # (what `rst.Parser.parse` builds the page's with)
    states.RSTState.nested_sm_cache = _NESTED
    try:
        yield
    finally:
        states.RSTState.nested_sm, states.RSTStateMachine, states.RSTState.nested_sm_cache = saved


# Finished machines by initial state, kept for the next block and the next parse (only
# ever touched under `_LOCK`). A kept machine holds the last nodes it worked on (cut from
# their tree by `rst._release`) until it runs again.
_POOL: dict[str, list[Any]] = {}
_NESTED: list[Any] = []  # (`RSTState.nested_sm_cache` while credo parses)


# A quoted literal block's state keeps what one block made of it: its error messages, and
# a transition for that block's quote character in place of the first-line one.
_NOT_POOLED = frozenset({"QuotedLiteralBlock"})


_STATE_INIT = states.RSTState.runtime_init
# `RSTState.runtime_init` as docutils 0.19 to 0.22 write it (0.23 reads the reporter from
# the document and makes a state's `parent` a property of its machine).
_ONE_LOOP_SET_UP = tuple(docutils.__version_info__[:2]) < (0, 23)


class _Pooled(states.NestedStateMachine):  # type: ignore[misc]
    def runtime_init(self) -> None:
        """Each state's `RSTState.runtime_init` in one loop: a machine runs for every
        list and section, and its fifteen states took three calls each."""
        if not _ONE_LOOP_SET_UP:
            super().runtime_init()
            return
        memo, node = self.memo, self.node
        reporter, inliner, document = memo.reporter, memo.inliner, memo.document
        if not hasattr(reporter, "get_source_and_line"):  # (what the first state does)
            reporter.get_source_and_line = self.get_source_and_line
        for state in self.states.values():
            if type(state).runtime_init is not _STATE_INIT:
                state.runtime_init()
                continue
            state.memo, state.reporter, state.inliner = memo, reporter, inliner
            state.document, state.parent = document, node

    def unlink(self) -> None:
        if self.initial_state in _NOT_POOLED:
            super().unlink()
        else:
            _POOL.setdefault(self.initial_state, []).append(self)


def _machine(*, debug: bool = False, **kwargs: Any) -> Any:
    free = _POOL.get(kwargs.get("initial_state", ""))
    return free.pop() if free else _Pooled(debug=debug, **kwargs)


# A finished parse's inliner and page machine, and the deadline the inliner checks (only
# ever touched under `_LOCK`).
_DEADLINE = rst_inline.Deadline()
_INLINERS: list[Any] = []
_TOP: list[Any] = []
_PAGE_MACHINE: Any = states.RSTStateMachine  # (docutils' own, while `_top_machine` stands in)


def _top_machine(*, debug: bool = False, **kwargs: Any) -> Any:
    # `rst.Parser` builds it with its class's fixed states and initial state; a finished
    # run has already dropped its page's observers.
    return _TOP.pop() if _TOP else _PAGE_MACHINE(debug=debug, **kwargs)


@contextmanager
def _ascii_fast_paths() -> Iterator[None]:
    """Skip docutils' per-character Unicode scans on lines that are all ASCII.

    Reading a table, docutils asks, for every line of every cell, which characters are
    combining marks (`utils.column_indices`, `tableparser.strip_combining_chars`) and,
    for every line of the table, which are East Asian wide (`pad_double_width`): a
    `unicodedata` call per character, about a second for pytest's 1,500-row plugin
    list. An ASCII line has neither, so its answer is known without the scan; any
    other line takes docutils' own function. So for a section title's width against its
    adornment (`states.column_width`, a generator over its characters: ~1% of a Sphinx
    tree's ingest). The doctree is the same."""
    saved = utils.column_indices, tableparser.strip_combining_chars
    pad = statemachine.StringList.pad_double_width
    width = states.column_width  # (a section title's against its adornment's length)

    def column_indices(text: str) -> list[int]:
        return list(range(len(text))) if text.isascii() else saved[0](text)

    def column_width(text: str) -> int:
        # An ASCII character is one column (East Asian width "Na" or "N"), none combining.
        return len(text) if text.isascii() else width(text)

    def strip_combining_chars(text: str) -> str:
        return text if text.isascii() else saved[1](text)

    def pad_double_width(self: Any, pad_char: str) -> None:
        data = self.data
        for index, line in enumerate(data):
            if isinstance(line, str) and not line.isascii():  # docutils' loop, per line
                data[index] = "".join(
                    char + pad_char if east_asian_width(char) in "WF" else char for char in line
                )

    utils.column_indices = column_indices
    tableparser.strip_combining_chars = strip_combining_chars  # type: ignore[attr-defined]
    statemachine.StringList.pad_double_width = pad_double_width  # type: ignore[method-assign]
    states.column_width = column_width  # type: ignore[attr-defined]
    try:
        yield
    finally:
        utils.column_indices, tableparser.strip_combining_chars = saved  # type: ignore[attr-defined]
        statemachine.StringList.pad_double_width = pad  # type: ignore[method-assign]
        states.column_width = width  # type: ignore[attr-defined]


_STRING2LINES = statemachine.string2lines


def quick_string2lines(
    astring: str, tab_width: int = 8, convert_whitespace: bool = False, whitespace: Any = None
) -> list[str]:
    """docutils' `statemachine.string2lines`, its per-line work done by `map` in C when
    `astring` holds no tab, vertical tab or form feed (then neither the whitespace
    substitution nor `expandtabs` changes anything: `split_rst` has already made the
    latter two spaces). docutils' own runs a pattern over the whole text and a Python
    loop over every line of every page (~1% of a Sphinx tree's ingest)."""
    if whitespace is None and "\t" not in astring and "\v" not in astring and "\f" not in astring:
        return list(map(str.rstrip, astring.splitlines()))
    if whitespace is None:
        return _STRING2LINES(astring, tab_width, convert_whitespace)  # type: ignore[no-any-return]
    return _STRING2LINES(astring, tab_width, convert_whitespace, whitespace)  # type: ignore[no-any-return]


@contextmanager
def _quick_lines() -> Iterator[None]:
    """`quick_string2lines` for docutils' parser (which splits a page by it)."""
    saved = statemachine.string2lines
    statemachine.string2lines = quick_string2lines
    try:
        yield
    finally:
        statemachine.string2lines = saved


# What docutils' `RSTState.paragraph` searches each paragraph's whole text for (a literal
# block next): a look-behind tried at every character, ~77k instructions a paragraph.
_LITERAL_NEXT = r"(?<!\\)(\\\\)*::$"


class _QuickSearch:
    """`re` as docutils' rst states module sees it while credo parses: the same module,
    but a search for `_LITERAL_NEXT` in text that does not end with "::" (before an
    optional final newline, as ``$`` reads it) is answered None at once. Any other call
    is `re`'s own."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def search(pattern: Any, string: Any, flags: int = 0) -> Any:
        if (
            pattern == _LITERAL_NEXT
            and isinstance(string, str)
            and not string.endswith(("::", "::\n"))
        ):
            return None  # (the pattern's `::$` cannot match)
        return re.search(pattern, string, flags)


@contextmanager
def _quick_literal_next() -> Iterator[None]:
    """docutils' paragraph search for a trailing "::" told by `str.endswith` first
    (`_QuickSearch`): the doctree is the same."""
    saved = states.re
    states.re = _QuickSearch()  # type: ignore[attr-defined]
    try:
        yield
    finally:
        states.re = saved  # type: ignore[attr-defined]


class _Directives(dict[str, Any]):
    """Every name is a directive: docutils' own, credo's, or the generic container."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> Any:
        if name == "literalinclude":  # (skipped but for its caption)
            found: Any = _Include
        elif name in SKIPPED_DIRECTIVES:
            found = _Skip
        elif name in CODE_DIRECTIVES:
            found = _Code
        elif name.startswith(("auto", "py:auto")):
            found = _Autodoc
        elif name in VERSION_DIRECTIVES:
            found = _Version
        elif name in _CONTENT_ONLY:
            found = _ContentOnly
        elif name in _BODY_ONLY:
            found = _Body
        elif name in _SPHINX_NAMES:
            found = _Generic
        elif name in rst_options.DIRECTIVES:
            found = rst_options.DIRECTIVES[name]
        else:
            found = _builtin(directives._directive_registry, en.directives, name)  # type: ignore[attr-defined]
            found = _tolerant(found) if found else _Generic
        self[name] = found
        return found


def _builtin(registry: dict[str, tuple[str, str]], names: dict[str, str], name: str) -> Any:
    entry = registry.get(names.get(name, ""))
    if entry is None:
        return None
    module = import_module("docutils.parsers.rst.directives." + entry[0])
    return getattr(module, entry[1], None)


class _AnyOption(dict[str, Any]):
    """A docutils directive's option spec that takes any option: one it does not know is
    kept as written (and unused)."""

    def __missing__(self, name: str) -> Any:
        return directives.unchanged


# docutils' directive classes with `_AnyOption` specs, made once (a parse's registry is new).
_TOLERANT: dict[Any, Any] = {}


def _tolerant(directive: Any) -> Any:
    """`directive` (docutils' own) taking options it does not know. Sphinx gives docutils'
    directives options of its own (an admonition's ``:collapsible:``, a rubric's
    ``:heading-level:``); docutils refused the whole directive for one, and its content was
    lost."""
    spec = directive.option_spec
    if not spec:  # (no spec: docutils parses no options, so refuses none)
        return directive
    found = _TOLERANT.get(directive)
    if found is None:
        found = type(directive.__name__, (directive,), {"option_spec": _AnyOption(spec)})
        _TOLERANT[directive] = found
    return found


def _without_options(argument: str) -> str:
    """A directive argument without its option lines (``:noindex:``): with no option
    spec, docutils leaves them in the argument (all of it when the argument is empty)."""
    lines = argument.split("\n")
    for index in range(len(lines)):
        if _OPTION.match(lines[index]):
            return "\n".join(lines[:index])
    return argument


class _Skip(Directive):
    # No option spec: docutils then keeps option lines in the argument instead of parsing
    # them with a state machine of their own (the slowest part of a directive).
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[Any]:
        return []


class _Code(_Skip):
    """``.. code-block:: python``: a literal block of its content, whose ``credo-lines``
    run from the directive's line to its last line of code (as a Markdown fence's do)."""

    def run(self) -> list[Any]:
        lines = list(self.content)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return []
        text = "\n".join(lines)
        node = nodes.literal_block(text, text)
        node.line = self.lineno
        node["credo-lines"] = (self.lineno, self.content_offset + len(lines))
        return [*_caption(self), node]


class _Include(_Skip):
    """``.. literalinclude:: path``: the file is not read (no other file is); its caption
    is text of the page."""

    def run(self) -> list[Any]:
        return _caption(self)


def _caption(directive: Directive) -> list[Any]:
    """A code directive's ``:caption:``, the title Sphinx shows above the code (flask's
    "``wsgi.py``", a file name readers search by): a paragraph at its option's line, its
    inline markup read as Sphinx reads it. With no option spec, the option lines are in
    the argument (`_Skip`)."""
    if not directive.arguments or ":caption:" not in directive.arguments[0]:
        return []
    # The argument's first line is the directive's own, unless nothing follows its "::".
    first = directive.block_text.split("\n", 1)[0].partition("::")[2]
    line = directive.lineno + (not first.strip())
    for offset, written in enumerate(directive.arguments[0].split("\n")):
        found = _CAPTION.match(written)
        if found is not None:
            inline, _ = directive.state.inline_text(found.group(1), line + offset)
            paragraph = nodes.paragraph(written.strip(), "", *inline)
            paragraph.line = line + offset
            return [paragraph]
    return []


class _Generic(Directive):
    """An unknown directive: its argument becomes a label, its content is parsed."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    keep_label = True

    def run(self) -> list[Any]:
        node = nodes.container(classes=["credo-directive"])
        node.line = self.lineno
        label = _without_options(self.arguments[0]) if self.arguments else ""
        if label and self.keep_label:
            node += self._label(label)
            if self.name not in _LAYOUT:  # the label names what the content describes
                node["credo-named"] = True
                described = rst_options.described(self)  # its type, default, value
                if described is not None:
                    node += described
        self.state.nested_parse(self.content, self.content_offset, node)
        rst_inner_titles.keep(node, self.state, self.name not in rst_inner_titles.CARDS)
        if self.name == "glossary":  # (an entry of several terms: one entry, as Sphinx's)
            rst_glossary.keep(node, self.state)
        return [node]

    def _label(self, text: str, lines: int = 0) -> Any:
        """A paragraph of `text`; its raw text is the directive's first lines, so the
        walker finds it where the directive starts."""
        inline, _ = self.state.inline_text(text, self.lineno)
        count = lines or text.count("\n") + 1
        raw = "\n".join(self.block_text.split("\n")[:count])
        label = nodes.paragraph(raw, "", *inline, classes=["credo-label"])
        label.line = self.lineno
        return label


class _ContentOnly(_Generic):
    keep_label = False


class _Autodoc(_Generic):
    """``.. autofunction:: pkg.name``: nothing alone (the docstring is in the code); with
    prose written under it, that prose labelled with the name."""

    def run(self) -> list[Any]:
        if not any(line.strip() for line in self.content):
            return []
        return super().run()


class _Body(_Generic):
    optional_arguments = 0


class _Version(_Generic):
    """``.. versionchanged:: 2.1 text``: "versionchanged 2.1", then the text and content."""

    required_arguments = 1
    optional_arguments = 1

    def run(self) -> list[Any]:
        node = nodes.container(classes=["credo-directive"])
        node.line = self.lineno
        node += self._label(f"{self.name} {self.arguments[0]}", 1)
        if len(self.arguments) > 1:
            inline, _ = self.state.inline_text(self.arguments[1], self.lineno)
            paragraph = nodes.paragraph(self.arguments[1], "", *inline)
            paragraph.line = self.lineno
            node += paragraph
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]
