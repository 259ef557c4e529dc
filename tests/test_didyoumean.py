"""'Suggest' has one meaning, the advisor (``sleuth suggest``, ``Game.suggest``): the
did-you-mean corrections are :mod:`solver.didyoumean`, completion is
:func:`solver.session.complete` (``Session.complete``)."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from solver.didyoumean import corrected_versions, corrections, near, one_edit_apart

ROOT = Path(__file__).resolve().parent.parent


def test_no_module_or_completion_is_called_suggest():
    import solver.session as session

    assert importlib.util.find_spec("solver.suggest") is None
    assert not (ROOT / "solver" / "suggest.py").exists()
    assert not hasattr(session, "suggest") and not hasattr(session.Session, "suggest")
    stale = re.compile(r"solver[./]suggest\b|\bsession\.suggest\(|Session\.suggest\b")
    found = [str(p.relative_to(ROOT)) for d in ("solver", "cli", "web", "tests", "docs",
                                               "benchmarks")
             for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".md", ".js", ".html")
             and p.name != Path(__file__).name
             and stale.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not found, found


def test_corrections_are_named_for_what_they_do():
    assert one_edit_apart("Dve", "Dev") and not one_edit_apart("Dev", "Dev")
    assert near("cleo", ["Ana", "Cleo"]) == ["Cleo"]
    assert "Ana asks Ben 5*" in corrected_versions("Ana aks Ben 5*", ["asks", "Ana", "Ben"])
    assert corrections("Ana aks Ben", ["asks"], lambda s: s == "Ana asks Ben") == \
        ["Ana asks Ben"]


def test_a_correction_that_log_would_hold_is_offered(tmp_path):
    """A claim whose half-suit has one typo: corrected, it is refused as written alone
    (a card the claim places is known elsewhere) but 'sleuth log' holds it for its
    'shown' line, so the rules accept it and it is offered."""
    from click.testing import CliRunner

    from cli.main import cli

    lines = (ROOT / "samples/literature/six-players-full-game.txt").read_text(
        encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "g.txt"
    path.write_text("".join(lines[:103]), encoding="utf-8")
    fixed = "Ana claims 9C-AC: Ana AC 10C, Cleo 9C QC KC, Eli JC"
    r = CliRunner().invoke(cli, ["log", str(path), fixed.replace("9C-AC", "9C-ACC")])
    assert r.exit_code == 2, r.output
    assert "expected a half-suit" in r.output and f"did you mean: {fixed}" in r.output, \
        r.output
    r = CliRunner().invoke(cli, ["log", str(path), fixed])
    assert r.exit_code == 0 and "held line 104" in r.output, r.output
