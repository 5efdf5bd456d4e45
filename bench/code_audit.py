"""What a source tree loses on the way into the index (issue #14): a mechanical audit.

    python bench/code_audit.py requests axios chi [--show 20]
    python bench/code_audit.py --tree /tmp/trees/anyio-4.6.2 [--tree DIR...] [--language go]

For each named corpus (docs_multi's, devsets', the spent held-out sets; never one of
``heldout.corpora.UNSPENT`` or ``RESERVE``) or tree (``--tree``: the files ``credo ingest
DIR`` reads, by its walk rules), every code file is split as
the ingest splits it (`credo.knowledge.chunk.language.split_file`) and parsed again with its
tree-sitter grammar, walked node by node with this file's own, wider list of what a
definition is (`DEFINITIONS`: more than credo's queries name). Then:

- a definition is *held* when a definition chunk covers its name's line and names it
  (the last part of its trail, or its signature text); *named only* when some chunk over
  its lines holds the name (an outer definition's body names); else *lost*;
- a comment or docstring is *held* when the chunks over its lines hold most of its words
  (text and context), *skipped* when credo leaves it out by rule (a licence, commented-out
  code), else *lost*;
- a line of code is *outside* when no chunk's range covers it.

Reported per language: the share lost and the constructs (node types, and the type of the
node around a lost comment) they sit in; ``--show`` prints examples of the largest groups.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "heldout"))
import docs_corpora  # noqa: E402
from credo.knowledge.chunk import code as code_module  # noqa: E402
from credo.knowledge.chunk import code_fallback  # noqa: E402
from credo.knowledge.chunk.code_grammars import GRAMMARS  # noqa: E402
from credo.knowledge.chunk.code_outline import is_commented_out_code, is_licence  # noqa: E402
from credo.knowledge.chunk.language import language_for, split_file  # noqa: E402
from devsets.corpora import DEV  # noqa: E402

sys.path.insert(0, str(BENCH / "heldout"))
import corpora as heldout_corpora  # noqa: E402  (bench/heldout/corpora.py)

# What a reader would call a definition, per grammar: wider than credo's own queries.
_JS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "method_definition",
    "method_signature",
    "abstract_method_signature",
    "interface_declaration",
    "enum_declaration",
    "internal_module",
    "module",
    "type_alias_declaration",
    "function_signature",
    "variable_declarator",  # (only with a function, class or object value: `_kind`)
    "public_field_definition",
    "pair",  # (only with a function value)
    "assignment_expression",  # (only with a function value)
}
DEFINITIONS: dict[str, set[str]] = {
    "python": {"function_definition", "class_definition"},
    "typescript": _JS,
    "tsx": _JS,
    "go": {
        "function_declaration",
        "method_declaration",
        "type_spec",
        "type_alias",
        "const_spec",
        "var_spec",
        "method_elem",
    },
    "rust": {
        "function_item",
        "function_signature_item",
        "struct_item",
        "enum_item",
        "union_item",
        "trait_item",
        "impl_item",
        "mod_item",
        "macro_definition",
        "type_item",
        "const_item",
        "static_item",
        "associated_type",
    },
    "c_sharp": {
        "class_declaration",
        "struct_declaration",
        "interface_declaration",
        "record_declaration",
        "enum_declaration",
        "namespace_declaration",
        "method_declaration",
        "constructor_declaration",
        "property_declaration",
        "delegate_declaration",
        "event_declaration",
        "local_function_statement",
    },
    "java": {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
        "method_declaration",
        "constructor_declaration",
        "annotation_type_element_declaration",
    },
    "bash": {"function_definition"},
    "cpp": {
        "function_definition",
        "class_specifier",
        "struct_specifier",
        "union_specifier",
        "enum_specifier",
        "namespace_definition",
        "preproc_function_def",
        "alias_declaration",
        "type_definition",
        "field_declaration",  # (only a method's: `_kind`)
        "declaration",  # (only a function's, at namespace level: `_kind`)
    },
}
_FUNCTION_VALUES = {"arrow_function", "function_expression", "function", "generator_function"}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")
_COMMENT_TYPES = {"comment", "line_comment", "block_comment"}
_STOP = {"todo", "the", "and", "xxx"}
_MARKER = re.compile(r"^\s*(?:/{2,}!?|/\*+!?|\*+/?|#+!?|\"{3}|'{3})")
_PRAGMA = re.compile(code_fallback._PRAGMA.pattern, re.I)
_LICENCE = re.compile(r"copyright|licen[cs]e|all rights reserved", re.I)


def corpus_files(name: str) -> tuple[Path, list[Path]]:
    """The root and files of a dev corpus, as its bench ingests them."""
    held_out = (*heldout_corpora.UNSPENT, *getattr(heldout_corpora, "RESERVE", ()))
    if name in held_out:
        raise SystemExit(f"{name} is held out (heldout.corpora UNSPENT/RESERVE): never audited")
    every = {c.name: c for c in (*docs_corpora.CORPORA, *DEV, *heldout_corpora.HELDOUT)}
    corpus = every[name]
    root = docs_corpora.fetch(corpus)
    return root, corpus.files(root)


def held_out_folder(part: str, held_out: set[str]) -> bool:
    """A folder named for a held-out set, bare or with its version (``lark-1.3.1``, as the
    bench cache names it)."""
    name = part.lower()
    return any(name == h or name.startswith(f"{h}-") for h in held_out)


def audit_sources(corpora: list[str], trees: list[str]) -> list[tuple[str, Path, list[Path]]]:
    """(name, root, files) of each dev corpus named and each ``--tree`` folder, refusing a
    held-out set by name or by folder (the audits share it: code, repeat, copies)."""
    sources = [(name, *corpus_files(name)) for name in corpora]
    held_out = {*heldout_corpora.UNSPENT, *getattr(heldout_corpora, "RESERVE", ())}
    for folder in trees:
        root = Path(folder).resolve()
        if any(held_out_folder(part, held_out) for part in root.parts):
            raise SystemExit(f"{root} is a held-out set's tree: never audited")
        sources.append((root.name, root, tree_files(root)))
    return sources


def tree_files(root: Path) -> list[Path]:
    """The files ``credo ingest ROOT`` reads: its walk (ignore files, vendored and skipped
    folders), less what it skips (minified, generated, too large, a stub beside its source)."""
    from credo.knowledge.ingest.walk import Read, read_file, stubs_beside_sources, walk_files

    walked = walk_files([root], root)
    stubs = set(stubs_beside_sources(walked.files))
    return [p for p in walked.files if p not in stubs and isinstance(read_file(p), Read)]


def grammar_of(path: Path, text: str) -> str:
    """The tree-sitter grammar credo reads `path` with ("" when none)."""
    language = language_for(str(path))
    entry = code_module._LANGUAGES.get(language or "")
    if entry is None:
        return ""
    syntax, grammar = entry
    if grammar is None:
        grammar = code_module._sniff(syntax, text[: code_module._SNIFF_CHARS])
    return grammar or ""


def parse(text: str, grammar: str):
    import importlib

    from tree_sitter import Language, Parser

    spec = GRAMMARS[grammar]
    module = importlib.import_module(spec.package)
    language = Language(getattr(module, spec.function)())
    return Parser(language).parse(text.encode("utf-8", "replace"))


def _kind(node, grammar: str) -> str | None:
    """The construct `node` is when it is a definition, else None."""
    kind = node.type
    if kind not in DEFINITIONS.get(grammar, ()):
        return None
    if kind in ("variable_declarator", "public_field_definition"):
        value = node.child_by_field_name("value")
        above = node.parent.parent if node.parent is not None else None
        if value is None and above is not None and above.type == "ambient_declaration":
            # (``export declare const isEmpty: <A>(as: A[]) => boolean`` in a .d.ts)
            top = above.parent is not None and above.parent.type in ("program", "export_statement")
            return f"{kind}:declared" if top and node.child_by_field_name("type") else None
        if value is None:
            return None
        if value.type in _FUNCTION_VALUES:
            return f"{kind}:function"
        if value.type == "class":
            return f"{kind}:class"
        top = node.parent is not None and node.parent.parent is not None
        top = top and node.parent.parent.type in ("program", "export_statement")
        if value.type == "object" and top:
            return f"{kind}:object"
        if value.type == "call_expression" and top and node.parent.type == "lexical_declaration":
            arguments = value.child_by_field_name("arguments")
            callbacks = [] if arguments is None else arguments.named_children
            # (a callback of a module's ``const``: ``const Button = forwardRef((p, r) => ...)``)
            if any(a.type == "arrow_function" for a in callbacks):
                return f"{kind}:call"
        return None
    if kind in ("field_declaration", "declaration"):
        declarator = node.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            return None
        if (
            kind == "declaration"
            and node.parent is not None
            and node.parent.type
            not in (
                "translation_unit",
                "declaration_list",
            )
        ):
            return None
        return f"{kind}:function"
    specifiers = ("class_specifier", "struct_specifier", "union_specifier", "enum_specifier")
    if kind in specifiers and node.child_by_field_name("body") is None:
        return None  # (a use of the type, ``struct foo x;``, or a forward declaration)
    if kind == "pair":
        value = node.child_by_field_name("value")
        return "pair:function" if value is not None and value.type in _FUNCTION_VALUES else None
    if kind == "assignment_expression":
        value = node.child_by_field_name("right")
        if value is not None and value.type in _FUNCTION_VALUES:
            return "assignment:function"
        statement = node.parent
        top = statement is not None and statement.parent is not None
        if top and statement.parent.type == "program" and value is not None:
            arguments = value.child_by_field_name("arguments")
            callbacks = [] if arguments is None else arguments.named_children
            if value.type == "call_expression" and any(
                a.type == "arrow_function" for a in callbacks
            ):
                return "assignment:call"  # (``exports.X = f(..., () => ...)``)
        return None
    if kind in ("const_spec", "var_spec", "const_item", "static_item"):
        # (module level only: a local constant is a statement of its function)
        above = node.parent
        while above is not None and above.type not in ("source_file", "block", "function_item"):
            above = above.parent
        if above is None or above.type != "source_file":
            return None
    return kind


def _name(node, source: bytes) -> str:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and node.type != "alias_declaration":
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            text = source[declarator.start_byte : declarator.end_byte].decode("utf-8", "replace")
            return re.split(r"[<( ]", text.split("::")[-1])[0]
        declarator = inner
    for field in ("name", "key", "left", "type"):
        child = node.child_by_field_name(field)
        if child is not None:
            text = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
            text = text.split(".")[-1] if field == "left" else text
            return re.split(r"[.<\[( ]", text.strip("[]"))[0]  # ([Symbol.iterator]: Symbol)
    return ""


def _nesting(node) -> str:
    """'nested' under a function-like definition, 'member' under a type, else 'top'."""
    above = node.parent
    while above is not None:
        if above.type in (
            "function_definition",
            "function_declaration",
            "method_definition",
            "arrow_function",
            "function_expression",
            "function_item",
            "method_declaration",
            "func_literal",
        ):
            return "nested"
        if above.type in (
            "class_definition",
            "class_declaration",
            "class_body",
            "impl_item",
            "trait_item",
            "interface_declaration",
            "class",
        ):
            return "member"
        above = above.parent
    return "top"


def _walk(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


class Audit:
    """Counts and examples, per language."""

    def __init__(self) -> None:
        self.defs: dict[str, Counter[str]] = defaultdict(Counter)
        self.lost_defs: dict[str, Counter[str]] = defaultdict(Counter)
        self.named_defs: dict[str, Counter[str]] = defaultdict(Counter)
        self.comments: dict[str, Counter[str]] = defaultdict(Counter)
        self.lost_comments: dict[str, Counter[str]] = defaultdict(Counter)
        self.lines: dict[str, Counter[str]] = defaultdict(Counter)
        self.outside: dict[str, Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str, str], list[str]] = defaultdict(list)

    def note(self, group: tuple[str, str, str], where: str) -> None:
        self.examples[group].append(where)

    def file(self, label: str, text: str, grammar: str) -> None:
        chunks = split_file(label, text)
        source = text.encode("utf-8", "replace")
        tree = parse(text, grammar)
        lines = text.split("\n")
        spans = [(c.start_line, c.end_line) for c in chunks]
        for node in _walk(tree.root_node):
            kind = _kind(node, grammar)
            if kind is not None:
                self._definition(label, node, kind, _name(node, source), chunks, grammar)
            elif node.type in _COMMENT_TYPES or _is_docstring(node, grammar):
                self._comment(label, node, source, chunks, grammar)
        covered = set()
        for first, last in spans:
            covered.update(range(first, last + 1))
        holder = _top_level_by_line(tree.root_node)
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            self.lines[grammar]["lines"] += 1
            if number not in covered:
                construct = holder.get(number, "?")
                self.outside[grammar][construct] += 1
                if construct not in (
                    "import_statement",
                    "import_from_statement",
                    "import_declaration",
                    "use_declaration",
                    "package_clause",
                    "comment",
                    "line_comment",
                    "block_comment",
                    "}",
                    ")",
                ):
                    self.note(("outside", grammar, construct), f"{label}:{number}")

    def _definition(self, label, node, kind, name, chunks, grammar) -> None:
        where = _nesting(node)
        key = f"{kind} [{where}]"
        self.defs[grammar][key] += 1
        line = node.start_point[0] + 1
        name_line = line
        field = node.child_by_field_name("name")
        if field is not None:
            name_line = field.start_point[0] + 1
        bare = name.strip("'\"`#[]")
        for chunk in chunks:
            # (a configuration object read key by key is held under its name: `code_config`)
            if chunk.role not in ("definition", "config"):
                continue
            if not chunk.start_line <= name_line + (chunk.role == "config") <= chunk.end_line:
                continue
            if chunk.section and bare and bare in chunk.section[-1]:
                return
            if bare and bare in chunk.text:
                return
        over = [c for c in chunks if c.start_line <= name_line <= c.end_line]
        if bare and any(bare in c.text or bare in c.context for c in over):
            self.named_defs[grammar][key] += 1
            self.note(("named-only", grammar, key), f"{label}:{line} {bare}")
        else:
            self.lost_defs[grammar][key] += 1
            self.note(("lost-def", grammar, key), f"{label}:{line} {bare}")

    def _comment(self, label, node, source, chunks, grammar) -> None:
        """Line by line: a comment line is held when the chunks over it hold most of its
        words (a long doc comment whose tail is cut shows as its lost lines)."""
        raw = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
        first = node.start_point[0] + 1
        around = node.parent.type if node.parent is not None else "?"
        kind = "docstring" if node.type not in _COMMENT_TYPES else "comment"
        key = f"{kind} in {around}"
        lost_here: list[int] = []
        block = _comment_block(node, source)
        doctest = False
        for number, row in enumerate(raw.split("\n"), first):
            # (a docstring's doctest, ``>>>`` to the next blank line, is dropped by rule)
            doctest = bool(row.strip()) and (doctest or row.lstrip().startswith(">>>"))
            if doctest:
                self.comments[grammar]["(skipped by rule: doctest)"] += 1
                continue
            words = {w.lower() for w in _WORD.findall(html.unescape(row))} - _STOP
            if len(words) < 2:
                continue
            bare = _MARKER.sub("", row).strip()
            if _PRAGMA.match(bare) or (number <= 2 and row.lstrip().startswith(("#!", "!"))):
                self.comments[grammar]["(skipped by rule: pragma)"] += 1
                continue
            self.comments[grammar][key] += 1
            held: set[str] = set()
            for chunk in chunks:
                if chunk.start_line <= number <= chunk.end_line:
                    held |= {w.lower() for w in _WORD.findall(chunk.text + " " + chunk.context)}
            if len(words & held) >= 0.6 * len(words):
                continue
            line = [(number, bare)]
            if is_licence(line) or is_commented_out_code(line) or _LICENCE.search(block):
                self.comments[grammar][key] -= 1
                self.comments[grammar]["(skipped by rule: licence, code)"] += 1
                continue
            lost_here.append(number)
        if lost_here:
            self.lost_comments[grammar][key] += len(lost_here)
            self.note(
                ("lost-comment", grammar, key),
                f"{label}:{lost_here[0]} (+{len(lost_here) - 1}) {raw[:60]!r}",
            )

    def report(self, show: int) -> None:
        for grammar in sorted(self.defs.keys() | self.comments.keys()):
            total = sum(self.defs[grammar].values())
            lost = sum(self.lost_defs[grammar].values())
            named = sum(self.named_defs[grammar].values())
            print(
                f"\n## {grammar}: {total} definitions, {lost} lost ({_pct(lost, total)}), "
                f"{named} named only in an outer chunk ({_pct(named, total)})"
            )
            for key, count in (self.lost_defs[grammar] + self.named_defs[grammar]).most_common(12):
                print(f"   {count:5d} / {self.defs[grammar][key]:5d}  {key}")
            comments = sum(v for k, v in self.comments[grammar].items() if not k.startswith("("))
            lost_c = sum(self.lost_comments[grammar].values())
            skipped = sum(v for k, v in self.comments[grammar].items() if k.startswith("("))
            print(
                f"   comment/docstring lines: {comments}, lost {lost_c}"
                f" ({_pct(lost_c, comments)}), skipped by rule {skipped}"
            )
            for key, count in self.lost_comments[grammar].most_common(10):
                print(f"   {count:5d} / {self.comments[grammar][key]:5d}  {key}")
            lines, out = self.lines[grammar]["lines"], sum(self.outside[grammar].values())
            print(f"   non-blank lines: {lines}, outside every chunk {out} ({_pct(out, lines)})")
            for key, count in self.outside[grammar].most_common(8):
                print(f"   {count:5d}  {key}")
        if show:
            print("\n## examples")
            for group, where in sorted(self.examples.items(), key=lambda kv: -len(kv[1])):
                print(f"{group} x{len(where)}")
                for item in where[:show]:
                    print(f"     {item}")


def _comment_block(node, source: bytes) -> str:
    """The text of the run of comments `node` is one of, line by line: Go and Rust give
    each ``//`` line a node of its own, and a licence header's lines name no licence."""
    first = last = node
    while (
        first.prev_sibling is not None
        and first.prev_sibling.type in _COMMENT_TYPES
        and first.prev_sibling.end_point[0] + 1 >= first.start_point[0]
    ):
        first = first.prev_sibling
    while (
        last.next_sibling is not None
        and last.next_sibling.type in _COMMENT_TYPES
        and last.next_sibling.start_point[0] <= last.end_point[0] + 1
    ):
        last = last.next_sibling
    return source[first.start_byte : last.end_byte].decode("utf-8", "replace")


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _is_docstring(node, grammar: str) -> bool:
    if grammar != "python" or node.type != "expression_statement":
        return False
    if node.named_child_count != 1 or node.named_children[0].type != "string":
        return False
    parent = node.parent
    return (
        parent is not None
        and parent.type in ("module", "block")
        and parent.named_children[0] == node
    )


def _top_level_by_line(root) -> dict[int, str]:
    """Each line's top-level construct (the root's child over it)."""
    held: dict[int, str] = {}
    for child in root.children:
        kind = child.type
        if kind in ("export_statement", "expression_statement") and child.named_child_count:
            kind = f"{kind}:{child.named_children[0].type}"
        for number in range(child.start_point[0] + 1, child.end_point[0] + 2):
            held.setdefault(number, kind)
    return held


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*")
    parser.add_argument("--tree", action="append", default=[], help="a source tree's folder")
    parser.add_argument("--language", action="append", default=[], help="only this grammar")
    parser.add_argument("--show", type=int, default=0, help="examples per group")
    args = parser.parse_args(argv)
    if not args.corpora and not args.tree:
        parser.error("name a corpus or a --tree")
    audit = Audit()
    sources = audit_sources(args.corpora, args.tree)
    for name, root, files in sources:
        for path in files:
            text = path.read_text(encoding="utf-8", errors="replace")
            grammar = grammar_of(path, text)
            if grammar not in DEFINITIONS or (args.language and grammar not in args.language):
                continue
            label = f"{name}/{path.relative_to(root)}"
            audit.file(label, text, grammar)
    audit.report(args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
