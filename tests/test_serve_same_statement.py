"""``sleuth serve``: a statement refused as stale is said to be "logged first by another
device" only when another device added that statement after the page's statement was
typed. A line the page had already shown (a repeated suggestion, a second ``Ben: ?``) is
not another device's: it used to be, the box was emptied and the statement lost."""
from __future__ import annotations

from solver.records import text_version
from solver.session import appended
from tests.test_serve_app import TOKEN, client

CLUE = ("game: clue\nplayers: Ana Ben Cleo\nme: Ana\ndealer: Cleo\n"
        "Ana holds: Scarlet Plum Candlestick Ballroom Dining Library\n"
        "Ben suggests Plum Knife Library: Cleo shows\n")


def post(c, line, version, typed_on):
    return c.post("/do", json={"line": line, "version": version, "typed_on": typed_on},
                  headers={"X-Sleuth-Token": TOKEN}).json()


def lines(path):
    return [ln for ln in path.read_text(encoding="utf-8").splitlines()[5:] if ln.strip()]


def page_on(tmp_path):
    """The Clue record served and its page loaded: (path, client, the version shown)."""
    path = tmp_path / "clue.txt"
    path.write_text(CLUE, encoding="utf-8")
    c = client(path)
    c.get("/live")
    return path, c, version(path)


def version(path) -> str:
    return text_version(path.read_text(encoding="utf-8"))


def another_writer(path, c, *statements) -> str:
    """``statements`` logged by another writer (a terminal), and the page reloaded: the
    version it shows now."""
    for st in statements:
        path.write_text(appended(path.read_text(encoding="utf-8"), st), encoding="utf-8")
    c.get("/live")
    return version(path)


def test_a_line_the_page_showed_is_not_another_devices(tmp_path):
    path, c, shown = page_on(tmp_path)               # the page shows lines 1-6
    # another terminal logs a different statement meanwhile
    now = another_writer(path, c, "Cleo suggests Green Rope Study: Ana passes, Ben shows")
    d = post(c, "Ben suggests Plum Knife Library: Cleo shows", now, shown)
    assert d["saved"], d["status"]                   # the same suggestion again: a new line
    assert not d.get("same_line")
    assert lines(path)[-1] == "Ben suggests Plum Knife Library: Cleo shows"


def test_the_same_statement_added_by_another_device_is_said(tmp_path):
    path, c, shown = page_on(tmp_path)
    line = "Cleo suggests Green Rope Study: Ana passes, Ben shows"
    now = another_writer(path, c, line)
    d = post(c, line, now, shown)
    assert not d["saved"] and d["same_line"] == 7
    assert "another device logged this same statement first (line 7)" in d["status"]
    # stale (the page still on the version it showed): the same answer
    d = post(c, line, shown, shown)
    assert not d["saved"] and d["same_line"] == 7


def test_the_pages_own_line_then_the_same_again_is_saved(tmp_path):
    """The page logs ``Cleo: ?`` (its own line), a terminal logs ``Ben suggests Scarlet Rope Hall: ?``, and the page
    logs ``Cleo: ?`` again on the version its own save returned: a new line, not a refusal
    naming the page's own line."""
    path, c, v0 = page_on(tmp_path)
    d = post(c, "Cleo: ?", v0, v0)
    assert d["saved"]
    mine = d["version"]
    now = another_writer(path, c, "Ben suggests Scarlet Rope Hall: ?", "Ben: ?")
    d = post(c, "Cleo: ?", now, mine)
    assert d["saved"], d["status"]
    assert lines(path)[-4:] == ["Cleo: ?", "Ben suggests Scarlet Rope Hall: ?", "Ben: ?",
                                 "Cleo: ?"]


def test_a_what_if_after_the_pages_own_change_does_not_say_the_disk_changed(tmp_path):
    path, c, v0 = page_on(tmp_path)
    d = post(c, "Cleo: ?", v0, v0)
    assert d["saved"]
    d = post(c, "whatif Ben suggests Scarlet Rope Hall: ?", d["version"], d["version"])
    assert d["kind"] == "whatif" and "changed on disk" not in d["status"], d["status"]
    # another writer's change is said
    path.write_text(appended(path.read_text(encoding="utf-8"), "Ben suggests Scarlet Rope Hall: ?"), encoding="utf-8")
    d = post(c, "whatif Ben: ?", d["version"], d["version"])
    assert "the record had changed on disk" in d["status"], d["status"]
