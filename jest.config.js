/** Three tiers: unit (pure cores, colocated *.spec.ts), integration (adapters against
 * real files / SQLite / brokers, *.int-spec.ts), e2e (real HTTP against the built
 * service, test/e2e/*.e2e-spec.ts). */
const fs = require('fs');
const swc = JSON.parse(fs.readFileSync(__dirname + '/.swcrc', 'utf8'));
const shared = {
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper: { '^@cds/(.*)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
  rootDir: __dirname,
};
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'kafka', testMatch: ['<rootDir>/{apps,libs,test}/**/*.kafka-int-spec.ts'] },
    { ...shared, displayName: 'kafka-fault', testMatch: ['<rootDir>/{apps,libs,test}/**/*.kafka-fault-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testTimeout: 60000 },
  ],
};
