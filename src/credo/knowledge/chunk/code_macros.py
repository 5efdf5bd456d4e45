"""Rust ``macro_rules!`` that stamp out items, read as the items they define.

A crate often writes one API twice through a macro (regex's ``define_set!`` holds
``RegexSet`` and every method of it, for ``&str`` and for ``&[u8]``). tree-sitter keeps a
macro's rules as token trees, so the whole macro was one definition whose text is its
first line: every doc comment and signature inside it was in no belief.

`as_items` gives a copy of the source, byte for byte the same length and lines, that the
parser reads instead: such a macro reads as a module named like the macro
(``macro_rules!`` becomes ``mod``), each rule's pattern and ``=>`` and its expansion's
brackets are blanked, a repetition ``$( ... )*`` keeps what it repeats, and a metavariable
``$name`` becomes the identifier ``_name``. Node offsets still name the file's own bytes,
which every text is cut from, so a trail and signature read ``$name`` as written.

Only a macro whose every rule expands to items (its expansion opens with ``pub``,
``impl``, ``fn``... or an attribute) is read so: a macro that expands to an expression
keeps its one definition. The opening token can mislead (``unsafe { *$p }`` is a block),
so `read_items` checks the copy's tree: a macro whose copy holds a syntax error its
macro did not is read as written, each macro judged on its own (review82: one misjudged
macro threw away every other's reading, and in a file with a syntax error elsewhere the
broken copy was kept and the macro lost its tokens).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# Tokens that open an item (``#`` an attribute, ``$(`` a repetition of items).
_ITEM_OPENERS = frozenset(
    {"pub", "mod", "fn", "impl", "struct", "enum", "union", "trait", "use", "const"}
    | {"static", "type", "unsafe", "extern", "#"}
)
_KEYWORD = b"macro_rules!"
_SCOPES = frozenset({"mod_item", "declaration_list"})
_BRACKETS = frozenset({"{", "}", "(", ")", "[", "]"})


def read_items(source: bytes, tree: Tree, parse: Callable[[bytes], Tree | None]) -> Tree:
    """The tree of `source` with each item-stamping ``macro_rules!`` read as a module of
    its items (`as_items`), parsed by `parse`; `tree` (the file's own) when there is none,
    or when the copy parses with an error where the file parsed cleanly."""
    macros = stamping(source, tree.root_node)
    for _ in range(2):  # (a second copy without the macros the first one broke)
        if not macros:
            return tree
        expanded = parse(as_items(source, macros))
        if expanded is None:
            return tree
        broken = {m.start_byte for m in macros if _breaks(expanded.root_node, m)}
        if not broken:
            clean = tree.root_node.has_error or not expanded.root_node.has_error
            return expanded if clean else tree
        macros = [m for m in macros if m.start_byte not in broken]
    return tree


def stamping(source: bytes, root: Node) -> list[Node]:
    """The ``macro_rules!`` of `root` (the tree of `source`) whose every rule stamps out
    items: at the top of the file or in an inline module."""
    if _KEYWORD not in source:
        return []
    return [node for node in _macros(root) if _stamps_items(node)]


def as_items(source: bytes, macros: list[Node]) -> bytes:
    """`source` with each of `macros` (`stamping`) read as a module of its items (see the
    module docstring)."""
    copy = bytearray(source)
    for macro in macros:
        keyword = macro.children[0]
        copy[keyword.start_byte : keyword.end_byte] = b"mod".ljust(len(_KEYWORD))
        brackets = [c for c in macro.children if c.type in _BRACKETS]
        if len(brackets) >= 2:  # (``macro_rules! m ( ... );``: a module needs braces)
            copy[brackets[0].start_byte], copy[brackets[-1].start_byte] = ord("{"), ord("}")
        for child in macro.children:
            if child.type == ";":
                _blank(copy, child.start_byte, child.end_byte)
            elif child.type == "macro_rule":
                expansion = child.child_by_field_name("right")
                if expansion is None:  # (`_stamps_items` saw every rule's)
                    continue
                _blank(copy, child.start_byte, expansion.start_byte + 1)
                _blank(copy, expansion.end_byte - 1, child.end_byte)
                _unwrap(copy, expansion)
    return bytes(copy)


def _breaks(root: Node, macro: Node) -> bool:
    """True when the copy's tree (`root`) holds a syntax error within `macro`'s bytes that
    the macro itself did not hold."""
    if macro.has_error:
        return False
    start, end = macro.start_byte, macro.end_byte
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.has_error or node.end_byte < start or node.start_byte > end:
            continue
        if node.is_error or node.is_missing:
            return True
        stack.extend(node.children)
    return False


def _macros(root: Node) -> list[Node]:
    """The ``macro_rules!`` at the top of the file or in an inline module."""
    found: list[Node] = []
    stack = list(root.children)
    while stack:
        node = stack.pop()
        if node.type == "macro_definition":
            found.append(node)
        elif node.type in _SCOPES:
            stack.extend(node.children)
    return found


def _stamps_items(macro: Node) -> bool:
    """True when every rule of `macro` expands to items."""
    rules = [child for child in macro.children if child.type == "macro_rule"]
    return bool(rules) and all(_opens_item(rule.child_by_field_name("right")) for rule in rules)


def _opens_item(tree: Node | None) -> bool:
    inner = _inside(tree) if tree is not None else []
    if inner and inner[0].type == "token_repetition":
        inner = _inside(inner[0])
    return bool(inner) and inner[0].type in _ITEM_OPENERS


def _inside(tree: Node) -> list[Node]:
    """A token tree's or repetition's tokens between its brackets, comments aside."""
    children = [c for c in tree.children if c.type not in ("line_comment", "block_comment")]
    opening = 2 if tree.type == "token_repetition" else 1  # (``$(``)
    return children[opening:-1]


def _unwrap(copy: bytearray, tree: Node) -> None:
    """Blank the brackets of each repetition in `tree` and rename its metavariables."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.type == "metavariable":
            copy[node.start_byte] = ord("_")
        elif node.type == "token_repetition" and len(node.children) >= 3:
            closing = max(k for k, c in enumerate(node.children) if c.type == ")")
            _blank(copy, node.start_byte, node.children[1].end_byte)
            _blank(copy, node.children[closing].start_byte, node.end_byte)
        stack.extend(node.children)


def _blank(copy: bytearray, start: int, end: int) -> None:
    """Spaces over `copy[start:end]`, its line breaks kept (rows stay the file's)."""
    for index in range(start, end):
        if copy[index] not in (0x0A, 0x0D):
            copy[index] = 0x20
