"""No module of solver/ imports from a layer above it (docs/architecture.md): a game's
engine imports neither its inference, analysis, advisor, simulator nor its ``Game``; its
inference not its analysis; nothing in solver/ imports cli/ or Click; and no two modules of
a game import each other, at the top or inside a function.  Read with ast, not by importing."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "solver"
GAME_PACKAGES = sorted(p.name for p in SOLVER.iterdir() if (p / "game.py").exists())
#: what a role module must not import from its own game package (the layers above it)
ABOVE = {"engine": ("inference", "analysis", "advise", "simulate", "game"),
         "inference": ("analysis", "advise", "simulate", "game")}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path),
                      path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module ``source`` (module ``module``) imports, at the top or inside a function
    (``from a import b`` gives ``a`` and ``a.b``: b may be a module)."""
    here = module.split(".")
    package = here if is_package else here[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


MODULES = {module_name(p): p for p in SOLVER.rglob("*.py")}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_nothing_in_solver_imports_cli_or_click(module):
    bad = sorted(m for m in imports(MODULES[module])
                 if m.split(".")[0] in ("cli", "click", "web"))
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_role_module_imports_a_layer_above_it(package):
    for role, above in ABOVE.items():
        got = imports(SOLVER / package / f"{role}.py")
        bad = sorted(m for m in got if any(m == f"solver.{package}.{a}" for a in above))
        assert not bad, f"solver/{package}/{role}.py imports {bad}, a layer above it"


def cycles(package: str) -> list[tuple[str, str]]:
    mods = {m: p for m, p in MODULES.items() if m.startswith(f"solver.{package}.")}
    out = []
    for a, pa in mods.items():
        for b in imports(pa) & set(mods):
            if a < b and a in imports(mods[b]):
                out.append((a, b))
    return out


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_two_modules_of_a_game_import_each_other(package):
    assert not cycles(package), cycles(package)


def test_the_reader_sees_imports_inside_functions_and_relative_ones():
    src = ("import click\n"
           "def f():\n"
           "    from solver.hand.analysis import team_pairs\n"
           "    from . import melds\n"
           "    from ..games import Game\n")
    got = imports_in(src, "solver.hand.engine")
    assert {"click", "solver.hand.analysis", "solver.hand.analysis.team_pairs",
            "solver.hand.melds", "solver.games"} <= got
