"""Issue 3 benchmark (on demand): ``python -m benchmarks.run [--quick]``.

A corpus of simulated records -- Mystery Hand with 2 to 8 players in every variant, and
Literature with 4, 6 and 8 players, with and without jokers -- is analysed after every
statement (every ``--stride``-th outside the target set) from two views: the recorder's (``me``: the record as that player
would have written it at the table) and the public view (a spectator's record).  Each
analysis is the full one a user gets (``analyze``: build the model, count, candidates).

Reported: latency per statement (median, p95, max; wall clock and CPU time), the share of
states whose probabilities are exact, and, on the same states in the same run, two
baselines (:mod:`benchmarks.baselines`):

(a) counting by CP-SAT solution enumeration (60 s limit), on the states where it can finish
    (exact count at most ``--enum-max``; a random sample of them within ``--enum-budget``
    seconds): speed ratio enumeration / our analysis;
(b) rejection sampling of uniformly random deals, given the wall time our analysis took on
    that state: its largest absolute error against the exact marginals, and how often it
    accepted no deal at all.

The target set (issue 3) is ``--records`` 8-player Mystery Hand records analysed after each
of their first 60 statements.  Where our analysis is not exact the exact marginals are only
computed for a sample (``--references``), to measure our estimate's and rejection's error.

Prints Markdown; a full run (no ``--quick``, no ``--only``) records it in
``benchmarks/results/run.json`` (``--results DIR``: any run, there), and ``--report`` writes
docs/benchmarks.md from the recorded results (:mod:`benchmarks.report`) without measuring;
``--json FILE`` keeps every measured state.
"""
from __future__ import annotations

import os

# one BLAS thread: the rejection baseline's matrix products must not leave worker threads
# spinning on the second core while our single-threaded analysis is being timed
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from benchmarks.baselines import by_name, enumerate_deals, max_error, rejection_sample
from benchmarks.common import fmt_ratio, fmt_s, load, machine, median, p95, print_machine

# ----------------------------------------------------------------------------------------
# the games, behind one small interface


class MysteryHand:
    name = "mystery-hand"

    def __init__(self):
        from solver.mystery_hand import analysis, inference, simulate

        self.analysis, self.inference, self.sim = analysis, inference, simulate

    def records(self, players, variants, min_statements, count, seed0=0):
        """(seed, complete record) of the first games whose recorder's record has at least
        ``min_statements`` statements."""
        out, seed = [], seed0
        while len(out) < count and seed < seed0 + 500:
            rec = self.sim.simulate(players, list(variants), seed)
            if len(self.inference.as_written_by(rec, rec.header.me).statements) >= min_statements:
                out.append((seed, rec))
            seed += 1
        return out

    def views(self, rec):
        """(label, view, record as that view wrote it)."""
        me = rec.header.me
        return [("me", me, self.inference.as_written_by(rec, me)),
                ("public", None, self.inference.as_written_by(rec, None))]

    def cuts(self, rec, limit):
        return list(range(1, min(len(rec.statements), limit) + 1))

    def analyze(self, rec, view):
        return self.analysis.analyze(rec, view)

    def model(self, rec, view):
        return self.inference.build(rec, view).model

    def estimate(self, rec, view):
        """The analysis's own probabilities per card name (copies summed)."""
        a = self.analysis.analyze(rec, view)
        return a.cards, a.exact, a.error


class Literature:
    name = "literature"

    def __init__(self):
        from solver.literature import analysis, engine, inference, simulate

        self.analysis, self.infer, self.play, self.sim = analysis, inference, engine, simulate

    def records(self, players, variants, min_statements, count, seed0=0):
        out, seed = [], seed0
        while len(out) < count and seed < seed0 + 200:
            rec = self.sim.simulate(players, tuple(variants), seed)
            if len(rec.statements) >= min_statements:
                out.append((seed, rec))
            seed += 1
        return out

    def views(self, rec):
        return [("me", rec.header.me, rec), ("public", None, rec)]

    def cuts(self, rec, limit):
        return [n for n in self.play.cut_points(rec)[1:] if n <= limit]

    def analyze(self, rec, view):
        return self.analysis.analyze(rec, view)

    def model(self, rec, view):
        return self.infer.build(rec, view).model

    def estimate(self, rec, view):
        """The analysis's probabilities of the deal (its ``probabilities`` step) per card
        name (copies summed); its ``cards`` output is of the current holders instead."""
        vm = self.infer.build(rec, view)
        p = self.infer.probabilities(vm)
        return by_name(vm.model, p.marginals), p.exact, p.error


GAMES = {"mystery-hand": MysteryHand, "literature": Literature}

# (game, players, variants, kind): kind "target" = the issue's 8-player 60-statement set
CORPUS = [
    ("mystery-hand", 8, (), "target"),
    ("mystery-hand", 3, (), "corpus"),
    ("mystery-hand", 4, ("sneak",), "corpus"),
    ("mystery-hand", 5, ("keep-em-guessing",), "corpus"),
    ("mystery-hand", 6, ("no-exact-request",), "corpus"),
    ("mystery-hand", 7, (), "corpus"),
    ("mystery-hand", 5, ("sneak", "sneak-jokers-count-for-extra-turn"), "corpus"),
    ("mystery-hand", 4, ("keep-em-guessing", "no-exact-request"), "corpus"),
    ("mystery-hand", 8, ("sneak",), "corpus"),
    ("mystery-hand", 2, ("two-player=seen",), "corpus"),
    ("mystery-hand", 2, ("two-player=chosen",), "corpus"),
    ("mystery-hand", 2, ("two-player=blind",), "corpus"),
    ("literature", 4, (), "corpus"),
    ("literature", 6, (), "corpus"),
    ("literature", 8, (), "corpus"),
    ("literature", 4, ("jokers",), "corpus"),
    ("literature", 6, ("jokers",), "corpus"),
    ("literature", 8, ("jokers",), "corpus"),
]


def label(game, players, variants):
    g = "MH" if game == "mystery-hand" else "Lit"
    return f"{g} {players}p" + (" " + "+".join(variants) if variants else "")


# ----------------------------------------------------------------------------------------
def timed(fn, *args):
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - w0, time.process_time() - c0


def name_error(m, est, ref, est_by_name=False):
    """Largest |estimate - exact| over card names x locations (copies summed)."""
    e = est if est_by_name else by_name(m, est)
    r = by_name(m, ref)
    return max_error(e, r, list(r), m.locations)


def measure_state(game, rec, view, rng, enum_max):
    """One state: the full analysis (timed), and when it is exact, the exact marginals
    again (exact_count alone, timed) and rejection sampling at equal wall time."""
    from solver.model.counting import exact_count

    a, wall, cpu = timed(game.analyze, rec, view)
    row = {"wall": wall, "cpu": cpu, "exact": bool(a.exact), "method": a.method}
    mys = getattr(a, "mystery", None)
    if mys is not None:     # Mystery Hand: is the candidate count the count, is there a top
        row.update(cand_exact=mys.count is not None and bool(mys.exact),
                   cand_counted=mys.count is not None, top_n=len(mys.top))
    if a.exact and not NO_BASELINES:
        m = game.model(rec, view)
        ref, cwall, _ = timed(exact_count, m)
        row.update(count_s=cwall, total=float(ref.total), ours_err=ref.rounding)
        rej = rejection_sample(m, wall, rng.getrandbits(32))
        row.update(rej_drawn=rej.drawn, rej_accepted=rej.accepted,
                   rej_err=name_error(m, rej.marginals, ref.marginals))
        row["enum_ok"] = ref.total <= enum_max
    return row


def run_corpus(args, rng, log):
    states = []
    plan = CORPUS if not args.only else [c for c in CORPUS if label(*c[:3]) in args.only]
    for game_name, players, variants, kind in plan:
        if kind == "target":
            limit, stride, nrec, need = 60, args.target_stride, args.records, 60
        elif game_name == "literature":
            limit, stride, nrec, need = 10 ** 6, args.lit_stride, 1, 100
        else:
            limit, stride, nrec, need = args.max_statements, args.stride, 1, 30
        if game_name == "literature" and args.lit_stride == 0:
            continue
        lab = label(game_name, players, variants)
        try:
            game = GAMES[game_name]()
            for seed, rec in game.records(players, variants, need, nrec, seed0=args.seed):
                for vlabel, view, vrec in game.views(rec):
                    if vlabel in args.views:
                        run_record(game, lab, kind, seed, (players, variants), vlabel, view,
                                   vrec, limit, stride, states, args, rng, log)
        except Exception as e:  # keep the other configurations' results
            log(f"{lab}: FAILED {type(e).__name__}: {e}")
            FAILED.append(f"{lab}: {type(e).__name__}: {e}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"states": states, "partial": True}, f)
    return states


FAILED: list[str] = []
#: --no-baselines: time the analyses only (no exact recount, no rejection baseline)
NO_BASELINES = False


def run_record(game, lab, kind, seed, cfg, vlabel, view, vrec, limit, stride, states, args,
               rng, log):
    """Every stride-th prefix (always including the last) of one view's record."""
    cuts = game.cuts(vrec, limit)
    cuts = [n for i, n in enumerate(cuts) if (len(cuts) - 1 - i) % stride == 0]
    t0 = time.perf_counter()
    done = []
    for n in cuts:
        row = measure_state(game, vrec.prefix(n), view, rng, args.enum_max)
        row.update(game=game.name, config=lab, kind=kind, seed=seed, view=vlabel, n=n,
                   players=cfg[0], variants=list(cfg[1]))
        done.append(row)
    states.extend(done)
    log(f"{lab:42s} seed {seed:3d} {vlabel:6s} {len(cuts):3d} states "
        f"median {fmt_s(median(s['wall'] for s in done)):>8s} "
        f"max {fmt_s(max(s['wall'] for s in done)):>8s} "
        f"exact {sum(s['exact'] for s in done)}/{len(done)} "
        f"({time.perf_counter() - t0:.0f} s)")


def rebuild(st):
    """The game, the record prefix and the view of a measured state."""
    game = GAMES[st["game"]]()
    (seed, rec), = game.records(st["players"], st["variants"], 0, 1, seed0=st["seed"])
    for vlabel, view, vrec in game.views(rec):
        if vlabel == st["view"]:
            return game, vrec.prefix(st["n"]), view
    raise KeyError(st["view"])


def run_enumeration(states, args, rng, log):
    """Baseline (a) on a random sample of the states where enumeration can finish."""
    pool = [s for s in states if s.get("enum_ok")]
    rng.shuffle(pool)
    spent = 0.0
    for st in pool:
        if spent >= args.enum_budget:
            break
        game, rec, view = rebuild(st)
        m = game.model(rec, view)
        e = enumerate_deals(m, args.enum_limit)
        spent += e.seconds
        st["enum"] = {"finished": e.finished, "seconds": e.seconds, "count": e.count}
        if e.finished:
            from solver.model.counting import exact_count

            ref = exact_count(m)
            st["enum"]["count_ok"] = e.count == ref.total
            st["enum"]["err"] = name_error(m, e.marginals, ref.marginals)
            c = enumerate_deals(m, args.enum_limit, marginals=False)
            spent += c.seconds
            st["enum"]["count_only"] = c.seconds if c.finished else None
        log(f"enumeration {st['config']:30s} {st['view']:6s} n={st['n']:3d} "
            f"total {st['total']:.3g}: {'done' if e.finished else 'unfinished'} "
            f"in {e.seconds:.2f} s (ours {fmt_s(st['wall'])})")
    return spent


def run_references(states, args, rng, log):
    """For a sample of the states where our analysis is an estimate: the exact marginals
    with a large budget, our estimator's and rejection's errors at equal time."""
    from solver.model.counting import OverBudget, exact_count

    pool = [s for s in states if not s["exact"]]
    rng.shuffle(pool)
    pool.sort(key=lambda s: s["kind"] != "target")      # the target set first
    tried = 0
    for st in pool:
        if tried >= args.references:
            break
        tried += 1
        game, rec, view = rebuild(st)
        m = game.model(rec, view)
        try:
            ref, secs, _ = timed(lambda: exact_count(m, max_states=args.ref_states,
                                                     time_budget=args.ref_seconds))
        except (OverBudget, MemoryError) as e:
            st["ref"] = {"failed": str(e)}
            log(f"reference {st['config']:30s} {st['view']:6s} n={st['n']:3d}: over budget")
            continue
        est, est_exact, est_err = game.estimate(rec, view)
        rej = rejection_sample(m, st["wall"], rng.getrandbits(32))
        st["ref"] = {"seconds": secs, "total": float(ref.total),
                     "ours_err": name_error(m, est, ref.marginals, est_by_name=True),
                     "ours_exact": est_exact, "ours_bar": est_err,
                     "rej_err": name_error(m, rej.marginals, ref.marginals),
                     "rej_drawn": rej.drawn, "rej_accepted": rej.accepted}
        log(f"reference {st['config']:30s} {st['view']:6s} n={st['n']:3d} ({secs:.1f} s): "
            f"ours err {st['ref']['ours_err']:.3g} (bar {est_err:.3g}), rejection err "
            f"{st['ref']['rej_err']:.3g} ({rej.accepted}/{rej.drawn} accepted)")


def run_cli(args, log):
    """Issue 2's speed line: ``sleuth analyze`` (a new process: start-up, parsing,
    validation, analysis, the printed sheet) on 60-statement 8-player records."""
    from solver.mystery_hand.inference import as_written_by
    from solver.records import write_record

    game = MysteryHand()
    # what the `sleuth` script runs, on the code this benchmark imports
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cmd = [sys.executable, "-c", "import sys; from cli.main import main; main()"]
    env = dict(os.environ, PYTHONPATH=root)
    out = {"me": [], "public": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed, rec in game.records(8, (), 60, args.records, seed0=args.seed):
            for vlabel, who in (("me", rec.header.me), ("public", None)):
                w = as_written_by(rec, who).prefix(60)
                path = os.path.join(tmp, f"r{seed}-{vlabel}.txt")
                with open(path, "w") as f:
                    f.write(write_record(w))
                t0 = time.perf_counter()
                p = subprocess.run(cmd + ["analyze", path], capture_output=True, text=True,
                                   cwd=root, env=env)
                dt = time.perf_counter() - t0
                if p.returncode != 0:
                    raise RuntimeError(f"sleuth analyze failed: {p.stderr}")
                out[vlabel].append(dt)
                log(f"sleuth analyze 8p seed {seed} {vlabel}: {dt:.2f} s")
        t0 = time.perf_counter()
        subprocess.run(cmd + ["--help"], capture_output=True, cwd=root, env=env)
        out["startup"] = time.perf_counter() - t0
    return out


# ----------------------------------------------------------------------------------------
# report
def latency_table(states, out):
    out("| states | view | n | wall median | wall p95 | wall max | CPU median | CPU p95 | exact |")
    out("|---|---|---|---|---|---|---|---|---|")
    groups = defaultdict(list)
    for s in states:
        key = ("**target: MH 8p, first 60 statements**" if s["kind"] == "target"
               else s["config"])
        for k in (key, "all MH corpus (2-8p, variants)" if s["kind"] != "target" and
                  s["game"] == "mystery-hand" else None):
            if k is not None:
                groups[k, s["view"]].append(s)
                groups[k, "both"].append(s)
    keys = list(dict.fromkeys(k for k, _ in groups))
    keys.sort(key=lambda k: k.startswith("all MH"))
    for key in keys:
        for view in ("me", "public", "both"):
            ss = groups.get((key, view))
            if not ss:
                continue
            w = [s["wall"] for s in ss]
            c = [s["cpu"] for s in ss]
            out(f"| {key} | {view} | {len(ss)} | {fmt_s(median(w))} | {fmt_s(p95(w))} | "
                f"{fmt_s(max(w))} | {fmt_s(median(c))} | {fmt_s(p95(c))} | "
                f"{100 * sum(s['exact'] for s in ss) / len(ss):.0f} % |")


def candidates_table(states, out):
    """Per configuration and view: the share of states whose candidates are exact (their
    count and the top list's probabilities), whose count is known (a count is always the
    exact count, else null with bounds), and whose top list is non-empty."""
    out("| states | view | n | count and top exact | count known, exact (else null + "
        "bounds) | top non-empty |")
    out("|---|---|---|---|---|---|")
    groups = defaultdict(list)
    for s in states:
        if "cand_exact" not in s:
            continue
        key = ("**target: MH 8p, first 60 statements**" if s["kind"] == "target"
               else s["config"])
        for k in (key, "all MH corpus (2-8p, variants)" if s["kind"] != "target" else None):
            if k is not None:
                groups[k, s["view"]].append(s)
    for (key, view), ss in groups.items():
        n = len(ss)
        out(f"| {key} | {view} | {n} | {100 * sum(s['cand_exact'] for s in ss) / n:.0f} % | "
            f"{100 * sum(s['cand_counted'] for s in ss) / n:.0f} % | "
            f"{100 * sum(s['top_n'] > 0 for s in ss) / n:.0f} % |")


def enumeration_table(states, out):
    done = [s for s in states if "enum" in s]
    fin = [s for s in done if s["enum"]["finished"]]
    out(f"Enumeration tried on {len(done)} states (exact count <= the threshold), "
        f"finished within the limit on {len(fin)}; counts agree with the DP on "
        f"{sum(s['enum'].get('count_ok', False) for s in fin)}/{len(fin)}, largest "
        f"marginal difference {max([s['enum'].get('err', 0) for s in fin] or [0]):.2g}.")
    out("")
    out("| exact count | states | median enumeration | median count-only enum. | "
        "median ours (analysis) | median ours (counting alone) | ratio enum./analysis: "
        "median | min | ratio enum./counting: median |")
    out("|---|---|---|---|---|---|---|---|---|")
    bands = [(0, 10), (10, 100), (100, 1000), (1000, 10 ** 4), (10 ** 4, 10 ** 5),
             (10 ** 5, 10 ** 7)]
    rows = [("all", fin)] + [(f"{lo:g} < N <= {hi:g}" if lo else f"N <= {hi:g}",
                              [s for s in fin if lo < s["total"] <= hi]) for lo, hi in bands]
    for name, ss in rows:
        if not ss:
            continue
        e = [s["enum"]["seconds"] for s in ss]
        co = [s["enum"]["count_only"] for s in ss if s["enum"].get("count_only")]
        r = [s["enum"]["seconds"] / s["wall"] for s in ss]
        rc = [s["enum"]["seconds"] / s["count_s"] for s in ss]
        out(f"| {name} | {len(ss)} | {fmt_s(median(e))} | {fmt_s(median(co))} | "
            f"{fmt_s(median(s['wall'] for s in ss))} | {fmt_s(median(s['count_s'] for s in ss))}"
            f" | {fmt_ratio(median(r))} | {fmt_ratio(min(r))} | {fmt_ratio(median(rc))} |")
    unf = [s for s in done if not s["enum"]["finished"]]
    if unf:
        out("")
        out(f"Unfinished within the limit: {len(unf)} states, exact counts "
            + ", ".join(f"{s['total']:.3g}" for s in sorted(unf, key=lambda s: s["total"]))
            + ".")


def _f3(x):
    return "-" if x != x else f"{x:.3f}"


def rejection_table(states, out):
    out("| states | view | n (exact) | median drawn | none accepted | rejection max error: "
        "median | max | median where some accepted | ours: bound on the error |")
    out("|---|---|---|---|---|---|---|---|---|")
    groups = defaultdict(list)
    for s in states:
        if "rej_err" not in s:
            continue
        key = ("target: MH 8p, first 60 statements" if s["kind"] == "target" else
               ("all MH corpus" if s["game"] == "mystery-hand" else s["config"]))
        groups[key, s["view"]].append(s)
    for (key, view), ss in groups.items():
        e = [s["rej_err"] for s in ss]
        out(f"| {key} | {view} | {len(ss)} | {median(s['rej_drawn'] for s in ss):.0f} | "
            f"{100 * sum(s['rej_accepted'] == 0 for s in ss) / len(ss):.0f} % | "
            f"{median(e):.3f} | {max(e):.3f} | "
            f"{_f3(median(s['rej_err'] for s in ss if s['rej_accepted']))} | "
            f"{max(s['ours_err'] for s in ss):.1g} |")


def reference_table(states, out):
    refs = [s for s in states if "ref" in s]
    if not refs:
        return
    ok = [s for s in refs if "failed" not in s["ref"]]
    out(f"Exact reference computed (budget {ARGS.ref_seconds:g} s) for {len(ok)} of "
        f"{len(refs)} sampled estimate states.")
    if not ok:
        return
    out("")
    out("| state | view | n | ours: max error | ours: reported 95 % bar | rejection: "
        "max error | rejection: accepted / drawn | error ratio |")
    out("|---|---|---|---|---|---|---|---|")
    for s in ok:
        r = s["ref"]
        ratio = r["rej_err"] / r["ours_err"] if r["ours_err"] else float("inf")
        out(f"| {s['config']} | {s['view']} | {s['n']} | {r['ours_err']:.3f} | "
            f"{r['ours_bar']:.3f} | {r['rej_err']:.3f} | {r['rej_accepted']}/{r['rej_drawn']} "
            f"| {fmt_ratio(ratio)} |")


def targets(states, cli, out):
    tg = [s for s in states if s["kind"] == "target"]
    if tg:
        w = [s["wall"] for s in tg]
        out(f"- target latency (8p, 60 statements, {len(tg)} states, both views): median "
            f"{fmt_s(median(w))} (target <= 100 ms), p95 {fmt_s(p95(w))} (target <= 1 s); "
            f"CPU median {fmt_s(median(s['cpu'] for s in tg))}, p95 "
            f"{fmt_s(p95(s['cpu'] for s in tg))}")
        for v in ("me", "public"):
            ww = [s["wall"] for s in tg if s["view"] == v]
            out(f"  - {v}: median {fmt_s(median(ww))}, p95 {fmt_s(p95(ww))}")
    out(f"- exact on {100 * sum(s['exact'] for s in states) / len(states):.1f} % of all "
        f"{len(states)} states (target >= 90 %); target set: "
        f"{100 * sum(s['exact'] for s in tg) / max(len(tg), 1):.1f} %")
    fin = [s for s in states if s.get("enum", {}).get("finished")]
    if fin:
        r = [s["enum"]["seconds"] / s["wall"] for s in fin]
        out(f"- enumeration / our analysis where enumeration finished ({len(fin)} states): "
            f"median {fmt_ratio(median(r))}, min {fmt_ratio(min(r))}; share >= 100x: "
            f"{100 * sum(x >= 100 for x in r) / len(r):.0f} % (target >= 100x)")
    rj = [s for s in states if "rej_err" in s]
    if rj:
        worst_ours = max(s["ours_err"] for s in rj)
        out(f"- rejection at equal time on {len(rj)} exact states: max error median "
            f"{median(s['rej_err'] for s in rj):.3f}, no deal accepted on "
            f"{100 * sum(s['rej_accepted'] == 0 for s in rj) / len(rj):.0f} %; ours <= "
            f"{worst_ours:.1g} (ratio of the medians "
            f"{fmt_ratio(median(s['rej_err'] for s in rj) / max(worst_ours, 1e-300))})")
    ok = [s for s in states if "ref" in s and "failed" not in s["ref"]]
    if ok:
        r = [s["ref"]["rej_err"] / max(s["ref"]["ours_err"], 1e-300) for s in ok]
        out(f"- estimate states with a reference ({len(ok)}): ours max error median "
            f"{median(s['ref']['ours_err'] for s in ok):.3f} vs rejection "
            f"{median(s['ref']['rej_err'] for s in ok):.3f}; ratio >= 10x on "
            f"{sum(x >= 10 for x in r)}/{len(r)}")
    if cli:
        both = cli["me"] + cli["public"]
        out(f"- `sleuth analyze` (new process) on 60-statement 8-player records: median "
            f"{median(both):.2f} s (me {median(cli['me']):.2f} s, public "
            f"{median(cli['public']):.2f} s, max {max(both):.2f} s; `sleuth --help` alone "
            f"{cli['startup']:.2f} s) (issue 2: < 2 s)")


ARGS = None


def main(argv=None):
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a 1-2 minute smoke run")
    ap.add_argument("--records", type=int, default=2, help="8-player target records")
    ap.add_argument("--target-stride", type=int, default=1,
                    help="analyse every n-th statement of the target records")
    ap.add_argument("--stride", type=int, default=5,
                    help="analyse every n-th statement of the other Mystery Hand records")
    ap.add_argument("--lit-stride", type=int, default=10,
                    help="every n-th cut point of the Literature games (0: none)")
    ap.add_argument("--max-statements", type=int, default=80)
    ap.add_argument("--enum-max", type=float, default=30_000,
                    help="try enumeration where the exact count is at most this")
    ap.add_argument("--enum-limit", type=float, default=60.0, help="CP-SAT time limit")
    ap.add_argument("--enum-budget", type=float, default=150.0,
                    help="total seconds of enumeration (a random sample of the states)")
    ap.add_argument("--references", type=int, default=4,
                    help="estimate states given an exact reference")
    ap.add_argument("--ref-seconds", type=float, default=25.0,
                    help="budget of the reference's forward pass (the backward pass "
                         "costs about as much again)")
    ap.add_argument("--ref-states", type=int, default=6_000_000)
    ap.add_argument("--views", nargs="+", default=["me", "public"], choices=["me", "public"])
    ap.add_argument("--no-cli", action="store_true", help="skip the sleuth analyze timing")
    ap.add_argument("--no-baselines", action="store_true",
                    help="time the analyses only: no exact recount, rejection or enumeration")
    ap.add_argument("--only", nargs="*", help="configurations by label, e.g. 'MH 3p'")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write every measured state to this file")
    ap.add_argument("--results", help="record this run's figures in DIR/run.json (a full "
                    "run records them in benchmarks/results/ by default)")
    ap.add_argument("--report", action="store_true",
                    help="measure nothing: write docs/benchmarks.md (or --output) from the "
                         "recorded results (benchmarks/results/, or --results DIR)")
    ap.add_argument("--output", help="with --report: write the report to this file")
    args = ap.parse_args(argv)
    if args.report:
        from pathlib import Path

        from benchmarks import report

        results = Path(args.results) if args.results else report.RESULTS
        path = report.write(results, Path(args.output) if args.output else report.REPORT)
        print(f"wrote {path}")
        return
    full = not (args.quick or args.only)
    if args.quick:
        args.records, args.target_stride, args.stride, args.lit_stride = 1, 15, 25, 60
        args.enum_budget, args.enum_max, args.enum_limit = 10.0, 3000, 20.0
        args.references, args.max_statements = 0, 60
    ARGS = args
    global NO_BASELINES
    NO_BASELINES = args.no_baselines
    if args.no_baselines:
        args.enum_budget, args.references = 0.0, 0
    info = machine()
    t_start = time.perf_counter()
    rng = random.Random(args.seed)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    states = run_corpus(args, rng, log)
    enum_s = run_enumeration(states, args, rng, log)
    run_references(states, args, rng, log)
    cli = None if args.no_cli else run_cli(args, log)
    total = time.perf_counter() - t_start
    printed: list[str] = []

    def out(line=""):
        print(line)
        printed.append(line)
    out("## Machine and command")
    out("")
    print_machine(info, out)
    out(f"- load average at end: {load()}; total run time {total / 60:.1f} min "
        f"(enumeration {enum_s:.0f} s)")
    out("")
    out("## Summary against the targets")
    out("")
    for f in FAILED:
        out(f"- **configuration failed**: {f}")
    targets(states, cli, out)
    out("")
    out("## Latency per statement (full analysis, wall clock)")
    out("")
    latency_table(states, out)
    out("")
    out("## Mystery-hand candidates: counted exactly, and a top list")
    out("")
    candidates_table(states, out)
    if args.no_baselines:
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"machine": info, "states": states, "cli": cli,
                           "seconds": total}, f, indent=1)
        record(args, full, info, total, printed)
        return
    out("")
    out("## Baseline (a): CP-SAT enumeration")
    out("")
    enumeration_table(states, out)
    out("")
    out("## Baseline (b): rejection sampling at equal time (states where we are exact)")
    out("")
    rejection_table(states, out)
    out("")
    out("## Estimate states: errors against an exact reference")
    out("")
    reference_table(states, out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "states": states, "cli": cli,
                       "seconds": total}, f, indent=1)
    record(args, full, info, total, printed)


def record(args, full: bool, info: dict, seconds: float, printed: list[str]) -> None:
    """Keep the run's figures (what it printed) in ``run.json`` for the report: a full run's
    in ``benchmarks/results/``, any run's in ``--results DIR``."""
    if not (full or args.results):
        return
    from datetime import datetime, timezone
    from pathlib import Path

    from benchmarks import report

    folder = Path(args.results) if args.results else report.RESULTS
    folder.mkdir(parents=True, exist_ok=True)
    data = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": info["commit"], "machine": info, "seconds": seconds,
            "args": {k: v for k, v in vars(args).items()}, "markdown": printed}
    (folder / "run.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
