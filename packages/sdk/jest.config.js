/** The SDK's own tests, runnable without touching the root config:
 *   npx jest -c packages/sdk/jest.config.js --selectProjects sdk-unit
 *   npx jest -c packages/sdk/jest.config.js --selectProjects sdk-e2e --runInBand   (after npm run build)
 * rootDir is the repository, as in the root jest.config.js, so `@cds/testing` resolves for the e2e suites. */
const fs = require('fs');
const path = require('path');
const root = path.resolve(__dirname, '../..');
const swc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const shared = {
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper: { '^@cds/(.*)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
  rootDir: root,
};
module.exports = {
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'sdk-unit', testMatch: ['<rootDir>/packages/sdk/src/**/*.spec.ts'] },
    { ...shared, displayName: 'sdk-e2e', testMatch: ['<rootDir>/packages/sdk/test/**/*.e2e-spec.ts'] },
  ],
};
