"""``sleuth review --html`` in a real browser (Debian's Chromium under Playwright): the data
embedded in ``<script type="application/json">`` parses with ``JSON.parse`` and equals the
review's JSON, even where its text holds ``</script>``, markup and character references."""
from __future__ import annotations

import json

from solver.advice import Review, TurnReview
from tests.serve_harness import PHONE, chromium, sleuth
from web.review import review_html

HOSTILE = "</script><img src=x onerror=\"window.fired=1\"> &amp; &lt;b&gt; <!-- \u2028"

READ = """() => {
  const el = document.getElementById('review-data');
  return {data: JSON.parse(el.textContent), imgs: document.images.length,
          fired: window.fired === 1, scripts: document.scripts.length,
          wide: document.documentElement.scrollWidth > window.innerWidth};
}"""


def _open(browser, path):
    page = browser.new_page(viewport=PHONE)
    page.goto(path.as_uri())
    return page, page.evaluate(READ)


def test_review_data_parses_in_chromium(tmp_path):
    out = tmp_path / "review.html"
    expected = json.loads(sleuth("review", "samples/literature/ex-a-six-players.txt",
                                 "--html", str(out), "--json").stdout)
    with chromium() as browser:
        page, got = _open(browser, out)
        assert got["data"] == expected
        assert not got["wide"]                      # no sideways scrolling at 360 px
        assert page.get_by_role("heading", name="Review of Ana's turns").count() == 1


def test_review_text_that_looks_like_markup_stays_data(tmp_path):
    turn = TurnReview(line=7, step=3, taken=f"Ana asks Ben {HOSTILE}", best="Ana asks Cleo 2*",
                      taken_score=0.5, best_score=0.75, taken_info=1.0, best_info=1.5,
                      taken_leak=0.25, mistakes=[HOSTILE], sheet={"AS": HOSTILE},
                      uncertainty=2.0)
    rv = Review("mystery-hand", "Ana", [turn], {"line": 7, "step": 3, "what": HOSTILE},
                "bits", [(1, 4.0), (3, 2.0)], notes=[HOSTILE])
    out = tmp_path / "review.html"
    out.write_text(review_html(rv))
    with chromium() as browser:
        page, got = _open(browser, out)
        assert got["data"] == json.loads(json.dumps(rv.to_json()))
        # the page's own two scripts (its data, the disclosures' state): none from the text
        assert got["imgs"] == 0 and not got["fired"] and got["scripts"] == 2
        # shown as text where the page prints it
        assert page.get_by_text(HOSTILE.split(" \u2028")[0], exact=False).count() >= 3


def test_a_missing_browser_fails_under_ci_and_skips_elsewhere(monkeypatch):
    """CI installs Chromium and Playwright (.ci/run): there a missing one is a failure,
    never a quiet skip; on a developer's machine the browser tests skip."""
    import pytest

    from tests import serve_harness

    monkeypatch.setattr(serve_harness, "CHROMIUM", "/nonexistent/chromium")
    for ci, outcome in (("true", pytest.fail.Exception), ("", pytest.skip.Exception)):
        monkeypatch.setenv("CI", ci)
        with pytest.raises(outcome, match="chromium"):
            with serve_harness.chromium():
                raise AssertionError("a browser started without its executable")


def test_review_page_names_its_sheets_and_their_rows(tmp_path):
    """Each sheet table has a name ('Sheet after line N'), its suits are column headers
    named in words and its ranks row headers (they were read as column headers)."""
    out = tmp_path / "review.html"
    sleuth("review", "samples/mystery-hand/five-players-ana.txt", "--html", str(out))
    with chromium() as browser:
        page, _ = _open(browser, out)
        for d in page.locator("details").all():
            d.evaluate("e => e.open = true")
        tables = page.get_by_role("table", name="Sheet after line", exact=False)
        assert tables.count() >= 1
        first = tables.first
        assert first.get_by_role("rowheader", name="A", exact=True).count() == 1
        assert first.get_by_role("columnheader", name="spades").count() == 1


def test_review_page_of_an_inconsistent_record_says_so(tmp_path):
    """The page of a record that contradicts itself says so first, with its lines, as the
    text (exit 3) and the JSON do; it read as an ordinary review."""
    rec = tmp_path / "contra.txt"
    lines = open("samples/clue/three-players.txt", encoding="utf-8").read().split("\n")[:14]
    rec.write_text("\n".join(lines) + "\nAna suggests Peacock Rope Kitchen: Ben passes, "
                   "Cleo shows Peacock\n", encoding="utf-8")
    out = tmp_path / "review.html"
    r = sleuth("review", str(rec), "--html", str(out), check=False)
    assert r.returncode == 3, r.stderr
    with chromium() as browser:
        page, _ = _open(browser, out)
        alert = page.get_by_role("alert").inner_text()
        assert alert.startswith("Inconsistent record:") and "line 15" in alert, alert


def test_review_page_fits_a_phone_with_long_card_names_and_readable_numbers(tmp_path):
    """A custom card's long name wraps (the page scrolled sideways at 360 px), the chart's
    numbers are at least 6 px high on a phone, and no two step numbers overlap."""
    rec = tmp_path / "long.txt"
    text = open("samples/clue/large-edition-custom-cards.txt", encoding="utf-8").read()
    rec.write_text(text.replace("Conservatory", "Conservatory_of_the_Grand_Eastern_Wing_Annex"),
                   encoding="utf-8")
    out = tmp_path / "review.html"
    sleuth("review", str(rec), "--html", str(out))
    with chromium() as browser:
        page, got = _open(browser, out)
        assert not got["wide"]
        boxes = page.evaluate("""() => [...document.querySelectorAll('#uncertainty text')]
            .map(t => t.getBoundingClientRect()).map(r => [r.left, r.right, r.top, r.height])""")
        assert boxes and min(h for *_, h in boxes) >= 6, boxes
        axis = sorted(b for b in boxes if abs(b[2] - max(x[2] for x in boxes[:-1])) < 1)
        assert all(a[1] <= b[0] for a, b in zip(axis, axis[1:])), axis


def test_review_sheets_open_as_named_buttons_that_say_whether_they_are_open(tmp_path):
    """Each turn's sheet opens from a button named by its line (role and name, as serve's
    disclosures), whose aria-expanded follows it; it was a summary no role query found."""
    out = tmp_path / "review.html"
    sleuth("review", "samples/mystery-hand/five-players-ana.txt", "--html", str(out))
    with chromium() as browser:
        page, _ = _open(browser, out)
        buttons = page.get_by_role("button", name="Sheet after line", exact=False)
        assert buttons.count() >= 1
        first = buttons.first
        line = first.inner_text().split("line ")[1].split(" ")[0]
        assert first.get_attribute("aria-expanded") == "false"
        table = page.get_by_role("table", name=f"Sheet after line {line}", exact=True)
        assert not table.is_visible()
        first.click()
        assert first.get_attribute("aria-expanded") == "true"
        assert table.is_visible()
        first.press("Enter")
        assert first.get_attribute("aria-expanded") == "false"
