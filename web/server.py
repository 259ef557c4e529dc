"""Running the app of ``sleuth serve``: bind the socket, say the URL, serve until Ctrl-C.

The socket is bound before anything is printed, so that the URL printed first has the real
port (``--port 0``: any free one).  On a non-loopback host the URL carries a random secret
token and a QR code of it follows (segno's terminal output)."""
from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from typing import Any


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (only this machine can reach it).

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on its network (the one a phone on the same Wi-Fi reaches);
    no packet is sent: a UDP socket is only pointed at a private address."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``0``: a free port)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int, token: str | None) -> str:
    """The URL to open: a wildcard bind names this machine's network address."""
    shown = host
    if host in ("0.0.0.0", "::", "[::]", ""):
        shown = lan_address()
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def quiet_on_exit(server) -> None:
    """Once Ctrl-C is pressed, the server's own log says nothing more: a request still
    running (an analysis) is cancelled at the end of the grace period, and that is no
    error worth a traceback; "stopped" is the one line said."""
    import logging

    class Quiet(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            return not server.should_exit

    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(Quiet())


def hangup_server(config):
    """uvicorn's server for ``config``, stopping on SIGHUP (the terminal closed) as it stops
    on SIGTERM: no new request, the one being checked finished (2 s at most), then the
    signal raised again for the program's own handler (``sleuth: terminated``, exit 129).
    Left to the program's handler, SIGHUP ended the event loop where it stood, and the
    loop's end waited for every analysis still running (10 s and more on a loaded
    machine).  A SIGHUP ignored (``nohup``) stays ignored."""
    import contextlib
    import signal
    import threading

    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            if (threading.current_thread() is not threading.main_thread()
                    or not hasattr(self, "_captured_signals")):
                with super().capture_signals():
                    yield
                return
            sigs: list[int] = [signal.SIGINT, signal.SIGTERM]
            if signal.getsignal(signal.SIGHUP) != signal.SIG_IGN:
                sigs.append(signal.SIGHUP)
            before = {sig: signal.signal(sig, self.handle_exit) for sig in sigs}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)
            for sig in reversed(self._captured_signals):     # as uvicorn does
                signal.raise_signal(sig)

    return Server(config)


def serve(path: str, view: Any, host: str, port: int, out=None,
          timeout: float | None = None, as_name: str | None = None) -> int:
    """Serve ``path`` until interrupted; the exit code (0 after Ctrl-C).  Raises the
    engine's errors (a record that cannot be read) before anything is bound."""
    import uvicorn

    from web.app import create_app

    out = out or sys.stdout
    loopback = is_loopback(host)
    token = secrets.token_urlsafe(24)
    from solver.model.budget import DEFAULT_TIMEOUT

    app = create_app(path, view, token=token, token_required=not loopback,
                     loopback=loopback, timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                     as_name=as_name)
    try:
        sock = bind(host, port)
    except OSError as e:
        from solver.errors import FileError

        raise FileError(f"cannot listen on {host}:{port}: {e.strerror or e}",
                        text=f"{host}:{port}") from None
    real_port = sock.getsockname()[1]
    url = url_of(host, real_port, None if loopback else token)
    print(url, file=out, flush=True)
    if not loopback:
        import segno

        print("Open it on a phone on the same network (scan this code); anyone with the URL "
              "can read and change the record:", file=out)
        qr = segno.make(url, error="m")
        try:
            qr.terminal(out=out, compact=True)      # half blocks: a quarter of the lines
        except UnicodeEncodeError:                   # a terminal without them: ANSI colours
            qr.terminal(out=out)
    print(f"Serving {path} (Ctrl-C stops)", file=out, flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=2)
    server = hangup_server(config)
    quiet_on_exit(server)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        if app.state.engine is not None:    # none: still at the New game form
            app.state.engine.stop()
        sock.close()
    print("stopped", file=out, flush=True)
    return 0
