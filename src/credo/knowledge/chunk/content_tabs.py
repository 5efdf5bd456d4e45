"""Content tabs (pymdownx.tabbed, MkDocs Material) read as their title and their Markdown.

A tab is a line ``=== "Title"`` and the block indented four columns under it::

    === "macOS"
        1. In your browser, download the `.pkg` file.
        2. Run your downloaded file.

The page shows "macOS" as the tab's label and the block as Markdown. markdown-it knows no
tabs: it read the label line as a paragraph and the block as its lazy continuation, so a
passage read '=== "macOS" === "GUI installer" 1. In your browser, ...' (hatch's install.md,
day-probe86), the list and code blocks under it flattened into one paragraph. Now the label
line reads as its title (an icon shortcode such as ``:octicons-file-code-16:`` dropped) and
the block is moved four columns left, so it is read as the Markdown it is: lists, code
fences, tables, nested tabs. Lines are rewritten in place: every line keeps its number and
only loses leading blanks, quotes, markers and icons, so every word left is its line's.

A label line inside a backtick or tilde code block is code and stays as written.
"""

from __future__ import annotations

import re

_TAB = re.compile(r"([ \t]*)===[!+]{0,2}[ \t]+\"([^\"\n]*)\"[ \t]*$")
_ICON = re.compile(r":(?:octicons|material|fontawesome|simple)-[\w-]+:[ \t]*")
_CODE = re.compile(r"[ \t]*(`{3,}|~{3,})")
TAB_WIDTH = 4  # pymdownx.tabbed's content indent


def rewrite_content_tabs(lines: list[str]) -> list[str]:
    """``lines`` with each content tab's label line read as its title and the block under
    it moved four columns left (a new list when a tab was found, else ``lines`` itself)."""
    out: list[str] | None = None
    fence = ""
    for index in range(len(lines)):
        current = lines[index] if out is None else out[index]
        code = _CODE.match(current)
        if code and (not fence or code.group(1).startswith(fence)):
            fence = "" if fence else code.group(1)
        tab = None if fence else _TAB.match(current)
        if tab is None:
            continue
        out = out if out is not None else list(lines)
        depth = _indent(current)
        out[index] = tab.group(1) + _ICON.sub("", tab.group(2)).strip()
        # The block: the lines after it that are blank or indented past the label. Each
        # is moved left by the tab's indent; a nested tab is met again below, and moved.
        end = index + 1
        while end < len(out) and (not out[end].strip() or _indent(out[end]) >= depth + TAB_WIDTH):
            out[end] = _dedent(out[end])
            end += 1
    return lines if out is None else out


def _indent(line: str) -> int:
    """The columns of ``line``'s leading blanks (a tab to the next multiple of four)."""
    expanded = line.expandtabs(TAB_WIDTH)
    return len(expanded) - len(expanded.lstrip(" "))


def _dedent(line: str) -> str:
    """``line`` moved ``TAB_WIDTH`` columns left (a blank line stays as it is)."""
    if not line.strip():
        return line
    expanded = line.expandtabs(TAB_WIDTH)
    return expanded[min(TAB_WIDTH, _indent(line)) :]
