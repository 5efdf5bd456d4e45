"""The key structure of the line-based project files: INI, Dockerfile, Makefile, Justfile,
dotenv examples, Procfile and Go's go.mod, read line by line into `config_tree.Entry` blocks.

Why by hand, when `config_tree` reads YAML, TOML and JSON by their grammars: Python's
``configparser`` gives no line numbers; ``iniconfig`` 2.3 (pytest's reader of these very
files) gives a section's and a key's line but raises on what such files hold (the
``root = true`` that ``.editorconfig`` writes before any section, a duplicate key or
section), and so would send the whole file to plain text; ``configupdater`` 4.1 keeps each
block's lines but no line numbers, and raises on the same; the
Dockerfile and Makefile grammars on PyPI (``tree-sitter-dockerfile`` 0.2, ``tree-sitter-make``
1.1) hand tree-sitter 0.26 an int pointer, which it deprecates with a warning (an error in
this suite). What each reader needs is the line where a block starts, and every one of
these formats marks that at the start of a line:

- INI (``tox.ini``, ``setup.cfg``, ``.flake8``, ``.editorconfig``): ``[section]`` opens a
  section; inside it a line at the first column is a key (``max-line-length = 80``), an
  indented line continues the key above (tox's ``commands =`` list).
- Dockerfile: ``FROM`` opens a build stage (``stage builder`` from ``AS builder``, else its
  image); inside it an instruction starts a line, ``\\`` (or the ``# escape=`` directive's
  character) continues it, and a heredoc (``RUN <<EOF`` ... ``EOF``) runs to its word.
- Makefile and Justfile: a line at the first column with a ``:`` that is not an
  assignment's (``:=``, ``::=``) opens a rule, named by its targets (``test``); the lines
  indented under it are its recipe. The lines between rules (variables, ``include``,
  ``ifdef`` ... ``endif``, ``define`` ... ``endef``) are one block of their own.
- dotenv examples and Procfile: each ``NAME=value`` or ``name: command`` line is a key.
- go.mod and go.work (Go's module and workspace files, ``golang.org/x/mod/modfile``'s
  grammar): each directive starts a line (``module``, ``go 1.13``, ``require``,
  ``replace``...) and is a key; a block, ``require (`` ... ``)``, holds one line per module,
  each a key of its own, named by its module path (a long ``require`` block is cut at them).

Comment lines stay with the block they sit in; `config` moves those directly above a key
into that key's block. Never an exception: a line no rule knows is part of the block above.
"""

from __future__ import annotations

import re

from credo.knowledge.chunk.config_tree import MAX_KEY_CHARS, Entry

# Languages read here (the others of `config` by their grammars, `config_tree`).
LINE_LANGUAGES = frozenset({"ini", "dockerfile", "make", "just", "dotenv", "procfile", "gomod"})

_INI_SECTION = re.compile(r"\[([^\]\n]*)\]")
# Greedy, without a ``\s*`` before the sign: a lazy key and ``\s*`` both taking a run of
# spaces tried every split of it (a 40k-space line: 16 s). `_key` drops the spaces.
_INI_KEY = re.compile(r"([^\s=:;#\[][^=:]*)[=:]|([^\s=:;#\[]\S*)\s*$")
_DOCKER_INSTRUCTION = re.compile(r"\s*([A-Za-z]+)(?:\s|$)")
_DOCKER_FROM = re.compile(r"\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?", re.IGNORECASE)
_ESCAPE = re.compile(r"#\s*escape\s*=\s*(\S)", re.IGNORECASE)
# BuildKit's heredoc: ``<<EOF``, ``<<-EOF``, ``<<"EOF"``, no space (``a << b`` is a shift)
_HEREDOC = re.compile(r"<<-?[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?")
# A rule's head: targets, then ":" or "::" not followed by "=" (``PY := x`` is a variable).
_MAKE_RULE = re.compile(r"([^\s:=#][^:=#]*)::?(?!=)")  # (greedy: as `_INI_KEY`)
_MAKE_ASSIGN = re.compile(r"[^\s:=#]+\s*(?::::?=|\?=|\+=|!=|:=|=)")
_SPECIAL = re.compile(r"\.[A-Z_]+\s*:")  # .PHONY, .DEFAULT_GOAL (``.venv:`` is a target)
_MAKE_OPEN = re.compile(r"(?:define|ifeq|ifneq|ifdef|ifndef)\b")
_MAKE_CLOSE = re.compile(r"(?:endef|endif)\b")
_ENV_KEY = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=")
_PROCESS = re.compile(r"([A-Za-z0-9_-]+)\s*:")


def read_lines(rows: list[str], language: str) -> list[Entry]:
    """The top-level entries of a file's `rows` in `language` (one of `LINE_LANGUAGES`)."""
    if language == "ini":
        return _ini(rows)
    if language == "dockerfile":
        return _dockerfile(rows)
    if language in ("make", "just"):
        return _make(rows, any_indent=language == "just")
    if language == "gomod":
        return _gomod(rows)
    pattern = _ENV_KEY if language == "dotenv" else _PROCESS
    return _flat(rows, pattern)


def _key(text: str) -> str:
    return " ".join(text.split())[:MAX_KEY_CHARS]


def _close(entries: list[Entry], last: int) -> None:
    """The open entry (the last one) ends at row `last`, and so does its last child."""
    if entries:
        entries[-1].end = max(entries[-1].start, last)
        children = entries[-1].children
        if children:
            children[-1].end = max(children[-1].start, last)


def _content_end(rows: list[str], start: int, end: int) -> int:
    """`end` moved up over blank rows (never above `start`)."""
    while end > start and not rows[end].strip():
        end -= 1
    return end


# -- INI -----------------------------------------------------------------------------------


def _ini(rows: list[str]) -> list[Entry]:
    sections: list[Entry] = []
    for row, line in enumerate(rows):
        if not line.strip() or line.lstrip()[:1] in "#;":
            continue
        if line[:1] == "[" and (match := _INI_SECTION.match(line)):
            _close(sections, row - 1)
            sections.append(Entry((_key(match.group(1)),), row, row))
            continue
        if line[:1].isspace() or not sections:
            continue  # a continuation of the key above, or a key before any section
        match = _INI_KEY.match(line)
        if match is not None:
            children = sections[-1].children
            if children:
                children[-1].end = max(children[-1].start, row - 1)
            children.append(Entry((_key(match.group(1) or match.group(2)),), row, row))
    _close(sections, len(rows) - 1)
    _trim(sections, rows)
    return sections


def _trim(entries: list[Entry], rows: list[str]) -> None:
    for entry in entries:
        entry.end = _content_end(rows, entry.start, entry.end)
        _trim(entry.children, rows)


# -- Dockerfile ----------------------------------------------------------------------------


def _dockerfile(rows: list[str]) -> list[Entry]:
    escape = "\\"
    for line in rows[:8]:  # parser directives come first, before any instruction
        match = _ESCAPE.match(line.strip())
        if match is not None:
            escape = match.group(1)
            break
    stages: list[Entry] = []
    continued = False
    heredoc = ""
    for row, line in enumerate(rows):
        stripped = line.strip()
        if heredoc:
            if stripped == heredoc:
                heredoc = ""
            continue
        if continued:
            # a comment line inside a continued instruction does not end it
            continued = stripped.startswith("#") or stripped.endswith(escape)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        continued = stripped.endswith(escape)
        match = _HEREDOC.search(stripped)
        heredoc = match.group(1) if match is not None else ""
        instruction = _DOCKER_INSTRUCTION.match(line)
        name = instruction.group(1).upper() if instruction is not None else ""
        if name == "FROM":
            _close(stages, row - 1)
            image = _DOCKER_FROM.match(line)
            label = ""
            if image is not None:
                label = image.group(2) or image.group(1)
            stages.append(Entry((_key(f"stage {label}" if label else "stage"),), row, row))
        elif stages and name:
            children = stages[-1].children
            if children:
                children[-1].end = max(children[-1].start, row - 1)
            children.append(Entry((name,), row, row))
    _close(stages, len(rows) - 1)
    _trim(stages, rows)
    return stages


# -- Makefile, Justfile --------------------------------------------------------------------


def _make(rows: list[str], *, any_indent: bool) -> list[Entry]:
    """Rules, each with its recipe; the rows between rules one unnamed entry, with each
    variable a child, so a long run of them is cut at its variables."""
    entries: list[Entry] = []
    in_rule = False
    depth = 0  # define/if nesting outside rules: a ``x: y`` inside ``define`` is text
    continued = False
    for row, line in enumerate(rows):
        stripped = line.strip()
        if continued:
            continued = stripped.endswith("\\")
            continue
        continued = stripped.endswith("\\")
        if in_rule and line[:1] == "#" and row and not rows[row - 1].strip():
            # a comment paragraph after a rule heads what follows (``### Tests``), not the
            # rule's recipe
            _close(entries, row - 1)
            entries.append(Entry((), row, row))
            in_rule = False
            continue
        if not stripped or stripped.startswith("#"):
            continue
        indented = line[:1] == "\t" or (any_indent and line[:1].isspace())
        if indented and in_rule:
            continue  # the recipe
        if line[:1].isspace() and not indented:
            stripped = line.lstrip()  # GNU make allows spaces before a directive
        if _MAKE_CLOSE.match(stripped):
            depth = max(0, depth - 1)
            continue
        if _MAKE_OPEN.match(stripped):
            depth += 1
        assignment = _MAKE_ASSIGN.match(stripped)
        rule = None if assignment or depth or indented else _MAKE_RULE.match(line)
        if rule is not None and _SPECIAL.match(line):
            rule = None  # .PHONY, .DEFAULT_GOAL: a note on the rules, not one of them
        if rule is not None:
            _close(entries, row - 1)
            entries.append(Entry((_key(rule.group(1)),), row, row))
            in_rule = True
            continue
        if in_rule or not entries:
            _close(entries, row - 1)
            entries.append(Entry((), row, row))
            in_rule = False
        if assignment is not None:
            name = re.split(r"\s|[:?+!]?=", stripped, maxsplit=1)[0]
            children = entries[-1].children
            if children:
                children[-1].end = max(children[-1].start, row - 1)
            children.append(Entry((_key(name),), row, row))
    _close(entries, len(rows) - 1)
    _trim(entries, rows)
    return entries


# -- dotenv, Procfile ----------------------------------------------------------------------


def _flat(rows: list[str], pattern: re.Pattern[str]) -> list[Entry]:
    entries: list[Entry] = []
    for row, line in enumerate(rows):
        match = pattern.match(line)
        if match is None:
            continue
        _close(entries, row - 1)
        entries.append(Entry((_key(match.group(1)),), row, row))
    _close(entries, len(rows) - 1)
    _trim(entries, rows)
    return entries


# -- go.mod, go.work -----------------------------------------------------------------------

# A directive: its verb, then "(" when it opens a block, then the rest of its line.
_GO_DIRECTIVE = re.compile(r"([A-Za-z][\w-]*)[ \t]*(\(?)(.*)")
_GO_WORD = re.compile(r"[\"`]?([^\s\"`()]+)")


def _gomod(rows: list[str]) -> list[Entry]:
    """Directives, each a key named by its verb (``require``); a block's lines its children,
    each named by its first word (a module path, a ``godebug`` setting, a version)."""
    entries: list[Entry] = []
    block = False
    for row, line in enumerate(rows):
        code = line.split("//", 1)[0].strip()  # (a comment: ``// indirect``)
        if not code:
            continue
        if block:
            if code.startswith(")"):
                entries[-1].end = row
                block = False
            elif (word := _GO_WORD.match(code)) is not None:
                entries[-1].children.append(Entry((_key(word.group(1)),), row, row))
            continue
        directive = _GO_DIRECTIVE.match(code)
        if directive is None:
            continue  # no directive: a line no rule knows, part of the entry above
        _close(entries, row - 1)
        entries.append(Entry((_key(directive.group(1)),), row, row))
        block = bool(directive.group(2)) and ")" not in directive.group(3)
    _close(entries, len(rows) - 1)
    _trim(entries, rows)
    return entries
