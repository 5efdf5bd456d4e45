"""The store location chooses the backend: a path is SQLite, a ``postgresql://`` URL is
PostgreSQL, any other URL is an error (never a folder named after its scheme). Through the
real CLI, in fresh processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.config import PostgresUrl, parse_location, redact_url, resolve_db_path
from credo.errors import InvalidInputError
from tests.conftest import credo_in as _credo


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("postgresql://credo@/credo?host=/tmp/pg", PostgresUrl),
        ("postgres://u@db.example/team", PostgresUrl),
        ("POSTGRESQL://u@h/d", PostgresUrl),
        ("memory.db", Path),
        ("postgresql:memory.db", Path),  # no "//": a file name, however odd
        ("~/x/memory.db", Path),
    ],
)
def test_a_location_is_a_path_or_a_postgres_url(raw: str, kind: type) -> None:
    assert isinstance(parse_location(raw), kind)


@pytest.mark.parametrize("raw", ["https://example.com/db", "file:///tmp/x.db", "mysql://u@h/d"])
def test_any_other_url_is_an_error(raw: str) -> None:
    with pytest.raises(InvalidInputError, match="URL; give a file path"):
        parse_location(raw)


def test_a_password_never_appears_in_the_redacted_url() -> None:
    url = "postgresql://team:s3cr%40t@db.example:5432/credo?sslmode=require&password=other"
    shown = redact_url(url)
    assert "s3cr" not in shown and "other" not in shown
    assert shown.startswith("postgresql://team:***@db.example:5432/credo?")


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--db", "ftp://files.example/memory.db", "stats"), {}),
        (("stats",), {"CREDO_DB": "https://example.com/memory.db"}),
    ],
)
def test_cli_refuses_a_url_it_cannot_open(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str]
) -> None:
    done = _credo(tmp_path, *args, env=env)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: store location") and done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # no folder named after the scheme


def test_cli_import_with_a_postgres_url_selects_postgres(tmp_path: Path) -> None:
    """The issue's report: `CREDO_DB=postgresql://... credo import` wrote a SQLite file under
    a folder named `postgresql:`. Now it goes to PostgreSQL (here a server that is not
    there: a clear error, nothing written locally, no password shown)."""
    records = tmp_path / "records.jsonl"
    records.write_text('{"type": "belief", "id": "b1", "content": "x"}\n', encoding="utf-8")
    url = f"postgresql://credo:hunter22@/credo?host={tmp_path / 'no-server'}"
    done = _credo(tmp_path, "import", str(records), env={"CREDO_DB": url})
    assert done.returncode == 1
    assert done.stderr.startswith("Error: cannot open store postgresql://credo:***@/credo?")
    assert "hunter22" not in done.stderr + done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]


def test_store_location_in_credo_toml(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "sub").mkdir(parents=True)
    (project / ".credo.toml").write_text('[store]\nlocation = "team/memory.db"\n', encoding="utf-8")
    done = _credo(project / "sub", "init")
    assert done.returncode == 0, done.stderr
    assert (project / "team" / "memory.db").is_file()  # relative to the file's folder
    assert resolve_db_path(cwd=project / "sub", environ={}) == project / "team" / "memory.db"
    (project / ".credo.toml").write_text(
        '[store]\nlocation = "s3://bucket/m.db"\n', encoding="utf-8"
    )
    done = _credo(project / "sub", "stats")
    assert done.returncode == 1 and "s3:// URL" in done.stderr
    (project / ".credo.toml").write_text('[store]\nplace = "x"\n', encoding="utf-8")
    assert "unknown setting 'place'" in _credo(project, "stats").stderr


def test_explicit_and_env_locations_outrank_the_config_file(tmp_path: Path) -> None:
    (tmp_path / ".credo.toml").write_text('[store]\nlocation = "a.db"\n', encoding="utf-8")
    env = {"CREDO_DB": "postgresql://u@/d"}
    assert resolve_db_path(cwd=tmp_path, environ=env) == "postgresql://u@/d"
    assert resolve_db_path("b.db", cwd=tmp_path, environ=env) == Path("b.db")
    assert resolve_db_path(cwd=tmp_path, environ={}) == tmp_path / "a.db"


@pytest.mark.parametrize(
    ("args", "env", "config", "named"),
    [
        (("search", "x"), {"CREDO_DB": "{folder}"}, None, "(CREDO_DB)"),
        (("--db", "{folder}", "search", "x"), {}, None, "(--db, or the path given)"),
        (("--db={folder}", "remember", "x"), {}, None, "(--db, or the path given)"),
        (("stats",), {"CREDO_DB": "{folder}"}, None, "(CREDO_DB)"),
        (("search", "x"), {}, "{folder}", "([store] location in {toml})"),
        (("remember", "x"), {}, "{folder}", "([store] location in {toml})"),
    ],
)
def test_a_folder_as_the_store_is_one_line_naming_where_it_came_from(
    tmp_path: Path,
    args: tuple[str, ...],
    env: dict[str, str],
    config: str | None,
    named: str,
) -> None:
    """`CREDO_DB=/folder credo search x` was click's 3-line usage error naming --db (exit
    2); a folder in `[store] location` was "unable to open database file"."""
    folder = tmp_path / "stores"
    folder.mkdir()
    toml = tmp_path / ".credo.toml"
    if config is not None:
        toml.write_text(f'[store]\nlocation = "{config.format(folder=folder)}"\n', "utf-8")
    done = _credo(
        tmp_path,
        *(a.format(folder=folder) for a in args),
        env={k: v.format(folder=folder) for k, v in env.items()},
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"Error: store location {folder} {named.format(toml=toml)} is a folder, not a store "
        f"file; name a file, e.g. {folder / 'memory.db'}\n"
    )
    assert list(folder.iterdir()) == []


def test_the_api_refuses_a_folder_as_the_store(tmp_path: Path) -> None:
    from credo.memory import Memory

    with pytest.raises(InvalidInputError, match=r"\(--db, or the path given\) is a folder"):
        Memory(tmp_path)
