"""The page of ``sleuth review --html``: ``web/templates/review.html``, rendered by the same
Jinja2 templates (autoescaped) as the page of ``sleuth serve``.  One self-contained file: no
script, style or font from anywhere, the chart inline SVG, the review's data embedded as JSON
that a browser's ``JSON.parse`` reads back (``embed_json``)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# a score within NEAR_ABS of the best, or NEAR_REL of it, is as good as the best: the
# review's one tolerance (``solver.advice``), also for the bits a question gave away
from solver.advice import NEAR_ABS, NEAR_REL

TEMPLATES = Path(__file__).resolve().parent / "templates"


def environment():
    """The Jinja2 environment over web/templates: every ``{{ }}`` HTML-escaped."""
    import jinja2                         # imported here: only the commands that render load it

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


def embed_json(data: Any) -> str:
    """``data`` as JSON for a ``<script type="application/json">`` element.  The element's text
    is raw (a browser decodes no character reference in it), so the JSON is not HTML-escaped;
    only ``<`` is written ``\\u003c`` (still the same JSON), so that no ``</script>`` or ``<!--``
    inside a string can end the element or change how the parser reads it.

    >>> embed_json({"a": "</script><b>&amp;"})
    '{"a": "\\\\u003c/script>\\\\u003cb>&amp;"}'
    >>> json.loads(embed_json({"a": "</script>"})) == {"a": "</script>"}
    True
    """
    return json.dumps(data).replace("<", "\\u003c")


def near_best(t) -> bool:
    """Whether the turn ``t`` (:class:`solver.advice.TurnReview`) scored within the
    tolerance of the advisor's best (or was the best).

    >>> from types import SimpleNamespace as T
    >>> near_best(T(taken="a", best="b", taken_score=0.005, best_score=0.012))
    True
    >>> near_best(T(taken="a", best="b", taken_score=1.2, best_score=1.7))
    False
    """
    if t.taken == t.best:
        return True
    if t.taken_score is None:
        return False
    gap = t.best_score - t.taken_score
    return gap <= max(NEAR_ABS, NEAR_REL * abs(t.best_score))


def kind_of(t) -> str:
    """``best``, ``near`` (within the tolerance of the best), ``mistake`` (below it, with a
    mistake noted) or ``ok``."""
    if t.taken == t.best:
        return "best"
    if near_best(t):
        return "near"
    return "mistake" if t.mistakes else "ok"


def ticks(top: float, n: int = 4) -> list[float]:
    """Round values from 0 to about ``top`` for an axis.

    >>> ticks(24.9), ticks(5), ticks(0.8)
    ([0, 10, 20], [0, 2, 4], [0.0, 0.2, 0.4, 0.6, 0.8])
    """
    import math

    if top <= 0:
        return [0]
    raw = top / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    out, v = [], 0.0
    while v <= top * (1 + 1e-9):
        out.append(round(v, 10) if step < 1 else int(round(v)))
        v += step
    return out


#: the chart's size in its own units, and its text's: drawn at a phone's 344 px the text
#: is about 7 px high (it was 640 units wide with 10-unit text: 5 px)
CHART_FONT = 13
#: the fewest units between two numbers on the step axis (the last one wins)
TICK_ROOM = 28


def curve_chart(rv, width: int = 480, height: int = 220) -> dict[str, Any] | None:
    """The uncertainty after every statement as the chart's coordinates (None: no figure):
    the polyline, one mark per reviewed turn (red where it has a mistake), the axes with
    their numbers (a number on the step axis too close to the next one left out)."""
    pts = [(s, u) for s, u in rv.curve if u is not None]
    if not pts:
        return None
    xs = [s for s, _ in pts]
    ys = [u for _, u in pts]
    x0, x1 = min(xs), max(xs) or 1
    y1 = max(ys) or 1.0
    pad = 40

    def X(s: float) -> float:
        return pad + (width - 2 * pad) * (s - x0) / ((x1 - x0) or 1)

    def Y(u: float) -> float:
        return height - pad - (height - 2 * pad) * u / y1

    at = dict(pts)
    path = " ".join(f"{'M' if i == 0 else 'L'}{X(s):.1f},{Y(u):.1f}"
                    for i, (s, u) in enumerate(pts))
    marks = [{"x": f"{X(t.step):.1f}", "y": f"{Y(at[t.step]):.1f}",
              "colour": "#c0392b" if kind_of(t) == "mistake" else "#2471a3",
              "title": f"line {t.line}: {t.taken}"}
             for t in rv.turns if t.step in at]
    y_ticks = [{"y": f"{Y(v):.1f}", "text": f"{v:g}"} for v in ticks(y1)]
    steps = sorted({x0, *[int(v) for v in ticks(x1) if x0 <= v <= x1], x1})
    kept = [steps[-1]]
    for v in reversed(steps[:-1]):      # from the last: the record's end is always named
        if X(kept[-1]) - X(v) >= TICK_ROOM:
            kept.append(v)
    x_ticks = [{"x": f"{X(v):.1f}", "text": str(v)} for v in reversed(kept)]
    return {"width": width, "height": height, "pad": pad, "path": path, "marks": marks,
            "label": rv.measure or "uncertainty", "y_ticks": y_ticks, "x_ticks": x_ticks,
            "font": CHART_FONT}


def sheet_grid(sheet: dict) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """What the view knew for certain after a turn as the 13 x 4 sheet: one row per rank
    (A..K), one column per suit (S H D C), each cell the card's holder or '' where it was
    not certain; the entries that are no plain card (jokers...) apart, as pairs."""
    from solver.cards import RANKS, SUITS

    grid = [[r] + ["" for _ in SUITS] for r in RANKS]
    rest = []
    for card, where in sorted(sheet.items(), key=lambda kv: str(kv[0])):
        text, holder = str(card), _plain(where)
        rank, suit = text[:-1], text[-1:]
        if rank in RANKS and suit in SUITS:
            grid[RANKS.index(rank)][1 + SUITS.index(suit)] = holder
        else:
            rest.append((text, holder))
    return grid, rest


def _plain(value) -> str:
    """A value as text without Python's brackets and quotes."""
    from solver.advice import said

    return said(value)


def _fig(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def review_html(rv, inconsistent: str | None = None) -> str:
    """One self-contained page: annotations, the sheet after each turn, the chart, the data;
    ``inconsistent``: what makes the record contradict itself (its lines), said first."""
    from solver.cards import SUITS

    turns = []
    for t in rv.turns:
        grid, rest = sheet_grid(t.sheet)
        turns.append({"line": t.line, "taken": t.taken, "best": t.best, "kind": kind_of(t),
                      "best_score": _fig(t.best_score), "best_info": _fig(t.best_info),
                      "taken_score": _fig(t.taken_score), "taken_info": _fig(t.taken_info),
                      "taken_leak": _fig(t.taken_leak), "mistakes": t.mistakes,
                      "grid": grid if any(any(r[1:]) for r in grid) else [], "rest": rest})
    fs = rv.first_safe
    safe = (f"Step {fs.get('step')} (line {fs.get('line')}): {_plain(fs.get('what'))}" if fs
            else "never")
    return environment().get_template("review.html").render(
        view=rv.view, game=rv.game, safe=safe, chart=curve_chart(rv), turns=turns,
        notes=rv.notes, suits=SUITS, near=f"{NEAR_ABS:g}", near_rel=f"{NEAR_REL:.0%}",
        suit_names=SUIT_NAMES, inconsistent=inconsistent, data=embed_json(rv.to_json()))


#: the suits as a screen reader names a column of the sheet
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
