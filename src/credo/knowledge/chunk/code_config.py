"""A JavaScript/TypeScript module whose export is a configuration object, read by its keys.

``vite.config.ts``, ``tailwind.config.js``, ``.eslintrc.js``, ``docusaurus.config.js``,
``webpack.config.js``: the module's body is one object, and "which port does the dev server
use" asks for one of its key blocks. A function reader sees no definition there (the
functions among the keys aside), so those keys were in no chunk. The object is read here
into the key tree `config` cuts for YAML, TOML and JSON (`config_tree.Entry`), and
`code.split_code` turns it into "config" chunks with key trails
(``vite.config.ts › server › proxy``), exact lines and secrets redacted; every other chunk
of the file (definitions, comments outside the object, the header) is read as before.

Which shapes count (`find_configs`), the module's export being one of:

- ``module.exports = V``, ``export default V`` or TypeScript's ``export = V``, or an
  identifier bound to V by a top-level ``const``/``let``/``var`` (``const config = {...};
  export default config``);
- a named export: ``export const NAME = V`` (each declarator), ``exports.NAME = V``,
  ``module.exports.NAME = V`` (svgo's ``export const elems = {...}``, Next's ``export const
  config``): its name heads its blocks' trails (``elems › svg › defaults``), and a function
  V is the module's API, not configuration (SvelteKit's ``load``);
- an export assigned in a chain or inside a top-level declaration (``module.exports =
  exports = V``, mocha's ``const TYPES = (exports.types = V)``): the first export target
  names it;

where V is, through parentheses, ``as``, ``satisfies`` and type assertions:
- an object literal; an array holding an object (an ESLint flat config);
- a call or ``new`` whose arguments hold one (``defineConfig({...})``,
  ``tseslint.config({...}, {...})``, ``withMDX(defineConfig({...}))``, three calls deep
  at most);
- a function that returns one (``defineConfig(({ mode }) => ({...}))``, Babel's
  ``module.exports = function (api) { ...; return {...} }``): its last top-level
  ``return``'s object (helpers may follow it), or the object a ``const`` of its body binds
  to the name it returns (``const config = {...}; ...; return config``).

The object must hold data: a key whose value is a literal, an object, an array or a
collection built from them (``new Set([...])``). An export of functions, names or
``require`` calls (``module.exports = { parse, stringify }``) is a module's interface, not
configuration, and is left as it was. So is a class, and an object whose tree holds a
syntax error. One object exported twice (``export const c = {...}; export default c``) is
read once, under its name. Exports written on one line (a minified module) each keep their
own part of it, from where the export starts to where the next one does (`ConfigValue.start`).

Inside the object:

- **Keys**: an object's pairs and shorthand properties are entries; an array item that is an
  object, an array (a preset's ``['classic', {...}]``) or a call with an object argument
  (``react({ babel: {...} })``) is one too, named by its ``name``, ``id``, ``title``,
  ``label`` or ``key`` string, its first string, or its callee; an unnamed one lends its
  keys to its array (airbnb's ``indent: ['error', 2, {...}]``: ``indent › SwitchCase``,
  never ``indent › 1``: a position names nothing, and a joined block's context names its
  keys). A call value's object arguments are its key's children. Nesting past
  `MAX_DEPTH` is one block.
- **A function value stays code**: a key whose value is a function, a method, a function in
  an array that is a key's value and a named function passed to a call are definitions
  (`code_grammars`), so their rows, with the comment lines directly above them, are
  `holes`: the config text leaves them out, and their comments stay theirs. A row where a
  data key starts is never a hole (``{ port: 3000, onListen: () => {} }`` on one line).
- **Computed values and spreads** (``path.resolve(__dirname, 'dist')``, ``...base``) are
  part of their block's text, as written.
- Comments inside the object's rows and outside its holes belong to its blocks: `used`
  gives them to the caller, which makes no comment chunk of them. Commented-out code
  (``/* tutorialSidebar: [...] */``, ``// MemberExpression: null,``: every line an
  object's member or code, none prose) is a hole and no comment chunk either; a note
  (``// TODO: x,``, ``// reason: legacy browsers,``) is prose.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from credo.knowledge.chunk.code_outline import CODE_LINE as _CODE_LINE
from credo.knowledge.chunk.code_outline import PROSE as _PROSE
from credo.knowledge.chunk.config_tree import MAX_DEPTH, MAX_KEY_CHARS, Entry

if TYPE_CHECKING:
    from tree_sitter import Node

# Wrappers a value is read through: ``({...})``, ``{...} as Config``, ``satisfies Config``.
_WRAPPERS = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "type_assertion",
        "non_null_expression",
    }
)
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_CALLS = frozenset({"call_expression", "new_expression"})
# A value that is data (what makes an object configuration, not a module's interface).
_DATA = frozenset(
    (
        *("string", "template_string", "number", "regex", "unary_expression"),
        *("true", "false", "null", "undefined", "object", "array"),
    )
)
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
# An array item (an object) is named by the first of these keys it has as a string.
_ITEM_NAMES = ("name", "id", "title", "label", "key")
_CALL_DEPTH = 3
# A line of an object literal, as commented-out code has it: a member ending in ``,`` or an
# opening bracket (``'no-console': 'warn',``, ``items: [``), a string item, brackets alone.
_MEMBER = re.compile(
    r"""^(?:
        (?:[\w$@./-]+|'[^']*'|"[^"]*")\s*:\s*(?:\S.*[,(\[{]|[(\[{])
      | (?:'[^']*'|"[^"]*"|`[^`]*`|-?\d[\w.]*|true|false|null),?
      | [\[\]{}(),]+;?
      | \.\.\.[\w.]+,?
    )$""",
    re.X,
)

# A comment line that reads as a member but is a note: a tag (``// TODO: x,``), or a value
# of two bare words, which no JavaScript value is (``// reason: legacy browsers,``).
_NOTE = re.compile(
    r"""^(?:
        (?:TODO|FIXME|XXX|HACK|NOTE|NB|BUG|WARNING|WARN|CAUTION|IMPORTANT|DEPRECATED|TBD)\b
      | [\w$@./-]+\s*:\s*(?!(?:new|typeof|await|void|async|function|yield|delete)\s)
        [A-Za-z]+\s[A-Za-z]
    )""",
    re.X,
)


class ConfigValue:
    """One exported configuration object, as `code.split_code` cuts it.

    Attributes:
        entries: Its keys, each with its rows and nested keys (`config_tree.Entry`).
        first: The first row (0-based) of its blocks: the export or declaration, or the
            returned object in a function.
        last: The last row of the object (0-based, inclusive).
        holes: Rows that are code (function values and their doc comments, commented-out
            code): left out of the text.
        name: A named export's name (``export const elems``, ``exports.elems``), which
            heads its blocks' trails; "" for the module's own value.
        start: Where the export starts (row, byte column): the statement, or for a
            declarator after the first its own start (``export let a = {...}, b = {...}``).
            Where exports share a row, each keeps its own part of it (`code._config_chunks`).
    """

    __slots__ = ("entries", "first", "holes", "last", "name", "start")

    def __init__(
        self,
        entries: list[Entry],
        first: int,
        last: int,
        holes: frozenset[int],
        name: str = "",
        start: tuple[int, int] = (0, 0),
    ) -> None:
        self.entries = entries
        self.first = first
        self.last = last
        self.holes = holes
        self.name = name
        self.start = start


def find_configs(
    root: Node, source: bytes, comments: list[Node]
) -> tuple[list[ConfigValue], set[int]]:
    """The configuration objects a module exports (see the module docstring), and the ids of
    the `comments` inside them that their blocks hold."""
    declared: dict[str, tuple[Node, Node]] = {}  # name -> (its statement, its value)
    for statement in root.named_children:
        declaration = statement
        if statement.type == "export_statement":
            declaration = statement.child_by_field_name("declaration") or statement
        if declaration.type not in _DECLARATIONS:
            continue
        for declarator in declaration.named_children:
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if declarator.type == "variable_declarator" and name is not None and value is not None:
                declared.setdefault(_text(source, name), (statement, value))
    ordered = sorted(comments, key=_start_row)  # (stable: `_read` bisects it)
    found: list[ConfigValue] = []
    used: set[int] = set()
    read: set[int] = set()  # objects already read (``export const c = {...}; export default c``)
    for statement in root.named_children:
        for name, value, start in _exported(statement, source):
            holder = statement
            value = _unwrap(value)
            if value.type == "identifier":
                if _text(source, value) not in declared:
                    continue
                holder, value = declared[_text(source, value)]
            if name and _unwrap(value).type in _FUNCTIONS:
                continue  # (a named function is the module's API: SvelteKit's ``load``)
            roots, in_function = _roots(value, 0, source)
            if not roots or any(r.has_error for r in roots) or roots[0].id in read:
                continue
            config = _read(roots, holder, name, in_function, source, ordered, used)
            if config is not None:
                config.start = start.start_point
                read.add(roots[0].id)
                found.append(config)
    return found, used


def masked(source: bytes, lines: list[str], configs: list[ConfigValue]) -> bytes:
    """`source` with each configuration row that holds a secret blanked, byte for byte
    (offsets hold): the passages are redacted, and the function around a returned
    configuration must not keep the secret in its own words (Babel's ``return config``)."""
    from credo.knowledge.redact import redact

    rows = {
        row
        for config in configs
        for row in range(config.first, min(config.last, len(lines) - 1) + 1)
        if row not in config.holes and redact(lines[row]) != lines[row]
    }
    if not rows:
        return source
    return "\n".join(
        " " * len(line.encode("utf-8", "replace")) if row in rows else line
        for row, line in enumerate(lines)
    ).encode("utf-8", "replace")


def _read(
    roots: list[Node],
    holder: Node,
    name: str,
    in_function: bool,
    source: bytes,
    comments: list[Node],
    used: set[int],
) -> ConfigValue | None:
    """One exported value's configuration (None when it holds no data); the ids of the
    comments its blocks hold go into `used`."""
    walker = _Walker(source)
    # (several objects passed to one call are items, as an array's)
    entries = walker.value(roots[0], 0) if len(roots) == 1 else walker.items(roots, 0)
    if not walker.data:
        return None
    first = roots[0].start_point[0] if in_function else holder.start_point[0]
    last = _end_row(roots[-1])
    # The opening line alone (``module.exports = {``) says nothing a trail does not.
    opening = range(first, roots[0].start_point[0] + 1)
    code = walker.holes(first) | {row for row in opening if row not in walker.starts}
    dead: set[int] = set()
    # (only the comments from `first` on: a module of thousands of named exports read
    # every comment of the file for each, quadratic)
    for comment in comments[bisect_left(comments, first, key=_start_row) :]:
        row = comment.start_point[0]
        if row > last:
            break
        if row < first or _end_row(comment) > last or row in code:
            continue  # (outside, or a function value's: its definition's comment)
        used.add(comment.id)
        if row not in walker.starts and _commented_out(_text(source, comment)):
            # commented-out code (``/* tutorialSidebar: [...] */``): neither text nor comment
            dead.update(range(row, _end_row(comment) + 1))
    holes = frozenset(code | (dead - walker.starts))
    return ConfigValue(entries, first, last, holes, name[:MAX_KEY_CHARS])


def _commented_out(comment: str) -> bool:
    """Whether every line of a comment reads as code or as an object's members
    (``'no-console': 'warn',``, ``],``), none as prose."""
    if comment.startswith("/*"):
        comment = comment[2:-2] if comment.endswith("*/") else comment[2:]
    else:
        comment = comment.lstrip("/")
    lines = [line.strip().lstrip("*").strip() for line in comment.split("\n")]
    lines = [line for line in lines if line]
    return bool(lines) and all(
        (_MEMBER.match(line) or _CODE_LINE.match(line))
        and not _PROSE.search(line)
        and not _NOTE.match(line)
        for line in lines
    )


def _exported(statement: Node, source: bytes) -> list[tuple[str, Node, Node]]:
    """The values a statement exports, each with its name ("" for the module's own value) and
    the node its text starts at: ``module.exports = V``, ``export default V`` and
    ``export = V``; ``export const NAME = V`` (each declarator), ``exports.NAME = V`` and
    ``module.exports.NAME = V``; an export assigned in a chain or in a top-level declaration
    (``const TYPES = (exports.types = V)``)."""
    if statement.type in _DECLARATIONS:  # (an export assigned inside: mocha's TYPES)
        return [
            (name, value, statement if n == 0 else declarator)
            for n, declarator in enumerate(statement.named_children)
            if declarator.type == "variable_declarator"
            and (bound := declarator.child_by_field_name("value")) is not None
            for name, value in _assigned(bound, source)
        ]
    if statement.type == "export_statement":
        declaration = statement.child_by_field_name("declaration")
        if declaration is not None:  # export const / let / var (functions and classes: no)
            if declaration.type not in _DECLARATIONS:
                return []
            return [
                (_text(source, name), value, statement if n == 0 else declarator)
                for n, declarator in enumerate(declaration.named_children)
                if declarator.type == "variable_declarator"
                and (name := declarator.child_by_field_name("name")) is not None
                and name.type == "identifier"
                and (value := declarator.child_by_field_name("value")) is not None
            ]
        value = statement.child_by_field_name("value")
        if any(child.type == "default" for child in statement.children):
            return [("", value, statement)] if value is not None else []
        if any(child.type == "=" for child in statement.children):  # TypeScript: export = V
            value = next((c for c in statement.named_children if c.type != "comment"), None)
            return [("", value, statement)] if value is not None else []
        return []
    if statement.type != "expression_statement" or not statement.named_child_count:
        return []
    return [
        (name, value, statement) for name, value in _assigned(statement.named_children[0], source)
    ]


def _assigned(expression: Node, source: bytes) -> list[tuple[str, Node]]:
    """What an assignment exports, with its name: ``module.exports = V`` (""),
    ``exports.NAME = V`` and ``module.exports.NAME = V`` (NAME); through a chain
    (``module.exports = exports = V``), the first export target names V."""
    targets: list[Node] = []
    node = _unwrap(expression)
    while node.type == "assignment_expression":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return []
        targets.append(left)
        node = _unwrap(right)
    for left in targets:
        name = _export_name(left, source)
        if name is not None:
            return [(name, node)]
    return []


def _export_name(left: Node, source: bytes) -> str | None:
    """The name an assignment target exports under ("" for ``module.exports``), or None
    when it is no export."""
    if left.type != "member_expression":
        return None
    target = left.child_by_field_name("object")
    member = left.child_by_field_name("property")
    if target is None or member is None:
        return None
    if target.type == "identifier":  # module.exports = V, exports.NAME = V
        owner = _text(source, target)
        if owner == "module" and _text(source, member) == "exports":
            return ""
        return _text(source, member) if owner == "exports" else None
    if target.type == "member_expression" and _text(source, target) == "module.exports":
        return _text(source, member)  # module.exports.NAME = V
    return None


def _unwrap(node: Node) -> Node:
    """`node` through the wrappers a configuration value is written in (`_WRAPPERS`)."""
    while node.type in _WRAPPERS:
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None:
            break
        node = inner
    return node


def _roots(value: Node, depth: int, source: bytes) -> tuple[list[Node], bool]:
    """The object and array nodes a value's configuration is written in, and whether they
    sit in a function (the rows before them are code, not configuration)."""
    value = _unwrap(value)
    if value.type == "object":
        return [value], False
    if value.type == "array":
        return ([value], False) if _holds_object(value) else ([], False)
    if depth >= _CALL_DEPTH:
        return [], False
    if value.type in _CALLS:
        arguments = value.child_by_field_name("arguments")
        found: list[Node] = []
        inside = False
        for argument in arguments.named_children if arguments is not None else ():
            roots, in_function = _roots(argument, depth + 1, source)
            found.extend(roots)
            inside = inside or in_function
        return found, inside
    if value.type in _FUNCTIONS:
        body = value.child_by_field_name("body")
        if body is None:
            return [], False
        if body.type == "statement_block":
            returned = _returned(body, source)
            if returned is None:
                return [], False
            body = returned
        body = _unwrap(body)
        if body.type in ("object", "array"):
            roots, _ = _roots(body, depth + 1, source)
            return roots, True
    return [], False


def _returned(block: Node, source: bytes) -> Node | None:
    """What a function body's last top-level ``return`` gives (helpers or code may follow
    it), read through a name the body binds: ``const config = {...}; ...; return config``."""
    statements = block.named_children
    last = next((s for s in reversed(statements) if s.type == "return_statement"), None)
    if last is None or not last.named_child_count:
        return None
    value = _unwrap(last.named_children[0])
    if value.type != "identifier":
        return value
    name = _text(source, value)
    for statement in statements:
        if statement.type in _DECLARATIONS and statement.start_byte < last.start_byte:
            for declarator in statement.named_children:
                bound = declarator.child_by_field_name("name")
                if bound is not None and _text(source, bound) == name:
                    found = declarator.child_by_field_name("value")
                    value = found if found is not None else value
    return value


def _collection(node: Node) -> bool:
    """``new Set(['a', 'b'])``, ``new Map([...])``: a collection built from data is data."""
    if node.type != "new_expression":
        return False
    arguments = node.child_by_field_name("arguments")
    values = [_unwrap(a) for a in arguments.named_children] if arguments is not None else []
    return bool(values) and all(v.type in ("array", "object") for v in values)


def _holds_object(array: Node) -> bool:
    """An array with an object among its items (an ESLint flat config), directly or as a
    call's argument (``tseslint.config(...)`` items aside)."""
    for item in array.named_children:
        item = _unwrap(item)
        if item.type == "object":
            return True
        if item.type in _CALLS and _object_arguments(item):
            return True
    return False


def _object_arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return []
    return [a for a in map(_unwrap, arguments.named_children) if a.type == "object"]


class _Walker:
    """Reads one configuration value's keys, and where its code is."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.data = 0  # keys whose value is data
        self.code: list[tuple[int, int]] = []  # (first row, last row) of function values
        self.starts: set[int] = set()  # rows where a data key starts

    def value(self, node: Node, depth: int) -> list[Entry]:
        """The entries of a key's value: an object's keys, an array's items, a call's object
        arguments' keys."""
        node = _unwrap(node)
        if depth > MAX_DEPTH:
            return []
        if node.type == "object":
            return self.pairs(node, depth)
        if node.type == "array":
            return self.items(list(node.named_children), depth)
        if node.type in _CALLS:
            self.functions_in(node)
            return [e for o in _object_arguments(node) for e in self.pairs(o, depth)]
        return []

    def pairs(self, node: Node, depth: int) -> list[Entry]:
        entries: list[Entry] = []
        for pair in node.named_children:
            if pair.type == "method_definition":
                self.code.append((pair.start_point[0], _end_row(pair)))
            elif pair.type == "shorthand_property_identifier":
                entries.append(
                    Entry((_key(self.source, pair),), pair.start_point[0], _end_row(pair))
                )
            elif pair.type == "pair":
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if key is None or value is None:
                    continue
                inner = _unwrap(value)
                if inner.type in _FUNCTIONS:
                    self.code.append((pair.start_point[0], _end_row(pair)))
                    continue
                if inner.type == "array":  # a function in a key's array is a definition
                    for item in inner.named_children:
                        if item.type in _FUNCTIONS:
                            self.code.append((item.start_point[0], _end_row(item)))
                if inner.type in _DATA or _collection(inner):
                    self.data += 1
                self.starts.add(pair.start_point[0])
                children = self.value(inner, depth + 1)
                row = pair.start_point[0]
                entries.append(Entry((_key(self.source, key),), row, _end_row(pair), children))
        return entries

    def items(self, items: list[Node], depth: int) -> list[Entry]:
        """An array's items that are objects, arrays or calls with keys, as entries."""
        entries: list[Entry] = []
        for item in items:
            inner = _unwrap(item)
            if inner.type in _FUNCTIONS or inner.type == "comment":
                continue
            if inner.type not in ("object", "array", *_CALLS):
                continue
            name = self.item_name(inner)
            if inner.type == "array" and name:  # a tuple (``['classic', {...}]``): its keys
                objects = [o for o in map(_unwrap, inner.named_children) if o.type == "object"]
                children = [e for o in objects for e in self.pairs(o, depth + 1)]
            else:
                children = self.value(inner, depth + 1)
            if not children:
                continue
            if not name:  # unnamed (``['error', 2, {...}]``): its keys are the array's, as
                entries.extend(children)  # a position (``indent › 1``) names nothing
                continue
            self.starts.add(item.start_point[0])
            entries.append(Entry((name,), item.start_point[0], _end_row(item), children))
        return entries

    def item_name(self, item: Node) -> str:
        if item.type == "object":
            strings = {}
            for pair in item.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                value = pair.child_by_field_name("value") if key is not None else None
                if key is not None and value is not None and value.type == "string":
                    strings.setdefault(_key(self.source, key), value)
            named = next((strings[k] for k in _ITEM_NAMES if k in strings), None)
            return _key(self.source, named) if named is not None else ""
        if item.type == "array":
            first = next((c for c in item.named_children if c.type != "comment"), None)
            return _key(self.source, first) if first is not None and first.type == "string" else ""
        callee = item.child_by_field_name("function") or item.child_by_field_name("constructor")
        return _key(self.source, callee) if callee is not None else ""

    def functions_in(self, call: Node) -> None:
        """A named function passed to a call is a definition: code, not configuration."""
        arguments = call.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type == "function_expression" and argument.child_by_field_name("name"):
                self.code.append((argument.start_point[0], _end_row(argument)))

    def holes(self, first: int) -> frozenset[int]:
        """The rows of function values, with the comment lines directly above each (its doc
        comment, which its definition reads), but no row where a data key starts."""
        rows: set[int] = set()
        lines = self.source.split(b"\n") if self.code else []
        for start, end in self.code:
            top = start
            while top - 1 >= first and lines[top - 1].strip().startswith((b"//", b"/*", b"*")):
                top -= 1
            rows.update(range(top, end + 1))
        return frozenset(rows - self.starts)


def _key(source: bytes, node: Node) -> str:
    """A key or item name as its trail element: unquoted, whitespace-normalised, capped."""
    text = _text(source, node).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1]
    return " ".join(text.split())[:MAX_KEY_CHARS]


def _text(source: bytes, node: Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _start_row(node: Node) -> int:
    return node.start_point[0]


def _end_row(node: Node) -> int:
    """Last row holding text of `node` (a node ending at column 0 ended on the row above)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row
