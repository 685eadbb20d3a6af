#!/usr/bin/env bash
# The README's single test command (`npm test`). Works on a fresh clone with nothing
# running: it builds, starts the real Kafka broker and Elasticsearch node on loopback
# (scripts/infra/infra.sh; fetched with Maven on first use), runs every tier, and stops
# what it started (servers already running are reused and left running).
#
#   0. at once: the build, typechecked over every source, specs included (one tsc
#      program: `npm run build:checked`); the unit tests (on both cores), then lint
#      (ESLint: no-floating-promises, switch-exhaustiveness-check, the domain libs free of
#      Nest, Kafka, Elasticsearch, fs) and format (Prettier); the servers' start; the
#      schemathesis install
#   1. once built, three lanes at once, as each waits on processes and servers the others
#      do not use:
#      local:   integration (file log, SQLite, media, local models); e2e on fastify
#               (embedded); the adapter-contract e2e suites on express (EXPRESS_SUITES);
#               the API description checked against the running service by schemathesis
#               on both adapters (scripts/api-contract.sh)
#      adapters: kafka and elasticsearch (adapters on the real servers), kafka-fault
#               (adapter while a private broker restarts): mostly waiting on the servers
#      servers: e2e in distributed mode
#               (E2E_MODE=distributed: projector, worker, two api replicas behind a
#               round-robin proxy, on Kafka + Elasticsearch) + the distributed fault tests,
#               then, like the local lane once done, the parts of DISTRIBUTED_TAIL (short
#               distributed suites) no lane has taken yet, so that the lanes end together
# A missing or broken server fails the run; nothing is skipped. Each step's time is in
# the log ([test] lines) and in .tmp/test-reports/steps.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
INFRA=scripts/infra/infra.sh
t0=$(date +%s)
# Each jest tier writes its JSON results here; the totals are printed last.
REPORTS=.tmp/test-reports
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

# The e2e suites that run on express too: those through the adapter's own code (body
# parsing and limits, multipart, the error filter, headers and statuses set on the reply,
# static files, request ids, route labels, shutdown). The rest is adapter-independent
# and runs on fastify, embedded and distributed; schemathesis covers every operation on both.
EXPRESS_SUITES=(checks auth-keys policies video shutdown console logging metrics openapi)
# The short distributed e2e suites (one deployment each; 147 s in all, one at a time, in a
# CI run of 98c5b8e), in three parts: the servers lane runs every other distributed suite,
# then each lane done with its own steps takes the next part no lane has taken, so that
# the lanes end together whichever is the longer.
DISTRIBUTED_TAIL=(
  "test/e2e/console.e2e-spec.ts packages/sdk/test/cli.e2e-spec.ts test/e2e/webhooks.e2e-spec.ts test/e2e/openapi.e2e-spec.ts test/e2e/policy-impact.e2e-spec.ts"
  "test/e2e/checks.e2e-spec.ts test/e2e/text-backpressure.e2e-spec.ts test/e2e/providers.e2e-spec.ts packages/sdk/test/sdk.e2e-spec.ts test/e2e/images-ocr-off.e2e-spec.ts"
  "test/e2e/batches.e2e-spec.ts test/e2e/policies.e2e-spec.ts test/e2e/guardrails-zones.e2e-spec.ts test/e2e/metrics.e2e-spec.ts"
)

# Read the whole status first: `status` exits 1 when either server is down, and grep -q
# closing the pipe early would kill it, which pipefail would count against the server.
was_up() { local st; st="$("$INFRA" status 2>/dev/null || true)"; grep -q "^$1: running" <<<"$st"; }
started=()
was_up kafka || started+=(kafka)
was_up elasticsearch || started+=(es)
# Every topic, group and index the tests create carries this run's id (libs/testing).
export CDS_TEST_RUN="t$(date +%s | tail -c 9)"
# In memory (tmpfs) where the machine has room, unless CDS_TEST_ON_DISK is set: every
# temporary directory of the tests (each service's DATA_DIR: file log, SQLite, media) and
# the data of the servers this run starts. An fsync costs ~5 ms on this VM's disk and
# nothing on tmpfs; no test cuts the machine's power (a SIGKILLed process loses what it had
# not written, never what the kernel holds), so every test proves what it proved on disk,
# and the code still calls fsync. Measured 2026-11-29 on the shared 2-core machine: an
# Elasticsearch index created in 0.11 s instead of 0.5 s, a deployment's projector ready in
# ~2 s instead of ~3.9 s, three embedded e2e suites in 25 s instead of 29 s.
MEMORY_DIR=""
# The servers this run starts (and the fault tests' private brokers) compile with C1 only:
# short-lived servers under a light load never repay C2's compiling. Measured 2026-11-29 on
# a private Elasticsearch node running the elasticsearch tier (47 tests), twice each: 8 s of
# CPU to start instead of 14-22 s, 21-22 s for the tier instead of 38 s, the same wall time.
export INFRA_JAVA_OPTS="${INFRA_JAVA_OPTS--XX:TieredStopAtLevel=1}"
if [[ -z "${CDS_TEST_ON_DISK:-}" && -d /dev/shm && -w /dev/shm ]] && (($(df -Pk /dev/shm | awk 'NR == 2 { print $4 }') > 4 * 1024 * 1024)); then
  MEMORY_DIR="/dev/shm/cds-test-$CDS_TEST_RUN"
  mkdir -p "$MEMORY_DIR/tmp"
  export TMPDIR="$MEMORY_DIR/tmp"
  # only servers this run starts, both of them (one already running keeps its own state)
  if ((${#started[@]} == 2)) && [[ -z "${INFRA_STATE:-}" ]]; then export INFRA_STATE="$MEMORY_DIR/infra"; fi
fi
# Background steps run as their own process groups, so a cleanup ends each whole.
set -m
background=()
cleanup() {
  local rc=$?
  for pid in "${background[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  if "$INFRA" status >/dev/null 2>&1; then
    node scripts/infra/delete-test-data.js "e2e-$CDS_TEST_RUN-" "fault-$CDS_TEST_RUN-" || true
  fi
  # (the servers' own CPU is in their stop lines: the steps' figures leave it out)
  for s in "${started[@]}"; do { "$INFRA" stop "$s" 2>&1 || true; } | tee -a "$REPORTS/steps.txt"; done
  [[ -z "$MEMORY_DIR" ]] || rm -rf "$MEMORY_DIR"
  echo "[test] finished in $(( $(date +%s) - t0 )) s (exit $rc)" | tee -a "$REPORTS/steps.txt"
  # The closing line CI reads: every jest tier's tests added up (a tier that did not run
  # adds nothing; a run cut short by a failure still says how far it got).
  node scripts/test-summary.js "$REPORTS" | tee "$REPORTS/summary.txt"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# step NAME COMMAND...: runs it, with its start and duration in the log and steps.txt
# The CPU a step used: its waited-for descendants' user + system time (the kernel adds a
# reaped child's own children to it), in seconds of one core; not the servers, which run
# on their own. The run is CPU-bound: this, not the wall time, says where to cut.
children_cpu() { awk '{ printf "%d", ($16 + $17) / 100 }' "/proc/$1/stat"; } # PID
step() {
  local name="$1" s c me=$BASHPID rc=0
  shift
  s=$(date +%s)
  c=$(children_cpu "$me")
  echo "[test] $name: started at $((s - t0)) s"
  "$@" || rc=$?
  echo "[test] $name: $( ((rc == 0)) && echo done || echo "FAILED (exit $rc)") in $(($(date +%s) - s)) s ($(($(children_cpu "$me") - c)) s of CPU), at $(($(date +%s) - t0)) s" | tee -a "$REPORTS/steps.txt"
  return $rc
}
# jest_tier NAME ARGS...: one jest run, its JSON results in jest-NAME.json
jest_tier() {
  local name="$1"
  shift
  node_modules/.bin/jest --json --outputFile="$REPORTS/jest-$name.json" "$@"
}
# lane NAME COMMAND...: runs it in the background, each line of its output tagged [NAME]
lane() {
  ("${@:2}" 2>&1 | sed -u "s/^/[$1] /") &
  background+=($!)
}
wait_for() { # PID NAME: the exit status of a background step, named in the log when it failed
  local rc=0
  wait "$1" || rc=$?
  ((rc == 0)) || echo "[test] $2 FAILED (exit $rc)"
  return $rc
}

# Where the tests find the servers (known from the ports before they are up).
eval "export $("$INFRA" env | tr '\n' ' ')"

# ------------------------------------------------------------- 0. build, unit tests
# What needs no build starts first, in the background: the servers boot (most of it
# waiting on the JVMs), schemathesis installs into its venv, and the unit tests (jest
# compiles what it runs itself), lint and format take the core tsc leaves free.
lane start step "Kafka and Elasticsearch started" "$INFRA" start
infra_pid=$!
lane contract step "schemathesis installed" scripts/api-contract.sh install
contract_pid=$!
static_checks() {
  step "unit (2 workers)" jest_tier unit --maxWorkers=2 --selectProjects unit
  step "lint (ESLint)" npm run --silent lint
  step "format (Prettier)" npm run --silent format:check
}
lane checks static_checks
checks_pid=$!
step "local models installed (models:fetch)" npm run --silent models:fetch
step "build, typechecked over every source, specs included (build:checked)" npm run --silent build:checked
wait_for "$contract_pid" "the schemathesis install"
wait_for "$infra_pid" "the start of Kafka and Elasticsearch"

# ---------------------------------------------------------------------- 1. the lanes
express_suites() {
  local s files=()
  for s in "${EXPRESS_SUITES[@]}"; do files+=("test/e2e/$s.e2e-spec.ts"); done
  # (the files before --selectProjects, which would take them for project names)
  E2E_HTTP_ADAPTER=express jest_tier e2e-express --runInBand --runTestsByPath "${files[@]}" --selectProjects e2e
}
# One distributed suite at a time in each lane: two at once in one lane, beside the
# embedded suites of the local lane (eight service processes more on 2 cores), let the
# projection fall more than PROJECTION_WAIT_MS behind, and a read right after a write then
# answered from what was projected (a CI failure of text-model.e2e on 2026-11-29). The
# local lane takes a part of the tail only once its own steps are done.
distributed() {
  local f ignore=()
  # shellcheck disable=SC2068 # the parts are lists of paths, split on spaces
  for f in ${DISTRIBUTED_TAIL[@]}; do ignore+=("/${f//./\\.}\$"); done
  E2E_MODE=distributed jest_tier e2e-distributed --runInBand --selectProjects e2e distributed --testPathIgnorePatterns "${ignore[@]}"
}
tail_part() { # I: one part of DISTRIBUTED_TAIL
  # (the files before --selectProjects, which would take them for project names)
  # shellcheck disable=SC2086
  E2E_MODE=distributed jest_tier "e2e-distributed-tail-$1" --runInBand --runTestsByPath ${DISTRIBUTED_TAIL[$1]} --selectProjects e2e
}
distributed_tail() { # the parts no other lane has taken (mkdir: one taker each)
  local i
  for i in "${!DISTRIBUTED_TAIL[@]}"; do
    mkdir "$REPORTS/tail-$i.taken" 2>/dev/null || continue
    step "e2e, short suites $((i + 1))/${#DISTRIBUTED_TAIL[@]} (fastify, distributed)" tail_part "$i"
  done
}
lane_local() {
  step "integration" jest_tier integration --runInBand --selectProjects integration
  step "e2e (fastify, embedded)" jest_tier e2e-fastify --maxWorkers=2 --selectProjects e2e
  step "e2e adapter-contract suites (express, embedded)" express_suites
  step "API contract: schemathesis (fastify)" scripts/api-contract.sh fastify
  step "API contract: schemathesis (express)" scripts/api-contract.sh express
  distributed_tail
}
lane local lane_local
local_pid=$!
# The adapter tiers spend most of their time waiting on Elasticsearch and a private broker
# (24 core-s of jest and its children in 404 s, on a loaded machine): in a lane of their
# own, not ahead of the distributed e2e suites.
lane adapters step "kafka, elasticsearch, kafka-fault" jest_tier servers --runInBand --selectProjects kafka elasticsearch kafka-fault
adapters_pid=$!
lane_servers() {
  step "e2e + fault tests (fastify, distributed: Kafka + Elasticsearch, 2 api replicas)" distributed
  distributed_tail
}
lane servers lane_servers
servers_pid=$!
rc=0
wait_for "$checks_pid" "lane checks" || rc=1
wait_for "$local_pid" "lane local" || rc=1
wait_for "$adapters_pid" "lane adapters" || rc=1
wait_for "$servers_pid" "lane servers" || rc=1
background=()
exit $rc
