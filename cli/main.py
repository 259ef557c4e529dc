"""The ``sleuth`` command line: thin, formatting only.

Exit codes everywhere: 0 ok, 2 usage or parse error (bad notation, illegal by rule),
3 inconsistent record.  Every :class:`solver.errors.SleuthError` is turned into a one-line
message here; no traceback reaches a user.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from pathlib import Path

import click

from solver.errors import InconsistentError, SleuthError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

#: game name -> module in ``cli`` that renders its analyses (``render_analysis``)
RENDERERS = {
    "mystery-hand": "cli.mystery_hand",
    "literature": "cli.literature",
    "twenty-two": "cli.twenty_two",
    "mysterium": "cli.mysterium",
    "hand": "cli.hand",
}


def emit_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def handle_errors(json_flag: str | None = None):
    """Decorator: turn cardsleuth errors into messages and exit codes (2, or 3 for an
    inconsistent record).  With ``--json`` an inconsistency is also reported as the
    contract's ``{"consistent": false, "conflict": [...]}``."""

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            want_json = bool(json_flag and kwargs.get(json_flag))
            try:
                return fn(*args, **kwargs)
            except InconsistentError as e:
                if want_json:
                    emit_json({"consistent": False, "conflict": e.conflict})
                click.echo(f"sleuth: inconsistent: {e}", err=True)
                sys.exit(3)
            except SleuthError as e:
                click.echo(f"sleuth: error: {e}", err=True)
                sys.exit(e.exit_code)
            except TimeoutError as e:
                click.echo(f"sleuth: error: {e}", err=True)
                sys.exit(4)

        return wrapper

    return deco


def renderer(game: str):
    return importlib.import_module(RENDERERS[game])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsleuth")
def cli():
    """cardsleuth: what can be known at a card table.

    \b
    Log a game as a record (one statement a line), then ask what follows:
      sleuth new mystery-hand --players "Ana Ben Cleo Dev" --me Ana game.txt
      sleuth log game.txt "Ana holds: AS 2S 9H JD QC 4D 8S 3H 5C 6C 7C 8C"
      sleuth log game.txt "Ana asks Ben 4H-7H: 4H 6H"
      sleuth analyze game.txt
      sleuth why game.txt 6H

    Exit codes: 0 ok, 2 usage or parse error, 3 inconsistent record.
    Shell completion: eval "$(_SLEUTH_COMPLETE=bash_source sleuth)" (zsh_source, fish_source).
    """


#: modules that add commands to ``cli`` when imported
COMMAND_MODULES = ["cli.commands", "cli.mysterium", "cli.hand", "cli.literature", "cli.session", "cli.replay"]

for _mod in COMMAND_MODULES:
    importlib.import_module(_mod)


def main(argv=None):
    cli.main(args=argv, prog_name="sleuth")


if __name__ == "__main__":  # pragma: no cover
    main()
