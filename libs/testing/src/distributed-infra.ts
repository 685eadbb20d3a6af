import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

/** Where the distributed e2e topology finds Kafka and Elasticsearch (`scripts/infra/infra.sh env`). */
export function infraEnv(): { KAFKA_BROKERS: string; ELASTICSEARCH_URL: string } {
  return {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    ELASTICSEARCH_URL: (process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200').replace(/\/+$/, ''),
  };
}

/** The test run (scripts/test.sh sets CDS_TEST_RUN): part of every prefix made by the
 * tests, so what a run leaves on the servers is deleted by prefix after it
 * (scripts/infra/delete-test-data.js) without touching another run's. */
export function testRun(): string {
  const run = process.env.CDS_TEST_RUN ?? 'manual';
  if (!/^[a-z0-9]{1,12}$/.test(run)) throw new Error(`CDS_TEST_RUN=${run}: expected 1-12 lowercase letters or digits`);
  return run;
}

/** The topic/index prefix of a deployment's data dir: starting a topology again on the
 * same data dir finds the same log and read models, as an embedded restart does. */
export function prefixOf(dataDir: string): string {
  return `e2e-${testRun()}-${createHash('sha1').update(path.resolve(dataDir)).digest('hex').slice(0, 12)}`;
}

/**
 * Fails (never skips) when Kafka or Elasticsearch is not there: the distributed run is
 * only meaningful on the real servers.
 */
let reachable = false;
export async function assertInfraReachable(): Promise<void> {
  if (reachable) return;
  const { KAFKA_BROKERS, ELASTICSEARCH_URL } = infraEnv();
  const hint = 'start them with scripts/infra/infra.sh start (npm test does)';
  try {
    const r = await fetch(`${ELASTICSEARCH_URL}/_cluster/health?wait_for_status=yellow&timeout=10s`, { signal: AbortSignal.timeout(15_000) });
    if (!r.ok) throw new Error(`status ${r.status}`);
  } catch (e) {
    throw new Error(`Elasticsearch at ${ELASTICSEARCH_URL} is not usable (${(e as Error).message}): ${hint}`);
  }
  const admin = new Kafka({ clientId: 'e2e-preflight', brokers: KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING, retry: { retries: 2 } }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (e) {
    throw new Error(`Kafka at ${KAFKA_BROKERS} is not usable (${(e as Error).message}): ${hint}`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  reachable = true;
}

/** The deployments a test file started on the shared servers (Topology.start), deleted
 * when the file ends (e2e-cleanup.setup.ts) so that the servers stay small: with hundreds
 * of indices left by earlier files, creating a deployment's ten took 8 s instead of 2.6.
 * Each prefix keeps how to stop what runs on it. */
const deployed = new Map<string, Set<() => Promise<void>>>();

/** A deployment on `prefix` (more than one when a test restarts it on the same data). */
export function recordDeployment(prefix: string, stop?: () => Promise<void>): void {
  const stops = deployed.get(prefix) ?? new Set();
  if (stop) stops.add(stop);
  deployed.set(prefix, stops);
}

/** Stops what still runs of every deployment recorded so far, then deletes their topics,
 * consumer groups and indices (`<prefix>.` topics and groups, `<prefix>-` indices). The
 * stops come first: jest runs this file-level hook before a test file's own file-level
 * `afterAll`, and processes that lose their topics and indices under them take a minute to
 * give up when they are stopped. Best effort: what it leaves, the run's own cleanup
 * (scripts/infra/delete-test-data.js) deletes at the end. */
export async function deleteRecordedDeployments(): Promise<void> {
  const prefixes = [...deployed.keys()];
  const stops = [...deployed.values()].flatMap((s) => [...s]);
  deployed.clear();
  if (prefixes.length === 0) return;
  await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
  const { KAFKA_BROKERS, ELASTICSEARCH_URL } = infraEnv();
  const mine = (name: string) => prefixes.some((p) => name.startsWith(`${p}.`));
  const admin = new Kafka({ clientId: 'e2e-cleanup', brokers: KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING, retry: { retries: 1 } }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter(mine);
    if (topics.length) await admin.deleteTopics({ topics, timeout: 30_000 });
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter(mine);
    if (groups.length) await admin.deleteGroups(groups).catch(() => undefined);
  } catch {
    /* left for the run's cleanup */
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  const pattern = prefixes.map((p) => `${p}-*`).join(',');
  await fetch(`${ELASTICSEARCH_URL}/${pattern}?expand_wildcards=all&allow_no_indices=true&ignore_unavailable=true`, {
    method: 'DELETE',
    signal: AbortSignal.timeout(30_000),
  }).catch(() => undefined);
}
