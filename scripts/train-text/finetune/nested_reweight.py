"""Chooses one head's training-row weighting inside a fold's training side (never the fold).

Reads the export of finetune-nested.ts (<prefix>.f32, <prefix>.json: the signal's labelled
training rows outside fold F), leaves each training-side dataset with >= 15 strong positives
and negatives out in turn, fits the head on the rest under every weighting of the grid and
scores the left-out dataset's strong rows (AUPRC), as embedding-lodo.ts does for λ. The
weighting with the best mean over the inner folds wins. Also per left-out dataset and
language (>= 10 strong positives and negatives): a multilingual dataset left out is the
nearest the training side has to a language the head has seen little of.

  OMP_NUM_THREADS=1 python3 scripts/train-text/finetune/nested_reweight.py <prefix> [--grid none,lang:0.5,source:1] [--out r.json]

The fit is embedding-logreg.ts's (weighted mean log-loss + λ/2 |w|^2, bias unpenalised,
L-BFGS m = 8, Armijo backtracking, same stopping rules), the positive boost embedding-lodo.ts's
(sqrt(neg / pos) in [1, 4]), the reweighting embedding-reweight.ts's (group mass to the
power -α, multipliers in [1/10, 10], each class's total kept); in numpy because the
TypeScript fitter takes hours for the grid on this shared machine.
"""
import argparse
import json
import math
import sys

import numpy as np

MAX_POSITIVE_BOOST = 4.0
MIN_FOLD_CLASS = 15
MIN_LANG_CLASS = 10
REWEIGHT_CAP = 10.0
DEFAULT_GRID = "none,lang:0.5,lang:1,source:0.5,source:1"


def reweight(c, y, groups, alpha, cap=REWEIGHT_CAP):
    out = c.copy()
    if alpha == 0:
        return out
    for cls in (0, 1):
        m = y == cls
        if not m.any():
            continue
        g = groups[m]
        names, inv = np.unique(g, return_inverse=True)
        mass = np.bincount(inv, weights=c[m])
        mean = mass.sum() / len(names)
        mult = np.clip((mass / mean) ** -alpha, 1 / cap, cap)
        new = c[m] * mult[inv]
        out[m] = new * (c[m].sum() / new.sum())
    return out


def boost(c, y):
    pos, neg = c[y == 1].sum(), c[y == 0].sum()
    b = min(MAX_POSITIVE_BOOST, max(1.0, math.sqrt(neg / pos))) if pos > 0 else 1.0
    return np.where(y == 1, c * b, c)


def objective(X, y, c, lam, theta):
    w, b = theta[:-1], theta[-1]
    z = X @ w + b
    tot = c.sum()
    loss = np.where(z > 0, z + np.log1p(np.exp(-np.abs(z))), np.log1p(np.exp(np.minimum(z, 0)))) - y * z
    p = 1 / (1 + np.exp(-z))
    e = c * (p - y)
    g = np.empty_like(theta)
    g[:-1] = (X.T @ e) / tot + lam * w
    g[-1] = e.sum() / tot
    return float((c * loss).sum() / tot + 0.5 * lam * (w @ w)), g


def fit(X, y, c, lam, init=None, max_iter=200, tol=1e-5, m=8):
    if init is not None:
        theta = init.copy()
    else:
        theta = np.zeros(X.shape[1] + 1)
        p = min(1 - 1e-6, max(1e-6, c[y == 1].sum() / c.sum()))
        theta[-1] = math.log(p / (1 - p))
    f, g = objective(X, y, c, lam, theta)
    S, Y, rho = [], [], []
    for _ in range(max_iter):
        if np.abs(g).max() < tol:
            break
        d = g.copy()
        alpha = [0.0] * len(S)
        for k in range(len(S) - 1, -1, -1):
            alpha[k] = rho[k] * (S[k] @ d)
            d -= alpha[k] * Y[k]
        if S:
            d /= rho[-1] * (Y[-1] @ Y[-1])
        for k in range(len(S)):
            beta = rho[k] * (Y[k] @ d)
            d += (alpha[k] - beta) * S[k]
        d = -d
        gd = g @ d
        if not gd < 0:
            S, Y, rho = [], [], []
            d = -g
            gd = g @ d
        step = min(1.0, 1 / max(1e-12, np.abs(g).max())) if not S else 1.0
        f_new = math.inf
        for _ in range(30):
            theta_new = theta + step * d
            f_new, g_new = objective(X, y, c, lam, theta_new)
            if f_new <= f + 1e-4 * step * gd:
                break
            step /= 2
        if not f_new < f:
            break
        s, yv = theta_new - theta, g_new - g
        sy = s @ yv
        if sy > 1e-12:
            if len(S) == m:
                S.pop(0), Y.pop(0), rho.pop(0)
            S.append(s), Y.append(yv), rho.append(1 / sy)
        done = f - f_new < 1e-10 * max(1, abs(f))
        theta, g, f = theta_new, g_new, f_new
        if done:
            break
    return theta


def average_precision(scores, labels):
    """metrics.ts averagePrecision: tied scores form one group."""
    order = np.argsort(-scores, kind="stable")
    s, l = scores[order], labels[order]
    pos = l.sum()
    if pos == 0:
        return float("nan")
    ap, tp, seen, i = 0.0, 0, 0, 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        grp = int(l[i:j].sum())
        tp += grp
        seen += j - i
        ap += grp / pos * tp / seen
        i = j
    return ap


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix")
    ap.add_argument("--grid", default=DEFAULT_GRID)
    ap.add_argument("--out")
    a = ap.parse_args()
    meta = json.load(open(a.prefix + ".json"))
    rows = meta["rows"]
    X = np.fromfile(a.prefix + ".f32", dtype=np.float32).reshape(len(rows), meta["dim"]).astype(np.float64)
    y = np.array([r["y"] for r in rows], dtype=np.float64)
    w = np.array([r["w"] for r in rows], dtype=np.float64)
    strong = np.array([r["strong"] for r in rows])
    ds = np.array([r["dataset"] for r in rows])
    lang = np.array([r["lang"] for r in rows])
    lam = meta["lambda"]
    grid = [None if g == "none" else (g.split(":")[0], float(g.split(":")[1])) for g in a.grid.split(",")]
    names = ["none" if g is None else f"{g[0]}:{g[1]:g}" for g in grid]
    inner = [d for d in sorted(set(ds)) if ((ds == d) & strong & (y == 1)).sum() >= MIN_FOLD_CLASS and ((ds == d) & strong & (y == 0)).sum() >= MIN_FOLD_CLASS]
    print(f"fold {meta['fold']} training side ({meta['cache']}): {len(rows)} rows labelled {meta['signal']}, λ={lam}; "
          f"{len(inner)} inner folds: {', '.join(inner)}", flush=True)
    cells = {n: [] for n in names}
    for d in inner:
        tr = ds != d
        te = (ds == d) & strong
        Xt, yt = X[tr], y[tr]
        c0 = boost(w[tr], yt)
        init = None
        for g, name in zip(grid, names):
            c = c0 if g is None else reweight(c0, yt, (lang if g[0] == "lang" else ds)[tr], g[1])
            # the weighted fits start from the unweighted solution, as a λ path does (same convex optimum)
            theta = fit(Xt, yt, c, lam, init)
            if g is None:
                init = theta
            z = X[te] @ theta[:-1] + theta[-1]
            ly, ll = y[te], lang[te]
            cells[name].append({"dataset": d, "n": int(te.sum()), "positives": int(ly.sum()), "auprc": average_precision(z, ly)})
            langs = sorted(set(ll))
            for L in langs if len(langs) > 1 else []:
                k = ll == L
                pos = int(ly[k].sum())
                if pos >= MIN_LANG_CLASS and k.sum() - pos >= MIN_LANG_CLASS:
                    cells[name].append({"dataset": d, "lang": L, "n": int(k.sum()), "positives": pos, "auprc": average_precision(z[k], ly[k])})
            pooled = next(x for x in cells[name] if x["dataset"] == d and "lang" not in x)
            print(f"  {d} {name}: {pooled['auprc']:.3f}", flush=True)
    summary = []
    for n in names:
        f = [x["auprc"] for x in cells[n] if "lang" not in x]
        l = [x["auprc"] for x in cells[n] if "lang" in x]
        summary.append({"weighting": n, "meanAuprc": float(np.mean(f)), "meanLangAuprc": float(np.mean(l)) if l else None, "langCells": len(l)})
        print(f"{n:12s} mean over {len(f)} inner folds {np.mean(f):.4f}; mean over {len(l)} (dataset, language) cells "
              f"{np.mean(l) if l else float('nan'):.4f}")
    best = max(summary, key=lambda s: s["meanAuprc"])["weighting"]
    print(f"best: {best}")
    if a.out:
        json.dump({"fold": meta["fold"], "signal": meta["signal"], "lambda": lam, "cache": meta["cache"], "best": best,
                   "summary": summary, "cells": cells}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
