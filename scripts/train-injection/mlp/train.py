"""Fits the prompt-attack heads of a setting chosen with sweep.py on every training row and
writes them as injection-heads.json (format 2: the named layers side by side, a hidden
layer's weights as base64 float32), served by libs/providers/src/local-embedding/
injection-heads.ts without Python. The model fields, chunk limits and data counts are the
current file's and manifest's (train:injection wrote them from the same rows); the manifest
gets the setting under `chosen`.

  nice -n 19 python3 scripts/train-injection/mlp/train.py --layers 4,6,8 --head mlp:32:10:0.01:0.1:128 --skill-threshold 0.95 [--out-dir DIR]
"""
import argparse
import base64
import json
import os

# one BLAS thread (heads.py says why)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from heads import HEADS, ROOT, data_hash, features, fit_calibrated, load, make_head  # noqa: E402

MODEL_DIR = os.path.join(ROOT, "libs", "providers", "src", "local-embedding", "model")


def sig6(x):
    return float(f"{x:.6g}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", required=True)
    ap.add_argument("--head", required=True)
    ap.add_argument("--skill-threshold", type=float, default=None)
    ap.add_argument("--out-dir", default=MODEL_DIR)
    a = ap.parse_args()
    rows, X, all_layers = load()
    layers = [int(x) for x in a.layers.split(",")]
    F = features(X, all_layers, layers)
    model, cal = fit_calibrated(rows, F, list(range(len(rows))), make_head(a.head))
    current = json.load(open(os.path.join(MODEL_DIR, "injection-heads.json")))
    heads, at_boundary = {}, []
    for name, label in HEADS.items():
        e = model.export(label)
        ca, cb = cal[label]
        head = {"w": [sig6(x) for x in e["w"]], "b": sig6(e["b"]), "platt": {"a": sig6(ca), "b": sig6(cb)}}
        if "w1" in e:
            w1 = np.ascontiguousarray(e["w1"], dtype="<f4")
            head["hidden"] = {"units": int(w1.shape[0]), "w": base64.b64encode(w1.tobytes()).decode(), "b": [sig6(x) for x in e["b1"]]}
        heads[name] = head
        # the balanced decision boundary is logit 0: calibrated, sigma(platt.b)
        at_boundary.append(1 / (1 + np.exp(-cb)))
    threshold = sig6(min(at_boundary))
    if a.skill_threshold is not None and not threshold <= a.skill_threshold < 1:
        raise SystemExit(f"--skill-threshold must be within [{threshold}, 1)")
    out = {
        "format": 2,
        "model": {**current["model"], "layer": layers[-1], "features": layers},
        "chunks": current["chunks"],
        "heads": heads,
        "threshold": threshold,
        **({} if a.skill_threshold is None else {"skillThreshold": a.skill_threshold}),
    }
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, "injection-heads.json"), "w") as f:
        f.write(json.dumps(out, separators=(",", ":")) + "\n")
    manifest_path = os.path.join(MODEL_DIR, "injection-heads.manifest.json")
    manifest = json.load(open(manifest_path))
    manifest["chosen"] = {
        "features": layers,
        "head": a.head,
        "threshold": threshold,
        "skillThreshold": a.skill_threshold if a.skill_threshold is not None else threshold,
        "trainer": "scripts/train-injection/mlp/train.py",
        "rowsSha256": data_hash(rows),
    }
    with open(os.path.join(a.out_dir, "injection-heads.manifest.json"), "w") as f:
        f.write(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows, layers {layers}, {a.head}: threshold {threshold} -> {a.out_dir}")


if __name__ == "__main__":
    main()
