#!/usr/bin/env node
/* Deletes what a test run left on the servers: the Kafka topics and consumer groups and
 * the Elasticsearch indices whose names start with one of the given prefixes.
 *   node scripts/infra/delete-test-data.js e2e-t123- fault-t123-
 * KAFKA_BROKERS / ELASTICSEARCH_URL as for the service (defaults: loopback). */
'use strict';
const { Kafka, logLevel } = require('kafkajs');

const prefixes = process.argv.slice(2);
if (!prefixes.length || prefixes.some((p) => !/^[a-z0-9][a-z0-9._-]{4,}$/.test(p))) {
  console.error('usage: delete-test-data.js <prefix of at least 5 characters>...');
  process.exit(2);
}
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const es = (process.env.ELASTICSEARCH_URL || 'http://127.0.0.1:9200').replace(/\/+$/, '');
const mine = (name) => prefixes.some((p) => name.startsWith(p));

async function main() {
  const admin = new Kafka({ clientId: 'delete-test-data', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter(mine);
    if (topics.length) await admin.deleteTopics({ topics, timeout: 60000 });
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter(mine);
    if (groups.length) await admin.deleteGroups(groups).catch(() => undefined);
    console.log(`kafka: deleted ${topics.length} topics, ${groups.length} groups`);
  } finally {
    await admin.disconnect();
  }
  const pattern = prefixes.map((p) => `${p}*`).join(',');
  const r = await fetch(`${es}/${pattern}?expand_wildcards=all&allow_no_indices=true&ignore_unavailable=true`, { method: 'DELETE' });
  if (!r.ok) throw new Error(`elasticsearch: DELETE ${pattern}: ${r.status} ${await r.text()}`);
  console.log(`elasticsearch: deleted indices ${pattern}`);
}

main().catch((e) => {
  console.error(`delete-test-data: ${e.message}`);
  process.exit(1);
});
