"""Module-level JavaScript/TypeScript calls with a callback are definitions (`code_calls`):
routes, hooks, test blocks, process handlers; their trails, exact lines and context."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from tests.conftest import CliRun
from tests.test_chunk_code import check

_APP = textwrap.dedent(
    """\
    'use strict'
    const express = require('express')
    const app = express()

    // Lists the users, newest first.
    app.get('/users', async (req, res) => {
      const users = await db.listUsers({ order: 'newest' })
      res.json(users)
    })

    app.post('/login', authLimiter, function (req, res) {
      const session = passport.authenticate(req.body.password)
      res.cookie('sid', session.id)
    })

    utils.forEach(['get', 'head'], function forEachMethod(method) {
      app[method] = method
    })

    process.on('SIGTERM', () => {
      server.close(shutdownDatabase)
    })

    app.listen(3000, () => console.log('listening'))
    """
)


def _definitions(text: str, language: str = "js") -> list[tuple[str, int, int]]:
    chunks = split_code(text, language)
    check(chunks, text)
    return [
        (" › ".join(c.section), c.start_line, c.end_line) for c in chunks if c.role == "definition"
    ]


def test_an_express_app_has_one_definition_per_route_and_handler() -> None:
    assert _definitions(_APP) == [
        ("app.get('/users')", 5, 9),  # its comment above included
        ("app.post('/login')", 11, 14),
        ("forEachMethod", 16, 18),  # a named callback is a definition already: no call
        ("process.on('SIGTERM')", 20, 22),
        ("app.listen(3000)", 24, 24),
    ]


def test_a_route_reads_as_written_with_its_body_names_as_context() -> None:
    chunks = {c.section: c for c in split_code(_APP, "js") if c.role == "definition"}
    users = chunks[("app.get('/users')",)]
    assert users.text == "Lists the users, newest first. app.get('/users', async (req, res) =>"
    assert users.context.split()[:4] == ["users", "db", "list", "order"]
    login = chunks[("app.post('/login')",)]
    assert login.text == "app.post('/login', authLimiter, function (req, res)"
    assert {"passport", "authenticate", "password", "cookie", "sid"} <= set(login.context.split())


_TESTS = textwrap.dedent(
    """\
    describe('login', () => {
      beforeEach(() => reset())

      it('rejects a bad password', async () => {
        const res = await request(app).post('/login').send({ password: 'x' })
        expect(res.status).toBe(401)
      })

      it('sets a session cookie', async () => {
        [1, 2].forEach((n) => check(n))
      })
    })
    """
)


def test_test_blocks_nest_and_a_body_keeps_its_plain_calls() -> None:
    assert _definitions(_TESTS) == [
        ("describe('login')", 1, 12),
        ("describe('login') › it('rejects a bad password')", 4, 7),
        ("describe('login') › it('sets a session cookie')", 9, 11),
    ]
    chunks = [c for c in split_code(_TESTS, "js") if c.role == "definition"]
    # the inner block's names are its own, not its describe's
    assert "expect" in chunks[1].context.split()
    assert "expect" not in chunks[0].context.split()
    # an unlabelled call inside a block (forEach) is part of it
    assert "check" in chunks[2].context.split()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(  # a fluent chain: each call from its method's line
            "fastify\n  .addHook('onRequest', function (req, reply, done) {\n    done()\n  })\n"
            "  .addHook('onSend', function (req, reply, payload, done) {\n    done()\n  })\n",
            [("fastify.addHook('onRequest')", 1, 4), ("fastify.addHook('onSend')", 5, 7)],
            id="chain",
        ),
        pytest.param(  # a chain after a call without a callback is named by it
            "Object.entries(codes).forEach(([key, value]) => {\n  codes[value] = key\n})\n",
            [("Object.entries().forEach()", 1, 3)],
            id="chain-after-a-plain-call",
        ),
        pytest.param(
            "await app.register(async (instance) => {\n  instance.get('/hello', (req) => 1)\n})\n",
            [("app.register()", 1, 3), ("app.register() › instance.get('/hello')", 2, 2)],
            id="await-and-nested-route",
        ),
        pytest.param(  # a named callback is the definition; the call names its scope
            "app.get('/x', function handler(req, res) {\n  res.end()\n})\n",
            [("app.get('/x') › handler", 1, 3)],
            id="named-callback-under-a-label",
        ),
        pytest.param(  # not a dotted callee: no name, no definition
            "(async () => {\n  await main()\n})()\nrequire('x')(app, () => 1)\n",
            [],
            id="iife-and-computed-callee",
        ),
        pytest.param(  # a call without a callback is not a definition
            "app.use(express.static('public'))\napp.listen(3000)\n",
            [],
            id="no-callback",
        ),
        pytest.param(  # inside a function, calls stay part of it
            "function routes(app) {\n  app.get('/x', (req, res) => res.end())\n}\n",
            [("routes", 1, 3)],
            id="inside-a-function",
        ),
        pytest.param(
            "test(`a ${kind} test`, t => {\n  t.pass()\n})\n",
            [("test(`a ${kind} test`)", 1, 3)],
            id="template-label",
        ),
    ],
)
def test_which_calls_are_definitions(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert _definitions(source) == expected


def test_typescript_generic_call_is_named_by_its_callee() -> None:
    source = (
        "server.post<{ Body: PingBody }>('/ping/:bar', opts, (request, reply) => {\n"
        "  reply.code(200).send({ pong: 'it worked!' })\n})\n"
    )
    assert _definitions(source, "typescript") == [("server.post('/ping/:bar')", 1, 3)]


def test_a_long_label_is_cut() -> None:
    source = f"it('{'very long title ' * 10}', () => {{\n  go()\n}})\n"
    [(trail, _, _)] = _definitions(source)
    assert len(trail) == 80 and trail.endswith("…")


def test_deep_nesting_does_not_recurse() -> None:
    depth = 3000
    source = "d('x', () => {\n" * depth + "})\n" * depth
    definitions = _definitions(source)
    assert definitions[0] == ("d('x')", 1, 2 * depth)
    assert len(definitions) > 1


_PIECES = st.sampled_from(
    [
        "app.get('/a', (req, res) => {",
        "describe('b', function () {",
        "x.forEach(y => {",
        "fastify",
        ".addHook('h', () => {",
        "await run(",
        "})",
        "}",
        ")",
        "// note",
        "/** doc */",
        "\n",
    ]
)


@given(st.lists(_PIECES, max_size=40), st.sampled_from(["js", "typescript"]))
@settings(max_examples=300)
def test_call_soup_keeps_the_chunk_contract(pieces: list[str], language: str) -> None:
    """Any mix of calls, callbacks and comments: every anchor holds its text, trails nest,
    and the same text gives the same chunks."""
    text = "\n".join(pieces)
    chunks = split_code(text, language)
    check(chunks, text)
    assert split_code(text, language) == chunks


def test_search_finds_the_route_that_handles_a_post(tmp_path: Path, run: CliRun) -> None:
    """Through the real entry point: "what happens on a POST to /login" meets the handler
    at its lines."""
    (tmp_path / "server.js").write_text(_APP)
    run("ingest", str(tmp_path / "server.js"), check=True)
    found = json.loads(
        run("search", "what happens on a POST to /login", "--json", check=True).stdout
    )
    top = found["beliefs"][0]
    assert top["content"].startswith("app.post('/login'")
    assert any(a["doc_uri"].endswith("server.js#L11-L14") for a in top["doc_anchors"])


_WRAPPED = textwrap.dedent(
    """\
    import { core } from "./core";

    export const ZodType = core.$constructor("ZodType", (inst, def) => {
      // The definition is the instance's own.
      inst.def = def;
    }, {
      check(...chks) {
        return this.def;
      },
    });

    const handler = middy(async (event) => {
      return { statusCode: 200, body: JSON.stringify(event) };
    });

    const Named = wrap(function renderNamed(props) {
      return props.label;
    });
    let later = wrap(() => 1);
    """
)


def test_a_constant_made_by_a_call_with_a_callback_is_a_definition() -> None:
    """Fails before day-code89: ``const X = f(..., (a) => {...})`` was in no definition,
    its callback's lines in no chunk at all (zod's ``$constructor`` schemas, a React
    ``forwardRef`` component, a ``middy`` handler) unless a JSDoc made it a value."""
    chunks = split_code(_WRAPPED, "typescript")
    check(chunks, _WRAPPED)
    rows = [(c.section, c.start_line, c.end_line, c.text) for c in chunks if c.role == "definition"]
    assert rows[:3] == [
        (
            ("ZodType",),
            3,
            10,
            'const ZodType = core.$constructor("ZodType", (inst, def) =>',
        ),
        (("ZodType", "check"), 7, 9, "check(...chks)"),
        (("handler",), 12, 14, "const handler = middy(async (event) =>"),
    ]
    zod = next(c for c in chunks if c.section == ("ZodType",) and c.role == "definition")
    assert {"inst", "check"} <= set(zod.context.split())  # (its body's names)
    # a named callback is a definition by its own name already; a ``let`` varies
    assert [r[0] for r in rows[3:]] == [("renderNamed",)]


def test_an_assignment_of_a_call_with_a_callback_is_a_definition() -> None:
    """Fails before day-code89: the CommonJS a compiler writes for ``export const X =
    f(..., () => {...})`` (zod's schemas.cjs, rxjs's dist) was in no chunk."""
    source = textwrap.dedent(
        """\
        "use strict";
        exports.ZodType = core.$constructor("ZodType", (inst, def) => {
          inst.def = def;
        });
        exports.named = wrap(function named() { return 1; });
        """
    )
    chunks = split_code(source, "javascript")
    check(chunks, source)
    rows = [(c.section, c.start_line, c.end_line, c.text) for c in chunks if c.role == "definition"]
    assert rows == [
        (
            ("exports.ZodType",),
            2,
            4,
            'exports.ZodType = core.$constructor("ZodType", (inst, def) =>',
        ),
        (("named",), 5, 5, "function named()"),  # (a named callback: its own, as before)
    ]


def test_an_object_constant_s_methods_are_named_under_it() -> None:
    """Fails before day-code89: an object literal's methods were definitions named
    alone (``get``, ``has``: immer's proxy traps, rxjs's providers), the constant that
    holds them in no trail. It is a scope, as a class is; its data keys are left as they
    were."""
    source = textwrap.dedent(
        """\
        export const objectTraps = {
          get(state, prop) {
            return state[prop];
          },
          has: (state, prop) => prop in state,
          size: 3,
        };
        """
    )
    chunks = split_code(source, "typescript")
    check(chunks, source)
    rows = [(c.section, c.start_line, c.end_line) for c in chunks if c.role == "definition"]
    assert rows == [(("objectTraps", "get"), 2, 4), (("objectTraps", "has"), 5, 5)]
