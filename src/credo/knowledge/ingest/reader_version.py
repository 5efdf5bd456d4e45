"""The version of the readers' output, with the history of every change that bumped it."""

# The version of what a file is read into (chunks, passages, their contexts). Bump it when a
# reader's output changes: a file's ledger key then matches no stored one, so the next ingest
# reads every file once more (a text read as before keeps its belief: ids come from the text)
# instead of keeping what an older credo made of it until the file itself changes.
# 8: an acronym's plural is one word, combineURLs -> combine urls (docs45)
# 9: a code example's comments and docstrings are prose (docs45)
# 10: a glob's "dir/*" hides no comment; getURLs2 -> get urls2 (review45)
# 11: code identifiers' abbreviations read as full words (abbrev59)
# 12: rms, socks, lens are no plurals; temp, hist, ns out; folders expand nothing (review59)
# 13: Go's ``var h = func(...)`` and C/C++ function-like macros are definitions (code63)
# 14: configuration's secrets in more shapes are redacted: a k8s/ECS env entry's value,
#     --requirepass X, a short password; a store read by 13 holds them until re-read;
#     a YAML stream's documents are cut apart, named by kind and name (probe63)
# 15: DB_PASS=..., PGPASSWORD=root and TOML's triple-quoted passwords are redacted (review64)
# 16: a name/value pair written value first, mysql -pX, docker login -p X, sshpass -p X,
#     redis-cli -a X and curl -u user:X are redacted; a name no longer reaches the next
#     list item's value (lead65)
# 17: a module-level JS/TS call with a callback is a definition (app.get('/users'),
#     describe › it, chained hooks) (js65)
# 18: a Makefile's ?=, :=, +=, ::= and a Dockerfile's ENV NAME value are redacted as = is;
#     so is a lower-case pass key (smtp_pass = x, an INI's pass = x) (review65)
# 19: a Rust trait impl of one undocumented function is read as that function, over the
#     impl's lines (impl Display for T fn fmt...): each type's fmt is a belief (langs67)
# 20: a JS/TS module's exported configuration object is read by key, as a JSON file is
#     (module.exports = {...}, export default defineConfig({...}), eslint flat configs) (js67)
# 21: a secret value with a comma or semicolon inside it is redacted whole (DB_SECRET=ab,cd)
# 22: (trails68: a joined JS/TS config passage named its keys; reverted, its names were not
#     always the keys at its path) 23: read as at 21 again
# 24: JS/TS named exports read by key (export const x = {...}, exports.x, module.exports.x),
#     a returned config before the function's end; commented-out code and positions out of
#     a config's text and trails; a joined config passage's context holds its keys (jsconf69)
# 25: reST's default role, :pep: and :rfc: with an explicit title read as the title, the
#     target (a dotted name, a label) in the chunk's context, a URL dropped (rstlink70)
# 26: doc comments other than Python's read as Markdown (`x`, [`Foo`], [text](target):
#     a non-URL target in the context); a docstring's reST directives as their names, a
#     code block's out (docstr71)
# 27: MyST colon fences (:::{note} ... :::) are read as the backtick fences they mean: their
#     lines are markup, not text, and a prose directive's headings no sections (probe71)
# 28: a file that declares its encoding is read in it; TypeScript `export =`, chained and
#     one-line exports read as configuration, a `// TODO:` note kept as prose (left71)
# 29: a doc comment's code span glued to a word reads glued ("`Reading`s": "Readings", as
#     doctor reads it); a UTF-8 BOM outweighs a declared encoding; colon fences nested
#     past 32 stay text (review71)
# 30: a Python definition's option decorators (a call with help=: click, typer) give their
#     strings to its context field (probe73)
# 31: a .pyi stub whose .py is read in the same walk gives no passages (tidy73)
# 32: a bundler's annotation comment (/*@__PURE__*/, /* #__NO_SIDE_EFFECTS__ */) is a pragma,
#     no passage; a banner comment's closing markers ("/////  Name  /////") are dropped;
#     a doc comment switched off ("// /** ... */") is no doc and no passage (probe74)
# 33: a module-level const/static with a doc comment (/** */, ///) above is a definition named
#     by it; a merged Rust trait impl ends at its function's last line; a commented-out
#     definition (`// export function f<A>(`, `#     return x * 2`) is no passage (reading75)
# 34: a MyST colon fence whose argument holds a backtick is read as a tilde fence; a MyST
#     version note (versionadded, versionchanged...) gives its label and its argument's
#     text, as the reST reader does (probe75)
# 35: a type's parameters in a doc comment (ErrorImpl<ContextError<C, E>>, Vec<Item>) are
#     its words, not markup tags; a Rust doc comment's code fences and the lines rustdoc
#     hides in a Rust code block ("# use ...", "# Ok(())") are no words (probe76)
# 36: a reST :doc: role without a title shows its path without a leading "/" or "../"
#     (":doc:`/signer`" reads "signer", not "/signer") (probe77)
# 37: LICENSE, COPYING and NOTICE with a prose extension (LICENSE.txt, LICENSE.md) are left
#     out as the bare names are; a file read before and unsupported now is retired (probe77)
# 38: every HTML character reference (&ensp;, &mdash;, &eacute;) in Markdown text and in a
#     doc comment outside a code span is its character; a comment on its own lines above a
#     Go/Rust/TypeScript struct (interface, class) field ends its trail in the field's name
#     and its text in the field's line (reading76)
# 39: a commented line that opens as a definition but runs on as a sentence ("function
#     render(view) is called once per frame") is a comment again, not dead code (review75)
# 40: a passage naming its own file (an env.py comment on "the needs of env.py") holds no
#     derived anchor to it (probe78)
# 41: a Python cross-reference's leading "." is not shown (:meth:`.A.b` reads "A.b") (probe78)
# 42: webpack's extracted licence comments (main.js.LICENSE.txt) are left out as LICENSE.txt
#     is (probe78)
# 43: rustdoc's hidden "# " lines are left out of a Rust file's doc code blocks only (a C++
#     or Swift "///" example keeps them); an entity in a doc code block stays as written
#     ("&amp;" in an example); pip-tools inputs (requirements/*.in) and Mako/Jinja templates
#     of a page or configuration file (alembic.ini.mako) are read as text (tidy78)
# 44: a multi-line JSDoc ends in the TypeScript member under it (its "*/" line is skipped),
#     and an interface's method signature is such a member (probe80)
# 45: a JSDoc/TSDoc {@link Target text} shows its text (else its target); a target that is no
#     URL goes to the context (probe80)
# 46: a comment's drawing strokes (box drawing, shapes) are no words; a line of strokes
#     alone is no line of text (probe80)
# 47: a Rust macro_rules! that stamps out items is read as a module of those items (probe81)
# 48: a block doc comment's (/** */, /*! */) code fences, and in Rust the lines rustdoc
#     hides, are no words, as a /// doc's were (probe81)
# 49: a Rust impl for a reference (&'a T) is named T in the trail, not &'aT (probe81)
# 50: a prose heading naming an identifier ("`customLevels` (Object)") repeats its words in
#     the context as a heading in words does: they count twice (tidy81)
# 51: a TypeScript function signature (a .d.ts `export function f(...): T`, `declare
#     function`, an overload) is a definition, its JSDoc its doc (tidy81)
# 52: a mkdocstrings autodoc line ("::: a.b.C") reads as the dotted path, its indented
#     option block as nothing (probe82)
# 53: the acronyms a file spells out ("version control systems (VCS)") are stored with it
#     (store/acronyms.py, m015) (acro81)
# 54: a Rust macro the item copy breaks is read as written, each macro on its own, and a
#     file with a syntax error elsewhere keeps the copy only where it parses (review82)
# 55: an autodoc line's option block is only the lines indented deeper than it: a list
#     item's next lines are its text (review82)
# 56: a Python module-level constant whose value is data (``DEFAULT_POOLSIZE = 10``) is a
#     definition of its own, its comment above its lead (const78, const79)
#     and a JavaScript/TypeScript ``const``, Go ``const``/``var`` or Rust ``const`` at
#     a module's top without a doc comment is a definition too (code_declared; const79);
#     such a constant takes nothing from its file's passages, and its own passage (kind
#     "value") sits in the constants' keyword index (store/values.py, m016; const81, const82)
# 57: a Markdown heading's attribute list ("## Name ## {: #name }") is not its title, HTML
#     tags side by side are one gap between words, and MkDocs' content tabs and admonitions
#     read as their title and their Markdown (chunk/mkdocs_blocks; probe86)
# 58: a body's names split by letters of any script with a case, an acronym's version kept
#     with it ("IPv6Address" -> ipv6 address, not pv6 address; store/identifier.py, fold86)
# 59: a heading's attribute list value that opens a quote it never closes ('{ a="b }') is
#     no attribute list (read both ways, such values backtracked exponentially; review86)
# 60: a Rust doc attribute whose string is a fence (``#[cfg_attr(feature = "x", doc = " ```")]``)
#     opens or closes a code block as a ``/// ```` line does, and a doc read in two parts
#     (a module doc split by an inner ``#![doc = ...]`` attribute) keeps its fences (probe87)
# 61: a heading-led passage that repeats an earlier one of its file ("Examples" over code
#     alone) leads with its outer section titles, so it is a belief of its own (docs87)
# 62: after attr_list's "{:" a bare word is an attribute too: "### `archs` {: #archs env-var }"
#     reads as "`archs`" (cibuildwheel's options page; lead, stop 61)
# 63: two plain ``#[doc = " ```"]`` in a row are a block's two fences (not one cfg_attr pair),
#     a doc attribute fence is seen however many doc attributes follow it, and an inner one
#     (``#![cfg_attr(feature = "std", doc = " ```")]`` in a crate doc) is one too (review87)
# 64: a heading attribute's unquoted value holds no "{" ("## t {a={b }" keeps "{a={b" in its
#     title; the pattern read "{a={a=..." in quadratic time: review88)
# 65: mkdocstrings' "::: package" over its option block names the package (probe88)
# 66: a fence's title and a MyST ":caption:" are paragraphs; "{: #\6.0}" is an attribute
#     list; a front-matter "title:" heads a page with no H1 (md88)
# 67: a file with no tree-sitter root but mostly whole statements is code; comments past
#     Python's signature cap kept; a long bodiless type alias keeps names, comments (code88)
# 68: reST table cells placed from their row's start; a named directive's label is its whole
#     body's context; ":class:`X`\s" one word; code-tab is code; ".. class::" read (rst88)
# 69: a bare "::: name" is mkdocstrings' only with an option's name under "options:" (review89)
# 71: a reST code's ":caption:" is a paragraph; a table's title is its rows' context (rst89)
# 72: a nested named directive's body context leads with its outer ones' object names
#     ("Request replace([url])" in a class's method: nest89)
# 73: underscores inside a word are no strong emphasis ("like__this__one" kept: probe89)
# 74: a colon container (VitePress "::: info Note", Docusaurus ":::tip[Title]") reads as its
#     title and Markdown content, its colon lines no text; a front-matter "description:" is
#     the first paragraph under the title the front matter gives a page with no H1; an MDX
#     component's name/title attributes are text (<ParamField body="timeout">); the text on
#     a MyST admonition's opening line ("```{note} Text") is its content's first line; a
#     paragraph of MDX imports alone is no text; a .mdx file has no indented code, a
#     component's tag line is a block of its own (md89)
# 75: strong emphasis nested in the other kind is taken too ("**a __b__ c**": review90)
# 76: a Go "var ( ... )" group's specs and a spec without a value (an iota enumeration's
#     names, a "var X T") are definitions; a JS/TS "const X = f(..., () => {...})" (and
#     "exports.X = ...") is a definition named X; a C# property or delegate and a C++
#     "using" alias or "typedef" are definitions; a C# doc's <see cref="X"/> and
#     <param name="x"> read as X and x; a .d.ts "declare const X: T" is a definition (code89)
# 77: docutils' directives take options Sphinx adds to them (a note's ":collapsible:", a
#     rubric's ":heading-level:"): docutils refused the directive, its text lost (rst89)
# 78: the "changelog" extension's release is a section titled by its :version:, a change led
#     by its name, :tags: and :tickets: (options dropped: alembic's changes had no version; rst89)
# 79: a Sphinx description's :type:, :default: and :value: options are a paragraph after its
#     label (dropped: no confval default of Sphinx's configuration page was in a passage; rst89)
# 80: a topic's, a sidebar's or a generic admonition's title leads its first paragraph and is
#     the context of the rest (a paragraph of its own: pyramid's sidebars; rst89)
# 81: a reST line block with an indented (nested) line keeps its lines in order (the lines
#     above it were lost, the rest read as source text: rst89)
# 82: a named directive's label is the context of its lead paragraph's later sentences when
#     that paragraph is split (it led the first only: pyramid's sidebar; rst89)
# 83: a section title in a directive's body (Sphinx allows one; docutils refuses it) is a
#     rubric, not lost (scrapy's middleware "settings" subsections; rst89)
# 84: docutils' implicit markup (addresses, URIs) read in a loop, not a recursion per match: a
#     paragraph of a thousand addresses sent celery's whole page to plain text (rst89)
# 85: a colon line in an indented code block is code as written, no box or MyST fence (a
#     ':::' below it opened a fence that made the prose under it code; review91)
# 86: code definitions of one file with the same text each lead with their owners' names
#     (``Writer › def __init__(self)``): a later copy had no belief, no anchor (probe90)
# 87: an object constant holding functions is a scope: its methods are named under it
#     (immer's `objectTraps › get`; day-code89-objscope, held back at stop 63)
# 88: a declaration longer than a signature with a doc comment above is a definition of its
#     head (x/exp's `compatibleBasics` table was in no chunk; day-code89-long)
# 89: a Markdown heading's title leaves out its images (badges), a reference badge reads as
#     its text, and no image source or badge target is a link; go.mod and go.work are read as
#     configuration; a Go spec of several names is a definition (its line was in no chunk;
#     logrus' README and go.mod, review91; gotrail92)
# 90: what stop 63 left: a front-matter description above a page's own H1 (SKILL.md), MDX
#     lists indented 4+ columns, .md import paragraphs kept, reST glossary entries of several
#     terms, image alt text, titles in a directive's body as subsections (leftovers92)
# 91: copies of one definition text are told apart by one run of owners, the same depth for
#     all (``A › run › def inner()``, not ``run › def inner()`` beside ``B › run › ...``; review92)
# 92: commented-out Rust is code, not prose: an attribute line, a path call, a block's tail
#     value, and the keywords of a binding, cast or loop ("let mut v") no sentence (nom's
#     error.rs kept a /* */ module of helpers as 16 comment beliefs; probe92)
# 93: any other passage of one file with the same text (a changelog note under two versions,
#     a docstring shared by a method and its async twin) leads with the titles that tell it
#     apart, configuration blocks excepted: the later copy, its lines and its trail were in no
#     belief (dupes92)
# 94: a header cut at the signature cap keeps its return annotation (openai's overloads of
#     `create` differ past the cut: one text, the later overloads in no belief; dupes92)
# 95: an image mark (\x01, \x02) written in Markdown text reads as a space, not nothing
#     ("00\x020_" read "000_", a word its line does not hold)
# 96: a text held by several files is indexed with the union of its files' contexts (m019
#     anchor_contexts), not the first file's alone: the other copies' path and body words
#     were in no context (ctx14)
# 97: a heading is led by its outer titles only when a passage's final text repeats it: the
#     definitions' rule runs first, so a heading that repeated a definition's text that rule
#     then led kept a stale lead (hypothesis; no file of the dev corpora read differently)
# 98: a repeated heading's lead is one no passage of the file holds, later ones too: with the
#     definitions told apart first (97), a heading took the lead a later definition held
#     (one text, one belief: the definition's passage in none; review67)
# 99: a Python or JavaScript body's names `long`, `short`, `namespace` (C-family keywords,
#     not theirs) are read into its context: commander's `option.long` / `option.short`
#     were in no context (code68)
READER_VERSION = 99
