"""The prompt-attack heads fitted in Python (torch, CPU, one thread) on the rows and cached
layer embeddings written by injection-export.ts: the same weighting as injection-fit.ts (each
source-and-label group weighs 1/sqrt(n), the benign sets addressed to a model more, then the
two classes the same in total), a linear head (L-BFGS, L2 lambda, as the TS fitter) or a
one-hidden-layer MLP (Adam, weight decay, fixed epochs), and Platt calibration on 3-fold
out-of-fold logits. Imported by sweep.py and train.py; nothing here reads a corpus set.
"""
import hashlib
import json
import os

# one BLAS thread: the machine is shared, and idle OpenBLAS threads spinning against the other
# jobs made a fit 50 times slower
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
EXPORT = os.path.join(ROOT, ".tmp", "injection-export")
HEADS = {"prompt_injection": "injection", "jailbreak": "jailbreak"}
DOMAIN_NEGATIVE_WEIGHT = {"hardneg": 4, "skills": 4, "cursorrules": 4, "awesome": 2, "peguide": 2}
CAL_FOLDS = 3

torch.set_num_threads(1)


def load(export=EXPORT):
    meta = json.load(open(os.path.join(export, "layers.json")))
    rows = [json.loads(line) for line in open(os.path.join(export, "rows.jsonl"))]
    X = np.fromfile(os.path.join(export, "X.f32"), dtype=np.float32).reshape(len(rows), len(meta["layers"]), meta["dim"])
    return rows, X, meta["layers"]


def features(X, all_layers, layers):
    """The named layers' pooled vectors side by side."""
    return np.ascontiguousarray(np.concatenate([X[:, all_layers.index(layer), :] for layer in layers], axis=1))


def cal_fold(sha1):
    # the text's sha1 (as injection-fit.ts folds by its text's sha1)
    return int(sha1[:8], 16) % CAL_FOLDS


def head_data(rows, idx, label):
    """Indices a head learns from, their 0/1 targets and weights."""
    use = [i for i in idx if rows[i]["label"] in ("benign", label)]
    groups = {}
    for i in use:
        k = (rows[i]["source"], rows[i]["label"])
        groups[k] = groups.get(k, 0) + 1
    c = np.array([DOMAIN_NEGATIVE_WEIGHT.get(rows[i]["source"], 1) / np.sqrt(groups[(rows[i]["source"], rows[i]["label"])]) for i in use])
    y = np.array([0.0 if rows[i]["label"] == "benign" else 1.0 for i in use])
    pos, neg = c[y == 1].sum(), c[y == 0].sum()
    c = np.where(y == 1, c * len(use) / 2 / max(pos, 1e-12), c * len(use) / 2 / max(neg, 1e-12))
    return np.array(use, dtype=np.int64), y, c


class Linear:
    """Logistic regression: weighted mean log loss + lam/2 |w|^2, L-BFGS (as the TS fitter)."""

    def __init__(self, lam):
        self.lam = lam

    def fit(self, F, y, c, init=None):
        Xt, yt, ct = torch.from_numpy(F).double(), torch.from_numpy(y).double(), torch.from_numpy(c).double()
        w = torch.zeros(F.shape[1] + 1, dtype=torch.float64, requires_grad=True)
        if init is not None:
            with torch.no_grad():
                w.copy_(torch.from_numpy(init))
        opt = torch.optim.LBFGS([w], max_iter=200, tolerance_grad=1e-5, history_size=8, line_search_fn="strong_wolfe")
        tot = ct.sum()

        def closure():
            opt.zero_grad()
            z = Xt @ w[:-1] + w[-1]
            loss = (ct * torch.nn.functional.binary_cross_entropy_with_logits(z, yt, reduction="none")).sum() / tot
            loss = loss + 0.5 * self.lam * (w[:-1] ** 2).sum()
            loss.backward()
            return loss

        opt.step(closure)
        self.theta = w.detach().numpy().copy()
        return self

    def logits(self, F):
        return F.astype(np.float64) @ self.theta[:-1] + self.theta[-1]

    def export(self):
        return {"w": self.theta[:-1].tolist(), "b": float(self.theta[-1])}


class LinearPair:
    """One logistic head per label, each on its own rows (injection-fit.ts headData)."""

    def __init__(self, lam):
        self.lam = lam

    def fit(self, rows, F, idx, init=None):
        self.heads = {}
        for label in HEADS.values():
            use, y, c = head_data(rows, idx, label)
            self.heads[label] = Linear(self.lam).fit(F[use], y, c, init=init.heads[label].theta if init else None)
        return self

    def logits(self, F, label):
        return self.heads[label].logits(F)

    def export(self, label):
        return self.heads[label].export()


class JointMLP:
    """Both heads on one hidden layer: x -> relu(W1 (x - mu)/sd + b1) -> one logit per label,
    each output's loss on its head's rows and weights (head_data). Trained on the training
    rows' top principal directions (whitened), so a fit costs pca x hidden multiply-adds a row;
    the projection and standardization fold into W1 and b1 on export: serving evaluates plain
    weights on the concatenated layers."""

    def __init__(self, hidden=32, epochs=10, wd=0.01, dropout=0.1, pca=128, lr=2e-3, batch=256, seed=0):
        self.hidden, self.epochs, self.wd, self.dropout, self.pca, self.lr, self.batch, self.seed = hidden, epochs, wd, dropout, pca, lr, batch, seed

    def fit(self, rows, F, idx, init=None):
        torch.manual_seed(self.seed)
        g = torch.Generator().manual_seed(self.seed)
        idx = np.asarray(idx)
        pos = {int(i): k for k, i in enumerate(idx)}
        Y = np.zeros((len(idx), 2), dtype=np.float32)
        C = np.zeros((len(idx), 2), dtype=np.float32)
        for j, label in enumerate(HEADS.values()):
            use, y, c = head_data(rows, idx, label)
            k = [pos[int(i)] for i in use]
            Y[k, j] = y
            C[k, j] = c / c.sum()
        Fi = F[idx]
        self.mu = Fi.mean(axis=0)
        self.sd = Fi.std(axis=0) + 1e-6
        Z = torch.from_numpy(((Fi - self.mu) / self.sd).astype(np.float32))
        sub = Z[:: max(1, len(Z) // 6000)]
        _, sv, vt = torch.linalg.svd(sub, full_matrices=False)
        k = min(self.pca or Z.shape[1], Z.shape[1])
        self.P = (vt[:k].T / (sv[:k] / np.sqrt(len(sub)))).contiguous()
        Xt = Z @ self.P
        Yt, Ct = torch.from_numpy(Y), torch.from_numpy(C)
        self.l1, self.l2 = torch.nn.Linear(k, self.hidden), torch.nn.Linear(self.hidden, 2)
        drop = torch.nn.Dropout(self.dropout)
        params = list(self.l1.parameters()) + list(self.l2.parameters())
        opt = torch.optim.AdamW(params, lr=self.lr, weight_decay=self.wd)
        n = len(idx)
        steps = self.epochs * ((n + self.batch - 1) // self.batch)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=steps)
        for _ in range(self.epochs):
            perm = torch.randperm(n, generator=g)
            for s in range(0, n, self.batch):
                b = perm[s : s + self.batch]
                z = self.l2(drop(torch.relu(self.l1(drop(Xt[b])))))
                # each output's weights sum to 1 over all rows: a batch's loss is its share
                loss = (Ct[b] * torch.nn.functional.binary_cross_entropy_with_logits(z, Yt[b], reduction="none")).sum() * n / len(b)
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
        return self

    def logits(self, F, label):
        j = list(HEADS.values()).index(label)
        with torch.no_grad():
            Z = torch.from_numpy(((F - self.mu) / self.sd).astype(np.float32)) @ self.P
            return self.l2(torch.relu(self.l1(Z)))[:, j].double().numpy()

    def export(self, label):
        j = list(HEADS.values()).index(label)
        W = self.l1.weight.detach().double().numpy() @ self.P.T.double().numpy()
        W1 = W / self.sd[None, :]
        b1 = self.l1.bias.detach().double().numpy() - W1 @ self.mu
        return {"w1": W1, "b1": b1, "w": self.l2.weight.detach().double().numpy()[j], "b": float(self.l2.bias[j].item())}


def platt(z, y, w):
    """Lin, Lin & Weng's Platt fit (weighted), as scripts/train-text/metrics.ts fitPlatt."""
    npos, nneg = w[y == 1].sum(), w[y == 0].sum()
    if npos == 0 or nneg == 0:
        return 1.0, 0.0
    t = np.where(y == 1, (npos + 1) / (npos + 2), 1 / (nneg + 2))

    def f(a, b):
        u = a * z + b
        return float((w * (np.logaddexp(0, u) - t * u)).sum())

    a, b = 1.0, 0.0
    fv = f(a, b)
    for _ in range(100):
        u = a * z + b
        p = 1 / (1 + np.exp(-u))
        d1 = w * (p - t)
        d2 = w * p * (1 - p) + 1e-12
        ga, gb = (d1 * z).sum(), d1.sum()
        if abs(ga) < 1e-5 and abs(gb) < 1e-5:
            break
        haa, hab, hbb = (d2 * z * z).sum() + 1e-12, (d2 * z).sum(), d2.sum() + 1e-12
        det = haa * hbb - hab * hab
        da, db = -(hbb * ga - hab * gb) / det, -(-hab * ga + haa * gb) / det
        step = 1.0
        while step > 1e-10:
            na, nb = a + step * da, b + step * db
            nf = f(na, nb)
            if nf < fv + 1e-4 * step * (ga * da + gb * db):
                a, b, fv = na, nb, nf
                break
            step /= 2
        else:
            break
    return a, b


class CrossFit:
    """The CAL_FOLDS fold models of an MLP averaged (their logits): one MLP with their hidden
    units side by side on export, so the calibration's out-of-fold logits come from the very
    models that are served, and no fifth fit is needed (the machine is shared)."""

    def __init__(self, models):
        self.models = models

    def logits(self, F, label):
        return np.mean([m.logits(F, label) for m in self.models], axis=0)

    def export(self, label):
        e = [m.export(label) for m in self.models]
        k = len(e)
        return {"w1": np.vstack([x["w1"] for x in e]), "b1": np.concatenate([x["b1"] for x in e]), "w": np.concatenate([x["w"] / k for x in e]), "b": float(np.mean([x["b"] for x in e]))}


def fit_calibrated(rows, F, idx, make):
    """Both heads fitted on idx, and each head's Platt calibration on CAL_FOLDS-fold
    out-of-fold logits of the same rows: (model, {label: (a, b)}). A linear pair is refitted
    on every row (as injection-fit.ts); an MLP is the cross-fit average of its fold models."""
    z = {label: [] for label in HEADS.values()}
    linear = isinstance(make(), LinearPair)
    model = make().fit(rows, F, idx) if linear else None
    folds = []
    for k in range(CAL_FOLDS):
        tr = [i for i in idx if cal_fold(rows[i]["sha1"]) != k]
        te = [i for i in idx if cal_fold(rows[i]["sha1"]) == k]
        m = make().fit(rows, F, tr, init=model)
        folds.append(m)
        for label in HEADS.values():
            use, y, c = head_data(rows, te, label)
            z[label].append((m.logits(F[use], label), y, c))
    if not linear:
        model = CrossFit(folds)
    cal = {}
    for label, parts in z.items():
        cal[label] = platt(*(np.concatenate([p[j] for p in parts]) for j in range(3)))
    return model, cal


def probability(model, cal, F):
    """max over heads of the calibrated probability, as skill vetting scores a prompt."""
    p = np.zeros(len(F))
    for label, (a, b) in cal.items():
        p = np.maximum(p, 1 / (1 + np.exp(-(a * model.logits(F, label) + b))))
    return p


def make_head(spec):
    """'linear:0.0001' or 'mlp:32:10:0.01:0.1:128' (hidden units, epochs, weight decay,
    dropout, principal directions kept: 0 for all)."""
    parts = spec.split(":")
    if parts[0] == "linear":
        return lambda: LinearPair(float(parts[1]) if len(parts) > 1 else 1e-4)
    if parts[0] == "mlp":
        hidden, epochs, wd, drop, pca = (parts[1:] + ["32", "10", "0.01", "0.1", "128"][len(parts) - 1 :])[:5]
        return lambda: JointMLP(hidden=int(hidden), epochs=int(epochs), wd=float(wd), dropout=float(drop), pca=int(pca))
    raise ValueError(f"unknown head {spec}")


def data_hash(rows):
    h = hashlib.sha256()
    for r in rows:
        h.update(f"{r['source']}\t{r['label']}\t{r['sha1']}\n".encode())
    return h.hexdigest()
