"""Start-up stays light (issue 15 item 1): importing the command line, or checking a small
record with ``sleuth log``, loads no solver library.  Measured in fresh subprocesses
(``sys.modules``), never timed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import startup

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("ortools", "numpy", "pandas", "prompt_toolkit", "matplotlib")

PROBE = """
import json, sys
{body}
print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))
"""


def loaded(body: str) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE.format(body=body)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_cli_main_loads_no_solver_library():
    mods = loaded("import cli.main")
    assert "click" in mods          # the probe sees what the import loaded
    assert not mods & set(HEAVY), sorted(mods & set(HEAVY))


def test_help_and_completion_load_no_command_module():
    """The top-level help and the completion of a command's name read the command table
    (``cli.main.COMMANDS``, ``Game.commands_help``): no command's module is imported."""
    body = ("import os, sys\n"
            "from cli.main import main\n"
            "for argv, env in (['--help'], {}), ([], {'_SLEUTH_COMPLETE': 'bash_complete',\n"
            "                  'COMP_WORDS': 'sleuth re', 'COMP_CWORD': '1'}):\n"
            "    os.environ.update(env)\n"
            "    try:\n"
            "        main(argv)\n"
            "    except SystemExit as e:\n"
            "        assert not e.code, e.code\n"
            "    for k in env:\n"
            "        del os.environ[k]\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('cli.', 'solver.')))))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", "import json\n" + body], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert "plain,replay\nplain,review" in out.stdout and "Commands:" in out.stdout
    mods = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert "cli.main" in mods
    assert not {m for m in mods if m.startswith("cli.")} - {"cli.main"}
    # the games' classes only (their ``Game.commands_help``), no game's rules or inference
    assert not {m for m in mods if m.count(".") == 2 and not m.endswith((".game", ".options"))
                and not m.startswith("solver.model.")}, sorted(mods)


#: a small record of each game and one statement to log (shared with the start-up benchmark)
SMALL = startup.SMALL


@pytest.mark.parametrize("game", sorted(SMALL))
def test_log_on_a_small_record_needs_no_solver_library(game, tmp_path):
    """A consistent small record is checked by a verified deal (solver.model.witness):
    the statement is appended and neither numpy nor OR-Tools is imported."""
    text, statement = SMALL[game]
    path = tmp_path / "game.txt"
    path.write_text(text)
    body = ("from cli.main import main\n"
            "try:\n"
            f"    main(['log', {str(path)!r}, {statement!r}])\n"
            "except SystemExit as e:\n"
            "    assert not e.code, e.code")
    mods = loaded(body)
    assert path.read_text().rstrip().endswith(statement)
    assert not mods & set(HEAVY), sorted(mods & set(HEAVY))


def test_log_still_refuses_a_contradiction(tmp_path):
    """The light path never accepts an inconsistent record: CP-SAT names the lines."""
    text, _ = SMALL["mystery-hand"]
    path = tmp_path / "game.txt"
    path.write_text(text)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # Ben holds 4H and 7H, so he cannot answer that he has none of 4H-7H
    out = subprocess.run([sys.executable, "-c", "import sys; from cli.main import main; "
                          f"main(['log', {str(path)!r}, 'Dev asks Ben 4H-7H: 0'])"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 3, out.stderr
    assert path.read_text() == text


def test_cp_sat_is_used_without_pandas(tmp_path):
    """OR-Tools' cp_model imports pandas (a quarter of a second); solver.lazy imports it
    with a stand-in, so a contradiction named by CP-SAT loads OR-Tools but not pandas, and
    a later ``import pandas`` still gets the real one."""
    text, _ = SMALL["mystery-hand"]
    path = tmp_path / "game.txt"
    path.write_text(text)
    body = ("from cli.main import main\n"
            "try:\n"
            f"    main(['log', {str(path)!r}, 'Dev asks Ben 4H-7H: 0'])\n"
            "except SystemExit as e:\n"
            "    assert e.code == 3, e.code")
    mods = loaded(body)
    assert "ortools" in mods and "pandas" not in mods
    mods = loaded("from solver.lazy import import_cp_model\n"
                  "cp = import_cp_model()\n"
                  "import pandas\n"
                  "assert hasattr(pandas, 'DataFrame') and pandas.Series is not cp.pd.Series")
    assert {"ortools", "pandas"} <= mods
