"""Fine-tunes the top encoder layers (first+1 .. 12) and one linear head per signal,
multi-task, on the cached layer-`first` states (cache_states.py), with the engine's
quantization simulated (e5ft.py); writes the tuned layers as an overlay file.

  python3 scripts/train-text/finetune/train.py [--first 8] [--epochs 1] [--lr 1e-4] [--max-tokens 128]
      [--hold-out dataset,… (cross-dataset runs: train without them)] [--anchor β] [--max-rows N] [--out f.ovl]

--anchor β adds β·(1 − cos) between each row's tuned embedding and the published encoder's
(a frozen copy, one more forward pass a step): where the training data says little (sexual
outside English and French, say) the encoder stays where it was instead of drifting with
the signals that dominate the loss. 0 (the default) is the plain fine-tune.

Seeded (torch, numpy, batch order), 2 threads; saves a checkpoint beside --out every 10
minutes, and a rerun with the same arguments resumes from it. The heads trained here only steer the
encoder; the shipped heads are refitted on the tuned embeddings by
`npm run train:text:embedding -- --overlay <out>` (LODO-chosen λ, Platt on dev).
"""
import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from e5ft import H, Engine, TopEncoder  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
SIGNALS = ["sexual", "sexual_minors", "hate", "hate_threat", "harassment", "insult", "violence", "violence_threat", "self_harm",
           "self_harm_intent", "profanity", "toxicity"]
MAX_POSITIVE_BOOST = 4.0


def load(a):
    rows = [json.loads(l) for l in open(a.rows)]
    hold = set(filter(None, a.hold_out.split(",")))
    cache = os.path.join(ROOT, f".tmp/finetune/states-l{a.first}")
    index = json.load(open(os.path.join(cache, "index.json")))
    states = np.memmap(os.path.join(cache, "states.f16"), np.float16, "r").reshape(-1, H)
    keep = [r for r in rows if r["dataset"] not in hold and hashlib.sha1(r["text"].encode()).hexdigest() in index]
    rng = np.random.default_rng(a.seed)
    if a.max_rows and len(keep) > a.max_rows:
        keep = [keep[i] for i in sorted(rng.choice(len(keep), a.max_rows, replace=False))]
    spans = [index[hashlib.sha1(r["text"].encode()).hexdigest()] for r in keep]
    y = np.zeros((len(keep), len(SIGNALS)), np.float32)
    w = np.zeros_like(y)
    for i, r in enumerate(keep):
        for s, (lab, wt) in r["labels"].items():
            k = SIGNALS.index(s)
            y[i, k], w[i, k] = lab, wt
    return keep, spans, states, y, w


def batches(spans, idx, size, rng):
    """length-bucketed batches in a seeded order: little padding, no fixed order"""
    idx = np.array(idx)
    idx = idx[rng.permutation(len(idx))]
    chunks = [sorted(idx[i:i + size * 50], key=lambda j: spans[j][1]) for i in range(0, len(idx), size * 50)]
    out = [c[i:i + size] for c in chunks for i in range(0, len(c), size)]
    return [out[i] for i in rng.permutation(len(out))]


def collate(spans, states, b, max_tokens=512):
    T = min(max_tokens, max(spans[j][1] for j in b))
    x = np.zeros((len(b), T, H), np.float32)
    m = np.zeros((len(b), T), bool)
    for r, j in enumerate(b):
        o, n = spans[j]
        n = min(n, T)
        x[r, :n] = states[o:o + n]
        m[r, :n] = True
    return torch.from_numpy(x), torch.from_numpy(m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=8)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hold-out", default="")
    ap.add_argument("--max-rows", type=int, default=0)
    ap.add_argument("--anchor", type=float, default=0.0, help="weight of 1 - cos(tuned, published embedding) in the loss")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=128, help="tokens of a row the training sees (the cache holds up to 512)")
    ap.add_argument("--rows", default=os.path.join(ROOT, ".tmp/finetune/rows.jsonl"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".tmp/finetune/tuned.ovl"))
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    rows, spans, states, y, w = load(a)
    train = [i for i, r in enumerate(rows) if r["split"] == "train"]
    dev = [i for i, r in enumerate(rows) if r["split"] == "dev"]
    print(f"{len(train)} training rows, {len(dev)} dev rows, held out: {a.hold_out or 'none'}", flush=True)

    base = os.path.join(ROOT, f".tmp/finetune/published-l{a.first}.ovl")
    if not os.path.exists(base):
        eng = Engine(os.path.join(ROOT, "models/e5/libe5.so"), os.path.join(ROOT, "models/e5/e5-small-q4.bin"))
        eng.export_overlay(a.first, 12 - a.first, base)
        eng.close()
    enc = TopEncoder(base)
    pub = TopEncoder(base).eval().requires_grad_(False)
    heads = torch.nn.Linear(H, len(SIGNALS))
    # per-signal positive boost, as the logistic heads (embedding-lodo.ts headData)
    pos = (w[train] * y[train]).sum(0)
    neg = (w[train] * (1 - y[train])).sum(0)
    boost = torch.from_numpy(np.clip(np.sqrt(neg / np.maximum(pos, 1e-9)), 1, MAX_POSITIVE_BOOST).astype(np.float32))
    opt = torch.optim.AdamW([{"params": enc.parameters(), "lr": a.lr, "weight_decay": 0.0},
                             {"params": heads.parameters(), "lr": a.head_lr, "weight_decay": 0.01}])
    steps = math.ceil(a.epochs * len(train) / a.batch)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / (0.06 * steps)) * max(0.0, (steps - s) / steps))
    # every batch of the run, in order, drawn once from the seed: a resumed run goes on
    # with the same batches as an uninterrupted one
    plan = []
    while len(plan) < steps:
        plan.extend(batches(spans, train, a.batch, rng))
    plan = plan[:steps]
    y_t, w_t = torch.from_numpy(y), torch.from_numpy(w)
    ckpt = a.out + ".ckpt"
    step, log, spent = 0, [], 0.0
    if os.path.exists(ckpt):
        c = torch.load(ckpt, weights_only=False)
        if c["args"] == {k: v for k, v in vars(a).items() if k != "threads"}:
            enc.load_state_dict(c["enc"])
            heads.load_state_dict(c["heads"])
            opt.load_state_dict(c["opt"])
            sched.load_state_dict(c["sched"])
            step, log, spent = c["step"], c["log"], c["seconds"]
            torch.set_rng_state(c["torch_rng"])
            print(f"  resumed at step {step}/{steps} from {ckpt}", flush=True)
    t0 = time.time() - spent
    last_save = time.time()
    while step < steps:
        b = plan[step]
        x, m = collate(spans, states, b, a.max_tokens)
        e = enc(x, m)
        z = heads(e)
        yy, ww = y_t[b], w_t[b]
        ww = ww * torch.where(yy > 0, boost, torch.ones_like(boost))
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(z, yy, reduction="none") * ww).sum() / max(1.0, float((ww > 0).sum()))
        if a.anchor > 0:
            with torch.no_grad():
                e0 = pub(x, m)
            loss = loss + a.anchor * (1 - (e * e0).sum(-1)).mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(enc.parameters()) + list(heads.parameters()), 1.0)
        opt.step()
        sched.step()
        step += 1
        log.append(loss.item())
        if step % 50 == 0 or step == steps:
            el = time.time() - t0
            print(f"  step {step}/{steps} loss {np.mean(log[-100:]):.4f} ({el:.0f} s, ~{el / step * (steps - step) / 60:.0f} min left)", flush=True)
        if time.time() - last_save > 600 and step < steps:
            torch.save({"args": {k: v for k, v in vars(a).items() if k != "threads"}, "enc": enc.state_dict(), "heads": heads.state_dict(),
                        "opt": opt.state_dict(), "sched": sched.state_dict(), "step": step, "log": log, "seconds": time.time() - t0,
                        "torch_rng": torch.get_rng_state()}, ckpt + ".part")
            os.replace(ckpt + ".part", ckpt)
            last_save = time.time()
    enc.eval()
    with torch.no_grad():
        dev_loss, dev_cos = [], []
        for b in batches(spans, dev, 64, np.random.default_rng(0)):
            x, m = collate(spans, states, b, a.max_tokens)
            e = enc(x, m)
            dev_cos.extend((e * pub(x, m)).sum(-1).tolist())
            z = heads(e)
            ww = w_t[b]
            dev_loss.append(float((torch.nn.functional.binary_cross_entropy_with_logits(z, y_t[b], reduction="none") * ww).sum() / max(1.0, float((ww > 0).sum()))))
    moved = 0
    total = 0
    for lt, lp in zip(enc.layers, pub.layers):
        for name in ("q", "kk", "v", "ao", "fi", "fo"):
            a_, b_ = getattr(lt, name).levels(), getattr(lp, name).levels()
            moved += int((a_ != b_).sum())
            total += a_.numel()
    enc.export(a.out)
    if os.path.exists(ckpt):
        os.remove(ckpt)
    print(json.dumps({"out": a.out, "sha256": hashlib.sha256(open(a.out, "rb").read()).hexdigest(), "seconds": round(time.time() - t0),
                      "steps": steps, "trainRows": len(train), "devLoss": round(float(np.mean(dev_loss)), 4),
                      "devCosToPublished": round(float(np.mean(dev_cos)), 4),
                      "q4LevelsMoved": f"{moved}/{total}", "heldOut": a.hold_out, "args": vars(a)}, indent=1))


if __name__ == "__main__":
    main()
