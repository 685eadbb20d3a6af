// Adds up the JSON results of the jest tiers scripts/test.sh ran and prints the one
// closing line CI reads: "tests: N passed, N failed" (", N skipped" when some were).
//
//   node scripts/test-summary.js DIR     (DIR holds jest-*.json, written by --outputFile)
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const totals = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^jest-.+\.json$/.test(f)) : [];
for (const file of files) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  // a suite that failed to load (syntax error, a hook that threw) has no failed test of its own
  totals.suitesFailed += report.numRuntimeErrorTestSuites;
}
const failed = totals.failed + totals.suitesFailed;
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`tests: ${totals.passed} passed, ${failed} failed${skipped}`);
