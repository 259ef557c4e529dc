"""``POST /do`` sent again with its id (``web/app.py`` Sent) by a server started again since,
which forgot the id: the first send saved it and its answer was lost, so the record gained
that same statement after the version it was first sent on (``sent_on``) -- answered as a
repeat, not saved twice. A new id, or the same text typed anew, is a new statement."""
from __future__ import annotations

import pytest

from tests.test_serve_app import TOKEN, client, copy, version_of

pytest.importorskip("starlette")

LINE = "turn: Ana"          # a statement the record takes twice in a row


def post(c, line: str, version: str, cid: str, sent_on: str | None = None):
    body = {"line": line, "version": version, "typed_on": version, "id": cid}
    if sent_on is not None:
        body["sent_on"] = sent_on
    r = c.post("/do", json=body, headers={"X-Sleuth-Token": TOKEN})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_change_sent_again_after_a_restart_is_answered_as_saved_not_saved_twice(tmp_path):
    path = copy(tmp_path)
    v0 = version_of(path)
    before = path.read_text(encoding="utf-8").splitlines()
    first = post(client(path), LINE, v0, "id-1")            # saved; its answer "lost"
    assert first["saved"] and first["status"].startswith("logged line 37: turn: Ana")
    v1 = version_of(path)
    again = client(path)                                    # started again: no Sent memory
    d = post(again, LINE, v1, "id-1", sent_on=v0)
    assert d["saved"] and d["repeat"], d
    assert d["status"] == "logged line 37: turn: Ana", d
    assert d["version"] == v1
    assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]
    # what this server answered is its answer now
    assert again.get("/sent?id=id-1").json()["state"] == "done"
    # the same text typed anew (a new id): a new statement, saved
    d = post(again, LINE, v1, "id-2")
    assert d["saved"] and not d.get("repeat"), d
    assert path.read_text(encoding="utf-8").splitlines() == before + [LINE, LINE]


def test_only_a_statement_added_after_the_version_it_was_first_sent_on_counts(tmp_path):
    path = copy(tmp_path)
    post(client(path), LINE, version_of(path), "id-1")
    v1 = version_of(path)
    before = path.read_text(encoding="utf-8").splitlines()
    # first sent on the version that already had it (the first send never reached a
    # server): the line is older than the send, so this one is a second statement
    d = post(client(path), LINE, v1, "id-2", sent_on=v1)
    assert d["saved"] and not d.get("repeat"), d
    assert path.read_text(encoding="utf-8").splitlines() == before + [LINE]

