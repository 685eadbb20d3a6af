#!/usr/bin/env node
/* Readiness probe used by scripts/infra/infra.sh: a real Kafka metadata round trip
 * (admin.listTopics) against the broker, not just an open port.
 *   node scripts/infra/kafka-ready.js 127.0.0.1:9092
 * Exit 0 when the broker answered, 1 otherwise (the reason on stderr). */
'use strict';

const broker = process.argv[2] || process.env.KAFKA_BROKERS || '127.0.0.1:9092';

let kafkajs;
try {
  kafkajs = require('kafkajs');
} catch (e) {
  process.stderr.write('kafkajs is not installed (run `npm ci` in the project first)\n');
  process.exit(2);
}
const { Kafka, logLevel } = kafkajs;

async function main() {
  const kafka = new Kafka({
    clientId: 'infra-ready',
    brokers: broker.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const topics = await admin.listTopics();
    const cluster = await admin.describeCluster();
    if (!cluster.brokers.length) throw new Error('no broker registered yet');
    process.stdout.write(`kafka ready: ${cluster.brokers.length} broker(s), controller ${cluster.controller}, ${topics.length} topic(s)\n`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

const timer = setTimeout(() => {
  process.stderr.write('timed out\n');
  process.exit(1);
}, 8000);
main().then(
  () => {
    clearTimeout(timer);
    process.exit(0);
  },
  (e) => {
    process.stderr.write(`${e && e.message ? e.message : e}\n`);
    process.exit(1);
  },
);
