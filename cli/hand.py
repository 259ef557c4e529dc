"""``sleuth hand ...``: meld checks, the best meld, table moves, redeal, scoresheets
(docs/rules/hand-rummy.md).  Formatting only; the rules live in :mod:`solver.hand`."""
from __future__ import annotations

import textwrap
from collections import Counter
from typing import cast

import click
from tabulate import tabulate

from cli.commands import split_variants
from cli.main import FilePath, cli, echo_sheet, emit_json, handle_errors
from solver.cards import Card, parse_cards
from solver.errors import NotationError
import solver.hand as _hand      # lazy: the meld optimiser loads OR-Tools on first use
from solver.hand.options import HandOptions, option_table
from solver.records import read_record


def _cards(cards) -> str:
    return " ".join(repr(c) for c in cards)


def _options(variant) -> HandOptions:
    return cast(HandOptions, HandOptions.from_names(split_variants(variant, "hand")))


def _indicator(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


_VARIANTS_HELP = ("Variant options, comma-separated or repeated: " + ", ".join(
    f"{n}" + (f"={v.replace(' | ', '|')}" if "|" in v and v != "off | on" else "")
    for n, v, _, _ in option_table()) + ".")


def common(fn):
    fn = click.option("--json", "as_json", is_flag=True, help="Machine output (JSON).")(fn)
    fn = click.option("--variant", "-v", multiple=True, metavar="OPTS", help=_VARIANTS_HELP)(fn)
    fn = click.option("--indicator", "-i", metavar="CARD",
                      help="The turned-up indicator (HR-7): decides the wilds (HR-8, HR-9). "
                           "Not with wild-mode=jokers-only.")(fn)
    return fn


@cli.group("hand")
def hand_group():
    """Hand (rummy): melds, the best opening, table moves, taking a discard, redeal, scoring.

    \b
    Cards: 10H QS AC Jk (two packs: a card may appear twice). Melds are
    separated by '|'; a run's written order is its layout, so 9C 10C AS reads
    the wild AS as JC and AS 9C 10C as 8C; declare with AS=8C.
    Rules: docs/rules/hand-rummy.md (HR-n; sleuth rules hand); docs/hand.md.

    \b
    Examples:
      sleuth hand check "7D AC 9D | 5S 5C AC" --indicator 7C
      sleuth hand best "AH 2H 3H 4H 5H 9H 9S 9D KC JD 4C 4S QS QD 8H" -i 7S
      sleuth hand moves --table "9C 10C AS" --hand "JC 7C 5D" -i QS
      sleuth hand take "7S 7D KH QH JH 2C 3C 9D" --discard 7H -i 5C
      sleuth hand redeal "5H 5H 9S 9S KD KD 2C 2C 3H 4H 6S 7S 8D 10C" -i 7C
      sleuth hand score samples/hand/full-hand-bonuses.txt
    """


# ------------------------------------------------------------------------------ check

@hand_group.command("check")
@click.argument("melds")
@common
@click.option("--to-beat", type=int, metavar="N",
              help="With initial-must-exceed: the last initial meld's value this round (HR-52).")
@handle_errors()
def check_cmd(melds, indicator, variant, as_json, to_beat):
    """Judge melds: valid or not (with the rule), kind, what the wild stands for, value,
    and whether together they open (initial-min, default 51, HR-19).

    \b
    Example:
      sleuth hand check "7D AC 9D | 5S 5C AC | QC KC Jk" --indicator 7C
      sleuth hand check "AD 2D 3D 4D 5D | 9H 9S 9D" -i 7H --variant initial-min=61
    """
    res = _hand.check(melds, _indicator(indicator), _options(variant), to_beat=to_beat)
    if as_json:
        emit_json(res.to_json())
        return
    rows = []
    for i, r in enumerate(res.reports, 1):
        other = ""
        if r.valid and len(r.readings) > 1:
            alt = [x for x in r.readings if x is not r.chosen]
            other = "; or " + ", ".join(" & ".join(f"{r.wild!r} = {c!r}" for c in x.wild_as)
                                        + f" ({x.value})" for x in alt if x.wild_as)
            other += " [declared]" if r.declared else " [better reading taken]"
        rows.append([i, _cards(r.cards), "yes" if r.valid else "no", r.kind or "-",
                     (r.wild_text() + other) or "-", r.value if r.valid else "-",
                     r.reason or ""])
    out = [res.regime.describe(),
           tabulate(rows, headers=["#", "cards", "valid", "kind", "wild stands for", "value",
                                   "reason"]),
           f"total {res.total}; " + ("opens" if res.opens else "does not open")
           + f" (initial meld needs {res.needed}, HR-19)"]
    echo_sheet("\n".join(out))


# ------------------------------------------------------------------------------ best

@hand_group.command("best")
@click.argument("cards")
@common
@click.option("--to-beat", type=int, metavar="N",
              help="With initial-must-exceed: the last initial meld's value this round (HR-52).")
@click.option("--first-turn", is_flag=True,
              help="This is the player's own first turn: no going out (HR-32, A3).")
@handle_errors()
def best_cmd(cards, indicator, variant, as_json, to_beat, first_turn):
    """The best initial meld of the cards held after the draw: the maximum-value disjoint
    melds leaving a card to discard (HR-30), proven optimal (CP-SAT); whether it opens;
    whether the player can go out, with which discard, as a Full Hand with which Egyptian
    bonuses (HR-40, HR-59).

    \b
    Example:
      sleuth hand best "AH 2H 3H 4H 5H 9H 9S 9D KC JD 4C 4S QS QD 8H" --indicator 7S
      sleuth hand best "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AC AC 5S" -i 7C \\
          --variant bonus-suit,bonus-two-wilds,bonus-wild-discard --json
    """
    res = _hand.best(parse_cards(cards), _indicator(indicator), _options(variant),
                    to_beat=to_beat, first_turn=first_turn)
    if as_json:
        emit_json(res.to_json())
        return
    out = [res.regime.describe()]
    b = res.best_initial
    if b is None:
        out.append("no valid meld in this hand")
    else:
        rows = [[_cards(m), r.kind, _wild(r), r.value] for m, r in zip(b.melds, b.readings)]
        out.append(tabulate(rows, headers=["best initial meld", "kind", "wild stands for",
                                           "value"]))
        out.append(f"value {b.value}: " + ("opens" if res.can_open else "does not open")
                   + f" (needs {res.needed}, HR-19); left: {_cards(b.left)}")
    if res.can_go_out:
        g = res.go_out
        assert g is not None    # can_go_out: a way out was found
        kind = "Full Hand" if res.full_hand else "going out"
        bonus = (f", bonuses {' + '.join(g.bonuses)} (x{g.multiplier}, HR-59)"
                 if res.full_hand and g.bonuses else "")
        out.append(f"can go out ({kind}{bonus}): discard {_cards(g.discards)}")
        out.append(tabulate([[_cards(m), r.kind, _wild(r)] for m, r in zip(g.melds, g.readings)],
                            headers=["going out", "kind", "wild stands for"]))
    else:
        out.append(f"cannot go out: {res.go_out_reason}")
    echo_sheet("\n".join(out))


def _wild(reading) -> str:
    return "+".join(repr(c) for c in reading.wild_as) or "-"


# ------------------------------------------------------------------------------ take

@hand_group.command("take")
@click.argument("cards")
@click.option("--discard", "-d", required=True, metavar="CARD",
              help="The top card of the discard pile, thrown by the player before you.")
@common
@click.option("--opened", is_flag=True,
              help="You have made your initial meld this round (HR-18, HR-19).")
@click.option("--table", "-t", metavar="MELDS",
              help="Melds on the table, '|'-separated in table order: for lay-offs after "
                   "opening (HR-23) and discard-layoff (HR-53).")
@click.option("--discarder-not-melded", is_flag=True,
              help="With discard-layoff: the discarder has no meld on the table (HR-53).")
@click.option("--to-beat", type=int, metavar="N",
              help="With initial-must-exceed: the last initial meld's value this round (HR-52).")
@click.option("--first-turn", is_flag=True, help="Your own first turn: no going out (HR-32).")
@handle_errors()
def take_cmd(cards, discard, indicator, variant, as_json, opened, table, discarder_not_melded,
             to_beat, first_turn):
    """May you take the discard (HR-29, HR-31, HR-53, HR-54; A4, A10)? If so, the best
    legal turn with it (new melds, whether they open, whether you go out, the discard),
    against drawing from the stock (the best the hand can do without it). A refusal names
    the rule. CARDS: your hand before the draw.

    \b
    Example:
      sleuth hand take "7S 7D KH QH JH 2C 3C 9D" --discard 7H -i 5C
      sleuth hand take "AS AD 5H 6H" -d AC -i 5C --opened --json
      sleuth hand take "5H 6H" -d 7H -i 5C --opened          # HR-30: refused
    """
    res = _hand.take(parse_cards(cards), Card.parse(discard), _indicator(indicator),
                     _options(variant), opened=opened, table=table,
                     discarder_melded=not discarder_not_melded, to_beat=to_beat,
                     first_turn=first_turn)
    if as_json:
        emit_json(res.to_json())
        return
    out = [res.regime.describe()]
    if not res.may_take:
        out.append(f"may not take {res.discard!r}: {res.reason}")
    else:
        w = res.with_discard
        out.append(f"may take {res.discard!r}" + (
            f" (as {w.taken_as!r}, HR-31)" if w.taken_as not in (None, res.discard)
            and not isinstance(w.taken_as, str) else ""))
        out.append(_turn_text("with the discard", w, res))
    out.append(_turn_text("from the stock", res.from_stock, res))
    out.append(f"better: {'take the discard' if res.better == 'discard' else 'draw from the stock'}")
    echo_sheet("\n".join(out))


def _turn_text(label: str, p, res) -> str:
    melds = " | ".join(_cards(m) for m in p.melds) or "no meld"
    bits = [f"{label}: {melds} (value {p.value}"
            + (", opens" if p.opens else "") + ")"]
    for i, cs in p.layoffs:
        bits.append(f"lay off {_cards(cs)} on table meld {i}")
    if p.goes_out:
        bits.append("goes out" + (f", discarding {p.discard!r}" if p.discard is not None
                                  else ", discarding the card drawn"))
    elif p.discard is not None:
        # ``left`` is what the melds leave, the discard among them: say what stays after it
        kept = list(p.left)
        if p.discard in kept:
            kept.remove(p.discard)
        bits.append(f"discard {p.discard!r}; " + (f"left {_cards(kept)}" if kept
                                                   else "nothing left"))
    elif p.left:
        bits.append(f"left {_cards(p.left)} and the card drawn")
    return "; ".join(bits)


# ------------------------------------------------------------------------------ moves

@hand_group.command("moves")
@click.option("--table", "-t", required=True, metavar="MELDS",
              help="Melds on the table, '|'-separated, in table order (a wild keeps its "
                   "place, HR-25; or declare it: AS=JC).")
@click.option("--hand", "hand_", required=True, metavar="CARDS", help="The mover's cards.")
@common
@click.option("--play", "plays", multiple=True, metavar="'N: CARDS'",
              help="Put hand cards into table meld N (repeatable, in order): a swap if they "
                   "are what its wild stands for, else a lay-off. Refused with the rule if "
                   "illegal (exit 2).")
@click.option("--not-melded", is_flag=True,
              help="The mover has not made the initial meld (HR-18).")
@click.option("--going-out", is_flag=True,
              help="The mover goes out this turn (HR-21, HR-26a).")
@click.option("--one-card", is_flag=True,
              help="After this turn's discard some player holds one card (HR-26b, A5).")
@handle_errors()
def moves_cmd(table, hand_, indicator, variant, as_json, plays, not_melded, going_out,
              one_card):
    """Legal lay-offs (HR-23, HR-26, HR-56) and wild swaps (HR-24, HR-55, A17) of a hand on
    the table, and the tempting moves the rules refuse (HR-25: melds are never
    rearranged; HR-26: no single natural onto a 2 + wild group).

    \b
    Example:
      sleuth hand moves --table "9C 10C AS | 8C 8H AS" --hand "JC 7C 8S 5D" -i QS
      sleuth hand moves -t "9C 10C AS" --hand "JC 7C 5D" -i QS --play "1: JC" --play "1: AS 7C"
    """
    res = _hand.moves(table, parse_cards(hand_), _indicator(indicator), _options(variant),
                     melded=not not_melded, going_out=going_out, one_card=one_card,
                     plays=plays)
    if as_json:
        emit_json(res.to_json())
        return
    out = [res.regime.describe()]
    for m in res.played:
        extra = f", {m.take!r} to hand" if m.take is not None else ""
        out.append(f"played {m.kind} {m.cards_text()} on meld {m.meld}{extra} -> "
                   f"{_cards(m.result)} ({m.rule})")
    out.append(tabulate([[i, m.text(), _wild(m.reading)] for i, m in enumerate(res.table, 1)],
                        headers=["#", "table", "wild stands for"]))
    out.append(f"hand: {_cards(res.hand)}")
    if res.note:
        out.append(res.note)
    rows = []
    for m in res.moves:
        what = m.cards_text() + (f" for {m.take!r}" if m.take is not None else "")
        then = "; ".join(f"{t.cards_text()} on {t.meld}" + (
            " (" + " ".join(f"{m.take!r}={c!r}" for c in t.new_wild_as) + ")"
            if t.new_wild_as else "")
            for t in m.then[:4]) + (" ..." if len(m.then) > 4 else "")
        rows.append([m.kind, m.meld, what, _cards(m.result), _wild(m.reading), m.rule, then])
    if rows:
        out.append(tabulate(rows, headers=["move", "meld", "cards", "result", "wild", "rule",
                                           "then (freed wild)"]))
    elif not res.note:
        out.append("no legal lay-off or swap")
    for b in res.blocked:
        rule = "" if b.rule in b.reason else f" ({b.rule})"
        out.append(f"refused: {_cards(b.cards)} on meld {b.meld}: {b.reason}{rule}")
    echo_sheet("\n".join(out))


# ------------------------------------------------------------------------------ redeal

@hand_group.command("redeal")
@click.argument("cards")
@common
@handle_errors()
def redeal_cmd(cards, indicator, variant, as_json):
    """May this dealt hand demand a redeal (HR-10)? Four identical pairs, three pairs and a
    wild, or two pairs and both jokers.

    \b
    Example:
      sleuth hand redeal "5H 5H 9S 9S KD KD 2C 3H 4H 6S 7S 8D 10C AC" --indicator 7C
    """
    res = _hand.redeal(parse_cards(cards), _indicator(indicator), _options(variant))
    if as_json:
        emit_json(res.to_json())
        return
    verdict = f"redeal allowed ({res.condition})" if res.allowed else "no redeal"
    echo_sheet(f"{res.regime.describe()}\n{verdict}: {res.reason}")


# ------------------------------------------------------------------------------ score

@hand_group.command("score")
@click.argument("record", type=FilePath())
@click.option("--json", "as_json", is_flag=True, help="Machine output (JSON).")
@handle_errors()
def score_cmd(record, as_json):
    """Total a scoresheet record over the seven rounds (five with rounds=5; HR-36..HR-45):
    round scores, running totals, unscored deals, the last round's three deals (HR-43), ties
    (HR-44), teams (HR-42), stock-end=penalties rounds, and who deals next.

    \b
    A record (docs/hand.md):
      game: hand
      variant: bonus-wild-discard, bonus-colour
      players: Ana Ben Cleo
      dealer: Cleo
      round 1: Ana out full-hand wild-discard; Ben 45, Cleo no-meld
      round 2: unscored redeal Ben
      round 2: Ben out partial; Ana 12, Cleo 30

    \b
    Example:
      sleuth hand score samples/hand/full-hand-bonuses.txt
      sleuth hand score samples/hand/team-game.txt --json
    """
    rec = read_record(record)
    if rec.game != "hand":
        raise NotationError("not a Hand scoresheet (game: hand)", text=rec.game)
    sheet = _hand.score_sheet(rec)
    if as_json:
        emit_json(sheet.to_json())
    else:
        click.echo(render_analysis(sheet))


def render_analysis(sheet) -> str:
    """A round record: what the others hold; a scoresheet: one row per deal, totals,
    standings, what comes next."""
    from solver.hand.analysis import RoundAnalysis

    if isinstance(sheet, RoundAnalysis):
        return render_round(sheet)
    sides = sheet.sides
    rows, notes = [], []
    last = None
    for d in sheet.deals:
        rnd = str(d.number) if d.deal == 1 else f"{d.number}, deal {d.deal}"
        if d.scored:
            res = "stock: penalties (HR-57)" if d.kind == "stock" else \
                f"{d.winner} {d.kind}" + (f" {'+'.join(d.bonuses)} x{d.multiplier}"
                                          if d.bonuses else "")
            rows.append([rnd, d.dealer, res] + [f"{d.side_scores[s]:+d}" for s in sides])
            last = d
        else:           # the reason below the table, so that the columns stay narrow
            notes.append(d.note)
            rows.append([rnd, d.dealer, f"unscored ({len(notes)})"] + ["" for _ in sides])
    if last is not None:
        rows.append(["total", "", ""] + [str(last.totals[s]) for s in sides])
    head = ["round", "dealer", "result"] + sides
    out = []
    if sheet.teams:
        out.append("teams: " + " vs ".join("+".join(t) for t in sheet.teams) + " (HR-42)")
    out.append(tabulate(rows, headers=head, disable_numparse=True,
                        colalign=["left", "left", "left"] + ["right"] * len(sides))
               if rows else "no deals yet")
    out += textwrap.wrap("; ".join(f"({i}) {n}" for i, n in enumerate(notes, 1)), 79,
                         break_on_hyphens=False) if notes else []
    out.append(tabulate([[r, s, t] for r, s, t in sheet.standings()],
                        headers=["rank", "player" if not sheet.teams else "team", "total"]))
    if sheet.status == "over":
        out.append(f"game over: {sheet.winner} wins with the lowest total "
                   f"after {sheet.rounds_scored} scored rounds (HR-41)")
    elif sheet.status == "tie-break":
        out.append(f"tied for lowest: round {sheet.next_round} is a tie-break (HR-44); "
                   f"{sheet.next_dealer} deals")
    else:
        out.append(f"{sheet.rounds_scored} of {sheet.options.rounds} rounds scored; round "
                   f"{sheet.next_round}: {sheet.next_dealer} deals")
    if sheet.note:
        out.append(sheet.note)
    return "\n".join(out)


def _hand_cells(s, p: str) -> tuple[str, int]:
    """``p``'s "known to hold" and "unknown" cells.  Over the courses of turns not seen
    (``s.branches``) the cards known in every course, then ``n of: ...`` the cards known in
    only some (``13-14 of``: the most and fewest of them held in one course), and the most
    unknown cards any course has: the count the unseen line gives the hand."""
    st = s.players[p]
    if not s.branches:
        return _cards(st.hand()) or "-", st.unknown
    hands = [b.players[p] for b in s.branches]
    some: Counter = Counter()
    for h in hands:
        some |= h.known
    maybe = some - st.known
    cells = [_cards(st.hand())]
    if maybe:
        n = sorted({sum((h.known - st.known).values()) for h in hands})
        span = f"{n[0]}" if n[0] == n[-1] else f"{n[0]}-{n[-1]}"
        cells.append(f"{span} of: " + _cards(sorted(maybe.elements(), key=repr)))
    return "; ".join(c for c in cells if c) or "-", max(h.unknown for h in hands)


def render_round(a) -> str:
    """The round from the view: table, hands (known cards), unseen cards and where they can
    be, and the chance the next player can take each card the view could discard."""
    s = a.state
    out = [f"{a.view or 'spectator'}'s view; " + (
        s.regime.describe() if s.regime else
        f"no indicator yet: {' '.join(map(repr, s.turned))} turned up and put back into the "
        "stock (HR-7)" if s.turned else "no indicator yet (HR-7)")]
    if s.over == "out":
        out.append(f"{s.winner} went out ({s.kind})")
    elif s.over:
        out.append(f"round over: {s.over}")
    else:
        out.append(f"{s.current or s.starter} to play; stock {s.stock}; discard pile top: "
                   + (repr(s.top()) if s.top() is not None else "empty"))
    if any(repr(c) == "?" for c in s.pile):
        # the discards not seen lie in the pile face down: where, bottom to top
        out += textwrap.wrap("discard pile (bottom to top): " + " ".join(map(repr, s.pile)),
                             79, subsequent_indent="  ")
    if s.table:
        out.append(tabulate([[i, e.owner, e.text()] for i, e in enumerate(s.table, 1)],
                            headers=["#", "meld of", "table"]))
    rows = []
    for p, st in s.players.items():
        known, unknown = _hand_cells(s, p)
        rows.append([p, st.count, known, unknown, "yes" if st.opened else "no"])
    out.append(tabulate(rows, headers=["player", "cards", "known to hold", "unknown",
                                       "opened"]))
    if a.lossy_note:
        out += textwrap.wrap(f"note: {a.lossy_note}", 79, subsequent_indent="  ")
    places = [k for k, v in a.slots.items() if v]
    unseen = sorted((c for c, n in a.unseen.items() if n > 0), key=Card.sort_key)
    if unseen:
        # in card order (suits as on the sheet, then ranks), wrapped to 80 columns
        out += textwrap.wrap(
            f"unseen ({sum(a.unseen[c] for c in unseen)} cards, somewhere in "
            + ", ".join(f"{k} ({a.slots[k]})" for k in places) + "): "
            + " ".join(repr(c) + ("x2" if a.unseen[c] > 1 else "") for c in unseen),
            79, subsequent_indent="  ", break_on_hyphens=False)
    if a.chances:
        ranked = sorted(a.chances.items(), key=lambda kv: (kv[1].p, kv[0]))
        rows = [[c, t.player, f"{t.p:.3f}", "exact" if t.exact else
                 f"estimate (at most {t.upper:.3f})"] for c, t in ranked]
        out.append(tabulate(rows, headers=["discard", "next", "may take it", "figure"]))
        # the reasons under the table, each once (most are the same for every card)
        notes = list(dict.fromkeys(t.note for _c, t in ranked if t.note))
        for note in notes:
            cards = [repr(c) for c, t in ranked if t.note == note]
            which = "" if len(cards) == len(ranked) else f" ({' '.join(cards)})"
            out += textwrap.wrap(f"why{which}: {note}", 79, subsequent_indent="  ")
    return "\n".join(out)


def replay_columns(s) -> tuple[list[str], list]:
    """``sleuth replay``: the headers and cells of one step: a round's stock and the cards
    the other players are known to hold (taken discards not melded, wilds won by swaps;
    nothing when none is, and the replay leaves the column out when it never says
    anything)."""
    sm = s.summary
    if "stock" in sm:
        return ["stock", "others hold"], [sm["stock"], "; ".join(
            f"{p} {' '.join(cs)}" for p, cs in sm.get("known", {}).items())]
    return ["totals", "leading"], [", ".join(f"{p} {t}" for p, t in sm.get("totals", {}).items()),
                                   ", ".join(sm.get("leaders", []))]


#: where a copy of a card can be, in words (a player's name: held by them)
_PLACES = {"table": "on the table", "discards": "in the discards", "stock": "in the stock",
           "indicator": "turned as the indicator"}
_HOW_MANY = {1: "one", 2: "two", 3: "three", 4: "four"}


def certain_text(card: str, where: str) -> str:
    """``sleuth replay``: a certain card and the place of each of its copies (``where``
    names a place per copy, ``"discards, table"``), in words: ``JH: both on the table``,
    ``8H: one in the discards, one on the table``."""
    copies = Counter(p for p in where.split(", ") if p)
    def place(p: str) -> str:
        return _PLACES.get(p, f"held by {p}")
    if len(copies) == 1:
        (p, n), = copies.items()
        many = "" if n == 1 else "both " if n == 2 else f"all {_HOW_MANY.get(n, n)} "
        return f"{card}: {many}{place(p)}"
    return f"{card}: " + ", ".join(f"{_HOW_MANY.get(n, n)} {place(p)}"
                                   for p, n in copies.items())


def render_change(before, after) -> list[str]:
    """``whatif``: the headline difference between two Knowledge."""
    if "stock" in after.summary:
        new = sorted(set(after.certain) - set(before.certain))
        return [f"stock {after.summary['stock']}; newly certain: " + (" ".join(new) or "none")]
    return ["totals: " + ", ".join(f"{k} {v}" for k, v in after.summary["totals"].items())]
