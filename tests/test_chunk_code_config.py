"""A JS/TS module's exported configuration object is read by key (`code_config`): which
shapes count, trails and exact lines, function values left as code, comments, secrets,
hostile input, and a question answered through the real entry point."""

from __future__ import annotations

import json
import string
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import Chunk, split_code, split_config
from tests.conftest import CliRun
from tests.test_chunk_code import check

# Big enough that the object is cut at its keys (a block fits `PASSAGE_CAP` or is cut).
_VITE = textwrap.dedent(
    """\
    import { defineConfig } from 'vite'
    import react from '@vitejs/plugin-react'

    // https://vite.dev/config/
    export default defineConfig({
      plugins: [react()],
      // The dev server: what the frontend team runs every day.
      server: {
        port: 5173,
        strictPort: true,
        host: '0.0.0.0',
        proxy: {
          // Every API call goes to the backend on 8080.
          '/api': {
            target: 'http://localhost:8080',
            changeOrigin: true,
            rewrite: (path) => path.replace(/^\\/api/, ''),
          },
          '/socket': { target: 'ws://localhost:8081', ws: true },
          '/uploads': { target: 'http://localhost:9000', changeOrigin: true, secure: false },
          '/auth': { target: 'https://auth.staging.example.com', changeOrigin: true, xfwd: true },
          '/metrics': { target: 'http://localhost:9090', changeOrigin: false, timeout: 5000 },
        },
        watch: { usePolling: true, interval: 300, ignored: ['**/node_modules/**', '**/dist/**'] },
      },
      build: {
        outDir: 'build/client',
        sourcemap: true,
        emptyOutDir: true,
        chunkSizeWarningLimit: 1200,
        rollupOptions: {
          output: {
            manualChunks(id) {
              // one vendor chunk for everything under node_modules
              if (id.includes('node_modules')) return 'vendor'
            },
          },
        },
      },
      resolve: { alias: { '@': '/src', '~components': '/src/components' } },
      define: { __APP_VERSION__: JSON.stringify(process.env.npm_package_version) },
      preview: { port: 4173, strictPort: true, open: '/dashboard' },
      // The unit tests run in a browser-like environment.
      test: {
        environment: 'jsdom',
        globals: true,
        setupFiles: ['./src/test/setup.ts'],
        coverage: { provider: 'v8', reporter: ['text', 'html', 'lcov'], exclude: ['**/*.d.ts'] },
        include: ['src/**/*.{test,spec}.{ts,tsx}'],
      },
    })
    """
)


def _configs(text: str, language: str = "ts") -> list[Chunk]:
    chunks = split_code(text, language)
    check(chunks, text)
    return [c for c in chunks if c.role == "config"]


def _blocks(text: str, language: str = "ts") -> list[tuple[str, int, int]]:
    return [(" › ".join(c.section), c.start_line, c.end_line) for c in _configs(text, language)]


def test_a_vite_config_is_read_by_key_block_with_exact_lines() -> None:
    assert _blocks(_VITE) == [
        # (the opening line alone says nothing and is left out; ``plugins``, a key alone,
        # joins the next block and the two share the root's trail, as in a YAML file)
        ("", 6, 25),
        ("", 26, 42),
        ("test", 43, 51),
    ]
    server, build, test = _configs(_VITE)
    # a comment on the keys it explains is part of their block, as written
    assert "// Every API call goes to the backend on 8080.\n    '/api': {" in server.text
    assert "changeOrigin" in server.context and "target: 'http://localhost:8080'" in server.text
    assert build.text.startswith("build: {\n  outDir: 'build/client',")
    assert test.text.startswith("// The unit tests run in a browser-like environment.\ntest: {")


def test_a_large_block_is_cut_at_its_nested_keys() -> None:
    rules = "".join(
        f"    // what rule {n} is for, in a sentence of its own\n    'rule-{n}': ['error', {n}],\n"
        for n in range(40)
    )
    text = f"module.exports = {{\n  rules: {{\n{rules}  }},\n  env: {{ node: true }},\n}}\n"
    blocks = _blocks(text, "js")
    assert {trail for trail, _, _ in blocks} <= {"rules", "rules › rule-0", ""}
    assert blocks[0][1] == 2 and blocks[-1][2] == 85  # (to the closing brace)
    assert all(c.text.startswith("//") or c.text.startswith("rules") for c in _configs(text)[:-1])


def test_a_function_value_stays_a_definition_and_leaves_the_config_text() -> None:
    chunks = split_code(_VITE, "ts")
    definitions = {c.section[-1]: c for c in chunks if c.role == "definition"}
    assert (definitions["rewrite"].start_line, definitions["rewrite"].end_line) == (17, 17)
    assert (definitions["manualChunks"].start_line, definitions["manualChunks"].end_line) == (
        33,
        36,
    )
    configs = [c for c in chunks if c.role == "config"]
    assert not any("path.replace" in c.text or "manualChunks" in c.text for c in configs)
    # the comment inside the function is the function's, as before; the config's are not
    # comment chunks any more (they are in their blocks' text)
    comments = [c for c in chunks if c.role == "code_comment"]
    assert [(c.text, c.section) for c in comments] == [
        ("https://vite.dev/config/", ()),
        ("one vendor chunk for everything under node_modules", ("manualChunks",)),
    ]


_YES = {
    "module.exports": "module.exports = {\n  port: 3000,\n  host: 'localhost',\n}\n",
    "export default object": "export default {\n  content: ['./src/**/*.{js,ts}'],\n}\n",
    "satisfies": "export default {\n  darkMode: 'class',\n} satisfies Config\n",
    "defineConfig": "export default defineConfig({\n  base: '/app/',\n})\n",
    "a function returning it": (
        "export default defineConfig(({ mode }) => ({\n"
        "  base: mode === 'production' ? '/' : '/dev/',\n  server: { port: 3000 },\n}))\n"
    ),
    "babel's function": (
        "module.exports = function (api) {\n  api.cache(true)\n  return {\n"
        "    presets: ['@babel/preset-env'],\n  }\n}\n"
    ),
    "a named const": (
        "/** @type {import('next').NextConfig} */\nconst nextConfig = {\n  output: 'standalone',\n"
        "}\n\nexport default nextConfig\n"
    ),
    "a flat config": (
        "export default [\n  js.configs.recommended,\n  ...tseslint.configs.recommended,\n"
        "  {\n    files: ['**/*.ts'],\n    rules: { 'no-console': 'off' },\n  },\n]\n"
    ),
    "several objects to one call": (
        "export default tseslint.config(\n  { ignores: ['dist'] },\n"
        "  { name: 'app', rules: { eqeqeq: 'error' } },\n)\n"
    ),
    "a call around the call": (
        "export default withMDX(defineConfig({\n  pageExtensions: ['mdx'],\n}))\n"
    ),
    # (jsconf69: named exports, CommonJS members, a return that is not the last statement)
    "a named export": "export const config = {\n  matcher: ['/api/:path*'],\n}\n",
    "exports.x": "exports.defaults = {\n  port: 3000,\n  host: 'localhost',\n}\n",
    "module.exports.x": "module.exports.defaults = {\n  retries: 3,\n}\n",
    "a return before helpers": (
        "module.exports = function (api) {\n  api.cache(true)\n  return {\n"
        "    presets: ['@babel/preset-env'],\n  }\n\n  function helper() {}\n}\n"
    ),
    "a returned name": (
        "module.exports = (api) => {\n  const config = {\n    presets: ['@babel/preset-env'],\n"
        "  }\n  if (api.env('test')) config.plugins = ['istanbul']\n  return config\n}\n"
    ),
    "sets of names": "export const groups = {\n  shape: new Set(['circle', 'rect']),\n}\n",
}
_NO = {
    "functions and names": "module.exports = { parse, stringify, other: helper }\n",
    "requires": "module.exports = {\n  a: require('./a'),\n  b: require('./b'),\n}\n",
    "a function": "export default function App() {\n  return { a: 1 }\n}\n",
    "a class": "export default class Store {\n  size = 1\n}\n",
    "strings": "export default ['a', 'b']\n",
    "methods only": "export default {\n  install(app) {\n    app.use(x)\n  },\n}\n",
    "broken": "export default {\n  port: 3000,\n  host: ,\n}\n",
    "an unknown name": "export default config\n",
    "a named function": "export const load = () => ({ a: 1 })\nexports.run = function () {}\n",
    "a named interface": "export const api = { parse, stringify }\nexports.x = require('./x')\n",
    "other members": "foo.exports = { a: 1 }\nmodule.other = { b: 2 }\n",
}


@pytest.mark.parametrize("text", list(_YES.values()), ids=list(_YES))
def test_shapes_that_count(text: str) -> None:
    configs = _configs(text)
    assert configs, text
    # the keys' lines are in a block; nothing outside the exported value is
    assert all("import" not in c.text and "api.cache" not in c.text for c in configs)


@pytest.mark.parametrize("text", list(_NO.values()), ids=list(_NO))
def test_shapes_that_do_not(text: str) -> None:
    assert not _configs(text), text


def test_array_items_and_preset_tuples_are_named() -> None:
    """A preset tuple is named by its string, a plugin call by its callee, an object item
    by its name: a trail reads ``presets › classic › blog``, never ``presets › 1``."""
    pad = "".join(f"  key{n}: '{'x' * 60}',\n" for n in range(14))
    text = (
        "export default {\n"
        + pad
        + textwrap.dedent(
            """\
              presets: [
                [
                  'classic',
                  ({
                    docs: { sidebarPath: './sidebars.js', editUrl: 'https://example.com/edit/' },
                    blog: {
                      showReadingTime: true,
                      blogTitle: 'Engineering notes from the team that builds the thing',
                      blogDescription: 'What we learned building it, one post at a time',
                      feedOptions: { type: ['rss', 'atom'], copyright: 'Example Inc.' },
                      postsPerPage: 20,
                      authorsMapPath: 'authors.yml',
                      editUrl: 'https://github.com/example/site/tree/main/website/blog/',
                      blogSidebarTitle: 'All our posts, newest first, one line each',
                      blogSidebarCount: 'ALL',
                      routeBasePath: 'engineering-blog',
                      include: ['**/*.{md,mdx}', 'drafts/**/*.md'],
                      exclude: ['**/_*.{js,jsx,ts,tsx,md,mdx}', '**/*.test.{js,jsx,ts,tsx}'],
                      archiveBasePath: 'archive-of-every-post-we-ever-wrote',
                      truncateMarker: '<!-- the rest is behind the read more link -->',
                    },
                  }),
                ],
              ],
              plugins: [
                legacy({ targets: ['defaults', 'not IE 11'], modernPolyfills: true }),
                { name: 'inspect', apply: 'serve', enforce: 'pre', order: 'post' },
              ],
            }
            """
        ).replace("\n  ", "\n")
    )
    sections = {c.section for c in _configs(text, "js")}
    assert ("presets", "classic") in sections or ("presets", "classic", "blog") in sections
    assert not any(part.isdigit() for section in sections for part in section), sections


# svgo's tables (plugins/_collections.js), as 4.x writes them; 3.x has ``exports.NAME = ``.
_TABLES = (
    "/**\n * @type {Readonly<Record<string, Set<string>>>}\n */\n"
    "export const elemsGroups = {\n"
    "  animation: new Set(['animate', 'animateColor', 'animateMotion', 'set']),\n"
    "  shape: new Set([\n"
    + "".join(f"    'shape{n}-with-a-long-name',\n" for n in range(30))
    + "  ]),\n"
    "};\n\n"
    "export const textElems = new Set([...elemsGroups.textContent, 'pre', 'title']);\n\n"
    "export const attrsGroupsDefaults = {\n"
    "  core: { 'xml:space': 'default' },\n"
    "  transferFunction: { slope: '1', intercept: '0', amplitude: '1' },\n"
    "};\n"
)


@pytest.mark.parametrize("form", ["export const {} = ", "exports.{} = ", "module.exports.{} = "])
def test_named_exports_are_read_by_key_under_their_names(form: str) -> None:
    """``export const elemsGroups = {...}`` and ``exports.elemsGroups = {...}``: each named
    object is read by key, its name heading its trails (two exports may share a key)."""
    text = _TABLES
    for name in ("elemsGroups", "textElems", "attrsGroupsDefaults"):
        text = text.replace(f"export const {name} = ", form.format(name))
    blocks = _blocks(text, "js")
    assert blocks == [
        ("elemsGroups › animation", 5, 5),
        ("elemsGroups › shape", 6, 30),  # (past the cap: cut at line ends)
        ("elemsGroups › shape", 31, 38),
        ("attrsGroupsDefaults", 43, 45),  # (``textElems`` holds no data of its own)
    ]
    tables = _configs(text, "js")
    assert tables[1].text.startswith("shape: new Set([\n  'shape0-with-a-long-name',")
    assert "attrsGroupsDefaults" in tables[3].context.split()
    assert "slope: '1'" in tables[3].text and "export" not in tables[3].text


def test_an_object_exported_twice_is_read_once_under_its_name() -> None:
    text = "export const config = {\n  port: 3000,\n}\n\nexport default config\n"
    assert _blocks(text, "js") == [("config", 2, 3)]


def test_a_config_returned_before_the_function_ends_is_read() -> None:
    text = textwrap.dedent(
        """\
        module.exports = function (api) {
          api.cache(true)
          const config = {
            presets: [['@babel/preset-env', { targets: { node: 'current' } }]],
            comments: false,
          }
          if (api.env('test')) config.plugins = ['istanbul']
          return config

          function helper() {
            return { unused: true }
          }
        }
        """
    )
    assert _blocks(text, "js") == [("", 4, 6)]


def test_commented_out_code_in_an_object_is_neither_text_nor_comment() -> None:
    """Docusaurus' sidebars.js: ``/* tutorialSidebar: [...] */`` is an alternative left
    in a comment, not what the site uses; a comment in prose stays its key's."""
    text = textwrap.dedent(
        """\
        const sidebars = {
          // By default, Docusaurus generates a sidebar from the docs folder structure
          tutorialSidebar: [{type: 'autogenerated', dirName: '.'}],

          // But you can create a sidebar manually
          /*
          tutorialSidebar: [
            'intro',
            'hello',
            {
              type: 'category',
              label: 'Tutorial',
              items: ['tutorial-basics/create-a-document'],
            },
          ],
           */
          // enforce: 'pre',
          footer: { style: 'dark' }, // copyright: 'none',
        };

        export default sidebars;
        """
    )
    chunks = split_code(text, "js")
    check(chunks, text)
    body = "\n".join(c.text for c in chunks)
    assert "Docusaurus generates a sidebar" in body and "footer: { style: 'dark' }" in body
    assert "'intro'" not in body and "hello" not in body and "enforce" not in body
    assert "copyright" in body  # (a row where a key starts keeps its text)


def test_an_unnamed_array_item_lends_its_keys_to_the_array() -> None:
    """airbnb's ``indent: ['error', 2, {...}]``: the options' keys are ``indent``'s, never
    ``indent › 1`` (a position names nothing)."""
    options = "".join(f"      option{n}WithALongName: {{ parameters: {n} }},\n" for n in range(40))
    text = f"module.exports = {{\n  rules: {{\n    indent: ['error', 2, {{\n{options}"
    text += "    }],\n  },\n}\n"
    configs = _configs(text, "js")
    assert [c.section for c in configs] == [("rules",), ("rules", "indent"), ("rules", "indent")]
    assert "option20WithALongName" in configs[1].context.split()  # (what it joined)
    assert not any(word.isdigit() for c in configs for word in c.context.split())


def test_a_joined_block_s_context_holds_the_keys_it_joined() -> None:
    """Vite's ``plugins`` and ``server`` joined read as the file's root: their names go
    into the context field (the trail keeps the path they share)."""
    first, second, _ = _configs(_VITE)
    assert first.section == () and {"plugins", "server"} <= set(first.context.split())
    assert {"build", "resolve", "define", "preview"} <= set(second.context.split())
    # a block alone names nothing more than its own camelCase keys
    yaml = "theme:\n  screens: {sm: 640px}\n  colors: {brand: '#123456'}\n"
    assert all(c.context == "" for c in split_config(yaml, "yaml"))


def test_blocks_the_author_set_apart_with_a_blank_line_stay_apart() -> None:
    """airbnb's rules, each with its comment and a blank line after it: joined, a 2-line
    answer (``no-console``) sat in a 27-line passage; apart, each is its own."""
    text = textwrap.dedent(
        """\
        module.exports = {
          rules: {
            // disallow assignment in conditional expressions
            'no-cond-assign': ['error', 'always'],

            // disallow use of console
            'no-console': 'warn',

            // disallow use of constant expressions in conditions
            'no-constant-condition': 'warn',
            // disallow control characters in regular expressions
            'no-control-regex': 'error',
          },
        };
        """
    )
    more = "".join(
        f"    // what rule {n} is for, in a sentence\n    'rule-{n}': 'error',\n" for n in range(20)
    )
    text = text.replace("  },\n};", more + "  },\n};")  # (past the cap: cut at its keys)
    assert _blocks(text, "js")[:3] == [
        ("rules", 2, 4),  # (the head goes with the block it opens)
        ("rules › no-console", 6, 7),
        ("rules", 9, 30),  # (no blank line between these: joined, as before)
    ]
    # a YAML file is cut as before (its blank lines join nothing apart)
    yaml = "rules:\n  # one\n  a: 1\n\n  # two\n  b: 2\n"
    assert [(c.start_line, c.end_line) for c in split_config(yaml, "yaml")] == [(1, 6)]


def test_secret_values_are_redacted() -> None:
    text = textwrap.dedent(
        """\
        module.exports = {
          database: {
            host: 'db.internal',
            user: 'app',
            password: 'hunter2-for-real',
          },
          stripe: { apiKey: 'sk_live_0123456789abcdefABCDEF' },
        }
        """
    )
    body = "\n".join(c.text for c in _configs(text, "js"))
    assert "hunter2" not in body and "sk_live_0123" not in body
    assert "[redacted]" in body and "db.internal" in body


def test_the_object_s_comments_are_its_text_not_comment_chunks() -> None:
    chunks = split_code(_VITE, "ts")
    texts = [c.text for c in chunks if c.role in ("code_comment", "docstring")]
    assert "https://vite.dev/config/" in texts  # above the export: as before
    assert not any("frontend team" in t or "backend on 8080" in t for t in texts)


def test_other_chunks_are_as_before() -> None:
    """A module with a configuration object keeps its definitions and outside comments."""
    text = textwrap.dedent(
        """\
        // Helpers for the build.
        function banner(name) {
          return `/* ${name} */`
        }

        module.exports = {
          mode: 'production',
          entry: './src/index.js',
          output: { filename: banner('main') },
        }
        """
    )
    chunks = split_code(text, "js")
    check(chunks, text)
    assert [(c.role, c.start_line, c.end_line) for c in chunks] == [
        ("definition", 1, 4),
        ("config", 7, 10),  # (to the closing brace)
    ]


def test_huge_and_deep_objects_stay_bounded() -> None:
    wide = "module.exports = {\n" + "".join(f"  key{n}: {n},\n" for n in range(20_000)) + "}\n"
    started = time.process_time()
    configs = _configs(wide, "js")
    assert time.process_time() - started < 20
    assert all(len(c.text) <= 2 * 800 for c in configs)
    assert configs[0].start_line == 2 and configs[-1].end_line == 20_002
    deep = "export default " + "{ a: " * 3_000 + "1" + " }" * 3_000 + "\n"
    split_code(deep, "js")  # no recursion error; read or left alone, never raises
    parens = "export default " + "(" * 3_000 + "{ a: 1 }" + ")" * 3_000 + "\n"
    split_code(parens, "js")


# (a chunk needs 3 letters; an item named by its ``name`` is a case of its own, above)
_KEYS = st.text(string.ascii_letters, min_size=3, max_size=8).filter(
    lambda k: k not in ("name", "title", "label")
)
_VALUES = st.recursive(
    st.integers(-5, 5) | st.sampled_from(["'x'", "true", "null", "'a b c'"]),
    lambda inner: (
        st.dictionaries(_KEYS, inner, min_size=1, max_size=5)
        | st.lists(inner, min_size=1, max_size=3)
    ),
    max_leaves=40,
)


def _js(value: object, depth: int = 1) -> str:
    pad = "  " * depth
    if isinstance(value, dict):
        inner = "".join(f"{pad}{k}: {_js(v, depth + 1)},\n" for k, v in value.items())
        return "{\n" + inner + "  " * (depth - 1) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_js(v, depth + 1) for v in value) + "]"
    return str(value)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=8))
# (an unnamed object in a list, cut at its keys: it was named by its position, ``rules › 1``)
@example({"rules": ["'error'", {f"option{n}Long": {"aaa": n} for n in range(40)}]})
def test_any_object_is_read_exactly_and_deterministically(config: dict[str, object]) -> None:
    text = f"// app config\nmodule.exports = {_js(config)}\n"
    configs = _configs(text, "js")  # `check`: the chunk contract, lines as written
    assert configs == _configs(text, "js")
    # every key's line is in one block, in file order, blocks never overlapping
    covered = [row for c in configs for row in range(c.start_line, c.end_line + 1)]
    assert covered == sorted(set(covered))
    lines = text.split("\n")
    key_rows = [n + 1 for n, line in enumerate(lines) if ":" in line]
    assert set(key_rows) <= set(covered)
    # every trail is a key path of the object; every name a chunk's context holds is a key
    # at that path (a joined block's keys) or a camelCase key on its own lines
    tree = _tree(config)
    for chunk in configs:
        level = tree
        for part in chunk.section:
            assert part in {key for key, _ in level}, (chunk.section, part)
            level = [child for key, children in level if key == part for child in children]
        own = " ".join(lines[chunk.start_line - 1 : chunk.end_line])
        for word in chunk.context.split():
            assert word in {key for key, _ in level} or f"{word}:" in own, (chunk, word)


Tree = list[tuple[str, "Tree"]]


def _tree(value: object) -> Tree:
    """The key tree a reader should see (the oracle): an object's keys; an array's items,
    an unnamed one's keys lifted into the array's, a tuple whose first item is a string
    (``['classic', {...}]``) named by it, with its objects' keys."""
    if isinstance(value, dict):
        return [(key, _tree(child)) for key, child in value.items()]
    if not isinstance(value, list):
        return []
    out: Tree = []
    for item in value:
        if isinstance(item, list) and item and str(item[0]).startswith("'"):
            children = [pair for o in item if isinstance(o, dict) for pair in _tree(o)]
            out.extend([(str(item[0]).strip("'"), children)] if children else [])
        elif isinstance(item, dict | list):
            out.extend(_tree(item))
    return out


def test_search_finds_the_dev_server_port(tmp_path: Path, run: CliRun) -> None:
    """Through the real entry point: "which port does the dev server use" meets the
    server block of vite.config.ts at its lines."""
    (tmp_path / "vite.config.ts").write_text(_VITE)
    run("ingest", str(tmp_path / "vite.config.ts"), check=True)
    found = json.loads(
        run("search", "which port does the dev server use", "--json", check=True).stdout
    )
    top = found["beliefs"][0]
    assert "port: 5173" in top["content"]
    assert any(a["doc_uri"].endswith("vite.config.ts#L6-L25") for a in top["doc_anchors"])


def test_a_module_of_thousands_of_named_exports_is_read_in_linear_time() -> None:
    """Each named export (jsconf69) read the whole file's lines and comments again: a
    generated 3,000-table module (230 KB) took ~28 s of CPU (4,000: 50 s), quadratic. Now
    each object reads its own rows and the comments inside them."""
    count = 3_000
    source = "".join(
        f"// the table of {i}\nexport const table{i} = {{ size: {i}, unit: 'px' }};\n"
        for i in range(count)
    )
    started = time.process_time()
    chunks = split_code(source, "javascript")
    spent = time.process_time() - started
    assert sum(c.section[:1] == ("table7",) for c in chunks) == 1
    assert spent < 10, f"{spent:.1f} s of CPU for {count} named exports"
