"""docs/architecture.md says what the code is: its module tables name every module of
``solver/``, ``cli/`` and ``web/``, and nothing that does not exist; its table of engines
says which define ``validate``, and every registered game has the places the doc's "How to
add a game" lists (and the optional page pieces)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from solver.games import REGISTRY, get_game

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
#: games registered while their steps are still being written (strict: remove the entry
#: once the game has them)
IN_PROGRESS: dict[str, str] = {}


def section(title: str) -> str:
    """The text of the doc's section headed ``title`` (up to the next heading of its level
    or above)."""
    m = re.search(rf"^(#+) {re.escape(title)}\s*$", DOC, re.M)
    assert m, f"docs/architecture.md has no section {title!r}"
    level = len(m.group(1))
    rest = DOC[m.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:end.start()] if end else rest


def table_paths(text: str) -> list[str]:
    """The paths named in the first column of the Markdown tables in ``text``."""
    out = []
    for line in text.splitlines():
        if line.startswith("| `"):
            first = line.split(" | ")[0]
            out += re.findall(r"`([^`]+)`", first)
    return out


MODULE_SECTIONS = ["solver/", "solver/model/: the card-location model and its counting",
                   "cli/", "web/"]


def documented() -> set[str]:
    return {p.rstrip("/") for t in MODULE_SECTIONS for p in table_paths(section(t))}


def test_every_module_named_in_the_tables_exists():
    missing = sorted(p for p in documented() if not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def _modules() -> list[str]:
    """Every module of solver/ outside the game packages, of solver/model/, of cli/ and of
    web/."""
    out = []
    for p in sorted((ROOT / "solver").iterdir()):
        if p.suffix == ".py" and p.name != "__init__.py":
            out.append(f"solver/{p.name}")
        elif p.is_dir() and (p / "__init__.py").exists() and not (p / "game.py").exists() \
                and p.name != "model":
            out.append(f"solver/{p.name}")
    model = ROOT / "solver" / "model"
    out += [f"solver/model/{p.name}" for p in sorted(model.iterdir())
            if p.suffix in (".py", ".pyx")]
    for layer in ("cli", "web"):
        out += [f"{layer}/{p.name}" for p in sorted((ROOT / layer).iterdir())
                if p.suffix == ".py" and p.name != "__init__.py"]
    return out


def test_every_solver_cli_and_web_module_is_in_the_tables():
    names = documented()
    missing = [m for m in _modules() if m not in names]
    assert not missing, f"add these modules to docs/architecture.md's tables: {missing}"


def _defines_validate(package: str) -> bool:
    tree = ast.parse((ROOT / "solver" / package / "engine.py").read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == "validate" for n in tree.body)


def test_the_engine_table_says_which_engines_define_validate():
    rows = {}
    for line in section("A game package: the role modules").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = cells[2]
    for name in REGISTRY:
        package = get_game(name).package
        assert package in rows, f"the engine table has no row for {package}"
        said = rows[package].startswith("yes")
        assert said == _defines_validate(package), (package, rows[package])


STEPS = ["docs/rules/{rules}.md", "solver/rulebook_docs/{rules}.md", "solver/{package}/game.py",
         "cli/{package}.py", "docs/{name}.md", "samples/{name}", "tests/golden/{name}"]


def test_the_steps_name_these_places():
    steps = section("How to add a game")
    for place in STEPS:
        generic = place.replace("{rules}", "<rules>").replace("{package}", "<package>") \
            .replace("{name}", "<name>").replace("/game.py", "/")
        assert generic in steps, f"'How to add a game' does not name {generic}"
    assert "REGISTRY" in steps and "docs/record-format.md" in steps and "README.md" in steps


def test_the_steps_say_where_the_optional_page_pieces_go():
    """A game's pieces of the ``sleuth serve`` page are optional (not every game has them,
    so they are not among the places every game must have), and they go in their own
    module: the steps say so, and never send a newcomer to the generic modules."""
    steps = section("How to add a game")
    assert re.search(r"[Oo]ptional(ly)?[^.]*`web/<package>\.py`", steps), steps
    assert "web/live.py` and `web/app.py` are never edited" in steps


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(reason=IN_PROGRESS[n], strict=True))
    if n in IN_PROGRESS else n for n in REGISTRY])
def test_every_game_has_the_places_of_the_steps(name):
    game = get_game(name)
    keys = {"rules": game.rules, "package": game.package, "name": game.name}
    missing = [p.format(**keys) for p in STEPS if not (ROOT / p.format(**keys)).exists()]
    assert not missing, f"{name} lacks {missing}"
    assert f"\"{name}\":" in (ROOT / "solver" / "games.py").read_text(encoding="utf-8")
    fmt = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert game.title in fmt or name in fmt, f"docs/record-format.md says nothing of {name}"
    assert game.title in readme, f"README.md says nothing of {game.title}"
