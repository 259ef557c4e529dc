"""``sleuth serve`` on a record whose file name is not UTF-8 (``caf\\xe9 game.txt``, a
Latin-1 name): ``new``, ``log`` and ``play`` work on it, and the page used to answer 500
(the name, kept as a surrogate, could not be encoded). It is written ``\\xe9`` as the
terminal shows it."""
from __future__ import annotations

import os
import sys

import pytest

from solver.records import text_version
from tests.test_serve_app import TOKEN, client

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="byte file names")


def test_a_file_name_not_utf8_is_shown_and_its_errors_too(tmp_path):
    path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/caf\xe9 game.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("game: clue\nplayers: Ana Ben Cleo\nme: Ana\n")
    c = client(path)
    for url in ("/", "/live", "/live?quick=1", "/version"):
        r = c.get(url)
        assert r.status_code == 200, url
    assert "caf\\xe9 game.txt" in c.get("/").text
    with open(path, encoding="utf-8") as f:
        v = text_version(f.read())
    r = c.post("/do", json={"line": "Zed: ?", "version": v}, headers={"X-Sleuth-Token": TOKEN})
    assert r.status_code == 200 and "caf\\xe9 game.txt:4:1:" in r.json()["status"]
    r = c.post("/do", json={"line": "Ben: ?", "version": v}, headers={"X-Sleuth-Token": TOKEN})
    assert r.json()["saved"]
