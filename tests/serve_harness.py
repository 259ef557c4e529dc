"""What the browser tests share: Debian's Chromium under Playwright (never a downloaded browser),
a ``sleuth serve`` subprocess and the page's sheet read by role and accessible name.

Where Chromium or Playwright is missing the browser tests skip on a developer's machine and
fail under CI (``CI=true``): CI installs both (.ci/run), so a skip there would hide a gap."""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _missing(why: str):
    if _in_ci():
        pytest.fail(f"CI=true but {why}: the browser tests must run in CI (.ci/run installs it)")
    pytest.skip(why)


@contextmanager
def chromium():
    """A headless Chromium: Debian's, launched by path with Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Python Playwright is not installed (pip install -e '.[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        _missing(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def sleuth(*args: str, check: bool = True, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The command line, as a user runs it (a fresh process, no stdin)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    r = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    if check and r.returncode != 0:
        raise AssertionError(f"sleuth {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


class Server:
    """``sleuth serve RECORD --port 0 ...`` in a subprocess; ``url`` is its first line."""

    def __init__(self, record: Path, *extra: str, startup: float = 60.0):
        env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", str(record), "--port", "0", *extra],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        lines: queue.Queue = queue.Queue()
        self.output: list[str] = []

        def pump():
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        try:
            first = lines.get(timeout=startup)
        except queue.Empty:
            self.stop()
            raise AssertionError(f"sleuth serve printed nothing in {startup:.0f} s")
        if first is None:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.stop()
            raise AssertionError(f"sleuth serve ended before printing its URL: {err}")
        self.url = first.strip()
        assert re.match(r"https?://[^/\s]+:\d+/", self.url + "/"), self.url

    @property
    def port(self) -> int:
        return int(re.match(r"https?://[^/]+:(\d+)", self.url).group(1))

    def stop(self) -> int | None:
        """Ctrl-C, as a user stops it; killed only if it does not end within 10 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


_CELL = re.compile(r"""-\s+'?(?:cell|gridcell)\s+"((?:[^"\\]|\\.)*)\"""")


def sheet_names(page) -> list[str]:
    """The accessible names of the cells of the table named "Sheet"."""
    snap = page.get_by_role("table", name="Sheet").aria_snapshot()
    return [json.loads(f'"{m}"').replace("''", "'") for m in _CELL.findall(snap)]


_CARD_NAME = re.compile(r"^(\S+):\s*(.+)$")


def page_certain(page, holders) -> dict[str, str]:
    """The certain holders the page's sheet names: cells named "4H: Ben" (a holder alone, no
    percentage); ``holders`` are the names a card can be with (the players, "mystery", ...)."""
    out = {}
    for name in sheet_names(page):
        m = _CARD_NAME.match(name)
        if m and m.group(2).strip() in holders:
            out[m.group(1)] = m.group(2).strip()
    return out


def analyze(record: Path) -> dict:
    return json.loads(sleuth("analyze", "--json", str(record)).stdout)


def analyze_certain(record: Path) -> dict[str, str]:
    """Each card whose holder ``sleuth analyze --json`` is sure of, and that holder."""
    cards = analyze(record)["cards"]
    return {c: next(h for h, p in d.items() if p >= 1 - 1e-9)
            for c, d in cards.items() if isinstance(d, dict)
            and any(p >= 1 - 1e-9 for p in d.values())}


def player_view(text: str, me: str) -> str:
    """A complete record (``sleuth simulate``) as ``me`` wrote it at the table: the other
    hands unseen, and an ask between two others answered by the number of cards shown."""
    out = []
    for line in text.splitlines():
        if re.match(r"^\w+ holds:", line) and not line.startswith(me + " "):
            continue
        m = re.match(r"^(\w+) asks (\w+) (\S+): (.+)$", line)
        if m and m.group(2) != "all" and me not in (m.group(1), m.group(2)):
            answer = m.group(4).split("#")[0].strip()
            shown = 0 if answer in ("0", "none") else len(answer.split())
            line = f"{m.group(1)} asks {m.group(2)} {m.group(3)}: {shown}"
        out.append(line)
    return "\n".join(out) + "\n"


def rows_in_sight(page) -> int:
    """How many rows of the sheet's body (Mystery Hand: its 13 ranks) are wholly on screen
    above the entry panel (its bounding boxes)."""
    pane = page.get_by_role("region", name="Entry", exact=True).bounding_box()
    rows = page.get_by_role("table", name="Sheet", exact=True).locator("tbody tr")
    n = 0
    for i in range(rows.count()):
        b = rows.nth(i).bounding_box()
        n += b is not None and b["y"] >= 0 and b["y"] + b["height"] <= pane["y"] + 1
    return n
