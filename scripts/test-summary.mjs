// Totals every suite's report into the one closing line CI reads: "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const read = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  } catch {
    return undefined;
  }
};
for (const name of ['typecheck.json', 'lint.json', 'format.json', 'build.json', 'browser.json', 'stopped.json']) {
  const report = read(name);
  if (report) {
    passed += report.passed;
    failed += report.failed;
  }
}
for (const vitest of ['vitest.json', 'vitest-scale.json', 'vitest-readme.json'].map(read)) {
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  // a file that failed to load has no tests to count, but it failed
  failed += vitest.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
}
// each plug-in's Vitest report (plugins/*/scripts/test.sh), or {passed, failed} when it could not run
for (const name of fs.readdirSync(dir).filter((file) => /^plugin-.+\.json$/.test(file))) {
  const report = read(name);
  if (report?.numTotalTests !== undefined) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    failed += report.testResults.filter(
      (file) => file.status === 'failed' && file.assertionResults.length === 0,
    ).length;
  } else if (report) {
    passed += report.passed;
    failed += report.failed;
  }
}
for (const playwright of [read('playwright.json'), read('playwright-dev.json')]) {
  if (!playwright) continue;
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
