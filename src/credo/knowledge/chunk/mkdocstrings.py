"""mkdocstrings' autodoc lines (``::: package.module.Object``) read as the object they name.

An MkDocs page built with mkdocstrings says "put this object's documentation here" with a
line of three colons and the object's dotted path, and may give the handler options in the
YAML block indented under it::

    ::: dirty_equals._base.DirtyEquals
        options:
          merge_init_into_class: false

The page shows the object's name and docstring there, never the colons or the options.
markdown-it reads the line as text and the indented block as its lazy continuation, so a
passage read "Custom Types ::: dirty_equals._base.DirtyEquals options:
merge_init_into_class: false" (dirty-equals, day-probe82): a hook block spent its tokens on
markup. Now the line shows the dotted path alone (a word a reader searches: the docstring
itself is read from the code), and the option block is no text. Lines are rewritten in
place, so every line keeps its number, and every word left is a word of its line.

Only a dotted path is read so (``::: a.b``, ``::: a.b:C``): Pandoc's fenced div (``:::
warning``) and MyST's colon fence (``:::{note}``, `credo.knowledge.chunk.colon_fence`) are
other markup. A bare name is an object too when its option block follows (``::: pkg`` then
``    options:``, a package's members listed there: inline-snapshot's docs, day-probe88); a
fenced div has no such line. A line inside a backtick or tilde code block is code and stays
as written.
"""

from __future__ import annotations

import re

_AUTODOC = re.compile(r"[ \t]{0,3}:::[ \t]+([A-Za-z_]\w*(?:[.:][A-Za-z_]\w*)+)[ \t]*$")
_BARE = re.compile(r"[ \t]{0,3}:::[ \t]+([A-Za-z_]\w*)[ \t]*$")
_OPTIONS = re.compile(r"[ \t]+options:[ \t]*$")
_OPTION_NAME = re.compile(r"[ \t]+[A-Za-z_]\w*:(?:[ \t]|$)")
_INDENTED = re.compile(r"[ \t]+\S")
_CODE = re.compile(r"[ \t]*(`{3,}|~{3,})")


def rewrite_autodoc_lines(lines: list[str]) -> list[str]:
    """``lines`` with each mkdocstrings autodoc line read as its object's dotted path and
    the option block indented under it blanked (a new list when one was found, else
    ``lines`` itself)."""
    out: list[str] | None = None
    fence = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        code = _CODE.match(line)
        if code and (not fence or code.group(1).startswith(fence)):
            fence = "" if fence else code.group(1)
        found = None if fence else _AUTODOC.match(line) or _bare_autodoc(lines, index)
        index += 1
        if found is None:
            continue
        out = out if out is not None else list(lines)
        out[index - 1] = found.group(1)
        # (options sit deeper than their line: in a list item, the item's next lines are
        # indented as the autodoc line is, and are text, review82)
        depth = _indent(line)
        while index < len(lines) and _INDENTED.match(lines[index]):
            if _indent(lines[index]) <= depth:
                break
            out[index] = ""
            index += 1
    return lines if out is None else out


def _indent(line: str) -> int:
    """The columns of ``line``'s leading blanks (a tab to the next multiple of four)."""
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _bare_autodoc(lines: list[str], index: int) -> re.Match[str] | None:
    """``lines[index]`` read as ``::: package`` when its option block follows, indented: an
    ``options:`` line, then an option's name deeper still. (A container whose body opens
    with the word, ``::: details`` then ``  options:`` and a list, has no option names under
    it: review89.)"""
    found = _BARE.match(lines[index])
    if found is None or index + 2 >= len(lines) or not _OPTIONS.match(lines[index + 1]):
        return None
    if not _OPTION_NAME.match(lines[index + 2]):
        return None
    depths = [_indent(line) for line in lines[index : index + 3]]
    return found if depths[0] < depths[1] < depths[2] else None
