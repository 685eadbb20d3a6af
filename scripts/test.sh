#!/usr/bin/env bash
# The README's single test command (`npm test`, after `npm run build` by pretest).
# Works on a fresh clone with nothing running: it starts the real Kafka broker and
# Elasticsearch node on loopback (scripts/infra/infra.sh; fetched with Maven on first
# use), runs every tier, and stops what it started (servers already running are
# reused and left running).
#
#   0. typecheck (tsc over every source, specs included), format (Prettier) and lint (ESLint: no-floating-promises,
#      switch-exhaustiveness-check, the domain libs free of Nest, Kafka, Elasticsearch, fs)
#   1. unit + integration (file log, SQLite) + kafka and elasticsearch (adapters on the
#      real servers)
#      + kafka-fault (adapter while a private broker restarts) + e2e on fastify
#   2. e2e on express, and the API description checked against the running service by
#      schemathesis on both adapters (scripts/api-contract.sh)
#   3. e2e in distributed mode (E2E_MODE=distributed: projector, worker, two api
#      replicas behind a round-robin proxy, on Kafka + Elasticsearch) + the distributed
#      fault tests (test/distributed)
# A missing or broken server fails the run; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
INFRA=scripts/infra/infra.sh
t0=$(date +%s)
# Each jest tier writes its JSON results here; the totals are printed last.
REPORTS=.tmp/test-reports
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

# Read the whole status first: `status` exits 1 when either server is down, and grep -q
# closing the pipe early would kill it, which pipefail would count against the server.
was_up() { local st; st="$("$INFRA" status 2>/dev/null || true)"; grep -q "^$1: running" <<<"$st"; }
started=()
was_up kafka || started+=(kafka)
was_up elasticsearch || started+=(es)
# Every topic, group and index the tests create carries this run's id (libs/testing).
export CDS_TEST_RUN="t$(date +%s | tail -c 9)"
cleanup() {
  local rc=$?
  if "$INFRA" status >/dev/null 2>&1; then
    node scripts/infra/delete-test-data.js "e2e-$CDS_TEST_RUN-" "fault-$CDS_TEST_RUN-" || true
  fi
  for s in "${started[@]}"; do "$INFRA" stop "$s" || true; done
  echo "[test] finished in $(( $(date +%s) - t0 )) s (exit $rc)"
  # The closing line CI reads: every jest tier's tests added up (a tier that did not run
  # adds nothing; a run cut short by a failure still says how far it got).
  node scripts/test-summary.js "$REPORTS" | tee "$REPORTS/summary.txt"
  exit $rc
}
trap cleanup EXIT
"$INFRA" start
eval "export $("$INFRA" env | tr '\n' ' ')"

tier=0
jest_tier() {
  tier=$((tier + 1))
  node_modules/.bin/jest --runInBand --json --outputFile="$REPORTS/jest-$tier.json" "$@"
}

step() { echo; echo "[test] $1 ($(( $(date +%s) - t0 )) s)"; }
step "typecheck (every source, specs included), lint and format (Prettier)"
npm run --silent typecheck
npm run --silent lint
npm run --silent format:check
step "unit, integration, kafka, elasticsearch, kafka-fault, e2e (fastify, embedded)"
jest_tier --selectProjects unit integration kafka elasticsearch kafka-fault e2e
step "e2e (express, embedded)"
E2E_HTTP_ADAPTER=express jest_tier --selectProjects e2e
step "API contract: schemathesis against GET /v1/openapi.json (fastify, express)"
scripts/api-contract.sh fastify
scripts/api-contract.sh express
step "e2e + fault tests (fastify, distributed: Kafka + Elasticsearch, 2 api replicas)"
E2E_MODE=distributed jest_tier --selectProjects e2e distributed
