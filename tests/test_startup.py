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


#: a handler that only the interpreter's teardown would run, then ``cli.main.main``
TEARDOWN_PROBE = ("import atexit, sys\n"
                  "atexit.register(lambda: sys.stderr.write('TEARDOWN'))\n"
                  "from cli.main import main\n")
#: ``sleuth`` as the console script runs it (``main()``)
ENTRY = TEARDOWN_PROBE + "main()\n"


def sleuth_entry(*argv, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", ENTRY, *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, **kwargs)


def test_the_program_ends_once_its_output_is_flushed(tmp_path):
    """As the entry point, ``main()`` ends the process without the interpreter's teardown
    (55-70 ms after an analysis): the output is complete, the exit code is the command's,
    and nothing registered for the teardown runs."""
    sample = ROOT / "samples" / "mystery-hand" / "five-players-ana.txt"
    ok = sleuth_entry("analyze", "--json", str(sample))
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["view"] == "Ana"
    assert "TEARDOWN" not in ok.stderr
    missing = sleuth_entry("analyze", str(tmp_path / "missing.txt"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("sleuth: error: cannot read the record")
    assert "TEARDOWN" not in missing.stderr
    text, _ = SMALL["mystery-hand"]
    path = tmp_path / "game.txt"
    path.write_text(text)
    refused = sleuth_entry("log", str(path), "Dev asks Ben 4H-7H: 0")
    assert refused.returncode == 3 and "sleuth: inconsistent" in refused.stderr
    assert path.read_text() == text
    logged = sleuth_entry("log", str(path), SMALL["mystery-hand"][1])
    assert logged.returncode == 0, logged.stderr
    assert path.read_text().rstrip().endswith(SMALL["mystery-hand"][1])
    # called by a program with its own arguments, main raises SystemExit as Click does
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    lib = subprocess.run([sys.executable, "-c", TEARDOWN_PROBE +
                          "try:\n    main(['--version'])\n"
                          "except SystemExit as e:\n    print('exit', e.code)\n"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert lib.stdout.splitlines()[-1] == "exit 0" and "TEARDOWN" in lib.stderr


def test_a_reader_that_left_ends_the_program_quietly():
    """``sleuth ... | head`` where the reader has already gone: exit 2, no traceback and
    no 'Exception ignored' from a final flush."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, "rules", "mystery-hand"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()             # before the child has written anything
    err = proc.stderr.read().decode()
    assert proc.wait() == 2, err
    assert "Traceback" not in err and "Exception ignored" not in err and "TEARDOWN" not in err


def test_a_bug_is_one_line_and_exit_70(monkeypatch, capsys):
    """A programming error reaches the program's entry as one line and exit 70 (not a
    traceback); SLEUTH_DEBUG lets the traceback through."""
    import click

    import cli.main as m

    @m.cli.command("boom-for-test", hidden=True)
    def boom():
        raise KeyError("a bug")

    try:
        monkeypatch.delenv("SLEUTH_DEBUG", raising=False)
        with pytest.raises(SystemExit) as e:
            m.main(["boom-for-test"])
        assert e.value.code == m.EXIT_INTERNAL == 70
        err = capsys.readouterr().err
        assert err.startswith("sleuth: internal error (a bug in sleuth, not in your input): "
                              "KeyError('a bug')") and "Traceback" not in err
        monkeypatch.setenv("SLEUTH_DEBUG", "1")
        with pytest.raises(KeyError):
            m.main(["boom-for-test"])
    finally:
        m.cli.commands.pop("boom-for-test", None)
    assert isinstance(m.cli, click.Group)
