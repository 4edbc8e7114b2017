// Totals every suite's report into the one closing line CI reads: "N passed, N failed". Above it, each test
// that failed, by suite, file and name, so that a log's last lines say where to look.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const read = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  } catch {
    return undefined;
  }
};
const firstLine = (message = '') =>
  message
    .split('\n')
    .find((line) => line.trim())
    ?.trim() ?? '';

for (const name of ['typecheck.json', 'lint.json', 'format.json', 'build.json', 'browser.json', 'stopped.json']) {
  const report = read(name);
  if (!report) continue;
  passed += report.passed;
  failed += report.failed;
  if (report.failed) failures.push(`${path.basename(name, '.json')}: failed (its log is above)`);
}

// Vitest's JSON report: the main run's, the scale clusters', the README's and each plug-in's
// (plugins/*/scripts/test.sh), or {passed, failed} when a plug-in could not run
const vitestReports = ['vitest.json', 'vitest-scale.json', 'vitest-readme.json'].concat(
  fs.readdirSync(dir).filter((file) => /^plugin-.+\.json$/.test(file)),
);
for (const name of vitestReports) {
  const report = read(name);
  if (!report) continue;
  if (report.numTotalTests === undefined) {
    passed += report.passed;
    failed += report.failed;
    if (report.failed) failures.push(`${path.basename(name, '.json')}: could not run (its log is above)`);
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const file of report.testResults) {
    const where = path.relative(process.cwd(), file.name);
    // a file that failed to load has no tests to count, but it failed
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      failed += 1;
      failures.push(`${where}: ${firstLine(file.message) || 'failed to load'}`);
    }
    for (const test of file.assertionResults.filter((result) => result.status === 'failed')) {
      failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}

// Playwright's JSON report: suites nest (file, describe), each with its specs
const playwrightFailures = (suite) => [
  ...(suite.specs ?? [])
    .filter((spec) => spec.tests.some((test) => test.status === 'unexpected'))
    .map((spec) => {
      const error = spec.tests.flatMap((test) => test.results).find((result) => result.error)?.error;
      return `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`;
    }),
  ...(suite.suites ?? []).flatMap(playwrightFailures),
];
for (const report of [read('playwright.json'), read('playwright-dev.json')]) {
  if (!report) continue;
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
  failures.push(...report.suites.flatMap(playwrightFailures));
  // an error outside any test (a global setup, a web server that would not start)
  failures.push(...(report.errors ?? []).map((error) => `playwright: ${firstLine(error.message)}`));
}

if (failures.length) {
  console.log('\nfailed:');
  for (const failure of failures) console.log(`  - ${failure.replace(/\u001b\[[0-9;]*m/g, '')}`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
