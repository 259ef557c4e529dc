"""The web app of ``sleuth serve``: one record file, through :class:`solver.session.Session`
(one session takes the changes, another computes what the page shows).

Routes (all GETs read, only ``POST /do`` changes the record):

* ``GET /``: the page (``web/templates/page.html``), with the quick live part; where that
  is provisional, the full analysis is started on the server (:meth:`Engine.analyze_later`:
  a page without JavaScript shows its sheet when reloaded);
* ``GET /live[?whatif=S][?quick=1]``: the live part of the page alone (the sheet, turn,
  alerts, lines), for the page to swap in after a change; with ``whatif`` the sheet of the
  record with ``S`` added, marked hypothetical (nothing saved); ``quick``: at once, without
  the analysis unless it is done already (marked ``data-pending``: the page asks again);
* ``GET /version``: ``{"version": ..., "held": ...}``, the
  :func:`~solver.records.text_version` of the file now and the statement held by the
  ``# held:`` comment line ending it (``""`` if none) -- cheap, polled by the page to show
  changes made elsewhere;
* ``GET /partial``: ``{"version": ..., "certain": ...}``, what the analysis running now has
  established so far (a slow analysis's certainties, before its probabilities);
* ``GET /hint``: ``{"version": ..., "hint": ...}``, the advisor's one line on the view's turn
  (from a process of its own, stopped when the record moves on);
* ``GET /leads?after=S``: ``{"leads": ..., "turn": ..., "may_act": ..., "version": ...}``,
  what the tap entry offers after ``S`` (:func:`web.live.entry_after`: the game's
  ``lead_data`` and who is on turn on the record with ``S`` added, nothing saved): ``S`` is
  the first part of a statement being built, or statements sent and still being checked;
* ``GET /advice``: the advisor's ranking and the exposure (on demand: they cost an analysis);
* ``GET /sent?id=ID``: ``{"state": ..., "result": ...}``, what became of the change the
  page sent with the id ``ID`` (:class:`Sent`): ``"done"`` with its answer, ``"running"``
  (still being done after a wait), ``"unknown"`` (this server never got it);
* ``POST /do``: one line for :meth:`Session.handle` (a statement, ``undo``, ``redo``,
  ``edit N ...``, ``delete N``, ``why CARD``, ``whatif ...``), as JSON
  (``{"line": ..., "version": ..., "id": ...}``, ``Content-Type: application/json``, the
  token in the ``X-Sleuth-Token`` header; ``id``: the page's own id for this change, so
  that the same change sent again is done once; ``sent_on``, on a change sent again with
  its id: the version it was first sent on, so that a server started again since, which
  forgot the id, still answers it as a repeat where the record gained that same statement
  after that version) or as a form (fields ``line``,
  ``version``, ``token``: a refused one gets the page back with the refusal and the text
  typed, 409 if stale; a form post done waits up to :data:`FORM_WAIT` for the full
  analysis of the new version before sending the page again);
* ``GET /static/...``, ``GET /manifest.webmanifest``: the page's own assets.

Security (docs/serve.md, "What the token protects"): with ``token_required`` every request
must carry the token (query ``token``, header ``X-Sleuth-Token`` or the cookie the page sets),
compared in constant time, else 403; every POST carries it in the header or a form field
whatever the host (a cookie alone is not enough: CSRF); on a loopback address a request
naming any other host is refused (DNS rebinding).  Only the served record is read or
written: the static files are a fixed list, nothing from a request becomes a path.

The engine's work (checking a statement, an analysis) runs in worker threads, never on the
event loop: ``/version`` answers while an analysis runs.  Changes and analyses use separate
sessions (a change never waits for an analysis); the analyses run within the program's
time budget (:func:`solver.model.budget.within`; deadlines and counting memos are each
thread's own), and a change that saves a new version cancels the analysis of the old one
(:meth:`~solver.model.budget.Deadline.cancel`): it stops at its next check, a CP-SAT search
at once.  The answers come in order of cost (:mod:`solver.staged`): the quick live part
carries stage 1 (the certainties and alerts, within about 0.3 s), the full one the figures.
"""
from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from solver.errors import SleuthError
from solver.model.budget import DEFAULT_TIMEOUT, within
from solver.records import printable, read_text, text_version
from solver.session import Outcome, Session, held_statement

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
#: the assets served, by name -> media type (a fixed list: no path comes from a request)
ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
          "icon.svg": "image/svg+xml", "icon-192.png": "image/png",
          "icon-512.png": "image/png", "sw.js": "text/javascript; charset=utf-8"}
#: the commands that change nothing (no version check; ``Session.handle`` runs them as is)
READING = ("why", "whatif", "sheet", "suggest", "help")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
#: the longest the advisor's hint may take (seconds) before it is given up
HINT_TIMEOUT = 120.0
#: the longest ``GET /sent`` waits for a change being done before it answers "running"
SENT_WAIT = 20.0
#: the longest a form post (the page without JavaScript) waits for the full analysis of
#: the record it saved before the page is sent again (seconds): past it, the page shows
#: the provisional sheet, and a reload the full one when done
FORM_WAIT = 2.0
#: the most text a POST may carry (a statement is one line)
MAX_BODY = 64 * 1024


class HintJob:
    """One run of the hint's process, for one version of the record."""

    def __init__(self, version: str, proc: Any):
        self.version = version
        self.proc = proc
        self.done = threading.Event()
        self.hint: str | None = None
        self.hint_known = False


class Sent:
    """The changes pages sent with an id of their own (``POST /do`` with ``id``): those
    being done now, and the answers of the last :data:`KEEP` done.  A page reloaded while
    its change was on its way asks what became of it (``GET /sent``: the answer, once the
    change is done); the same change sent again with its id (a Log tapped again after a
    reload, or after an answer that never came) is answered as saved, not done twice."""

    KEEP = 256

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done: dict[str, dict] = {}
        self.running: dict[str, list] = {}      # id -> [event set when done, how many]

    def begin(self, cid: str) -> None:
        with self.lock:
            got = self.running.setdefault(cid, [threading.Event(), 0])
            got[1] += 1

    def end(self, cid: str, result: dict | None) -> None:
        with self.lock:
            if result is not None:
                self.done.pop(cid, None)
                self.done[cid] = result
                while len(self.done) > self.KEEP:
                    self.done.pop(next(iter(self.done)))
            got = self.running.get(cid)
            if got is not None:
                got[1] -= 1
                if got[1] <= 0:
                    del self.running[cid]
                    got[0].set()

    def known(self, cid: str) -> bool:
        """Whether this server got the change ``cid`` (being done, or among those kept)."""
        with self.lock:
            return cid in self.done or cid in self.running

    def saved(self, cid: str | None) -> dict | None:
        """The answer of the change ``cid`` if it was saved."""
        if not cid:
            return None
        with self.lock:
            got = self.done.get(cid)
        return got if got is not None and got.get("saved") else None

    def wait(self, cid: str, timeout: float) -> dict:
        """What became of the change ``cid``, waiting up to ``timeout`` seconds for one
        being done: ``{"state": "done", "result": ...}``, ``"running"`` or ``"unknown"``."""
        with self.lock:
            got, running = self.done.get(cid), self.running.get(cid)
        if got is None and running is not None:
            running[0].wait(timeout)
            with self.lock:
                got, running = self.done.get(cid), self.running.get(cid)
        if got is not None:
            return {"state": "done", "result": got}
        return {"state": "running" if running is not None else "unknown", "result": None}


class Engine:
    """The sessions behind the page, used from worker threads.

    ``writer`` takes the changes (``POST /do``) under ``write_lock``: a change never waits
    for an analysis.  ``reader`` computes what the page shows under ``read_lock``;
    ``live_cache`` keeps what the last live parts show by (version, whatif), so that several
    devices polling the same version cost one analysis (each is rendered with the statement
    held now: :meth:`held`).  The advisor's hint runs in a process of its own
    (:mod:`web.hint`), stopped when the record moves on."""

    def __init__(self, path: str, view: Any = Session._ME, timeout: float = DEFAULT_TIMEOUT):
        self.timeout = timeout
        self.writer = Session(path) if view is Session._ME else Session(path, view)
        self.reader = Session(path, self.writer.view)
        self.path = path
        self.write_lock = threading.Lock()
        self.read_lock = threading.Lock()
        self.live_cache: dict[tuple[str, str | None], tuple[dict, dict, str]] = {}
        #: the status of each change a page posted without its script, by the id its
        #: redirect carries (``/?done=<id>``; the last 64): a page shows its own result,
        #: never another device's
        self.done: dict[str, str] = {}
        self.whatifs: dict[tuple[str, str], Outcome] = {}
        #: the version being analysed and its deadline (what it has established so far)
        self.running: tuple[str, Any] | None = None
        #: stage 1 of the analysis (web.live.first_stage) by version, the one being
        #: computed and its deadline, and the lock that makes one device's wait for it
        #: another's answer
        self.firsts: dict[str, Any] = {}
        self.first_running: tuple[str, Any] | None = None
        self.first_lock = threading.Lock()
        self.hints: dict[str, str | None] = {}
        #: how many statements each version shown to a page had (the lines another device
        #: added since a statement was typed: web.live.same_line)
        self.counts: dict[str, int] = {}
        #: the text of each version shown to a page (the last 64): an ``edit N`` or
        #: ``delete N`` decided on one is checked against its lines (:meth:`moved`)
        self.texts: dict[str, str] = {}
        self.hint_lock = threading.Lock()
        self.hint_job: HintJob | None = None
        self.sent = Sent()
        #: the full analysis the server started itself (:meth:`analyze_later`): the
        #: version it was started for and its thread
        self.later: tuple[str, threading.Thread] | None = None
        self.later_lock = threading.Lock()

    @property
    def session(self) -> Session:
        return self.writer

    def version(self) -> str | None:
        """The version of the file now (``None`` if it cannot be read)."""
        return self.version_held()[0]

    def version_held(self) -> tuple[str | None, str]:
        """The version of the file now (``None`` if it cannot be read) and the statement
        its ``# held:`` comment line holds (``""`` if none)."""
        try:
            text = read_text(self.path)
        except SleuthError:
            return None, ""
        held = held_statement(text)
        return text_version(text), held[1] if held is not None else ""

    def act(self, line: str, expect: str | None, typed_on: str | None = None,
            cid: str | None = None, sent_on: str | None = None) -> dict:
        """Run one line through the session; a change built on another version than the
        file's is refused (:class:`~solver.errors.StaleError`).  ``typed_on``: the version
        the page showed when the statement was typed; when another writer has changed the
        record since and one of its last lines is this same statement, it is refused as
        stale too, saying so (two phones at one table logging one question: not twice).
        ``cid``: the page's id for this change (:class:`Sent`): one already saved is
        answered as it was (``repeat``), not done again.  ``sent_on``: the version a change
        sent again with its id was first sent on; where this server does not know the id (it
        was started again since) and the record gained this same statement after that
        version, it was saved by the first send, whose answer was lost: answered as a
        repeat too (:meth:`saved_since`), not saved twice."""
        word = line.strip().split(" ", 1)[0].lower()
        if word in ("why", "whatif", "suggest"):
            return self.read(line)
        if not cid:
            return self._act(line, expect, typed_on)
        result = None
        if sent_on and self.sent.known(cid):
            sent_on = None          # this server got it: its own answer (Sent) says
        self.sent.begin(cid)
        try:
            result = self._act(line, expect, typed_on, cid, sent_on)
        finally:
            self.sent.end(cid, result)
        return result

    def _act(self, line: str, expect: str | None, typed_on: str | None,
             cid: str | None = None, sent_on: str | None = None) -> dict:
        from web.live import outcome, same_line, same_text

        word = line.strip().split(" ", 1)[0].lower()
        change = word not in READING
        with self.write_lock:
            s = self.writer
            before = self.sent.saved(cid)
            if before is not None:
                # saved already (its answer never reached the page): said again, not done
                # twice; the version the record is at now, for the page's next change
                return {**before, "repeat": True, "version": self.version() or before["version"]}
            if change and cid and sent_on:
                held = self.held_since(line, sent_on)
                if held is not None:        # held by its '# held:' line: saved (held)
                    return {"kind": "pending", "saved": True, "repeat": True,
                            "status": f"held line {held}: {line.strip()}", "fixes": [],
                            "conflict": [], "why": None, "whatif": None,
                            "version": s.version}
                got = self.saved_since(line, sent_on)
                if got is not None:
                    return {"kind": "accepted", "saved": True, "repeat": True,
                            "status": f"logged line {got.line}: {got.text}", "fixes": [],
                            "conflict": [], "why": None, "whatif": None,
                            "version": s.version}
            since = self.counts.get(typed_on or expect or "")
            if word in ("edit", "delete") and typed_on is not None:
                s.reread()
                moved = self.moved(s.text, typed_on, line)
                if moved is not None:
                    return {"kind": "refused", "saved": False, "stale": True,
                            "status": moved, "fixes": [], "conflict": [], "why": None,
                            "whatif": None, "version": s.version}
            if change and typed_on is not None and expect is not None and typed_on != expect:
                s.reread()
                same = same_line(s, line, since) if s.version == expect else None
                if same is not None:
                    return {"kind": "refused", "saved": False, "stale": True, "same_line": same,
                            "status": "refused: " + same_text(same), "fixes": [],
                            "conflict": [],
                            "why": None, "whatif": None, "version": s.version}
            o = s.handle(line, expect=expect if change else None)   # refused if stale
            d = outcome(o, s, since)
            if word in ("delete", "edit") and d["kind"] == "refused" and not d.get("stale") \
                    and d["status"].startswith("refused: "):
                # what was refused: the line's Delete or Edit, not a statement typed
                n = line.strip().split(" ", 2)[1:2]
                d["status"] = f"{word} {' '.join(n)} refused: " + d["status"][len("refused: "):]
            d["version"] = self.remember(s.text)
            self.count(d["version"], len(s.record.statements))
            for running in (self.running, self.first_running):
                if running is not None and running[1] is not None and \
                        running[0] != d["version"]:
                    running[1].cancel()     # the analysis of an older version: stop it now
            return d

    def keep_done(self, status: str) -> str:
        """An id for ``status``, the result of a change posted by a page without its script:
        the page it is redirected to (``/?done=<id>``) shows it; other pages do not."""
        done = secrets.token_urlsafe(9)
        with self.write_lock:
            self.done[done] = status
            while len(self.done) > 64:
                del self.done[next(iter(self.done))]
        return done

    def saved_since(self, line: str, sent_on: str) -> Any:
        """The statement of the record (one of its last five) that says ``line`` and was
        added after the version ``sent_on``, else ``None``.  How many statements that
        version had: as remembered, or (a server started again since) counted in the
        record's first lines whose text is that version (the record only grew since);
        ``None`` where neither tells (the record was edited since, or no such version)."""
        from solver.records import split_lines_keepends
        from web.live import same_line

        s = self.writer
        s.reread()
        if s.version == sent_on:
            return None
        since = self.counts.get(sent_on)
        if since is None:
            lines = split_lines_keepends(s.text)
            for k in range(len(lines) - 1, 0, -1):
                head = "".join(lines[:k])
                if sent_on in (text_version(head), text_version(head.rstrip("\r\n"))):
                    since = sum(1 for st in s.record.statements if st.line <= k)
                    break
        n = same_line(s, line, since)
        return next((st for st in s.record.statements if st.line == n), None) \
            if n is not None else None

    def held_since(self, line: str, sent_on: str) -> int | None:
        """The line of the ``# held:`` comment ending the record that holds ``line``,
        written after the version ``sent_on`` (the record's first lines, up to one above
        it, are that version, or this server remembers that version without it), else
        ``None``: the change sent then was saved, as held."""
        from solver.records import split_lines_keepends, strip_comment

        s = self.writer
        s.reread()
        found = held_statement(s.text)
        if found is None or s.version == sent_on:
            return None

        def said(t: str) -> str:
            return " ".join(strip_comment(t.strip())[0].split()).lower()

        n, statement = found
        if said(statement) != said(line):
            return None
        before = self.texts.get(sent_on)
        if before is not None:
            was = held_statement(before)
            return n if was is None or said(was[1]) != said(line) else None
        lines = split_lines_keepends(s.text)
        for k in range(n - 1, 0, -1):
            head = "".join(lines[:k])
            if sent_on in (text_version(head), text_version(head.rstrip("\r\n"))):
                return n
        return None

    def moved(self, text: str, shown: str, line: str) -> str | None:
        """Why ``line`` (``edit N ...`` or ``delete N``), decided on the version ``shown``,
        would act on another line than the one the page showed: line N or a line above it
        (its comment too) is not as it was in ``shown`` (another device deleted or added
        a line above it, or changed it); the refusal's status, else ``None``.  A version
        whose text this server does not know (it was started again) counts as moved
        unless it is the record's version now."""
        from solver.records import split_lines
        from solver.session import line_number

        word, _, rest = line.strip().partition(" ")
        word = word.lower()
        n = line_number(rest.strip().partition(" ")[0])
        if n is None or text_version(text) == shown:
            return None
        before = self.texts.get(shown)
        now = split_lines(text)
        if before is not None and split_lines(before)[:n] == now[:n]:
            return None
        is_now = f"line {n} is now: {now[n - 1]}" if 1 <= n <= len(now) \
            else f"the record has {len(now)} lines now"
        then = ("your edit is still in the Statement box: check its line number and log it "
                "again" if word == "edit" else "tap Delete again on the line to delete")
        return (f"{word} {n} refused: not done: line {n} or a line above it changed since "
                f"this page showed it (another device, 'sleuth log' or an editor changed "
                f"the record; {is_now}); the page now shows the record as it is: {then}")

    def remember(self, text: str) -> str:
        """Keep ``text`` as a version shown to a page (the last 64); its version."""
        version = text_version(text)
        try:
            if len(self.texts) > 64 and version not in self.texts:
                self.texts.pop(next(iter(self.texts)))
        except (RuntimeError, KeyError, StopIteration):    # another thread trimmed it
            pass
        self.texts[version] = text
        return version

    def read(self, line: str) -> dict:
        """A line that changes nothing (``why``, ``whatif``, ``suggest``), on the reading
        session within the time budget: a change never waits for it.  A whatif's outcome is
        kept for the hypothetical sheet that the page asks for next."""
        from web.live import outcome

        words = line.strip().split(None, 2)
        if len(words) > 1 and words[0].lower() == "whatif" \
                and words[1].lower() in ("edit", "delete", "undo", "redo"):
            # a command in the box (an Edit's 'edit N ...'): not a statement to suppose
            return {"kind": "refused", "saved": False, "stale": False, "fixes": [],
                    "conflict": [], "why": None, "whatif": None,
                    "status": "what if refused: What if takes a statement, not "
                              f"{'an' if words[1].lower() in ('edit', 'undo') else 'a'} "
                              f"{words[1].lower()} command ('{line.strip().split(None, 1)[1]}'); "
                              "type the statement alone to see the sheet with it added",
                    "version": self.version()}
        with self.read_lock, within(self.timeout):
            s = self.reader
            if s.text != self.writer.text and self.version() == text_version(self.writer.text):
                # the file as the pages' own change saved it: not "changed on disk"
                s.reread()
            o = s.handle(line)
            if o.kind == "whatif":
                self.whatifs.clear()
                self.whatifs[(s.version, o.statement)] = o
            d = outcome(o, s)
            d["version"] = s.version
        return d

    def held(self, text: str) -> dict[str, Any] | None:
        """The statement held for its resolving line, for every device's page: the
        ``# held:`` comment line ending ``text`` (saved by a page, ``play`` or ``log`` as
        soon as the statement was typed)."""
        found = held_statement(text)
        if found is None:
            return None
        line, statement = found
        return {"statement": statement, "line": line,
                "name": self.writer.held_name(statement)}

    def live_html(self, env, whatif: str | None, token: str, quick: bool = False) -> str:
        """The live part of the page for the record now (worked out once per version,
        rendered with the statement held now).  ``quick``: without the analysis unless it
        is already done (the page's first answer; the script then asks for the whole)."""
        from web.live import entry_data, live
        from web.review import embed_json

        def render(data: dict, entry: dict, text: str) -> str:
            if not data.get("error"):
                self.count(data["version"], len(data["lines"]))
                self.remember(text)
            return env.get_template("live.html").render(
                d=data, entry_json=embed_json(entry), token=token, held=self.held(text))

        if quick:
            key = (self.version() or "", whatif)
            known = self.live_cache.get(key)
            if known is not None:
                return render(*known)
            snap = self.snapshot()          # no lock: a change being checked never delays it
            if isinstance(snap, str):       # the file no longer parses: say so on the last one
                with self.write_lock:
                    data = live(self.writer, whatif, quick=True)
                    data["error"], data["version"] = snap, key[0] or data["version"]
                    return render(data, entry_data(self.writer, {}), self.writer.text)
            data = live(snap, whatif, quick=True,
                        first=None if whatif else self.first_stage(snap, key[0]))
            return render(data, entry_data(snap, {}), snap.text)
        return render(*self.full(whatif))

    def full(self, whatif: str | None = None) -> tuple[dict, dict, str]:
        """What the whole live part shows for the record now (with ``whatif``: for the
        record with it added): its data, the tap entry's data and the text, worked out
        once per version (kept in ``live_cache``) within the time budget; a change saving
        a newer version cancels it (the sheet then says the analysis was stopped)."""
        from web.live import entry_data, live

        with self.read_lock:
            s = self.reader
            broken = self._reload(s)
            key = (text_version(s.text), whatif)
            known = None if broken else self.live_cache.get(key)
            if known is None:
                # within the program's time budget (docs/reliability.md); what the analysis
                # establishes on the way (certainties) is readable meanwhile (:meth:`partial`)
                with within(self.timeout) as deadline:
                    self.running = (key[0], deadline)
                    try:
                        data = live(s, whatif, known=self.whatifs.get((key[0], whatif or "")))
                    finally:
                        self.running = None
                if broken:                  # shown over what the record was before the edit
                    data["error"], data["version"] = broken, self.version() or data["version"]
                known = (data, entry_data(s, data["held"], data["possible"]), s.text)
                if len(self.live_cache) > 8:
                    self.live_cache.clear()
                if not broken and not (deadline is not None and deadline.cancelled):
                    # (a cancelled one is not kept: that version may come back, an undo
                    # redone, and its reload is to show its figures, not "was stopped")
                    self.live_cache[key] = known
            return known

    def analyze_later(self) -> threading.Thread | None:
        """Start the full analysis of the record now (:meth:`full`) in a thread of the
        server's own, unless its answer is known already or that version's is being
        worked out: the thread, else ``None``.  The page sent with its quick live part (a
        provisional sheet) starts it, so that a page without JavaScript, which never asks
        for the whole live part, shows the full sheet when reloaded; a page with the script
        asks for it meanwhile and waits for this same analysis (``read_lock``), which then
        answers both.  A change saving a newer version cancels it as any analysis."""
        v = self.version()
        if v is None or (v, None) in self.live_cache:
            return None
        with self.later_lock:
            if self.later is not None and self.later[0] == v and self.later[1].is_alive():
                return self.later[1]

            def work() -> None:
                try:
                    self.full(None)
                except SleuthError:
                    pass                    # the page asks again: said there

            t = threading.Thread(target=work, name=f"sleuth-analysis-{v[:8]}", daemon=True)
            self.later = (v, t)
            t.start()
            return t

    def count(self, version: str, statements: int) -> None:
        """Remember that ``version`` had ``statements`` statements (the last 64 versions)."""
        try:
            if len(self.counts) > 64:
                self.counts.pop(next(iter(self.counts)))
        except (RuntimeError, KeyError, StopIteration):    # another thread trimmed it
            pass
        self.counts[version] = statements

    def first_stage(self, snap: Any, version: str) -> Any:
        """Stage 1 of the analysis of ``version`` (:func:`web.live.first_stage`), computed
        once per version within the time budget; a change saving a newer version cancels
        it (``None`` then)."""
        from web.live import first_stage

        with self.first_lock:
            if version in self.firsts:
                return self.firsts[version]
            with within(self.timeout) as deadline:
                self.first_running = (version, deadline)
                try:
                    got = first_stage(snap)
                finally:
                    self.first_running = None
            if got is not None:
                if len(self.firsts) > 8:
                    self.firsts.clear()
                self.firsts[version] = got
            return got

    def partial(self) -> dict:
        """What the analysis running now has established so far (the certainties, where
        the game notes them on the way: after its backbone), for the page to
        show before the sheet: ``{"version": ..., "certain": "2S: Eli; ..." or None}``."""
        from web.live import certain_line, established

        running = self.running
        if running is None or running[1] is None:
            return {"version": None, "certain": None}
        version, deadline = running
        got = dict(deadline.established)
        certain = established(SimpleNamespace(established=got))
        first = self.firsts.get(version)
        if first is not None and not isinstance(first, str):
            # stage 1 of this version (web.live.first_stage); cut short, what the analysis
            # has settled since when it says more
            if first.complete or not certain:
                certain = certain_line(first.certain)
            return {"version": version, "certain": certain, "stage": "certainties",
                    "complete": first.complete, "alerts": first.alerts}
        return {"version": version, "certain": certain}

    def snapshot(self) -> Any:
        """The record file as it is now, read apart from the sessions, with what the quick
        live part asks of a session (``record``, ``game``, ``view``, ``text``,
        ``vocabulary()``); or why it does not parse."""
        from solver.games import get_game
        from solver.records import parse_record
        from solver.session import vocabulary

        try:
            text = read_text(self.path)
            rec = parse_record(text, self.path)
            game = get_game(rec.game)
        except SleuthError as e:
            return f"the file on disk no longer parses: {e}"
        return SimpleNamespace(record=rec, game=game, view=self.writer.view, text=text,
                               vocabulary=lambda: vocabulary(rec))

    @staticmethod
    def _reload(s: Session) -> str | None:
        """Read the file again if it changed on disk; why it cannot be, if so (an edit
        that broke it: the page says so until it is fixed or undone there)."""
        o = s.handle("sheet")
        if o.kind != "refused":
            return None
        return f"{o.message}: {o.error}" if o.message else str(o.error)

    def hint(self) -> dict:
        """The advisor's hint for the record now (``None`` when it is not the view's turn),
        from a process of its own; a newer version of the record stops the one running.
        Several requests for one version share its process (one of them waits on it)."""
        import subprocess

        v = self.version()
        if v is None:
            return {"version": None, "hint": None}
        with self.hint_lock:
            if v in self.hints:
                return {"version": v, "hint": self.hints[v]}
            job = self.hint_job
            if job is not None and job.version != v:
                job.proc.kill()             # superseded: the record moved on
                job = None
            waiter = job is None
            if waiter:
                view = self.writer.view
                proc = subprocess.Popen(
                    [sys.executable, "-m", "web.hint", os.path.abspath(self.path),
                     "public" if view is None else view],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                    cwd=str(HERE.parent))
                job = self.hint_job = HintJob(v, proc)
        assert job is not None
        if not waiter:
            job.done.wait(HINT_TIMEOUT)
            return {"version": job.version if job.hint_known else None, "hint": job.hint}
        try:
            out, _ = job.proc.communicate(timeout=HINT_TIMEOUT)
        except subprocess.TimeoutExpired:
            job.proc.kill()
            job.proc.communicate()
            out = ""
        try:
            d = json.loads(out) if out else {}
        except ValueError:
            d = {}
        with self.hint_lock:
            if self.hint_job is job:
                self.hint_job = None
            if d.get("version") is not None:
                if len(self.hints) > 32:
                    self.hints.clear()
                self.hints[d["version"]] = d.get("hint")
                job.hint, job.hint_known = d.get("hint"), d["version"] == job.version
        job.done.set()
        return {"version": d.get("version"), "hint": d.get("hint")}

    def stop(self) -> None:
        """Stop the hint's process, if one runs, and the analysis the server started
        itself (:meth:`analyze_later`), if it runs: cancelled, waited for a moment."""
        with self.hint_lock:
            if self.hint_job is not None:
                self.hint_job.proc.kill()
        later, running = self.later, self.running
        if later is not None and later[1].is_alive():
            if running is not None and running[1] is not None:
                running[1].cancel()
            later[1].join(2.0)

    def advice(self) -> dict:
        """The advisor's ranking and the exposure, as text."""
        out: dict[str, str | None] = {"advice": None, "exposure": None}
        with self.read_lock, within(self.timeout):
            s = self.reader
            s.handle("sheet")
            o = s.handle("suggest 10")
            if o.kind == "suggest":
                from cli.advise import render_advice

                out["advice"] = render_advice(o.advice)
            else:
                out["advice"] = str(o.error) if o.error else "no advice"
            try:
                exp = s.game.exposure(s.record, s.view)
            except SleuthError as e:
                out["exposure"] = f"no exposure: {e}"
            else:
                if exp is not None:
                    from cli.advise import render_exposure

                    out["exposure"] = render_exposure(exp)
        return out


def no_game_yet(path: str) -> bool:
    """Whether ``path`` holds no record yet: absent, or nothing but blanks (the page then
    offers the New game form)."""
    try:
        return not os.path.exists(path) or not read_text(path).strip()
    except SleuthError:
        return False        # unreadable: the engine says why


#: the names the games' examples are written with (``Game.examples``)
EXAMPLE_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")


def example(session) -> str:
    """A statement of the record's game for the Statement box's placeholder: its first
    example of a player's action other than ``holds`` (the most common entry), written
    with the record's players where the example's names are not all theirs: the player on
    turn first, then the others in seating order who make statements
    (:func:`web.live.actors`)."""
    from solver.session import vocabulary
    from web.live import actors, current_player

    rec = session.record
    examples = session.game.examples or ("",)
    verbs = set(vocabulary(rec).verbs) - {"holds"}
    chosen = next((e for e in examples if len(e.split()) > 2 and e.split()[1] in verbs),
                  examples[0])
    words = re.findall(r"[^\s,:]+", chosen)
    used = list(dict.fromkeys(w for w in words if w in EXAMPLE_NAMES))
    players = actors(rec)
    if not players or all(w in rec.header.players for w in used):
        return chosen
    turn = current_player(rec)[0]
    if turn in players:
        players = players[players.index(turn):] + players[:players.index(turn)]
    names = {w: players[i % len(players)] for i, w in enumerate(used)}
    return re.sub(r"[^\s,:]+", lambda m: names.get(m.group(0), m.group(0)), chosen)


def record_key(path: str) -> str:
    """What the page keys its kept half-typed statement by (the browser's local storage):
    the record's real path, hashed (two records with the same file name keep a draft each;
    the page does not show where the file lives).

    >>> record_key("/a/game.txt") != record_key("/b/game.txt"), len(record_key("g.txt"))
    (True, 16)
    """
    import hashlib

    return hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")
                          ).hexdigest()[:16]


def game_choices() -> list[dict]:
    """The games for the New game form: name, title, header keys and variant options."""
    from solver.games import game_names, get_game

    out = []
    for name in game_names():
        g = get_game(name)
        options = []
        for o in g.option_specs():
            vals = [] if set(o.values) <= {False, True} else [str(v) for v in o.values
                                                             if v is not None]
            options.append({"name": o.name, "values": vals, "help": o.help})
        out.append({"name": name, "title": g.title or name, "header_keys": list(g.header_keys),
                    "options": options})
    return out


def start_game(path: str, form: dict) -> None:
    """The New game form's fields written as the record's header, by the same function as
    ``sleuth new`` (:func:`solver.records.start_record`); only over an absent or blank file.
    Raises the engine's errors (a bad name, option or player count: nothing written)."""
    from cli.commands import key_values
    from solver.records import start_record

    extras = key_values((form.get("extra") or "").splitlines())
    variant = [o.strip() for o in (form.get("variant") or "").split(",") if o.strip()]
    start_record(path, (form.get("game") or "").strip(), form.get("players") or "",
                 me=(form.get("me") or "").strip() or None, variant=variant,
                 dealer=(form.get("dealer") or "").strip() or None, extra=extras,
                 over_blank=True)


def _printable_tree(value: Any) -> Any:
    """``value`` (JSON data) with every string :func:`~solver.records.printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {_printable_tree(k): _printable_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_printable_tree(v) for v in value]
    return value


def create_app(path: str, view: Any = Session._ME, *, token: str, token_required: bool,
               loopback: bool = True, timeout: float = DEFAULT_TIMEOUT,
               as_name: str | None = None):
    """The Starlette app over the record ``path`` (see the module doc).  Over a path with
    no record yet (:func:`no_game_yet`) the page is the New game form (``POST /new``) until
    a header is written; ``as_name`` (``--as``) is then resolved against it."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse as _HTMLResponse
    from starlette.responses import JSONResponse as _JSONResponse
    from starlette.responses import PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    # A record whose file name is not UTF-8 (a byte kept as a surrogate by os.fsdecode)
    # puts that name into the page and into errors: written \xNN (printable), as the
    # terminal shows it, not an error of the server's own.
    class HTMLResponse(_HTMLResponse):
        def render(self, content: Any) -> bytes | memoryview:
            return super().render(printable(content) if isinstance(content, str) else content)

    class JSONResponse(_JSONResponse):
        def render(self, content: Any) -> bytes:
            return super().render(_printable_tree(content))

    from web.review import environment

    env = environment()
    made = threading.Lock()

    def current() -> Engine | None:
        """The engine over the record; ``None`` while there is none (the New game form)."""
        engine = getattr(app.state, "engine", None)
        if engine is not None or no_game_yet(path):
            return engine
        with made:
            if getattr(app.state, "engine", None) is None:
                v = view
                if as_name is not None:     # --as, given before the header was written
                    from cli.commands import live_view
                    from solver.records import read_record

                    try:
                        v = live_view(read_record(path), as_name)
                    except SleuthError:
                        v = Session._ME     # not a view of it: the record's me

                app.state.engine = Engine(path, v, timeout)
        return app.state.engine

    def no_game() -> Response:
        return PlainTextResponse("no game yet: start one with the New game form",
                                 status_code=409)

    def given_token(request: Request) -> str:
        return (request.headers.get("x-sleuth-token") or request.query_params.get("token")
                or request.cookies.get("sleuth_token") or "")

    def same(a: str, b: str) -> bool:
        return hmac.compare_digest(a.encode("utf-8", "replace"), b.encode("utf-8", "replace"))

    def suffix() -> str:
        """The query that carries the token on the page's own links."""
        return f"?token={token}" if token_required else ""

    async def guard(request: Request, call_next):
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].lower()
        if loopback and host not in LOOPBACK_HOSTS:
            return PlainTextResponse("refused: this server answers only on its own address",
                                     status_code=403)
        if token_required and not same(given_token(request), token):
            return PlainTextResponse("refused: the URL's token is missing or wrong (open the "
                                     "URL that 'sleuth serve' printed)", status_code=403)
        response = await call_next(request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; manifest-src 'self'; frame-ancestors 'none'; "
            "form-action 'self'; base-uri 'none'")
        return response

    def new_form(form: dict | None = None, error: str | None = None, code: int = 200):
        f = {k: (form or {}).get(k, "") for k in
             ("game", "players", "me", "dealer", "variant", "extra")}
        games = game_choices()
        f["game"] = f["game"] or games[0]["name"]       # the first registered game
        f["me"] = f["me"] or (as_name if form is None and as_name else "")
        body = env.get_template("new.html").render(
            games=games, f=f, error=error, token=token, suffix=suffix(),
            path=Path(path).name, started=code == 409)
        return HTMLResponse(body, status_code=code)

    async def page(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            resp = new_form()
            if token_required:
                resp.set_cookie("sleuth_token", token, httponly=True, samesite="strict")
            return resp
        # the status of this page's own last post (its redirect's id), never the last
        # status of the server (another device's)
        done = request.query_params.get("done", "")[:32]
        return await whole_page(engine, engine.done.get(done, "") if done else "")

    async def whole_page(engine: Engine, status: str, line: str = "", code: int = 200,
                         refused: bool = False, fixes: list[str] | None = None) -> Response:
        """The page for the record now; ``line``: the Statement box's text (a refused form
        post keeps what was typed; ``fixes``: its corrections, each a form of its own).  The entry form carries the version its live part
        shows (its ``data-version``, which the script reads too): posted without the
        script, a change decided on it is refused once the record has moved on."""
        html = await run_in_threadpool(engine.live_html, env, None, token, True)
        if 'data-pending="yes"' in html:
            # the full analysis, started here: without JavaScript nothing else asks for it
            # (the page's own script asks for it too, and waits for this one)
            await run_in_threadpool(engine.analyze_later)
        shown = re.search(r'data-version="([^"]*)"', html)
        body = env.get_template("page.html").render(
            live_html=html, token=token, suffix=suffix(), status=status, line=line,
            refused=refused, fixes=fixes or [], version=shown.group(1) if shown else "",
            example=example(engine.session), record=record_key(path),
            title=engine.session.game.title or engine.session.record.game,
            path=Path(path).name)
        resp = HTMLResponse(body, status_code=code)
        if token_required:
            resp.set_cookie("sleuth_token", token, httponly=True, samesite="strict")
        return resp

    async def live_part(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        whatif = request.query_params.get("whatif")
        quick = request.query_params.get("quick") == "1" and not whatif
        html = await run_in_threadpool(engine.live_html, env, whatif or None, token, quick)
        return HTMLResponse(html)

    async def version(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            return JSONResponse({"version": None})
        # with the statement held (a '# held:' line ending the record): for every device
        version, held = await run_in_threadpool(engine.version_held)
        return JSONResponse({"version": version, "held": held})

    async def partial(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        return JSONResponse(engine.partial())

    async def leads(request: Request) -> Response:
        # what the tap entry offers after the first part of a statement being built
        # (web.live.entry_after), on the record as it is now
        from web.live import entry_after

        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        snap = await run_in_threadpool(engine.snapshot)
        after = request.query_params.get("after", "")[:MAX_BODY]
        if isinstance(snap, str) or not after.strip():
            return JSONResponse({"leads": {}, "turn": None, "may_act": []})
        def compute() -> dict:
            with within(engine.timeout):    # the program's budget (its end: nothing more)
                return entry_after(snap, after)

        got = await run_in_threadpool(compute)
        return JSONResponse({**got, "version": text_version(snap.text)})

    async def hint(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        return JSONResponse(await run_in_threadpool(engine.hint))

    async def advice(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        return JSONResponse(await run_in_threadpool(engine.advice))

    async def sent(request: Request) -> Response:
        # what became of a change sent with its id (a page reloaded while it was on its way)
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        cid = request.query_params.get("id", "")[:64]
        if not cid:
            return JSONResponse({"error": "expected ?id=..."}, status_code=400)
        return JSONResponse(await run_in_threadpool(engine.sent.wait, cid, SENT_WAIT))

    async def do(request: Request) -> Response:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        body = await request.body()
        if len(body) > MAX_BODY:
            return PlainTextResponse("refused: too long for one statement", status_code=413)
        if ctype == "application/json":
            if not same(request.headers.get("x-sleuth-token", ""), token):
                return PlainTextResponse("refused: a change carries the page's token",
                                         status_code=403)
            try:
                data = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                return JSONResponse({"error": "expected JSON"}, status_code=400)
            if not isinstance(data, dict) or not isinstance(data.get("line", ""), str) \
                    or not isinstance(data.get("version"), (str, type(None))) \
                    or not isinstance(data.get("typed_on"), (str, type(None))):
                return JSONResponse({"error": "expected {\"line\": ..., \"version\": ...}"},
                                    status_code=400)
            line, expect, as_form = data.get("line", ""), data.get("version"), False
            typed_on = data.get("typed_on")
            cid = data.get("id") if isinstance(data.get("id"), str) else None
            cid = cid[:64] if cid else None
            sent_on = data.get("sent_on") if isinstance(data.get("sent_on"), str) else None
            cmd = typed = ""
        elif ctype == "application/x-www-form-urlencoded":
            from urllib.parse import parse_qs

            try:
                pairs = parse_qs(body.decode("utf-8"), keep_blank_values=True)
            except UnicodeDecodeError:
                return PlainTextResponse("expected UTF-8 form fields", status_code=400)
            form = {k: v[0] for k, v in pairs.items()}
            field = form.get("token")
            if not isinstance(field, str) or not same(field, token):
                return PlainTextResponse("refused: a change carries the page's token",
                                         status_code=403)
            cmd = str(form.get("cmd") or "")
            line = typed = str(form.get("line") or "")
            if cmd in ("undo", "redo"):
                line = cmd
            elif cmd in ("why", "whatif"):
                line = f"{cmd} {line}"
            expect, as_form = str(form.get("version") or "") or None, True
            typed_on = cid = sent_on = None
        else:
            return PlainTextResponse("expected application/json or a form", status_code=415)
        engine = await run_in_threadpool(current)
        if engine is None:
            return no_game()
        result = await run_in_threadpool(engine.act, line, expect, typed_on, cid,
                                        sent_on)
        if as_form and result["kind"] == "refused" and cmd in ("log", "why", "whatif"):
            # the page again, the record as it is now, the refusal said and the text typed
            # in the box (a stale post: 409, nothing done)
            return await whole_page(engine, result["status"], typed, refused=True,
                                    code=409 if result.get("stale") else 200,
                                    fixes=list(result.get("fixes") or []))
        if as_form:
            # the page without JavaScript: its full analysis started now, and waited for a
            # moment (FORM_WAIT), so that the page it is sent to has the full sheet when
            # the analysis is quick, not a provisional one that only a reload replaces
            later = await run_in_threadpool(engine.analyze_later)
            if later is not None:
                await run_in_threadpool(later.join, FORM_WAIT)
            # a change's result, for the page it is sent to (a why or what if, not saved
            # and not shown without the script: none)
            done = engine.keep_done(result["status"]) if result.get("status") and \
                result["kind"] not in ("why", "whatif", "suggest") else ""
            there = suffix() + (("&" if suffix() else "?") + "done=" + done if done else "")
            return RedirectResponse("/" + there, status_code=303)
        return JSONResponse(result)

    async def new_game(request: Request) -> Response:
        """The New game form's POST: the header written (only where no record is yet), under
        the record's lock as every change; the token in the form (or the header)."""
        from urllib.parse import parse_qs

        body = await request.body()
        if len(body) > MAX_BODY:
            return PlainTextResponse("refused: too long for a header", status_code=413)
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/x-www-form-urlencoded":
            return PlainTextResponse("expected a form", status_code=415)
        try:
            pairs = parse_qs(body.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            return PlainTextResponse("expected UTF-8 form fields", status_code=400)
        form = {k: v[0] for k, v in pairs.items()}
        given = form.get("token") or request.headers.get("x-sleuth-token") or ""
        if not same(given, token):
            return PlainTextResponse("refused: a change carries the page's token",
                                     status_code=403)

        def create() -> tuple[str, int] | None:
            with made:
                if not no_game_yet(path):
                    return ("not started: a game was started on this record meanwhile "
                            "(another device or 'sleuth new'), so nothing was written; your "
                            "fields are kept below", 409)
                try:
                    start_game(path, form)
                except SleuthError as e:
                    return (f"refused: {e}", 400)
            return None

        refused = await run_in_threadpool(create)
        if refused is not None:
            return new_form(form, *refused)
        return RedirectResponse("/" + suffix(), status_code=303)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return PlainTextResponse("not found", status_code=404)
        # the service worker, served under /static/, may control the whole page ("/")
        headers = {"Service-Worker-Allowed": "/"} if name == "sw.js" else None
        return Response((STATIC / name).read_bytes(), media_type=ASSETS[name], headers=headers)

    async def manifest(request: Request) -> Response:
        engine = await run_in_threadpool(current)
        t = "new game" if engine is None else (engine.session.game.title
                                                or engine.session.record.game)
        data = {"name": f"cardsleuth: {t}", "short_name": "sleuth",
                "start_url": "/" + suffix(), "scope": "/", "display": "standalone",
                "background_color": "#ffffff", "theme_color": "#1d4e89",
                "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
                          {"src": "/static/icon-192.png", "sizes": "192x192",
                           "type": "image/png"},
                          {"src": "/static/icon-512.png", "sizes": "512x512",
                           "type": "image/png"}]}
        return JSONResponse(data, media_type="application/manifest+json")

    routes = [Route("/", page), Route("/live", live_part), Route("/version", version),
              Route("/advice", advice), Route("/hint", hint),
              Route("/partial", partial), Route("/leads", leads),
              Route("/sent", sent), Route("/do", do, methods=["POST"]),
              Route("/new", new_game, methods=["POST"]),
              Route("/static/{name}", asset), Route("/manifest.webmanifest", manifest)]
    from starlette.middleware import Middleware
    from starlette.middleware.base import BaseHTTPMiddleware

    app = Starlette(routes=routes, middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)])
    app.state.engine = None
    current()
    return app
