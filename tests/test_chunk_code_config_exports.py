"""Export forms the JS/TS configuration reader missed (left71): TypeScript's
``export = {...}``, mocha's ``const T = (exports.types = {...})`` (an export assigned inside
a declaration or another assignment), and two exports written on one (minified) line, whose
passages each held the whole line, so one belief carried both names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk.code import _shared_rows, split_code
from tests.conftest import CliRun

SETTINGS_TS = 'export = {\n  server: { port: 4321, host: "dev.local" },\n  retries: 3,\n};\n'
MOCHA_JS = (
    "'use strict';\n"
    "const TYPES = (exports.types = {\n"
    "  array: ['extension', 'file', 'ignore', 'reporter-option'],\n"
    "  boolean: ['allow-uncaught', 'bail', 'check-leaks'],\n"
    "});\n"
    "exports.aliases = { 'async-only': ['A'], bail: ['b'] };\n"
)
MINIFIED_JS = (
    "export let alpha={colorMode:'dark',fontSize:12},beta={timeoutMs:5000,retryCount:4};\n"
)


def _hits(run: CliRun, query: str) -> list[tuple[str, str]]:
    found = json.loads(run("search", query, "--json", check=True).stdout)
    return [(b["trail"], b["content"]) for b in found["beliefs"]]


def test_export_forms_are_read_as_configuration(tmp_path: Path) -> None:
    root = tmp_path / "app"
    (root / ".git").mkdir(parents=True)
    (root / "settings.ts").write_text(SETTINGS_TS)
    (root / "run-option-metadata.js").write_text(MOCHA_JS)
    (root / "min.js").write_text(MINIFIED_JS)
    run = CliRun(tmp_path / "cli.db", root)
    run("ingest", str(root), check=True)
    trail, content = _hits(run, "server port host")[0]
    assert trail == "settings.ts L2-L4" and "port: 4321" in content
    trail, content = _hits(run, "allow-uncaught bail check-leaks")[0]
    assert trail.startswith("run-option-metadata.js › types") and "check-leaks" in content
    # Two exports on one line: two beliefs, each its own object's text under its name.
    alpha = _hits(run, "colorMode dark fontSize")[0]
    beta = _hits(run, "timeoutMs retryCount")[0]
    assert alpha[0] == "min.js › alpha L1-L1" and "timeoutMs" not in alpha[1]
    assert beta[0] == "min.js › beta L1-L1" and "colorMode" not in beta[1]


def _blocks(text: str, language: str = "js") -> list[tuple[str, str]]:
    return [
        (" › ".join(c.section), c.text) for c in split_code(text, language) if c.role == "config"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "const T = (exports.types = { boolean: ['bail'] });\n",
        "var T = exports.types = { boolean: ['bail'] };\n",
        "module.exports.types = exports.types = { boolean: ['bail'] };\n",
    ],
)
def test_an_export_assigned_inside_a_declaration_or_assignment_is_read(text: str) -> None:
    assert [trail for trail, _ in _blocks(text)] == ["types"]


def test_module_exports_chained_through_exports_is_the_module_s_value() -> None:
    text = "module.exports = exports = {\n  port: 3000,\n  host: 'x',\n};\n"
    assert _blocks(text) == [("", "port: 3000,\nhost: 'x',")]


A = "exports.a={maxRetries:1,backoffMs:2};"
B = "exports.b={colorMode:'dark'};"
C = "module.exports.c={plugins:['lint']};"


def test_exports_on_one_line_keep_their_own_text() -> None:
    assert _blocks(A + B + C + "\n") == [("a", A), ("b", B), ("c", C)]
    # (one export alone on its line keeps the whole line, as before)
    assert _blocks("'use strict';" + A + "\n") == [("a", "'use strict';" + A)]


def test_exports_sharing_the_row_where_one_ends_and_the_next_begins() -> None:
    text = "export const a = {\n  maxRetries: 1,\n}, b = {\n  colorMode: 'dark',\n};\n"
    assert _blocks(text) == [("a", "maxRetries: 1,"), ("b", "colorMode: 'dark',")]


TODO_CONFIG = (
    "module.exports = {\n"
    "  // TODO: drop the legacy cipher list after v2,\n"
    "  ciphers: ['aes-256-gcm', 'chacha20-poly1305'],\n"
    "  // FIXME: x,\n"
    "  handshakeTimeoutMs: 5000,\n"
    "  // sessionTicketKeys: [],\n"
    "};\n"
)


def test_a_prose_note_in_a_config_object_is_its_text_not_commented_out_code(
    tmp_path: Path,
) -> None:
    """``// TODO: ...,`` reads like a member (``word: value,``) but is a note: it stays in
    its block's text; ``// sessionTicketKeys: [],`` is still commented-out code."""
    root = tmp_path / "app"
    (root / ".git").mkdir(parents=True)
    (root / "tls.config.js").write_text(TODO_CONFIG)
    run = CliRun(tmp_path / "cli.db", root)
    run("ingest", str(root), check=True)
    trail, content = _hits(run, "legacy cipher list")[0]
    assert trail.startswith("tls.config.js") and "TODO: drop the legacy cipher list" in content
    assert "FIXME: x," in content and "sessionTicketKeys" not in content


@pytest.mark.parametrize(
    ("comment", "dead"),
    [
        ("// TODO: x,", False),
        ("// TODO(jane): remove after v2,", False),
        ("// NOTE: keep,", False),
        ("// reason: kept for old browsers,", False),
        ("// reason: legacy browsers,", False),  # (two bare words: no JavaScript value)
        ("// shim: typeof window,", True),
        ("// 'no-console': 'warn',", True),
        ("// MemberExpression: null,", True),
        ("// shape: new Set([", True),
        ("// note: 'kept',", True),
    ],
)
def test_which_member_like_comments_are_code(comment: str, dead: bool) -> None:
    text = f"module.exports = {{\n  {comment}\n  handshakeTimeoutMs: 5000,\n  retries: 3,\n}};\n"
    body = "\n".join(t for _, t in _blocks(text))
    assert (comment[3:] not in body) is dead, body


class _Placed(NamedTuple):
    start: tuple[int, int]
    last: int


def _shared_plainly(configs: list[_Placed]) -> list[tuple[bool, list[int]]]:
    """The rule as first written: every other export scanned for each (quadratic)."""
    return [
        (
            any(o.start < c.start and o.last >= c.start[0] for o in configs if o is not c),
            sorted(o.start[1] for o in configs if o.start > c.start and o.start[0] == c.last),
        )
        for c in configs
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 5), st.integers(0, 3)).map(
            lambda t: _Placed((t[0], t[1]), t[0] + t[2])
        ),
        max_size=12,
    )
)
def test_shared_rows_match_the_plain_scan(configs: list[_Placed]) -> None:
    got = [(before, sorted(after)) for before, after in _shared_rows(configs)]  # type: ignore[arg-type]
    assert got == _shared_plainly(configs)
