import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document';

// Redocly's recommended rules and Spectral's `oas` ruleset on the document, as their CLIs run (offline):
// no error, and no warning but those CONTRIBUTING.md's "The OpenAPI document" names with their reasons.

const run = promisify(execFile);
const folder = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test', `openapi-lint-${process.pid}`);
const file = path.join(folder, 'openapi.json');

/** Rule → why it stays; CONTRIBUTING.md lists the same. */
const KNOWN_WARNINGS: Record<string, string> = {
  'info-license': 'the project names no license',
  'no-server-example.com': 'the server is this deployment’s APP_URL, localhost by default',
  'info-contact': 'each deployment is run by whoever starts it: there is no one contact to name',
  'oas3-operation-security-defined': 'a scope is listed as OpenAPI 3.1 allows for a non-OAuth scheme',
};

async function cli(bin: string, args: string[]): Promise<string> {
  const script = fs.realpathSync(path.resolve('node_modules/.bin', bin));
  // both exit non-zero on an error; the JSON report says which
  const result = await run(process.execPath, [script, ...args], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return result.stdout;
}

beforeAll(() => {
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument({ serverUrl: 'http://localhost:3000' })));
});
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('the OpenAPI document under third-party linters', () => {
  it('leaves no warning CONTRIBUTING.md does not name', () => {
    const guide = fs.readFileSync('CONTRIBUTING.md', 'utf8');
    expect(Object.keys(KNOWN_WARNINGS).filter((rule) => !guide.includes(`\`${rule}\``))).toEqual([]);
  });

  it("passes Redocly's recommended rules", async () => {
    const report = JSON.parse(await cli('redocly', ['lint', file, '--extends=recommended', '--format=json'])) as {
      problems: { ruleId: string; severity: 'error' | 'warn'; message: string }[];
    };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    const warned = new Set(report.problems.map((problem) => problem.ruleId));
    expect([...warned].filter((rule) => !KNOWN_WARNINGS[rule])).toEqual([]);
  }, 60_000);

  it("passes Spectral's oas ruleset", async () => {
    const output = await cli('spectral', ['lint', file, '--ruleset', 'lib/openapi/spectral.yaml', '--format=json']);
    const report = JSON.parse(output.slice(output.indexOf('['))) as { code: string; severity: number }[];
    // severity 0 is an error, 1 a warning
    expect(report.filter((problem) => problem.severity === 0)).toEqual([]);
    const warned = new Set(report.map((problem) => problem.code));
    expect([...warned].filter((rule) => !KNOWN_WARNINGS[rule])).toEqual([]);
  }, 60_000);
});
