"""A member field named by the line under its doc comment: ``Hidden bool`` in a Go struct
(``Run() error`` in a Go interface), ``pub major: u64,`` in a Rust struct, ``hidden?:
boolean;`` in a TypeScript interface or class.

A field is no definition (nothing in the outline names it), so its comment read as a
nameless comment of the struct, pooled with its neighbours' into one passage: cobra's
``Hidden defines, if this command is hidden...`` could not be found as ``Command ›
Hidden`` (day-probe76). A comment written right above a field of a type that declares
members takes the field's name into its trail and the field's line into its text, as a
method's doc comment leads its signature (`code._comment_chunks`).
"""

from __future__ import annotations

import re

# The field's name, group 1; what follows must be a type (Go) or a ":" (Rust, TypeScript).
# Go: "Name string", "A, B int", and an interface's method "Run() error" (no definition
# in the outline either).
_GO = r"[ \t]*([A-Za-z_]\w*)(?:(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]+[\w*\[{.]|\()"
_RUST = r"[ \t]*(?:pub(?:\([^()]*\))?[ \t]+)?([A-Za-z_]\w*)[ \t]*:(?!:)"
# TypeScript: a property "hidden?: boolean;" and a method signature "child(b: B): Logger;"
# or "child<T>(...)" (an interface's methods have no body, so no definition either).
_TYPESCRIPT = (
    r"[ \t]*(?:(?:readonly|public|private|protected|static|declare)[ \t]+)*"
    r"([A-Za-z_$][\w$]*)\??[ \t]*[:(<]"
)
_FIELDS = {"go": _GO, "rust": _RUST, "typescript": _TYPESCRIPT, "tsx": _TYPESCRIPT}
# A comment line on its own (not one trailing a field: the next line is another field's).
_OWN_LINE = ("//", "/*", "*")
# A block comment's lines that hold no words: its closing "*/" and a bare "*" before it.
# A comment's last line is its last line of words, so the field comes after these
# (the usual multi-line JSDoc, /** ... */ over three lines and more: day-probe80).
_CLOSING = re.compile(r"[ \t]*\*+/?[ \t]*$")


def field_under(grammar: str, lines: list[str], last: int) -> tuple[str, int] | None:
    """The name and line number of the field declared on the line after line `last` (the
    last line of a comment on its own lines), or None."""
    pattern = _FIELDS.get(grammar)
    if pattern is None or last >= len(lines) or not lines[last - 1].lstrip().startswith(_OWN_LINE):
        return None
    below = last  # (0-based: the line after the comment's last)
    while below < len(lines) and _CLOSING.match(lines[below]):
        below += 1
    field = re.match(pattern, lines[below]) if below < len(lines) else None
    return (field.group(1), below + 1) if field else None


FIELD_GRAMMARS = frozenset(_FIELDS)
