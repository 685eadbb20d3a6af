"""Cross-source sweep of a head setting, the protocol of injection-sweep.ts: each source left
out in turn, both heads fitted and Platt-calibrated on the others, each left-out row scored
max(p_injection, p_jailbreak) as skill vetting scores a prompt. Prints per threshold the mean
over sources of attacks caught and benign flagged (and for the benign sources addressed to a
model), then the caught rate at the lowest threshold whose mean benign flagged is <= 2 % and
<= 3 %. Training data only (injection-export.ts): no corpus set is read.

  nice -n 19 python3 scripts/train-injection/mlp/sweep.py --layers 8 --head linear:0.0001
  nice -n 19 python3 scripts/train-injection/mlp/sweep.py --layers 4,6,8 --head mlp:64:30:0.001:0.2 [--json out.json]
"""
import argparse
import json
import os

# one BLAS thread: the machine is shared, and idle OpenBLAS threads spinning against the other
# jobs made a fit 50 times slower
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import sys
import time

import numpy as np

from heads import features, fit_calibrated, load, make_head, probability

ADDRESSED_TO_A_MODEL = {"skills", "awesome", "copilot", "fabric", "cursorrules", "peguide", "hardneg", "written", "promptszh", "lobeagents"}
THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99]


def cross_source_scores(rows, F, make, log, only=None):
    out = np.full(len(rows), np.nan)
    for source in only or dict.fromkeys(r["source"] for r in rows):
        t0 = time.time()
        train = [i for i, r in enumerate(rows) if r["source"] != source]
        test = np.array([i for i, r in enumerate(rows) if r["source"] == source])
        model, cal = fit_calibrated(rows, F, train, make)
        out[test] = probability(model, cal, F[test])
        log(f"  {source} left out: {len(test)} rows scored ({time.time() - t0:.0f} s)")
    return out


def point(rows, scores, t, keep=None):
    """Means over sources (over `keep` alone when given) at threshold t, and the per-source counts."""
    per = {}
    for r, s in zip(rows, scores):
        d = per.setdefault(r["source"], [0, 0, 0, 0])  # attacks, caught, benign, flagged
        hit = s >= t
        if r["label"] == "benign":
            d[2] += 1
            d[3] += hit
        else:
            d[0] += 1
            d[1] += hit
    mean = {k: d for k, d in per.items() if keep is None or k in keep}
    recall = np.mean([d[1] / d[0] for d in mean.values() if d[0]])
    fpr = np.mean([d[3] / d[2] for d in mean.values() if d[2]])
    dom = np.mean([d[3] / d[2] for k, d in mean.items() if d[2] and k in ADDRESSED_TO_A_MODEL])
    return recall, fpr, dom, per


def at_fpr(rows, scores, limit, keep=None):
    """The lowest threshold (to 0.001) whose mean benign flagged is <= limit, and its point."""
    grid = np.unique(np.concatenate([np.round(np.linspace(0.3, 0.999, 700), 3), [0.9995, 0.9999]]))
    for t in grid:
        r, f, d, _ = point(rows, scores, t, keep)
        if f <= limit:
            return t, r, f, d
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", default="8")
    ap.add_argument("--head", default="linear:0.0001")
    ap.add_argument("--json", default=None)
    ap.add_argument("--only", default=None, help="these sources' folds alone (comma-separated), for --merge")
    ap.add_argument("--merge", default=None, help="--json files of --only runs (comma-separated): their tables")
    ap.add_argument("--export", default=None, help="an injection-export.ts --out directory (default .tmp/injection-export)")
    ap.add_argument("--mean-over", default=None, help="the means over these sources alone (comma-separated), to compare with a run on fewer sources")
    a = ap.parse_args()
    log = lambda m: print(m, flush=True)  # noqa: E731
    rows, X, all_layers = load(a.export) if a.export else load()
    keep = set(a.mean_over.split(",")) if a.mean_over else None
    if keep:
        log(f"means over {len(keep)} sources: {','.join(sorted(keep))}")
    if a.merge:
        parts = [json.load(open(p)) for p in a.merge.split(",")]
        scores = np.nanmax(np.array([p["scores"] for p in parts], dtype=float), axis=0)
        if np.isnan(scores).any():
            raise SystemExit(f"{int(np.isnan(scores).sum())} rows unscored: a source's fold is missing")
        log(f"{len(rows)} rows, layers {parts[0]['layers']}, head {parts[0]['head']}: merged {len(parts)} runs")
    else:
        layers = [int(x) for x in a.layers.split(",")]
        F = features(X, all_layers, layers)
        log(f"{len(rows)} rows, layers {layers} ({F.shape[1]} features), head {a.head}: each source left out")
        t0 = time.time()
        scores = cross_source_scores(rows, F, make_head(a.head), log, a.only and a.only.split(","))
        log(f"({time.time() - t0:.0f} s)")
        if a.json:
            json.dump({"layers": layers, "head": a.head, "scores": [None if np.isnan(x) else x for x in scores]}, open(a.json, "w"))
        if a.only:
            return
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    log("\n| threshold | attacks caught (mean over sources) | benign flagged (mean) | addressed to a model, flagged |")
    log("|---|---|---|---|")
    for t in THRESHOLDS:
        r, f, d, _ = point(rows, scores, t, keep)
        log(f"| {t} | {pct(r)} | {pct(f)} | {pct(d)} |")
    for lim in (0.02, 0.03):
        p = at_fpr(rows, scores, lim, keep)
        if p:
            log(f"benign flagged <= {pct(lim)}: threshold {p[0]:.3f}, {pct(p[1])} caught, {pct(p[2])} flagged, addressed to a model {pct(p[3])}")
    for t in (0.5, 0.95):
        log(f"\nthreshold {t}:")
        for k, d in point(rows, scores, t)[3].items():
            log(f"  {k}: {d[1]}/{d[0]} caught, {d[3]}/{d[2]} flagged")


if __name__ == "__main__":
    sys.exit(main())
