"""MkDocs' indented blocks read as their title and their Markdown: content tabs
(pymdownx.tabbed) and admonitions (Python-Markdown's admonition, pymdownx.details).

Each is a label line and the block indented four columns under it::

    === "macOS"
        1. In your browser, download the `.pkg` file.
        2. Run your downloaded file.

    !!! warning "caveat"
        UV is under active development and may not work for all dependencies.

The page shows "macOS" as a tab's label, "caveat" as the admonition's title (its type,
"Warning", when it has none; ``??? note`` and ``???+ note`` are collapsible ones), and the
block as Markdown. markdown-it knows neither: it read the label line as a paragraph and the
block as its lazy continuation, so a passage read '=== "macOS" === "GUI installer" 1. In
your browser, ...' (hatch's install.md, day-probe86), the list and code blocks under it
flattened into one paragraph, and 53 of hatch's 575 doc passages began "!!! note". Now the
label line reads as its title (a tab's icon shortcode such as ``:octicons-file-code-16:``
dropped) and the block is moved four columns left, so it is read as the Markdown it is:
lists, code fences, tables, nested blocks. Lines are rewritten in place: every line keeps
its number and only loses leading blanks, quotes, markers and icons, so every word left is
its line's.

A label line inside a backtick or tilde code block is code and stays as written.
"""

from __future__ import annotations

import re

_TAB = re.compile(r"([ \t]*)===[!+]{0,2}[ \t]+\"([^\"\n]*)\"[ \t]*$")
# "!!! type", "!!! type "title"", "??? type", "???+ type": a type is one or more class words.
_ADMONITION = re.compile(
    r"([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*(?:[ \t]+[A-Za-z][\w-]*)*)"
    r"(?:[ \t]+\"([^\"\n]*)\")?[ \t]*$"
)
_ICON = re.compile(r":(?:octicons|material|fontawesome|simple)-[\w-]+:[ \t]*")
_CODE = re.compile(r"[ \t]*(`{3,}|~{3,})")
TAB_WIDTH = 4  # pymdownx.tabbed's content indent


def rewrite_mkdocs_blocks(lines: list[str]) -> list[str]:
    """``lines`` with each tab's or admonition's label line read as its title and the block
    under it moved four columns left (a new list when one was found, else ``lines``)."""
    out: list[str] | None = None
    fence = ""
    # The open labels' indents, as written: a line is in the innermost one's block while it
    # is blank or indented past it, and moves four columns left per open label. Each line
    # is moved once (moving each block as found moved a line once per label over it: 1 MB
    # of nested tabs took seconds).
    open_labels: list[int] = []
    for index, line in enumerate(lines):
        if line.strip():
            depth = _indent(line)
            while open_labels and depth < open_labels[-1] + TAB_WIDTH:
                open_labels.pop()
        current = _dedent(line, TAB_WIDTH * len(open_labels)) if open_labels else line
        if out is not None:
            out[index] = current
        code = _CODE.match(current)
        if code and (not fence or code.group(1).startswith(fence)):
            fence = "" if fence else code.group(1)
        title = None if fence else _title(current)
        if title is None:
            continue
        if out is None:
            out = list(lines)
        out[index] = title
        open_labels.append(_indent(line))
    return lines if out is None else out


def _title(line: str) -> str | None:
    """What a label line reads as (its indent kept), or None when it is no label."""
    if "===" in line:
        tab = _TAB.match(line)
        if tab is not None:
            return tab.group(1) + _ICON.sub("", tab.group(2)).strip()
    if "!!!" in line or "???" in line:
        note = _ADMONITION.match(line)
        if note is not None:  # the title as given ("" shows none), else the type
            return note.group(1) + (note.group(2) if note.group(3) is None else note.group(3))
    return None


def _indent(line: str) -> int:
    """The columns of ``line``'s leading blanks (a tab to the next multiple of four)."""
    expanded = line.expandtabs(TAB_WIDTH)
    return len(expanded) - len(expanded.lstrip(" "))


def _dedent(line: str, columns: int) -> str:
    """``line`` moved ``columns`` columns left, or to its text (a blank line stays as it is)."""
    if not line.strip():
        return line
    expanded = line.expandtabs(TAB_WIDTH)
    return expanded[min(columns, _indent(line)) :]
