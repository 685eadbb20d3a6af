#!/usr/bin/env bash
# A real Apache Kafka broker (KRaft) and a real Elasticsearch node on loopback,
# without Docker. The server artifacts come from Maven Central through Maven and are
# cached in ~/.m2 and under .infra/ (gitignored).
#
#   scripts/infra/infra.sh fetch              download (or reuse) the artifacts
#   scripts/infra/infra.sh start [kafka|es]   start (fetches first), wait until healthy
#   scripts/infra/infra.sh stop  [kafka|es]   SIGTERM, wait, SIGKILL if it hangs
#   scripts/infra/infra.sh restart-kafka [--kill]  stop (SIGTERM, or SIGKILL: a crash) then
#                                             start the broker (fault tests)
#   scripts/infra/infra.sh kill  [kafka|es]   SIGKILL, no clean shutdown (fault tests)
#   scripts/infra/infra.sh status             state of both, exit 0 only if both are up
#   scripts/infra/infra.sh env                KAFKA_BROKERS=… ELASTICSEARCH_URL=… (for eval)
#   scripts/infra/infra.sh reset              stop both and delete their data
#
# Environment (all optional):
#   KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (KAFKA_PORT+1), ES_PORT (9200),
#   ES_TRANSPORT_PORT (ES_PORT+100), KAFKA_VERSION (3.9.2), ES_VERSION (8.19.21),
#   KAFKA_HEAP (512m), ES_HEAP (512m), INFRA_DIR (<repo>/.infra), START_TIMEOUT (120 s),
#   KAFKA_FSYNC=1 (fsync every message before ack; default: Kafka's default, page cache),
#   INFRA_JAVA_OPTS: more options for both JVMs (scripts/test.sh: -XX:TieredStopAtLevel=1),
#   JAVA_HOME / ES_JAVA_HOME (default: the `java` on PATH; both need Java 17+),
#   ES_USER (esrun: Elasticsearch refuses to run as root, so as root it runs as this user),
#   INFRA_STATE (INFRA_DIR): where an instance keeps its data, logs, config and pid files.
#   A second, independent broker (e.g. for a fault test that restarts it) is the same
#   script with another state dir and ports; the fetched artifacts are shared:
#     INFRA_STATE=.infra/fault KAFKA_PORT=19092 scripts/infra/infra.sh start kafka
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
INFRA="${INFRA_DIR:-$ROOT/.infra}"

KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
ES_VERSION="${ES_VERSION:-8.19.21}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
ES_PORT="${ES_PORT:-9200}"
ES_TRANSPORT_PORT="${ES_TRANSPORT_PORT:-$((ES_PORT + 100))}"
KAFKA_HEAP="${KAFKA_HEAP:-512m}"
ES_HEAP="${ES_HEAP:-512m}"
START_TIMEOUT="${START_TIMEOUT:-120}"
STOP_TIMEOUT="${STOP_TIMEOUT:-30}"
ES_USER="${ES_USER:-esrun}"

KAFKA_HOME="$INFRA/kafka-$KAFKA_VERSION"
ES_HOME="$INFRA/elasticsearch-$ES_VERSION"
STATE="${INFRA_STATE:-$INFRA}"
[[ "$STATE" == /* ]] || STATE="$PWD/$STATE"
RUN="$STATE/run"
LOGS="$STATE/logs"
DATA="$STATE/data"
CONF="$STATE/conf"
KAFKA_PID="$RUN/kafka.pid"
ES_RUN="$RUN/es"                     # writable by the ES user: ES writes its own pid file
ES_PID="$ES_RUN/elasticsearch.pid"
ES_URL="http://127.0.0.1:$ES_PORT"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }
now() { date +%s; }

# ---------------------------------------------------------------------------- java
java_home_of() { # the JAVA_HOME of a `java` binary
  local j; j="$(readlink -f "$1")"; dirname "$(dirname "$j")"
}
java_major() { # major version of $1/bin/java
  "$1/bin/java" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}
resolve_java() {
  if [[ -z "${JAVA_HOME:-}" || ! -x "${JAVA_HOME:-}/bin/java" ]]; then
    command -v java >/dev/null || die "no java on PATH (Java 17+ needed: apt-get install openjdk-17-jre-headless)"
    JAVA_HOME="$(java_home_of "$(command -v java)")"
  fi
  ES_JAVA_HOME="${ES_JAVA_HOME:-$JAVA_HOME}"
  local m
  m="$(java_major "$JAVA_HOME")"; [[ "$m" -ge 17 ]] || die "Kafka needs Java 17+ (JAVA_HOME=$JAVA_HOME is $m)"
  m="$(java_major "$ES_JAVA_HOME")"; [[ "$m" -ge 17 ]] || die "Elasticsearch 8 needs Java 17+ (ES_JAVA_HOME=$ES_JAVA_HOME is $m)"
  export JAVA_HOME ES_JAVA_HOME
}

# --------------------------------------------------------------------------- fetch
mvn_() {
  command -v mvn >/dev/null || die "Maven is needed to fetch the servers (apt-get install maven)"
  mkdir -p "$LOGS"
  if ! mvn -B -Dstyle.color=never -f "$HERE/pom.xml" -Dkafka.version="$KAFKA_VERSION" -Des.version="$ES_VERSION" \
    "$@" >"$LOGS/fetch.log" 2>&1; then
    grep -E 'ERROR|FAIL' "$LOGS/fetch.log" | head -n 20 >&2 || true
    return 1
  fi
}

fetch_kafka() {
  [[ -f "$KAFKA_HOME/.complete" ]] && return 0
  log "fetching Kafka $KAFKA_VERSION (org.apache.kafka:kafka_2.13 + runtime dependencies) with Maven"
  rm -rf "$KAFKA_HOME.tmp" && mkdir -p "$KAFKA_HOME.tmp"
  mvn_ dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$KAFKA_HOME.tmp/libs" \
    || die "Maven could not resolve Kafka $KAFKA_VERSION"
  ls "$KAFKA_HOME.tmp/libs/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null
  rm -rf "$KAFKA_HOME" && mv "$KAFKA_HOME.tmp" "$KAFKA_HOME" && touch "$KAFKA_HOME/.complete"
}

fetch_es() {
  [[ -f "$ES_HOME/.complete" ]] && return 0
  log "fetching Elasticsearch $ES_VERSION (org.elasticsearch.distribution.integ-test-zip:elasticsearch:zip) with Maven"
  mkdir -p "$INFRA/downloads"
  mvn_ dependency:copy -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
    -DoutputDirectory="$INFRA/downloads" || die "Maven could not resolve Elasticsearch $ES_VERSION"
  local zip="$INFRA/downloads/elasticsearch-$ES_VERSION.zip"
  rm -rf "$INFRA/es.tmp" && mkdir -p "$INFRA/es.tmp"
  if command -v unzip >/dev/null; then
    unzip -q "$zip" -d "$INFRA/es.tmp"
  else # keeps going on machines without unzip
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$INFRA/es.tmp"
    chmod +x "$INFRA/es.tmp/elasticsearch-$ES_VERSION/bin/"*
  fi
  rm -rf "$ES_HOME" && mv "$INFRA/es.tmp/elasticsearch-$ES_VERSION" "$ES_HOME" && rmdir "$INFRA/es.tmp"
  rm -f "$zip" # the copy in ~/.m2 stays
  touch "$ES_HOME/.complete"
}

cmd_fetch() {
  mkdir -p "$INFRA"
  local t0; t0="$(now)"
  fetch_kafka
  fetch_es
  log "artifacts ready in $(( $(now) - t0 ))s: $KAFKA_HOME, $ES_HOME"
}

# ----------------------------------------------------------------------- processes
pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }
cpu_of() { awk '{ printf "%d", ($14 + $15) / 100 }' "/proc/$1/stat" 2>/dev/null || echo "?"; } # PID: user + system, whole s
read_pid() { [[ -f "$1" ]] && cat "$1" 2>/dev/null || true; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

tail_log() { # $1 title, rest: files
  local title="$1"; shift
  local f
  for f in "$@"; do
    [[ -f "$f" ]] || continue
    printf -- '----- last lines of %s (%s) -----\n' "$f" "$title" >&2
    tail -n 40 "$f" >&2
  done
}

stop_pid() { # $1 name, $2 pid file, $3 KILL for a crash
  local name="$1" pidf="$2" pid
  pid="$(read_pid "$pidf")"
  if ! pid_alive "$pid"; then
    rm -f "$pidf"
    log "$name: not running"
    return 0
  fi
  if [[ "${3:-}" == KILL ]]; then
    log "$name: killing (pid $pid, SIGKILL)"
    kill -KILL "$pid" 2>/dev/null || true
    while pid_alive "$pid"; do sleep 0.05; done
    rm -f "$pidf"
    return 0
  fi
  log "$name: stopping (pid $pid, SIGTERM, $(cpu_of "$pid") s of CPU since its start)"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$(( $(now) + STOP_TIMEOUT ))
  while pid_alive "$pid" && (( $(now) < deadline )); do sleep 0.2; done
  if pid_alive "$pid"; then
    log "$name: still alive after ${STOP_TIMEOUT}s, SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while pid_alive "$pid"; do sleep 0.1; done
  fi
  rm -f "$pidf"
  log "$name: stopped"
}

# --------------------------------------------------------------------------- kafka
kafka_ready() {
  port_open "$KAFKA_PORT" || return 1
  (cd "$ROOT" && node "$HERE/kafka-ready.js" "127.0.0.1:$KAFKA_PORT" >/dev/null 2>"$RUN/kafka-ready.err")
}

launch_kafka() {
  local pid; pid="$(read_pid "$KAFKA_PID")"
  if pid_alive "$pid"; then log "kafka: already running (pid $pid)"; return 0; fi
  port_open "$KAFKA_PORT" && die "kafka: port $KAFKA_PORT is taken by another process (set KAFKA_PORT)"
  port_open "$KAFKA_CONTROLLER_PORT" && die "kafka: port $KAFKA_CONTROLLER_PORT is taken (set KAFKA_CONTROLLER_PORT)"
  mkdir -p "$CONF/kafka" "$DATA/kafka" "$LOGS/kafka" "$RUN"

  local props="$CONF/kafka/server.properties"
  cat >"$props" <<EOF
# generated by scripts/infra/infra.sh: single node, KRaft, loopback only
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA/kafka
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
auto.create.topics.enable=false
unclean.leader.election.enable=false
log.retention.ms=-1
group.initial.rebalance.delay.ms=0
# a restarted broker re-registers once its previous incarnation's session has expired:
# short, so a restart takes seconds, not the default 9 s more
broker.session.timeout.ms=2000
broker.heartbeat.interval.ms=500
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
EOF
  if [[ "${KAFKA_FSYNC:-0}" == 1 ]]; then
    printf 'log.flush.interval.messages=1\n' >>"$props"
  fi

  cat >"$CONF/kafka/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=${kafka.logs.dir}/server.log
log4j.appender.file.MaxFileSize=50MB
log4j.appender.file.MaxBackupIndex=3
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.authorizer.logger=WARN
log4j.logger.org.apache.kafka.controller=INFO
log4j.logger.kafka.log.LogCleaner=WARN
EOF

  local cp="$KAFKA_HOME/libs/*"
  local jvm=(-Xms"$KAFKA_HEAP" -Xmx"$KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true
    -Dlog4j.configuration="file:$CONF/kafka/log4j.properties" -Dkafka.logs.dir="$LOGS/kafka")
  # shellcheck disable=SC2206 # options, split on spaces
  jvm+=(${INFRA_JAVA_OPTS:-})

  if [[ ! -f "$DATA/kafka/meta.properties" ]]; then
    # A KRaft cluster id is a base64url Uuid (22 chars); no need to start a JVM for it.
    # (--cluster-id=…: an id may begin with "-", which a separate argument would not survive)
    local cluster_id
    cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    log "kafka: formatting storage (cluster id $cluster_id)"
    "$JAVA_HOME/bin/java" -Xmx256m -Dlog4j.configuration="file:$CONF/kafka/log4j.properties" \
      -Dkafka.logs.dir="$LOGS/kafka-format" -cp "$cp" kafka.tools.StorageTool format --cluster-id="$cluster_id" \
      -c "$props" >"$LOGS/kafka-format.log" 2>&1 \
      || { tail_log "kafka storage format" "$LOGS/kafka-format.log" "$LOGS/kafka-format/server.log"; die "kafka: storage format failed"; }
  fi

  log "kafka: starting $KAFKA_VERSION on 127.0.0.1:$KAFKA_PORT (controller :$KAFKA_CONTROLLER_PORT)"
  : >"$LOGS/kafka.out"
  # setsid: its own session, so a Ctrl-C or the end of the calling job does not kill it;
  # bash writes its own pid then execs java, so the pid file is the JVM's.
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$KAFKA_PID" \
    "$JAVA_HOME/bin/java" "${jvm[@]}" -cp "$cp" kafka.Kafka "$props" \
    >>"$LOGS/kafka.out" 2>&1 </dev/null &
  local i
  for i in $(seq 50); do [[ -s "$KAFKA_PID" ]] && break; sleep 0.05; done
}

wait_kafka() {
  local deadline=$(( $(now) + START_TIMEOUT )) pid
  while true; do
    pid="$(read_pid "$KAFKA_PID")"
    if ! pid_alive "$pid"; then
      tail_log kafka "$LOGS/kafka.out" "$LOGS/kafka/server.log"
      die "kafka: the broker exited during start (logs above, in $LOGS)"
    fi
    if kafka_ready; then log "kafka: healthy on 127.0.0.1:$KAFKA_PORT (pid $pid)"; return 0; fi
    if [[ -f "$RUN/kafka-ready.err" ]] && grep -q 'kafkajs is not installed' "$RUN/kafka-ready.err"; then
      die "kafka: cannot probe the broker: kafkajs is not installed (run npm ci first)"
    fi
    if (( $(now) >= deadline )); then
      tail_log kafka "$LOGS/kafka.out" "$LOGS/kafka/server.log"
      die "kafka: not healthy after ${START_TIMEOUT}s (last probe: $(cat "$RUN/kafka-ready.err" 2>/dev/null))"
    fi
    sleep 0.5
  done
}

# --------------------------------------------------------------------------- elastic
as_es_user() { # run a command as the ES user when we are root (ES refuses root)
  if [[ "$(id -u)" == 0 ]]; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi
}

ensure_es_user() {
  [[ "$(id -u)" == 0 ]] || return 0
  if ! id "$ES_USER" >/dev/null 2>&1; then
    log "elasticsearch: creating system user '$ES_USER' (Elasticsearch refuses to run as root)"
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$ES_USER" \
      || die "cannot create user $ES_USER"
  fi
  runuser -u "$ES_USER" -- test -r "$ES_HOME/lib" \
    || die "user $ES_USER cannot reach $ES_HOME: every parent directory must be world-executable"
}

es_health() { # prints the status (green/yellow/red) or nothing
  curl -s --max-time 3 "$ES_URL/_cluster/health?wait_for_status=yellow&timeout=2s" 2>/dev/null \
    | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p'
}
es_ready() { local s; s="$(es_health)"; [[ "$s" == green || "$s" == yellow ]]; }

launch_es() {
  local pid; pid="$(read_pid "$ES_PID")"
  if pid_alive "$pid"; then log "elasticsearch: already running (pid $pid)"; return 0; fi
  port_open "$ES_PORT" && die "elasticsearch: port $ES_PORT is taken by another process (set ES_PORT)"
  port_open "$ES_TRANSPORT_PORT" && die "elasticsearch: port $ES_TRANSPORT_PORT is taken (set ES_TRANSPORT_PORT)"
  ensure_es_user
  local conf="$CONF/elasticsearch"
  mkdir -p "$conf" "$DATA/elasticsearch" "$LOGS/elasticsearch" "$ES_RUN" "$STATE/tmp/elasticsearch"
  if [[ ! -f "$conf/jvm.options" ]]; then
    cp -r "$ES_HOME/config/." "$conf/"
    # gc log and fatal error files with absolute paths (the defaults are relative to the cwd)
    sed -i -e "s#file=[^:]*gc.log#file=$LOGS/elasticsearch/gc.log#" \
      -e "s#^-XX:ErrorFile=.*#-XX:ErrorFile=$LOGS/elasticsearch/hs_err_pid%p.log#" "$conf/jvm.options"
  fi
  # The integ-test distribution is the OSS core plus x-pack-core/x-pack-security and
  # transport-netty4 only (no painless, no analysis-common, no ingest, no reindex).
  cat >"$conf/elasticsearch.yml" <<EOF
# generated by scripts/infra/infra.sh: single node, loopback only, no security
cluster.name: cds-local
node.name: cds-local-1
discovery.type: single-node
network.host: 127.0.0.1
http.port: $ES_PORT
transport.port: $ES_TRANSPORT_PORT
path.data: $DATA/elasticsearch
path.logs: $LOGS/elasticsearch
xpack.security.enabled: false
# a developer's nearly full disk must not turn the indices read-only
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
# every test deployment has its own ten single-shard indices until the run deletes them
cluster.max_shards_per_node: 5000
# cluster-state tasks slower than this are logged (a test failure quotes them)
cluster.service.slow_master_task_logging_threshold: 2s
cluster.service.slow_task_logging_threshold: 2s
EOF
  printf -- '-Xms%s\n-Xmx%s\n' "$ES_HEAP" "$ES_HEAP" >"$conf/jvm.options.d/heap.options"
  if [[ "$(id -u)" == 0 ]]; then
    chown -R "$ES_USER" "$ES_HOME" "$conf" "$DATA/elasticsearch" "$LOGS/elasticsearch" "$ES_RUN" "$STATE/tmp/elasticsearch"
  fi
  rm -f "$ES_PID"
  ln -sfn es/elasticsearch.pid "$RUN/elasticsearch.pid"
  log "elasticsearch: starting $ES_VERSION on $ES_URL (Java: $ES_JAVA_HOME)"
  : >"$LOGS/elasticsearch.out"
  # -d: the launcher starts the server JVM, waits until it is up, then exits; -p: the
  # server's pid. Launched in the background so both servers boot in parallel.
  local runas=()
  [[ "$(id -u)" == 0 ]] && runas=(runuser -u "$ES_USER" --)
  rm -f "$RUN/es-launcher.rc"
  (set +e; cd "$LOGS/elasticsearch" && setsid env ES_JAVA_HOME="$ES_JAVA_HOME" ES_PATH_CONF="$conf" \
    ES_TMPDIR="$STATE/tmp/elasticsearch" ES_JAVA_OPTS="${ES_JAVA_OPTS:-} ${INFRA_JAVA_OPTS:-}" \
    "${runas[@]}" "$ES_HOME/bin/elasticsearch" -d -p "$ES_PID" \
    >>"$LOGS/elasticsearch.out" 2>&1 </dev/null; echo $? >"$RUN/es-launcher.rc") &
}

wait_es() {
  local deadline=$(( $(now) + START_TIMEOUT )) pid rc
  while true; do
    if es_ready; then
      pid="$(read_pid "$ES_PID")"
      log "elasticsearch: healthy ($(es_health)) on $ES_URL (pid ${pid:-?})"
      return 0
    fi
    rc="$(cat "$RUN/es-launcher.rc" 2>/dev/null || true)"
    pid="$(read_pid "$ES_PID")"
    if [[ -n "$rc" && "$rc" != 0 ]] || { [[ "$rc" == 0 ]] && ! pid_alive "$pid"; }; then
      tail_log elasticsearch "$LOGS/elasticsearch.out" "$LOGS/elasticsearch/cds-local.log"
      die "elasticsearch: the node exited during start (launcher exit $rc; logs above, in $LOGS)"
    fi
    if (( $(now) >= deadline )); then
      tail_log elasticsearch "$LOGS/elasticsearch.out" "$LOGS/elasticsearch/cds-local.log"
      die "elasticsearch: not healthy after ${START_TIMEOUT}s"
    fi
    sleep 0.5
  done
}

# ------------------------------------------------------------------------ commands
want() { [[ -z "$TARGET" || "$TARGET" == "$1" ]]; }

cmd_start() {
  resolve_java
  local t0; t0="$(now)"
  want kafka && fetch_kafka
  want es && fetch_es
  want kafka && launch_kafka
  want es && launch_es
  want kafka && wait_kafka
  want es && wait_es
  log "started in $(( $(now) - t0 ))s — KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT ELASTICSEARCH_URL=$ES_URL"
}

cmd_stop() { # $1 KILL for SIGKILL
  want es && stop_pid elasticsearch "$ES_PID" "${1:-}"
  want kafka && stop_pid kafka "$KAFKA_PID" "${1:-}"
  return 0
}

cmd_status() {
  local ok=0 pid
  pid="$(read_pid "$KAFKA_PID")"
  if pid_alive "$pid"; then
    if kafka_ready; then echo "kafka: running, healthy (pid $pid, 127.0.0.1:$KAFKA_PORT)"
    else echo "kafka: running, NOT answering (pid $pid, 127.0.0.1:$KAFKA_PORT)"; ok=1; fi
  else echo "kafka: stopped"; ok=1; fi
  pid="$(read_pid "$ES_PID")"
  if pid_alive "$pid"; then
    local s; s="$(es_health)"
    if [[ -n "$s" ]]; then echo "elasticsearch: running, $s (pid $pid, $ES_URL)"
    else echo "elasticsearch: running, NOT answering (pid $pid, $ES_URL)"; ok=1; fi
  else echo "elasticsearch: stopped"; ok=1; fi
  return $ok
}

cmd_reset() {
  cmd_stop
  log "deleting $DATA, $LOGS and $CONF"
  rm -rf "$DATA" "$LOGS" "$CONF" "$RUN"
}

CMD="${1:-}"; TARGET="${2:-}"
KILL_FIRST=""
if [[ "$CMD" == restart-kafka ]]; then
  case "$TARGET" in
    --kill) KILL_FIRST=KILL ;;
    "") ;;
    *) die "usage: restart-kafka [--kill]" ;;
  esac
  TARGET=kafka
fi
case "$TARGET" in
  ""|kafka|es) ;;
  elasticsearch) TARGET=es ;;
  *) die "unknown target '$TARGET' (kafka or es)" ;;
esac
case "$CMD" in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart-kafka) cmd_stop "$KILL_FIRST"; cmd_start ;;
  kill) cmd_stop KILL ;;
  status) cmd_status ;;
  env) echo "KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"; echo "ELASTICSEARCH_URL=$ES_URL" ;;
  reset) cmd_reset ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; [[ -z "$CMD" || "$CMD" == help || "$CMD" == -h ]] || exit 2 ;;
esac
