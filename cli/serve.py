"""``sleuth serve``: the record as a web page for the phone at the table (docs/serve.md).

A thin command: the app is :mod:`web.app`, its runner :mod:`web.server`; Starlette,
uvicorn, Jinja2 and segno are imported only when this command runs."""
from __future__ import annotations

import click

from cli.bounds import Bounded
from cli.main import FilePath, as_option, cli, handle_errors
from solver.model.budget import DEFAULT_TIMEOUT, MAX_TIMEOUT


@cli.command()
@click.argument("record", type=FilePath(writes=True))
@as_option("Whose sheet the page shows")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port to listen on (0: any free port; the printed URL has it).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 for a phone on the same network (the "
              "URL then carries a secret token, printed with a QR code).")
@click.option("--timeout", type=Bounded(float, 0.1, MAX_TIMEOUT, " seconds"),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="Stop each analysis the page asks for after this many seconds (the "
              "page says so, with what was certain by then).")
@handle_errors()
def serve(record, as_, port, host, timeout=DEFAULT_TIMEOUT):
    """Serve the record as a web page for a phone: tap entry, the live sheet, undo.

    The first line printed is the URL to open. A RECORD that does not exist yet (or is
    blank) is started by the page's New game form, as 'sleuth new' would. The page checks every statement with the
    same engine as 'sleuth log' and saves it atomically; changes made elsewhere (another
    phone, 'sleuth log', an editor) show within a second. Ctrl-C stops it.

    \b
    Examples (each serves until Ctrl-C):
      $ sleuth serve game.txt
      $ sleuth serve game.txt --host 0.0.0.0     # a phone on the same Wi-Fi: scan the QR code
      $ sleuth serve game.txt --port 0 --as public   # the spectator's view (what all saw)
    The page's controls and what the token protects: docs/serve.md.
    """
    from cli.commands import live_view
    from solver.records import read_record
    from solver.session import Session
    from web.app import no_game_yet
    from web.server import serve as run

    if no_game_yet(record):     # the page starts with the New game form
        run(record, Session._ME, host, port, timeout=timeout, as_name=as_)
    else:
        run(record, live_view(read_record(record), as_), host, port, timeout=timeout)
    # the server ends only on Ctrl-C (its own handler took it): ended as every command is,
    # with exit 130 and the one line saying whether the record was saved
    raise KeyboardInterrupt
