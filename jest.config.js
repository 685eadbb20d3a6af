/** Three tiers: unit (pure cores, colocated *.spec.ts), integration (adapters against
 * real files / SQLite / brokers, *.int-spec.ts), e2e (real HTTP against the built
 * service, test/e2e/*.e2e-spec.ts, in embedded or distributed mode; test/distributed/*.e2e-spec.ts
 * for the faults of the distributed deployment). */
const fs = require('fs');
const swc = JSON.parse(fs.readFileSync(__dirname + '/.swcrc', 'utf8'));
const shared = {
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper: { '^@cds/(.*)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
  rootDir: __dirname,
};
// Deletes the deployments an e2e file started on the shared servers when the file ends.
const E2E_CLEANUP = '<rootDir>/libs/testing/src/e2e-cleanup.setup.ts';
module.exports = {
  // testTimeout is a global option of jest (ignored inside a project): the e2e suites
  // start real processes (a whole deployment in distributed mode) in their hooks.
  testTimeout: process.env.E2E_MODE === 'distributed' ? 120000 : 60000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/packages/*/src/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'kafka', testMatch: ['<rootDir>/{apps,libs,test}/**/*.kafka-int-spec.ts'] },
    { ...shared, displayName: 'kafka-fault', testMatch: ['<rootDir>/{apps,libs,test}/**/*.kafka-fault-spec.ts'] },
    // needs a real Elasticsearch node: scripts/infra/infra.sh start es (ELASTICSEARCH_URL, default 127.0.0.1:9200)
    { ...shared, displayName: 'elasticsearch', testMatch: ['<rootDir>/{apps,libs,test}/**/*.es-int-spec.ts'] },
    // E2E_MODE=distributed runs the same suites on Kafka + Elasticsearch with two api replicas
    {
      ...shared,
      displayName: 'e2e',
      setupFilesAfterEnv: [E2E_CLEANUP],
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/packages/*/test/**/*.e2e-spec.ts'],
    },
    // fault tests of the distributed deployment on the real servers (SIGKILLs, broker restart)
    // (each sets its own timeout: jest.setTimeout)
    { ...shared, displayName: 'distributed', setupFilesAfterEnv: [E2E_CLEANUP], testMatch: ['<rootDir>/test/distributed/**/*.e2e-spec.ts'] },
  ],
};
