"""Store path resolution and settings precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from credo.config import load_settings, resolve_db_path
from credo.errors import InvalidInputError


def test_store_path_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CREDO_DB", raising=False)
    assert resolve_db_path(None, cwd=sub) == repo / ".credo" / "memory.db"
    assert resolve_db_path(None, cwd=tmp_path) == tmp_path / "xdg" / "credo" / "memory.db"
    monkeypatch.setenv("CREDO_DB", str(tmp_path / "env.db"))
    assert resolve_db_path(None, cwd=sub) == tmp_path / "env.db"
    assert resolve_db_path(tmp_path / "explicit.db", cwd=sub) == tmp_path / "explicit.db"


def test_settings_from_toml_found_upward_and_env_overrides(tmp_path: Path) -> None:
    (tmp_path / ".credo.toml").write_text(
        "[retrieval]\ntoken_budget = 1500\ncluster_edge_weight_floor = 0.5\n"
        "use_intentional_clustering = true\n",
        encoding="utf-8",
    )
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    settings = load_settings(deep, env={})
    assert settings.source == tmp_path / ".credo.toml"
    assert settings.retrieval.token_budget == 1500
    assert settings.retrieval.cluster_edge_weight_floor == 0.5
    assert settings.retrieval.use_intentional_clustering is True
    overridden = load_settings(
        deep, env={"CREDO_INTENTIONAL_CLUSTERING": "0", "CREDO_TOKEN_BUDGET": "900"}
    )
    assert overridden.retrieval.use_intentional_clustering is False
    assert overridden.retrieval.token_budget == 900


@pytest.mark.parametrize(
    ("toml", "env", "message"),
    [
        ("[retrieval]\ntoken_budgt = 5\n", {}, "unknown setting 'token_budgt'"),
        ("[retreival]\n", {}, "unknown section 'retreival'"),
        ("[retrieval]\ntoken_budget = 'lots'\n", {}, "not a valid int"),
        ("[retrieval]\ntoken_budget = true\n", {}, "must be a int"),
        ("not = [valid toml", {}, "cannot read"),
        ("", {"CREDO_INTENTIONAL_CLUSTERING": "maybe"}, "not a boolean"),
    ],
)
def test_bad_settings_are_clear_errors(
    tmp_path: Path, toml: str, env: dict[str, str], message: str
) -> None:
    (tmp_path / ".credo.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=message):
        load_settings(tmp_path, env=env)


def test_settings_defaults_match_the_cluster_module() -> None:
    from credo.config import RetrievalSettings
    from credo.retrieval import cluster

    defaults = RetrievalSettings()
    assert defaults.cluster_edge_weight_floor == cluster.DEFAULT_CLUSTER_EDGE_FLOOR
    assert defaults.cluster_diversity_target == cluster.DEFAULT_CLUSTER_DIVERSITY_TARGET


def test_an_unreadable_folder_on_the_way_up_is_skipped(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    if sys.platform == "win32" or os.geteuid() != 0:
        pytest.skip("needs root to run a demoted process")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    for parent in (tmp_path, *tmp_path.parents):
        if parent == Path(parent.anchor):
            break
        parent.chmod(parent.stat().st_mode | 0o005)
    script = (
        "import os, sys\nfrom pathlib import Path\nfrom credo.config import find_upward\n"
        "os.setgid(65534); os.setuid(65534)\n"
        "print(find_upward(Path(sys.argv[1]) / 'sub', '.credo.toml'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(private)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"


def test_hook_settings_from_toml_and_env(tmp_path: Path) -> None:
    (tmp_path / ".credo.toml").write_text(
        "[hook]\ntoken_budget = 900\ncapture = false\n\n[retrieval]\ntoken_budget = 3000\n"
    )
    settings = load_settings(tmp_path, env={"CREDO_AUTO_LOCK_CORRECTIONS": "1"})
    assert settings.hook.token_budget == 900
    assert settings.hook.capture is False
    assert settings.hook.auto_lock_corrections is True
    assert settings.hook.session_start_budget == 600
    assert settings.retrieval.token_budget == 3000
    (tmp_path / ".credo.toml").write_text("[hook]\nbudget = 900\n")
    with pytest.raises(InvalidInputError, match="unknown setting 'budget'"):
        load_settings(tmp_path, env={})
    with pytest.raises(InvalidInputError, match="CREDO_CAPTURE"):
        load_settings(tmp_path.parent, env={"CREDO_CAPTURE": "maybe"})
