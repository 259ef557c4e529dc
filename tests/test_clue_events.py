"""Clue notation (record-format.md, "Clue events"): every form the contract shows, the
aliases of CL-1, custom card lists (CL-12), the variants' forms, and the refusals."""
from __future__ import annotations

import pytest

from solver.clue.events import Accuse, Answer, Suggest, Unseen, parse_event
from solver.errors import NotationError, RuleError
from solver.records import Header, parse_record, write_record

H = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"), dealer="Dev")
ALL = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"), dealer="Dev",
             variant=("refute=all",))

CONTRACT = """game: clue
players: Ana Ben Cleo Dev
dealer: Dev                                # Ana plays first (CL-3)
me: Ana
Ana holds: Scarlet Rope Kitchen Hall Study
Ana suggests Plum Knife Library: Ben passes, Cleo shows Knife   # the suggester saw the card
Ben suggests Plum Rope Lounge: Cleo passes, Dev passes, Ana shows Rope
Cleo suggests Mustard Pipe Ballroom: Dev shows    # a card the recorder did not see
Dev suggests White Pipe Conservatory: nobody      # every other player passed
Dev accuses Green Wrench Study: wrong             # Dev is out, still refutes (CL-9)
Ben suggests Green Candlestick Lounge: ?          # the refutation was not seen
Cleo: ?                                           # a turn not seen (any suggestion, any refutation)
"""


def test_the_contract_example_reads_and_writes_back():
    rec = parse_record(CONTRACT)
    evs = [s.event for s in rec.statements]
    assert evs[1] == Suggest("Ana", ("Plum", "Knife", "Library"),
                             (Answer("Ben", False), Answer("Cleo", True, "Knife")))
    assert evs[3].answers == (Answer("Dev", True, None),)
    assert evs[4].answers == (Answer("Ana", False), Answer("Ben", False), Answer("Cleo", False))
    assert evs[5] == Accuse("Dev", ("Green", "Wrench", "Study"), False)
    assert evs[6].answers is None and evs[7] == Unseen("Cleo")
    again = parse_record(write_record(rec))
    assert [s.event for s in again.statements] == evs
    from solver.games import get_game

    get_game("clue").analyze(rec, "Ana")        # a record with '?' is valid for analysis


@pytest.mark.parametrize("text,written", [
    ("ana SUGGESTS miss_scarlett dagger diningroom: cleo shows dagger",
     "Ana suggests Scarlet Knife Dining: Ben passes, Cleo shows Knife"),
    ("Ben suggests ColonelMustard LeadPipe BallRoom: Cleo passes, Dev shows",
     "Ben suggests Mustard Pipe Ballroom: Cleo passes, Dev shows"),
    ("Cleo suggests ProfessorPlum Spanner BilliardRoom: Dev passes, Ana passes, Ben passes",
     "Cleo suggests Plum Wrench Billiard: nobody"),
    ("Dev accuses ReverendGreen Rope Study: RIGHT", "Dev accuses Green Rope Study: right"),
    ("faceup: Plum Knife", "faceup: Plum Knife"),
])
def test_aliases_and_canonical_form(text, written):
    ev = parse_event(text, H)
    assert str(ev) == written and parse_event(written, H) == ev


@pytest.mark.parametrize("text,msg", [
    ("Ana suggests Knife Plum Library: nobody", "expected a suspect here"),
    ("Ana suggests Plum Knife: nobody", "three cards"),
    ("Ana suggests Plum Knife Attic: nobody", "not a card of this game"),
    ("Ana suggests Plum Knife Library: Cleo passes, Ben shows Knife", "clockwise"),
    ("Ana suggests Plum Knife Library: Ben shows Knife, Cleo passes", "ends the refutation"),
    ("Ana suggests Plum Knife Library: Ben shows Rope", "one of the three"),
    ("Ana suggests Plum Knife Library: Ana shows Knife", "its own suggestion"),
    ("Ana suggests Plum Knife Library: Ben passes", "every pass"),
    ("Ana suggests Plum Knife Library: Ben passes Knife", "shows no card"),
    ("Ana accuses Plum Knife Library: maybe", "'right' or 'wrong'"),
    ("Ana ponders", "not a Clue statement"),
])
def test_refusals(text, msg):
    with pytest.raises(NotationError, match=msg):
        parse_event(text, H)


def test_refute_all_lists_every_other_player():
    ev = parse_event("Ana suggests Plum Knife Library: Ben shows Plum, Cleo passes, "
                     "Dev shows", ALL)
    assert [a.shows for a in ev.answers] == [True, False, True]
    assert parse_event(str(ev), ALL) == ev
    with pytest.raises(NotationError, match="Dev missing"):
        parse_event("Ana suggests Plum Knife Library: Ben shows Plum, Cleo passes", ALL)


def test_custom_card_lists():
    rec = parse_record("""game: clue
players: Ana Ben Cleo
suspects: Butler Maid Cook
weapons: Poison Candlestick
rooms: Cellar Attic Garden
Ana holds: Butler Poison
Ben suggests Maid Candlestick Attic: Cleo passes, Ana passes
""")
    from solver.clue.options import deck_of

    assert deck_of(rec.header).cards == ("Butler", "Maid", "Cook", "Poison", "Candlestick",
                                         "Cellar", "Attic", "Garden")
    assert str(rec.statements[1].event) == "Ben suggests Maid Candlestick Attic: nobody"
    with pytest.raises(NotationError, match="not a card"):
        parse_record(write_record(rec) + "Ana suggests Plum Poison Attic: ?\n")


@pytest.mark.parametrize("extra,msg", [
    ("Ana holds: Scarlet Rope Kitchen Hall\n", "holds 5 cards"),
    ("Ana holds: Scarlet Rope Kitchen Hall Study\nBen holds: Scarlet Knife Pipe Lounge "
     "Dining\n", "two places"),
    ("faceup: Plum Knife\n", "face up"),
    ("Dev accuses Green Wrench Study: wrong\nDev suggests Plum Knife Hall: ?\n", "CL-9"),
    ("Dev accuses Green Wrench Study: right\nAna: ?\n", "over"),
])
def test_rule_errors(extra, msg):
    with pytest.raises(RuleError, match=msg):
        parse_record("game: clue\nplayers: Ana Ben Cleo Dev\ndealer: Dev\n" + extra)


def test_hand_sizes_follow_the_dealer_and_the_variant():
    from solver.clue.inference import locations

    rec = parse_record("game: clue\nplayers: Ana Ben Cleo Dev Eli\ndealer: Cleo\n")
    assert locations(rec) == {"Ana": 4, "Ben": 3, "Cleo": 3, "Dev": 4, "Eli": 4,
                              "envelope": 3}
    rec = parse_record("game: clue\nvariant: leftovers=face-up\nplayers: Ana Ben Cleo Dev "
                       "Eli\n")
    assert locations(rec) == {"Ana": 3, "Ben": 3, "Cleo": 3, "Dev": 3, "Eli": 3,
                              "envelope": 3, "faceup": 3}


@pytest.mark.parametrize("line, read_as", [
    ("Ana suggests Colonel Mustard Wrench Billiard Room: Cleo shows",
     ("Mustard", "Wrench", "Billiard")),
    ("Ana suggests Professor Plum, Lead Pipe, Dining Room: Cleo shows Lead Pipe",
     ("Plum", "Pipe", "Dining")),
    ("Ana suggests Miss Scarlett Lead Pipe Ball Room: nobody", ("Scarlet", "Pipe", "Ballroom")),
    ("Ana suggests Plum Knife Library: Ben shows Knife", ("Plum", "Knife", "Library")),
])
def test_the_aliases_of_cl1_may_be_written_in_their_words(line, read_as):
    """CL-1 lists 'Colonel Mustard', 'Lead Pipe', 'Dining Room': typed so, each is one
    card (they were refused: 'expected three cards')."""
    from solver.clue.events import parse_event
    from solver.records import Header

    h = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"))
    ev = parse_event(line, h)
    assert ev.cards == read_as
    if "shows Lead Pipe" in line:
        assert ev.answers[-1].card == "Pipe"


def test_a_comma_separates_two_cards_of_a_multi_word_name():
    from solver.clue.events import parse_event
    from solver.errors import NotationError
    from solver.records import Header

    h = Header(game="clue", players=("Ana", "Ben", "Cleo", "Dev"))
    with pytest.raises(NotationError):
        parse_event("Ana holds: Lead, Pipe", h)
    assert parse_event("Ana holds: Lead Pipe, Rope", h).cards == ("Pipe", "Rope")


# ----- an error in a card list points at its own header line (CL-12) --------------------------
@pytest.mark.parametrize("text, where", [
    # an empty list: its header line, the column after the colon, quoted
    ("game: clue\nplayers: Ana Ben Cleo\nweapons: X Y\nrooms: P Q R\nsuspects:\n",
     "g.txt:5:10: 'suspects:' lists no card (CL-12): 'suspects:'"),
    # a card in two lists: its second copy, naming the first
    ("game: clue\nsuspects: A B\nweapons: X Y\nrooms: P Q A\nplayers: Ana Ben Cleo\n",
     "g.txt:4:12: a card is listed twice (first as A in 'suspects:' on line 2) (CL-12): 'A'"),
    # twice in one list: the second copy too
    ("game: clue\nplayers: Ana Ben Cleo\nweapons: X Y x\n",
     "g.txt:3:14: a card is listed twice (first as X earlier in 'weapons:') (CL-12): 'x'"),
    # a card of a standard list not replaced
    ("game: clue\nplayers: Ana Ben Cleo\nrooms: Kitchen, Hall, scarlet  # a typo\n",
     "g.txt:3:23: a card is listed twice (first as Scarlet among the standard suspects, "
     "CL-1) (CL-12): 'scarlet'"),
    # a word that is no card, a keyword: where it stands in its own line
    ("game: clue\nrooms: Hall 2x\nplayers: Ana Ben Cleo\n",
     "g.txt:2:13: a card is one word of letters (of any script), digits 0-9, '_' or '-', "
     "starting with a letter (CL-12): '2x'"),
    ("game: clue\nrooms: Hall Study\nweapons: Rope nobody\nplayers: Ana Ben Cleo\n",
     "g.txt:3:15: a card may not be called as a keyword (CL-12): 'nobody'"),
])
def test_a_card_list_error_is_placed_on_its_header_line(text, where):
    with pytest.raises(NotationError) as e:
        parse_record(text, "g.txt")
    assert str(e.value) == where
