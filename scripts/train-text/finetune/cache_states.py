"""Caches the frozen lower layers once: for every row of rows.jsonl (finetune-export.ts),
the engine's hidden states after layer `first` (e5f_hidden_states, the project's own C
engine, the same arithmetic the service runs), cut to `max_tokens` (default 512: the engine's whole first window, so that evaluation
can run the top layers from the cache too), as float16.

  nice -n 10 python3 scripts/train-text/finetune/cache_states.py [--first 8] [--max-tokens 512] [--rows .tmp/finetune/rows.jsonl]

Writes .tmp/finetune/states-l<first>/{states.f16, index.json}; a rerun embeds only rows
not cached yet (keyed by text).
"""
import argparse
import hashlib
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from e5ft import H, Engine  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=8)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rows", default=os.path.join(ROOT, ".tmp/finetune/rows.jsonl"))
    a = ap.parse_args()
    out = os.path.join(ROOT, f".tmp/finetune/states-l{a.first}")
    os.makedirs(out, exist_ok=True)
    index_path, states_path = os.path.join(out, "index.json"), os.path.join(out, "states.f16")
    index = json.load(open(index_path)) if os.path.exists(index_path) else {}
    size = os.path.getsize(states_path) // (2 * H) if os.path.exists(states_path) else 0
    index = {k: v for k, v in index.items() if v[0] + v[1] <= size}  # a killed run's tail
    texts = [json.loads(l)["text"] for l in open(a.rows)]
    todo = [t for t in dict.fromkeys(texts) if hashlib.sha1(t.encode()).hexdigest() not in index]
    print(f"{len(texts)} rows, {len(todo)} texts to run through layers 1-{a.first}", flush=True)
    # one engine per thread: ctypes lets go of the GIL during the C call, so the threads run
    # in parallel; results are written in order
    local = threading.local()

    def run(t):
        if not hasattr(local, "eng"):
            local.eng = Engine(os.path.join(ROOT, "models/e5/libe5.so"), os.path.join(ROOT, "models/e5/e5-small-q4.bin"))
        return local.eng.hidden(t, a.first)[1][: a.max_tokens].astype(np.float16)

    t0 = time.time()
    with open(states_path, "r+b" if os.path.exists(states_path) else "wb") as f, ThreadPoolExecutor(a.threads) as pool:
        f.seek(size * 2 * H)
        f.truncate()
        for i, (t, h) in enumerate(zip(todo, pool.map(run, todo))):
            f.write(h.tobytes())
            index[hashlib.sha1(t.encode()).hexdigest()] = [size, h.shape[0]]
            size += h.shape[0]
            if (i + 1) % 2000 == 0 or i + 1 == len(todo):
                f.flush()
                json.dump(index, open(index_path, "w"))
                rate = (i + 1) / (time.time() - t0)
                print(f"  {i + 1}/{len(todo)} ({rate:.1f} texts/s, ~{(len(todo) - i - 1) / rate / 60:.0f} min left)", flush=True)
    json.dump(index, open(index_path, "w"))
    print(f"cache: {len(index)} texts, {size} tokens, {size * 2 * H / 2**20:.0f} MiB in {out}")


if __name__ == "__main__":
    main()
