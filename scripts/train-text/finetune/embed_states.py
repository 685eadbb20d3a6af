"""Embeddings of cached rows through an overlay's top layers in PyTorch (e5ft.py), for the
cross-dataset runs of finetune-crossval.ts: from the layer-`first` states of
cache_states.py, layers first+1..12, mean pooling, L2 norm, written in the format of
scripts/train-text/embedding-cache.ts (keys.txt: sha1 of each text; vectors.f32).

  python3 scripts/train-text/finetune/embed_states.py --overlay f.ovl --out .tmp/embedding-cache/<name>
      [--rows .tmp/finetune/rows.jsonl,.tmp/finetune/test-rows.jsonl] [--first 8]

The engine would give the same vectors up to float summation order (verify.py: worst cosine
0.99998), except for a text longer than one window (510 tokens), which the engine embeds as
the mean of its windows and this script as its first window only: these runs choose
between training recipes; the shipped heads are trained and evaluated on the engine's own
embeddings (npm run train:text:embedding -- --overlay).
"""
import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from e5ft import H, TopEncoder  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--overlay", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--first", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rows", default=",".join(os.path.join(ROOT, f".tmp/finetune/{f}") for f in ("rows.jsonl", "test-rows.jsonl")))
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    cache = os.path.join(ROOT, f".tmp/finetune/states-l{a.first}")
    index = json.load(open(os.path.join(cache, "index.json")))
    states = np.memmap(os.path.join(cache, "states.f16"), np.float16, "r").reshape(-1, H)
    os.makedirs(a.out, exist_ok=True)
    keys_path, vec_path = os.path.join(a.out, "keys.txt"), os.path.join(a.out, "vectors.f32")
    have = [k for k in open(keys_path).read().split("\n") if k] if os.path.exists(keys_path) else []
    n = min(len(have), os.path.getsize(vec_path) // (4 * H) if os.path.exists(vec_path) else 0)
    have = have[:n]  # a killed run's tail: keys and vectors back in step
    open(keys_path, "w").write("".join(k + "\n" for k in have))
    open(vec_path, "ab").truncate(n * 4 * H)
    have = set(have)
    keys = []
    for p in a.rows.split(","):
        for line in open(p):
            k = hashlib.sha1(json.loads(line)["text"].encode()).hexdigest()
            if k in index and k not in have:
                have.add(k)
                keys.append(k)
    keys.sort(key=lambda k: index[k][1])  # similar lengths together: little padding
    print(f"{len(keys)} texts to embed ({n} already in {a.out})", flush=True)
    enc = TopEncoder(a.overlay).eval()
    t0 = time.time()
    with open(vec_path, "ab") as fv, open(keys_path, "a") as fk, torch.no_grad():
        i, nb = 0, 0
        while i < len(keys):
            T = index[keys[i]][1]
            size = max(1, min(256, 8192 // max(T, 1)))
            b = keys[i:i + size]
            T = max(index[k][1] for k in b)
            x = np.zeros((len(b), T, H), np.float32)
            m = np.zeros((len(b), T), bool)
            for r, k in enumerate(b):
                o, t = index[k]
                x[r, :t] = states[o:o + t]
                m[r, :t] = True
            v = enc(torch.from_numpy(x), torch.from_numpy(m)).numpy().astype(np.float32)
            fv.write(v.tobytes())
            fk.write("".join(k + "\n" for k in b))
            i += len(b)
            nb += 1
            if nb % 50 == 0 or i == len(keys):
                fv.flush()
                fk.flush()
                rate = i / (time.time() - t0)
                print(f"  {i}/{len(keys)} ({rate:.0f} texts/s)", flush=True)
    print(f"done in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
