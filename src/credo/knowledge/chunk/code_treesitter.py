"""Read a source file with its tree-sitter grammar (`code_grammars`).

One parse per file and two queries, in C (definitions; comments); Python only looks at
what those return, and a regex lexer reads each body's names (`code_names`). Each
grammar is imported, loaded and its queries compiled once per process, on first use, so
nothing here costs a process that never reads code (the read path never imports
``tree_sitter``).

- A definition's signature is its source from the ``@definition`` node (or the
  declaration it is the only child of: ``const f = (a) =>``) to its body, a comment in
  it kept as written (pragmas cut out). Its lines run from the comments and attachments
  (decorators, Rust attributes) directly above it, with no blank line between, to its
  end; a wrapper (``export``, a Python decorated definition) counts as part of it.
- Those comments above are its doc (except in Python, whose doc is the body's first
  string); so are neither a comment that ends a line of code nor a licence at the top.
- The file header is the comments above the first line of code (in Python, the module
  docstring).
- A file whose root is an ERROR node with at most half of it in whole statements (`_WHOLE`),
  or that is more than half inside top-level ERROR nodes with no definition found, is not
  this grammar's language (or not code): the reader gives up and the caller falls back. A
  broken region in a file otherwise read keeps the definitions tree-sitter recovered around
  and inside it (a root ERROR over a file of whole declarations is one: immer's
  types-external.ts, an interface's call signature after a property with no ``;``).
"""

from __future__ import annotations

import functools
import importlib
import re
import threading
from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING

from credo.knowledge.chunk.code_calls import Call, find_calls
from credo.knowledge.chunk.code_declared import declared_values
from credo.knowledge.chunk.code_fallback import (
    BLOCK_LINE_PREFIX,
    Fragment,
    comment_paragraphs,
    is_noise,
)
from credo.knowledge.chunk.code_grammars import GRAMMARS, MEMBER_SCOPES, Grammar
from credo.knowledge.chunk.code_macros import read_items
from credo.knowledge.chunk.code_names import LEXER_KEYWORDS, lexer, names_in_bytes, own_segments
from credo.knowledge.chunk.code_outline import (
    Definition,
    Outline,
    is_commented_out_code,
    is_cut,
    is_disabled_block,
    name,
    signature,
)
from credo.knowledge.chunk.code_python import docstring_paragraphs
from credo.knowledge.chunk.code_values import DOC_SYNTAX, documented_values
from credo.knowledge.chunk.parse_budget import parse_within_budget as _parse
from credo.knowledge.chunk.sentence import Line

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Query

    from credo.knowledge.chunk.code_config import ConfigValue

_MAX_ERROR_SHARE = 0.5
# Node types of a top-level unit that stands whole, across the grammars (``import_statement``,
# ``type_alias_declaration``, ``function_item``, ``package_clause``, ``line_comment``...).
_WHOLE = re.compile(r"(?:^|_)(?:statement|declaration|definition|item|clause|comment)$")
_LICENCE_WORDS = re.compile(rb"copyright|licen[cs]e|all rights reserved", re.I)
# A character past plane 1 (UTF-8 F0 A0.. to F4): tree-sitter-bash 0.25 crashes the process
# (SIGSEGV) on "{" followed by most of them (U+2C800 and up, sampled). The parser reads a
# copy with each one swapped for U+20000, a letter of the same UTF-8 length, so every node's
# byte offsets still name the file's own bytes, which the text is cut from.
_PAST_PLANE_ONE = re.compile(rb"\xf0[\xa0-\xbf][\x80-\xbf]{2}|[\xf1-\xf4][\x80-\xbf]{3}")
_STAND_IN = "\U00020000".encode()
_RECEIVER_TYPE = re.compile(r"(\w+)\s*(?:\[[^\]]*\])?\s*\)\s*$")
_GENERICS = re.compile(r"^(?!operator)([^<]+)<.*$", re.S)
# Tokens that open a scope: a comment below one starts the scope, it remarks on no code.
_OPENERS = frozenset({"{", "(", "["})


@dataclass(frozen=True, slots=True)
class _Loaded:
    grammar: Grammar
    language: Language
    definitions: Query
    comments: Query


_LOADED: dict[str, _Loaded | None] = {}
_LOCK = threading.Lock()


def available(grammar: str) -> bool:
    """True when `grammar` (a key of `GRAMMARS`) is installed and loads."""
    return _load(grammar) is not None


def read_tree(lines: list[str], grammar: str) -> Outline | None:
    """The outline of a file read with `grammar`; None when the grammar is not installed
    or fails to load, or the file is mostly not its language (the caller falls back)."""
    loaded = _load(grammar)
    if loaded is None:
        return None
    from tree_sitter import Parser, QueryCursor

    source = "\n".join(lines).encode("utf-8", "replace")
    parser, parsed = Parser(loaded.language), _PAST_PLANE_ONE.sub(_STAND_IN, source)
    tree = _parse(parser, parsed)
    if tree is None:
        return None
    if loaded.grammar.macro_items:
        tree = read_items(parsed, tree, functools.partial(_parse, parser))
    root = tree.root_node
    if root.is_error and not _mostly_whole(root, len(source)):
        return None
    comments = QueryCursor(loaded.comments).captures(root).get("comment", [])
    reader = _Reader(lines, source, loaded, root, comments)
    calls = find_calls(root, source) if loaded.grammar.calls else []
    definitions = reader.definitions(QueryCursor(loaded.definitions).matches(root), calls)
    if not definitions and root.has_error and _mostly_errors(root, len(source)):
        return None
    configs: list[ConfigValue] = []
    if loaded.grammar.calls:  # (JavaScript and TypeScript)
        # (imported here: `config_tree` borrows this module's parse budget)
        from credo.knowledge.chunk.code_config import find_configs, masked

        configs, held = find_configs(root, source, reader.comments)
        reader.used.update(held)  # a configuration block's comments are its own lines
    rows = [(config.first, config.last) for config in configs]
    if loaded.grammar.values:
        definitions += documented_values(reader, definitions, rows)
    definitions += declared_values(reader, definitions, rows)  # (after: those are theirs)
    body_lexer = lexer(loaded.grammar.lexer)
    keywords = LEXER_KEYWORDS[loaded.grammar.lexer]
    named = masked(source, lines, configs) if configs else source  # (no secret in a name)
    for found, segments in zip(
        definitions, own_segments([f.body for f in definitions]), strict=True
    ):
        words = names_in_bytes(named, segments, body_lexer, keywords)
        found.definition.identifiers, found.definition.strings = words.names, words.strings
    header = reader.header()
    fragments = [
        fragment
        for comment in reader.comments
        if comment.id not in reader.used
        for fragment in reader.fragments(comment)
    ]
    outline_definitions = [found.definition for found in definitions]
    outline = Outline(outline_definitions, header, fragments, reader.code_row + 1)
    outline.configs = configs
    return outline


def _load(name_: str) -> _Loaded | None:
    if name_ not in _LOADED:
        with _LOCK:
            if name_ not in _LOADED:
                _LOADED[name_] = _try_load(GRAMMARS.get(name_))
    return _LOADED[name_]


def _try_load(grammar: Grammar | None) -> _Loaded | None:
    if grammar is None:
        return None
    try:
        import tree_sitter

        module = importlib.import_module(grammar.package)
        language = tree_sitter.Language(getattr(module, grammar.function)())
        comments = " ".join(f"({kind}) @comment" for kind in grammar.comments)
        return _Loaded(
            grammar,
            language,
            tree_sitter.Query(language, grammar.definitions),
            tree_sitter.Query(language, comments),
        )
    except Exception:  # not installed, an ABI this tree-sitter cannot load, a bad query
        return None


def _mostly_errors(root: Node, size: int) -> bool:
    """True when most of the file sits in top-level ERROR nodes: not this grammar's language,
    or not code. (Querying every ERROR node costs quadratic time on deep broken input.)"""
    broken = sum(child.end_byte - child.start_byte for child in root.children if child.is_error)
    return broken > _MAX_ERROR_SHARE * max(size, 1)


def _mostly_whole(root: Node, size: int) -> bool:
    """True when most of a root ERROR's bytes are whole statements, declarations and comments
    (one broken region: tree-sitter lost the root, not the file's structure)."""
    whole = sum(
        child.end_byte - child.start_byte
        for child in root.children
        if not child.has_error and _WHOLE.search(child.type)
    )
    return whole > _MAX_ERROR_SHARE * max(size, 1)


def _declares_members(node: Node) -> bool:
    """Whether the definition `node` declares members (a class, struct, trait...)."""
    if node.type in MEMBER_SCOPES:
        return True
    value = node.child_by_field_name("value")  # (``const C = class {...}``)
    return value is not None and value.type == "class"


def _end_row(node: Node) -> int:
    """Last row holding text of `node` (a node ending at column 0 ended on the row above)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


@dataclass(slots=True)
class _Found:
    definition: Definition
    body: tuple[int, int] | None  # byte range of the body


# A Rust ``impl Trait for Type`` (`_trait_impls_as_functions`); the members it may hold
# besides its one function: associated types (``type Err = Error;``).
_TRAIT_IMPL = "trait impl"
_IMPL_FUNCTION = "function_item"
_IMPL_TYPES = frozenset({"type_item"})


def _trait_impls_as_functions(
    found: list[_Found], nodes: list[str], parents: list[int]
) -> list[_Found]:
    """A Rust trait impl that holds one function without a doc comment of its own (and
    maybe associated types) becomes that function: one definition from the impl's header to
    the function's last line, trail ``(Type, function)``, text the impl's header then its
    members' signatures
    (``impl Display for Comparator fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result``),
    context the words of the whole impl body.

    Why: the trait fixes the function's signature, so each type's ``fmt``, ``cmp`` or
    ``from_str`` read alone has the same text, and the same text is one belief anchored at
    its first occurrence in a file: the others were in no belief at all. The impl's header
    names the type and the trait, as a Go method's receiver names its type; read with it,
    each is a definition of its own, in the file's words and order."""
    children: dict[int, list[int]] = {}
    for index, parent in enumerate(parents):
        if parent >= 0:
            children.setdefault(parent, []).append(index)
    dropped: set[int] = set()
    for index, kind in enumerate(nodes):
        members = children.get(index, [])
        functions = [k for k in members if nodes[k] == _IMPL_FUNCTION]
        if (
            kind != _TRAIT_IMPL
            or len(functions) != 1
            or any(k not in functions and nodes[k] not in _IMPL_TYPES for k in members)
        ):
            continue
        function = found[functions[0]].definition
        if function.doc or found[functions[0]].body is None:
            continue
        impl = found[index].definition
        signatures = [impl.signature, *(found[k].definition.signature for k in members)]
        # (to the function's last line: the impl's closing brace says nothing, and a passage
        # ending there reached 4 lines past a function under a header and associated types)
        end = function.end_line
        merged = Definition(function.trail, impl.start_line, end, " ".join(signatures))
        merged.doc, merged.doc_first, merged.members = impl.doc, impl.doc_first, False
        found[index] = _Found(merged, found[index].body)
        dropped.update(members)
    return [f for index, f in enumerate(found) if index not in dropped]


class _Reader:
    """One file's tree: definitions, docs, header and comments."""

    def __init__(
        self, lines: list[str], source: bytes, loaded: _Loaded, root: Node, comments: list[Node]
    ) -> None:
        self.lines = lines
        self.source = source
        self.rows = source.split(b"\n")
        self.grammar = loaded.grammar
        self.root = root
        self.comments = sorted(comments, key=lambda n: n.start_byte)
        self.comment_starts = [c.start_byte for c in self.comments]
        self.comment_types = frozenset(loaded.grammar.comments)
        self.used: set[int] = set()  # ids of comments that became a doc or the header
        # node id -> its parent's children and its index there (`previous`)
        self.siblings: dict[int, tuple[list[Node], int]] = {}
        self.blocks = 0
        first_code = next(
            (c for c in root.named_children if c.type not in self.comment_types), None
        )
        self.code_byte = first_code.start_byte if first_code else len(source)
        self.code_row = first_code.start_point[0] if first_code else len(lines)

    def text(self, start: int, end: int) -> str:
        return self.source[start:end].decode("utf-8", "replace")

    def definitions(
        self, matches: list[tuple[int, dict[str, list[Node]]]], calls: list[Call]
    ) -> list[_Found]:
        """Every definition with its trail, in document order, outer before inner; `calls`
        (`code_calls`) are definitions too, each over its own bytes."""
        chosen: dict[int, tuple[Node, dict[str, list[Node]]]] = {}
        for _, captures in matches:
            node = captures["definition"][0]
            if node.id not in chosen or "body" not in chosen[node.id][1]:
                chosen[node.id] = (node, captures)
        spans: list[tuple[int, int, tuple[Node, dict[str, list[Node]]] | Call]] = [
            (item[0].start_byte, item[0].end_byte, item) for item in chosen.values()
        ]
        spans.extend((call.start, call.node.end_byte, call) for call in calls)
        spans.sort(key=lambda span: (span[0], -span[1]))
        found: list[_Found] = []
        nodes: list[str] = []  # each found one's node type ("" for a call)
        parents: list[int] = []  # the index of the found one around each, or -1
        open_scopes: list[tuple[int, tuple[str, ...], int]] = []  # (end byte, trail, index)
        for start, end, item in spans:
            while open_scopes and open_scopes[-1][0] <= start:
                open_scopes.pop()
            trail, parent = open_scopes[-1][1:] if open_scopes else ((), -1)
            index = parent
            if isinstance(item, Call):
                trail = (*trail, item.name)
                if not item.scope:
                    found.append(self.call(item, trail))
                    nodes.append("")
            else:
                node, captures = item
                receiver = captures.get("receiver")
                if receiver and not trail:
                    owner = _RECEIVER_TYPE.search(self.node_text(receiver[0]))
                    trail = (owner.group(1),) if owner else ()
                trail = (*trail, self.name(captures["name"][0]))
                found.append(self.definition(node, captures.get("body", [None])[0], trail))
                is_trait_impl = node.type == "impl_item" and node.child_by_field_name("trait")
                nodes.append(_TRAIT_IMPL if is_trait_impl else node.type)
            if len(found) > len(parents):
                parents.append(parent)
                index = len(found) - 1
            open_scopes.append((end, trail, index))
        return _trait_impls_as_functions(found, nodes, parents)

    def node_text(self, node: Node) -> str:
        return self.text(node.start_byte, node.end_byte)

    def name(self, node: Node) -> str:
        raw = name(self.node_text(node))
        generic = _GENERICS.match(raw)
        return generic.group(1) if generic else raw

    def definition(self, node: Node, body: Node | None, trail: tuple[str, ...]) -> _Found:
        opening = node
        while (parent := opening.parent) is not None and (
            parent.type in self.grammar.signature_parents and parent.named_child_count == 1
        ):
            opening = parent
        outer = opening
        while (parent := outer.parent) is not None and parent.type in self.grammar.wrappers:
            outer = parent
        docs, first_row = self.leading(outer)
        end = body.start_byte if body is not None else opening.end_byte
        self.take_comments(outer.start_byte, opening.start_byte)  # among decorators: dropped
        body_span, start = None, opening.start_byte
        if body is None and is_cut(signature(self.take_comments(start, end, take=False))):
            # A declaration the cap cuts (a long type alias) reads its names as a body's:
            # past the cut they were in no chunk, nor were its comments, which stay comments.
            written = signature(self.take_comments(start, end, keep=False, take=False))
            body_span = (start, end)
        else:
            written = signature(self.take_comments(start, end))
        definition = Definition(trail, first_row + 1, _end_row(outer) + 1, written)
        definition.members = _declares_members(node)
        if self.grammar.docstrings:
            definition.doc = self.docstring(body)
        elif docs:
            self.used.update(doc.id for doc in docs)
            fragments = [f for doc in docs for f in self.fragments(doc)]
            definition.doc = self.paragraphs(fragments)
            definition.doc_first = True
        span = (body.start_byte, body.end_byte) if body is not None else body_span
        return _Found(definition, span)

    def call(self, call: Call, trail: tuple[str, ...]) -> _Found:
        """A call with a callback (`code_calls`) as a definition: from its statement (doc
        comments above included) or, later in a chain, its method, to its closing
        parenthesis; its signature runs to the first callback's body."""
        docs: list[Node] = []
        first_row = call.row
        if call.statement is not None:
            outer = call.statement
            while (parent := outer.parent) is not None and parent.type in self.grammar.wrappers:
                outer = parent
            docs, first_row = self.leading(outer)
        definition = Definition(
            trail,
            first_row + 1,
            _end_row(call.node) + 1,
            signature(self.take_comments(call.start, call.body[0])),
        )
        if docs:
            self.used.update(doc.id for doc in docs)
            fragments = [f for doc in docs for f in self.fragments(doc)]
            definition.doc = self.paragraphs(fragments)
            definition.doc_first = True
        return _Found(definition, call.body)

    def leading(self, node: Node) -> tuple[list[Node], int]:
        """Doc comments directly above `node` and the first row of what belongs to it."""
        docs: list[Node] = []
        row = node.start_point[0]
        start = node.start_byte
        sibling = self.previous(node)
        while sibling is not None and (
            _end_row(sibling) >= row - 1
            or (not docs and self.documents_across_blanks(sibling, start))
        ):
            if sibling.type in self.comment_types:
                if self.ends_attachment(sibling):
                    self.used.add(sibling.id)  # among decorators, as in Python: dropped
                elif (
                    self.grammar.docstrings
                    or self.is_trailing(sibling)
                    or self.is_apart(sibling)
                    or self.is_disabled_doc(sibling)
                ):
                    break
                else:
                    docs.append(sibling)
            elif sibling.type not in self.grammar.attachments:
                break
            row, start = sibling.start_point[0], sibling.start_byte
            sibling = self.previous(sibling)
        docs.reverse()
        return docs, row

    def documents_across_blanks(self, comment: Node, below: int) -> bool:
        """A doc comment with only blank lines between it and what starts at byte `below`
        (JSDoc's common layout: ``*/``, a blank line, the method): the definition's own,
        as if directly above it. Only doc syntax (``/**``, ``///``) reaches across: a plain
        comment above a blank line often heads a group of definitions, and godoc reads it
        so. The file header (a licence among it), a remark on the code above it, a comment
        after a decorator, a separator or pragma and commented-out code keep their places;
        a ``//!`` or ``/*!`` module doc is not doc syntax."""
        if (
            comment.type not in self.comment_types
            or not DOC_SYNTAX.match(self.source, comment.start_byte)
            or self.grammar.docstrings
            or comment.start_byte < self.code_byte
            or self.source[comment.end_byte : below].strip()
            or self.is_trailing(comment)
            or self.ends_attachment(comment)
            or self.follows_code(comment)
        ):
            return False
        paragraphs = self.paragraphs(self.fragments(comment))
        return not all(is_commented_out_code(paragraph) for paragraph in paragraphs)

    def follows_code(self, comment: Node) -> bool:
        """Whether the comment block holding `comment` starts on the line below code (an
        opening bracket aside): it remarks on that code (``}``, then ``// Hides the
        panel.`` on the next line)."""
        top, above = comment, self.previous(comment)
        while (
            above is not None
            and above.type in self.comment_types
            and _end_row(above) >= top.start_point[0] - 1
        ):
            top, above = above, self.previous(above)
        return (
            above is not None
            and _end_row(above) >= top.start_point[0] - 1
            and (above.is_named or above.type not in _OPENERS)
        )

    def previous(self, node: Node) -> Node | None:
        """``node.prev_sibling`` in constant time. tree-sitter finds a sibling (and a
        parent) by walking from the first child, so a walk up a long run of comment lines
        took quadratic time; each parent's children are listed once instead."""
        place = self.siblings.get(node.id)
        if place is None:
            parent = node.parent
            if parent is None:
                return None
            children = parent.children
            for index, child in enumerate(children):
                self.siblings[child.id] = (children, index)
            place = self.siblings.get(node.id)
            if place is None:  # (not among its parent's children: never seen)
                return node.prev_sibling
        children, index = place
        return children[index - 1] if index else None

    def is_trailing(self, comment: Node) -> bool:
        """A comment after code on its line: it remarks on that code."""
        row, column = comment.start_point
        return bool(self.rows[row][:column].strip())

    def ends_attachment(self, comment: Node) -> bool:
        """A comment after a decorator or attribute on its line (``@dec // why``)."""
        before = self.previous(comment)
        return (
            before is not None
            and before.type in self.grammar.attachments
            and _end_row(before) == comment.start_point[0]
        )

    def is_apart(self, comment: Node) -> bool:
        """A licence at the top, or a crate/module doc (``//!``): not the next item's doc."""
        head = self.source[comment.start_byte : comment.start_byte + 3]
        if head in (b"//!", b"/*!"):
            return True
        return comment.start_byte < self.code_byte and bool(
            _LICENCE_WORDS.search(self.source[comment.start_byte : comment.end_byte])
        )

    def is_disabled_doc(self, comment: Node) -> bool:
        """A doc comment switched off by a line comment (``// /** @deprecated ... */``)."""
        return is_disabled_block(self.paragraphs(self.fragments(comment)))

    def take_comments(self, start: int, end: int, keep: bool = True, take: bool = True) -> str:
        """The source between two offsets. The comments there become part of it (a
        signature keeps a remark between its parameters, as written, so the definition's
        text keeps the file's order) and are taken (no comment chunk); pragmas and
        separators are cut out. Without ``keep`` every comment is cut out."""
        pieces: list[str] = []
        position = start
        for index in range(bisect_left(self.comment_starts, start), len(self.comments)):
            comment = self.comments[index]
            if comment.start_byte >= end:
                break
            if take:
                self.used.add(comment.id)
            if not keep or all(is_noise(f, self.lines) for f in self.fragments(comment)):
                pieces.append(self.text(position, comment.start_byte))
                position = comment.end_byte
        pieces.append(self.text(position, end))
        return " ".join(pieces)

    def docstring(self, body: Node | None) -> list[list[Line]]:
        """Paragraphs of the string that opens `body` (Python), as written in the file."""
        if body is None:
            return []
        first = next((c for c in body.named_children if c.type not in self.comment_types), None)
        if first is None or first.type != "expression_statement" or first.named_child_count != 1:
            return []
        literal = first.named_children[0]
        if literal.type != "string" or literal.child_count < 2:
            return []
        opening, closing = literal.children[0], literal.children[-1]
        rows = self.text(opening.end_byte, closing.start_byte).split("\n")
        start = opening.start_point[0] + 1
        return docstring_paragraphs([(start + k, row) for k, row in enumerate(rows)])

    def header(self) -> list[list[Line]]:
        """The module docstring (Python) or the comments above the first line of code."""
        if self.grammar.docstrings:
            return self.docstring(self.root)
        top = [
            c
            for c in self.comments
            if c.start_byte < self.code_byte and c.id not in self.used and c.parent == self.root
        ]
        self.used.update(c.id for c in top)
        fragments = [f for comment in top for f in self.fragments(comment)]
        return self.paragraphs(fragments)

    def paragraphs(self, fragments: list[Fragment]) -> list[list[Line]]:
        """`comment_paragraphs` by this grammar's doc rules: a doc other than a Python
        docstring is read as Markdown (`code._doc_cleaner`)."""
        return comment_paragraphs(
            fragments, self.lines, rust=self.grammar.rustdoc, markdown=not self.grammar.docstrings
        )

    def fragments(self, comment: Node) -> list[Fragment]:
        """The comment's lines, markers removed, as the fallback lexer would give them."""
        row, column = comment.start_point
        whole = self.node_text(comment).rstrip("\r\n")
        text = whole.lstrip(" \t")  # (error recovery can start a comment at the space before it)
        column += len(whole) - len(text)
        if not text.startswith("/*"):
            if text.startswith("//"):
                text = text[2:].lstrip("/!")
            elif text.startswith("#"):
                text = text.lstrip("#:")
            return [Fragment(row + 1, column, text, None, self.is_trailing(comment))]
        self.blocks += 1
        body = text[2:-2] if text.endswith("*/") and len(text) >= 4 else text[2:]
        fragments = []
        for k, part in enumerate(body.split("\n")):
            if k == 0:
                cleaned = part.lstrip("*!").rstrip("*")
            else:
                cleaned = BLOCK_LINE_PREFIX.sub("", part, count=1).rstrip("*")
            fragments.append(
                Fragment(row + 1 + k, column if k == 0 else 0, cleaned, self.blocks, False)
            )
        return fragments
