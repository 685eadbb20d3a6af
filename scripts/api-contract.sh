#!/usr/bin/env bash
# The API description checked against the running service: schemathesis (PyPI, pinned)
# reads GET /v1/openapi.json and sends generated requests, valid and invalid, to every
# operation; a 5xx, an undocumented status, content type or header, or an answer that
# does not match its schema fails the run.
#
#   scripts/api-contract.sh [fastify|express]     (default fastify; after npm run build)
#   scripts/api-contract.sh install               only install schemathesis (npm test does
#                                                 it while the build runs)
#
# The service runs embedded (file log, SQLite) on a temporary data dir, with a rate limit
# high enough that the run tests the operations rather than the limiter. ST_EXAMPLES
# (default 50) sets the cases per operation, ST_SEED the seed (fixed, so a failure
# reproduces; change it to explore).
set -euo pipefail
cd "$(dirname "$0")/.."
ADAPTER="${1:-fastify}"
SCHEMATHESIS_VERSION=4.32.5
VENV="${SCHEMATHESIS_VENV:-.tmp/schemathesis-$SCHEMATHESIS_VERSION}"

if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
[ "$ADAPTER" != install ] || exit 0

data=$(mktemp -d -t cds-contract-XXXXXX)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
key="contract-admin-$(node -e "console.log(require('crypto').randomBytes(12).toString('hex'))")"
log="$data/service.log"
DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 ADMIN_API_KEY="$key" HTTP_ADAPTER="$ADAPTER" \
  RATE_LIMIT_PER_MINUTE=10000000 IMAGE_MODEL_PRELOAD=false IMAGE_WORKERS=1 LOG_LEVEL=warn \
  node dist/apps/api/src/main.js >"$log" 2>&1 &
pid=$!
stop() {
  kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap stop EXIT

for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "[contract] the service exited before answering"; exit 1; }
  sleep 0.2
done

echo "[contract] schemathesis $SCHEMATHESIS_VERSION against the service on $ADAPTER (port $port)"
# schemathesis closes with a pytest-style "=== N warnings in 21s ===" line; it is marked
# as ours so nothing reading the log takes it for a test runner's closing line.
set +e
"$VENV/bin/schemathesis" run "http://127.0.0.1:$port/v1/openapi.json" \
  --header "Authorization: Bearer $key" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --max-examples "${ST_EXAMPLES:-50}" --seed "${ST_SEED:-20261125}" \
  --workers 1 --request-timeout 30 --no-color --suppress-health-check all 2>&1 | sed -u 's/^=\{3,\}/[contract] &/'
status=${PIPESTATUS[0]}
set -e
if (( status != 0 )); then
  echo "[contract] failed on $ADAPTER; the service log follows"
  tail -n 100 "$log"
fi
exit $status
