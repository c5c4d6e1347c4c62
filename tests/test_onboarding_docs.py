"""What a new contributor reads first says what is true: requirements, the commands as they
run from a checkout (the venv's tools, not ones on PATH), and each thing documented once."""

from __future__ import annotations

import re
import tomllib

from app.config import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def test_readme_states_python_and_os_requirements() -> None:
    setup = section("Set-up on a fresh machine: two commands")
    assert "**Python 3.11**" in setup and "Debian" in setup and "PYTHON=" in setup


def test_readme_says_how_long_setup_takes_and_how_to_run_a_subset() -> None:
    setup = section("Set-up on a fresh machine: two commands")
    assert "2-3 minutes" in setup and "1.9 GB" in setup
    assert '-m "not sandbox and not browser"' in setup


def test_readme_installs_extras_with_the_venvs_pip() -> None:
    assert not re.search(r"(?<!/bin/)\bpip install", README)


def test_readme_lists_api_endpoints_in_one_section() -> None:
    api = section("The JSON API")
    elsewhere = README.replace(api, "")
    assert "| `POST /api/sessions` |" in api and "| `GET /api/packs` |" in api
    assert not re.search(
        r"^\| `(GET|POST) /api/(sessions|packs|questions|progress|reviews)", elsewhere, re.M
    )


def test_readme_config_table_points_at_the_postgres_notes_where_they_are() -> None:
    row = next(x for x in README.splitlines() if x.startswith("| `TAPEQUIZ_DATABASE_URL`"))
    assert "see below" not in row
    assert README.index("**Storage.**") < README.index("| `TAPEQUIZ_DATABASE_URL`")


def test_authoring_guide_does_not_say_code_questions_need_root() -> None:
    assert "(root, bubblewrap)" not in (REPO_ROOT / "docs" / "authoring.md").read_text()


def test_pyproject_license_is_an_spdx_string() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    assert "setuptools>=77" in pyproject["build-system"]["requires"]
