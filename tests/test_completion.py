"""Tab completion offers what can follow, and only that (issue 14, item 4): after each
keyword of each game (``Keywords.follows``), checked against the games' own example
statements (every word of them is offered where it stands) and against the rules' forms
(``requests`` takes one card, MH-15; a ``holds:`` list takes cards, not ranges)."""
from __future__ import annotations

import re

import pytest

from solver.games import get_game
from solver.records import parse_record
from solver.session import complete, vocabulary

HEADERS = {
    "mystery-hand": "game: mystery-hand\nplayers: Ana Ben Cleo Dev Eli Fay Gus Hal\n"
                    "dealer: Hal\nme: Ana\n",
    "literature": "game: literature\nplayers: Ana Ben Cleo Dev Eli Fay\nme: Ana\n",
    "twenty-two": "game: twenty-two\nplayers: Ana Ben Cleo\nme: Ana\n",
    "hand": "game: hand\nplayers: Ana Ben Cleo\ndealer: Ben\nme: Ana\n",
    "mysterium": "game: mysterium\nplayers: Gus Ana Ben Cleo Dev\nghost: Gus\nme: Ana\n",
}


def _vocab(game: str):
    return vocabulary(parse_record(HEADERS[game], validate=False))


def _classes(v):
    return {"name": set(v.names), "card": set(v.cards), "range": set(v.ranges), "on": {"on"}}


@pytest.mark.parametrize("game", sorted(HEADERS))
def test_every_word_of_every_example_is_offered_where_it_stands(game):
    v = _vocab(game)
    known = set(v.names) | set(v.cards) | set(v.ranges) | set(v.words) | set(v.verbs) \
        | set(v.lead)
    checked = 0
    for example in get_game(game).examples:
        for m in re.finditer(r"[^\s,;:]+", example):
            word = m.group(0)
            if word not in known:
                continue
            offered = complete(v, example[: m.start()] + word[0])
            assert word in offered, (example, word, offered)
            checked += 1
    assert checked >= 10


# (game, what is typed, the class every offer must be in, a word that must not be offered)
ONLY = [
    ("mystery-hand", "Ana requests ", "card", "K*"),          # MH-15: one exact card
    ("mystery-hand", "Ana requests K", "card", "K*"),
    ("mystery-hand", "Ana holds: Q", "card", "Q*"),
    ("mystery-hand", "faceup: 3C ", "card", "3C-6C"),
    ("mystery-hand", "Ana asks Ben ", "range", "AS"),          # MH-9: a range or a rank
    ("mystery-hand", "Ana announces AS 2H ", "card", "A*"),    # MH-18: four cards
    ("literature", "Ana asks ", "name", "9C"),                 # LIT-6: one opponent...
    ("literature", "Ana asks Ben ", "card", "Ana"),            # ... for one card
    ("literature", "Cleo claims ", "range", "2H"),             # LIT-11: a half-suit
    ("literature", "Ana holds: 2", "card", "2H-7H"),
    ("twenty-two", "Ana holds: 2", "card", "Ana"),
    ("hand", "Ana discards J", "card", "Ana"),                 # HR-28: one card
    ("hand", "Ana holds: J", "card", "JS-AS"),
    ("hand", "Ana swaps 8D ", "on", "8D"),
    ("mysterium", "Cleo agrees with ", "name", "with"),
]


@pytest.mark.parametrize("game, typed, cls, never", ONLY)
def test_only_what_can_follow_is_offered(game, typed, cls, never):
    v = _vocab(game)
    offered = complete(v, typed)
    assert offered, typed
    assert never not in offered
    allowed = _classes(v)[cls] | {"?"}      # what the recorder did not see
    assert set(offered) <= allowed, set(offered) - allowed


def test_answers_offer_the_answer_words():
    v = _vocab("mystery-hand")
    assert complete(v, "Ana requests KS: n") == ["nobody"]
    assert complete(v, "Ben announces AS 2H 3D 4C: ") == ["right", "wrong"]
    assert "all" in complete(v, "Ana asks ")
    assert complete(_vocab("literature"), "Ana asks Ben 9C: ") == ["yes", "no", "surrendered",
                                                                  "?"]
    assert "Jk" in complete(_vocab("hand"), "Ana holds: J")       # HR-2: two jokers
    assert complete(_vocab("mysterium"), "Ana guesses ") == ["character", "location", "object"]
    assert complete(_vocab("mysterium"), "Ana guesses object 7: ") == ["right", "wrong"]
