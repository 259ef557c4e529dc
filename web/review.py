"""The page of ``sleuth review --html``: ``web/templates/review.html``, rendered by the same
Jinja2 templates (autoescaped) as the page of ``sleuth serve``.  One self-contained file: no
script, style or font from anywhere, the chart inline SVG, the review's data embedded as JSON
that a browser's ``JSON.parse`` reads back (``embed_json``)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def curve_chart(rv, width: int = 640, height: int = 200) -> dict[str, Any] | None:
    """The uncertainty after every statement as the chart's coordinates (None: no figure):
    the polyline, one mark per reviewed turn (red where it has a mistake), the axes' corner."""
    pts = [(s, u) for s, u in rv.curve if u is not None]
    if not pts:
        return None
    xs = [s for s, _ in pts]
    ys = [u for _, u in pts]
    x0, x1 = min(xs), max(xs) or 1
    y1 = max(ys) or 1.0
    pad = 30

    def X(s: float) -> float:
        return pad + (width - 2 * pad) * (s - x0) / ((x1 - x0) or 1)

    def Y(u: float) -> float:
        return height - pad - (height - 2 * pad) * u / y1

    at = dict(pts)
    path = " ".join(f"{'M' if i == 0 else 'L'}{X(s):.1f},{Y(u):.1f}"
                    for i, (s, u) in enumerate(pts))
    marks = [{"x": f"{X(t.step):.1f}", "y": f"{Y(at[t.step]):.1f}",
              "colour": "#c0392b" if t.mistakes else "#2471a3", "title": t.taken}
             for t in rv.turns if t.step in at]
    return {"width": width, "height": height, "pad": pad, "path": path, "marks": marks,
            "label": f"{rv.measure or ''} (max {y1:.3g})"}


def _fig(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def review_html(rv) -> str:
    """One self-contained page: annotations, the sheet after each turn, the chart, the data."""
    turns = [{"line": t.line, "taken": t.taken, "best": t.best,
              "kind": "mistake" if t.mistakes else ("best" if t.taken == t.best else "ok"),
              "best_score": _fig(t.best_score), "best_info": _fig(t.best_info),
              "taken_score": _fig(t.taken_score), "taken_info": _fig(t.taken_info),
              "taken_leak": _fig(t.taken_leak), "mistakes": t.mistakes,
              "sheet": [(str(k), str(v)) for k, v in sorted(t.sheet.items())]}
             for t in rv.turns]
    fs = rv.first_safe
    safe = (f"Step {fs.get('step')} (line {fs.get('line')}): {fs.get('what')}" if fs
            else "never")
    return environment().get_template("review.html").render(
        view=rv.view, game=rv.game, safe=safe, chart=curve_chart(rv), turns=turns,
        notes=rv.notes, data=embed_json(rv.to_json()))
