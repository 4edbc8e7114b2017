import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The closing lines of npm test, from reports shaped as Vitest's and Playwright's JSON reporters write them.

let reports: string;
beforeEach(() => {
  reports = fs.mkdtempSync(path.join(os.tmpdir(), 'test-summary-'));
});
afterEach(() => fs.rmSync(reports, { recursive: true, force: true }));

const write = (name: string, report: unknown) => fs.writeFileSync(path.join(reports, name), JSON.stringify(report));
const summary = () =>
  execFileSync(process.execPath, [path.join(__dirname, 'test-summary.mjs'), reports], { encoding: 'utf8' })
    .trimEnd()
    .split('\n');

function vitestReport(files: { name: string; tests: { fullName: string; status: string; failure?: string }[] }[]) {
  const tests = files.flatMap((file) => file.tests);
  return {
    numTotalTests: tests.length,
    numPassedTests: tests.filter((test) => test.status === 'passed').length,
    numFailedTests: tests.filter((test) => test.status === 'failed').length,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: files.map((file) => ({
      name: path.join(process.cwd(), file.name),
      status: file.tests.some((test) => test.status === 'failed') ? 'failed' : 'passed',
      message: '',
      assertionResults: file.tests.map((test) => ({
        fullName: test.fullName,
        status: test.status,
        failureMessages: test.failure ? [test.failure] : [],
      })),
    })),
  };
}

describe('the closing summary', () => {
  it('ends with one line totalling every suite, and lists nothing when nothing failed', () => {
    write('typecheck.json', { passed: 1, failed: 0 });
    write('vitest.json', vitestReport([{ name: 'lib/a.test.ts', tests: [{ fullName: 'a works', status: 'passed' }] }]));
    write('playwright.json', {
      stats: { expected: 2, flaky: 1, unexpected: 0, skipped: 0 },
      suites: [],
      errors: [],
    });

    expect(summary()).toEqual(['5 passed, 0 failed']);
  });

  it('names each failed test by file and name, with its first line of error, above the total', () => {
    write('lint.json', { passed: 0, failed: 1 });
    write(
      'vitest.json',
      vitestReport([
        {
          name: 'lib/payments/pay.test.ts',
          tests: [
            {
              fullName: 'paying > twice pays once',
              status: 'failed',
              failure: '\nAssertionError: expected 2 to be 1\n  at …',
            },
            { fullName: 'paying > once', status: 'passed' },
          ],
        },
      ]),
    );
    write('vitest-scale.json', {
      ...vitestReport([]),
      testResults: [
        {
          name: path.join(process.cwd(), 'test/scale/x.test.ts'),
          status: 'failed',
          message: 'Cannot find module',
          assertionResults: [],
        },
      ],
    });
    write('plugin-medusa.json', { passed: 0, failed: 1 });
    write('playwright.json', {
      stats: { expected: 1, flaky: 0, unexpected: 1, skipped: 0 },
      suites: [
        {
          suites: [
            {
              specs: [
                {
                  title: 'a customer pays',
                  file: 'checkout.spec.ts',
                  line: 12,
                  tests: [
                    {
                      status: 'unexpected',
                      results: [{ error: { message: '\u001b[31mTimeout 5000ms exceeded\u001b[39m\nmore' } }],
                    },
                  ],
                },
                {
                  title: 'a customer leaves',
                  file: 'checkout.spec.ts',
                  line: 40,
                  tests: [{ status: 'expected', results: [{}] }],
                },
              ],
            },
          ],
        },
      ],
      errors: [],
    });

    expect(summary()).toEqual([
      '',
      'failed:',
      '  - lint: failed (its log is above)',
      '  - lib/payments/pay.test.ts › paying > twice pays once: AssertionError: expected 2 to be 1',
      '  - test/scale/x.test.ts: Cannot find module',
      '  - plugin-medusa: could not run (its log is above)',
      '  - checkout.spec.ts:12 › a customer pays: Timeout 5000ms exceeded',
      '2 passed, 5 failed',
    ]);
  });
});
