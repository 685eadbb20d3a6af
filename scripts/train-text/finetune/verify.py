"""Checks the PyTorch top layers (e5ft.py) against the engine: layer-8 hidden states from
the engine, layers 9-12 in PyTorch, pooled; against the engine's own embedding of the same
texts, with the published layers and with a perturbed overlay. Prints the worst cosine.

  python3 scripts/train-text/finetune/verify.py [models/e5] [--first 8]
"""
import json
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from e5ft import Engine, TopEncoder  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
MODEL = os.path.join(ROOT, "models/e5")
FIXTURES = os.path.join(ROOT, "libs/providers/src/local-embedding/multilingual-cases.fixtures.json")


def forward(top, engine, texts, first):
    out = []
    for t in texts:
        _, h = engine.hidden(t, first)
        x = torch.from_numpy(h)[None]
        with torch.no_grad():
            out.append(top(x, torch.ones(1, h.shape[0], dtype=torch.bool))[0].numpy())
    return np.stack(out)


def main():
    first = 8
    texts = [c["text"] for c in json.load(open(FIXTURES))["cases"]][:60] + ["", "ok"]
    torch.set_num_threads(1)
    tmp = tempfile.mkdtemp()
    eng = Engine(os.path.join(MODEL, "libe5.so"), os.path.join(MODEL, "e5-small-q4.bin"))
    base = os.path.join(tmp, "base.ovl")
    eng.export_overlay(first, 12 - first, base)
    top = TopEncoder(base)
    ours, theirs = forward(top, eng, texts, first), eng.embed(texts)
    cos = (ours * theirs).sum(1)
    print(f"published layers {first + 1}-12: worst cosine {cos.min():.6f}, mean {cos.mean():.6f}")
    # move every weight by one grid level somewhere and every bias a little: the overlay the
    # engine loads must give what PyTorch computes
    with torch.no_grad():
        g = torch.Generator().manual_seed(1)
        for p in top.parameters():
            p.add_(torch.randn(p.shape, generator=g) * (p.detach().abs().mean() * 0.3))
    tuned = os.path.join(tmp, "tuned.ovl")
    top.export(tuned)
    eng2 = Engine(os.path.join(MODEL, "libe5.so"), os.path.join(MODEL, "e5-small-q4.bin"), tuned)
    ours2, theirs2 = forward(TopEncoder(tuned), eng, texts, first), eng2.embed(texts)
    cos2 = (ours2 * theirs2).sum(1)
    moved = (ours2 * ours).sum(1)
    print(f"perturbed overlay: worst cosine PyTorch vs engine {cos2.min():.6f}, mean {cos2.mean():.6f}; moved from published: mean cosine {moved.mean():.4f}")


if __name__ == "__main__":
    main()
