"""A typo's refusal never waits on slow rule checks of its corrections: past
``solver.session.CORRECTION_SECONDS`` the corrections are offered unchecked (a Twenty-Two
record following many unseen plays took about 20 s to refuse a typo, checking each)."""
from __future__ import annotations

import time

import pytest

from solver.errors import NotationError
from solver.session import checked_append

RECORD = ("game: mystery-hand\nplayers: Ana Ben Cleo Dev\ndealer: Dev\nme: Ana\n"
          "Ana holds: 5H 6S 2C 3C 4C 5C 7C 8C 9C 10C JC QC\n")


def test_a_slow_check_does_not_hold_the_refusal(monkeypatch):
    import solver.session as session

    real = session.parse_record
    calls = []

    def slow(text, path=None, validate=True, **kw):
        if validate and "Ana asks Ben" in text:         # a correction checked
            from solver.model.budget import check
            calls.append(text)
            t0 = time.monotonic()
            while time.monotonic() - t0 < 5:        # a rule check of many seconds
                check("a slow check")
                time.sleep(0.01)
        return real(text, path, validate=validate, **kw)

    monkeypatch.setattr(session, "CORRECTION_SECONDS", 0.3)
    monkeypatch.setattr(session, "parse_record", slow)
    t0 = time.monotonic()
    with pytest.raises(NotationError) as e:
        checked_append(RECORD, "Ana aks Ben 4H-7H: 0", "g.txt")
    assert time.monotonic() - t0 < 4, "the corrections' checks held the refusal"
    assert "Ana asks Ben 4H-7H: 0" in e.value.did_you_mean     # offered, unchecked


def test_a_correction_the_rules_refuse_is_not_offered_when_there_is_time():
    with pytest.raises(NotationError) as e:        # Ana holds all of 2C-5C: MH-11 refuses it
        checked_append(RECORD, "Ana aks Ben 2C-5C: 0", "g.txt")
    assert e.value.did_you_mean == []
