"""docs/benchmarks.md from the measured results kept in ``benchmarks/results/``:
``python -m benchmarks.run --report`` (no measuring).

``targets.json``: the last measured figure of each target, with the command that measured
it, the commit and the date; ``run.json`` (written by a full ``python -m benchmarks.run``):
that run's own figures, as it printed them; ``waits.json`` (written by a full
``python -m benchmarks.waits``): issue 45's targets, this checkout side by side with an
older commit; ``missed.json``: why each of those still missed is missed.  The report says where the program stands now;
earlier figures are in the history of these files.
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
REPORT = ROOT / "docs" / "benchmarks.md"

COMMANDS = """\
python -m benchmarks.run                 # the full run with both baselines (20+ minutes); records results/run.json
python -m benchmarks.run --no-baselines  # latency, exactness, candidates only
python -m benchmarks.run --quick         # smoke run, 1-2 minutes (records nothing unless --results DIR)
python -m benchmarks.run --json out.json # also keep every measured state
python -m benchmarks.run --report        # this page, from benchmarks/results/ (measures nothing)
python -m benchmarks.waits --profile     # issue 45 (whole games, suggest, Literature with gaps) side by side with 5a59b0d; records results/waits.json
python -m benchmarks.staged --record     # issue 45: stage 1 (the certainties) per game, 3-8 players, both views, up to 20 '?' lines; records results/staged.json
python -m benchmarks.staged --sequence   # ... statement by statement, as play and serve run it (--record: results/staged-sequence.json)
python -m benchmarks.staged --sequence --figures --players 8   # ... with the figures (stage 2) between statements (--record: results/staged-sequence-figures.json)
python -m benchmarks.versus              # sleuth analyze side by side against commit 525edbf
python -m benchmarks.replay              # sleuth replay against analyze of the hardest prefix
python -m benchmarks.twenty_two          # Twenty-Two big tables: every decision state of two 8-player games
python -m benchmarks.interleaved         # this checkout against an older commit, state by state
python -m benchmarks.startup --cold      # --help, --version, completion, log against `import click, tabulate`
python -m benchmarks.calibration         # 500 games, about 5 minutes
python -m benchmarks.literature_error --record   # issue 45, target 2: Literature with gaps against exact figures (4 and 6 players); records results/literature-error.json
python -m benchmarks.clue --record       # Clue (issue 47): 6-player states against the CP-SAT notebook; records results/clue.json
python -m benchmarks.clue_advisor        # Clue: the advisor's simulated win rates (docs/advisor.md)"""


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def load(results: Path = RESULTS) -> tuple[dict, dict | None]:
    """The targets' figures and the latest recorded run (``None`` if none is recorded)."""
    targets = json.loads((results / "targets.json").read_text(encoding="utf-8"))
    return targets, _recorded(results / "run.json")


def _recorded(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def waits_section(results: Path = RESULTS) -> list[str]:
    """Issue 45's targets from the latest recorded ``python -m benchmarks.waits``: each
    target's figure and verdict (met, or missed by how much), then the run's tables and,
    where it was profiled, where the time goes (why a target is missed)."""
    from benchmarks.waits import markdown, summary

    data = _recorded(results / "waits.json")
    out = ["## Where a player still waits (issue 45), side by side with "
           f"`{data['base'] if data else 'an older commit'}`", ""]
    if data is None:
        return out + ["No run is recorded in `benchmarks/results/waits.json` yet: a full "
                      "`python -m benchmarks.waits` records one.", ""]
    out += [f"Recorded {data['date']} at commit `{data['commit']}` "
            f"({data['seconds'] / 60:.1f} min).", "",
            "| target | measured | verdict |", "|---|---|---|"]
    # the verdicts from the recorded rows by the benchmark's rules as they are now
    for t in summary(data["whole"], data["states"], data["base"])["targets"]:
        out.append(f"| {_cell(t['target'])} | {_cell(t['measured'])} | **{_cell(t['verdict'])}** |")
    return out + [""] + markdown(data)


def literature_error_section(results: Path = RESULTS) -> list[str]:
    """Literature with gaps against exact figures (issue 45, target 2): the latest
    ``python -m benchmarks.literature_error --record``."""
    data = _recorded(results / "literature-error.json")
    if data is None:
        return ["## Literature with gaps against exact figures (issue 45, target 2)", "",
                "No run is recorded in `benchmarks/results/literature-error.json` yet: "
                "`python -m benchmarks.literature_error --record` records one.", ""]
    head, *rest = data["markdown"]
    return [head, "", f"Recorded {data['date']} at commit `{data['commit']}` "
            f"({data['seconds'] / 60:.1f} min).", *rest, ""]


def clue_section(results: Path = RESULTS) -> list[str]:
    """Clue's figures (issue 47) from the latest ``python -m benchmarks.clue --record``."""
    data = _recorded(results / "clue.json")
    if data is None:
        return ["## Clue (issue 47)", "", "No run is recorded in `benchmarks/results/clue.json` "
                "yet: `python -m benchmarks.clue --record` records one.", ""]
    head, *rest = data["markdown"]
    return [head, "", f"Recorded {data['date']} at commit `{data['commit']}` "
            f"({data['seconds'] / 60:.1f} min).", *rest, ""]


def staged_section(results: Path = RESULTS) -> list[str]:
    """Issue 45's first target, the certainties first: the latest ``python -m
    benchmarks.staged --record`` (states on their own) and ``--sequence --record``
    (statement by statement, as play and serve run it)."""
    out = ["## The certainties first (issue 45, target 1)", ""]
    for name, command in (("staged", "python -m benchmarks.staged --record"),
                          ("staged-sequence", "python -m benchmarks.staged --only literature "
                           "--sequence --seeds 1 --record"),
                          ("staged-sequence-figures", "python -m benchmarks.staged --only "
                           "literature --sequence --figures --players 8 --seeds 1 --record")):
        data = _recorded(results / f"{name}.json")
        if data is None:
            out += [f"No run is recorded in `benchmarks/results/{name}.json` yet: "
                    f"`{command}` records one.", ""]
            continue
        head, *rest = data["markdown"]
        out += [head, "", f"Recorded {data['date']} at commit `{data['commit']}` "
                f"({data['seconds'] / 60:.1f} min) by `{command}`.", *rest, ""]
    return out


def missed_section(results: Path = RESULTS) -> list[str]:
    """Why each target of issue 45 still missed is missed (``missed.json``: written by
    hand from the profiles, since a cause is not a figure a benchmark prints)."""
    data = _recorded(results / "missed.json")
    if not data or not data["missed"]:
        return []
    out = ["## What is missed, and why (issue 45)", ""]
    for m in data["missed"]:
        out += [f"**Target {m['target']}** (profiled at `{m['commit']}`): {m['why']}", ""]
    return out


def render(results: Path = RESULTS) -> str:
    """The Markdown of docs/benchmarks.md."""
    targets, run = load(results)
    out = ["# Benchmarks", "",
           "Generated by `python -m benchmarks.run --report` from `benchmarks/results/`; do not "
           "edit by hand.",
           "Benchmarks run on demand, never in the tests (`tests/test_benchmarks_smoke.py` "
           "checks that the scripts, the baselines and this report work, on tiny states, "
           "without timing assertions).", "", "```", COMMANDS, "```", "",
           "## Against the targets", "",
           f"Each figure is the last one measured ({targets['machine']}); the history of "
           "the figures is in git.", "",
           "| target | measured | verdict | measured by | at |", "|---|---|---|---|---|"]
    for t in targets["targets"]:
        out.append(f"| {_cell(t['target'])} | {_cell(t['measured'])} | **{_cell(t['verdict'])}** "
                   f"| `{_cell(t['command'])}` | `{t['commit']}`, {t['date']} |")
    out += [""] + waits_section(results) + staged_section(results) \
        + literature_error_section(results) + missed_section(results) + clue_section(results)
    out += ["## The latest recorded `python -m benchmarks.run`", ""]
    if run is None:
        out.append("No run is recorded in `benchmarks/results/run.json` yet: a full "
                   "`python -m benchmarks.run` (no `--quick`, no `--only`) records one.")
    else:
        out.append(f"Recorded {run['date']} at commit `{run['commit']}` "
                   f"({run['seconds'] / 60:.1f} min).")
        out.append("")
        for line in run["markdown"]:
            out.append("#" + line if line.startswith("## ") else line)
    return "\n".join(out).rstrip("\n") + "\n"


def write(results: Path = RESULTS, path: Path = REPORT) -> Path:
    path.write_text(render(results), encoding="utf-8")
    return path
