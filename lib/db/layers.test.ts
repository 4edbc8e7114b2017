import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layers (CONTRIBUTING.md, "Layers") as eslint.config.mjs holds them: each rule reports an import planted
// to break it and names the layers it crosses. That the tree as it is keeps them is npm test's lint step's to
// say (`eslint --max-warnings 0 .`, every rule on every file), not a second lint of the whole tree here.

const ROOT = path.resolve(import.meta.dirname, '../..');
const LAYER_RULES = ['import/no-restricted-paths', 'no-restricted-imports', 'import/no-cycle'];
const layerRules =
  (rules: string[]) =>
  ({ ruleId }: { ruleId: string }) =>
    rules.includes(ruleId);
// a file linted as text is not on disk, where the cycle rule looks for every file it follows
const importRules = new ESLint({ cwd: ROOT, ruleFilter: layerRules(LAYER_RULES.slice(0, 2)) });

/** What the layer rules report on `code` as if it were the file at `file` (the file need not exist). */
async function reports(file: string, code: string): Promise<string[]> {
  const [result] = await importRules.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the layers', () => {
  it.each([
    ['app/planted/page.tsx', "import { findPayment } from '@/lib/payments/repository';", 'never a repository'],
    ['components/planted.tsx', "import type { RefundRow } from '@/lib/refunds/repository';", 'never a repository'],
    ['components/planted.tsx', "import RootLayout from '@/app/layout';", 'may not import app/'],
    ['lib/payments/repository-planted.ts', "import { apiRoute } from '@/lib/http/route';", 'may not import an edge'],
    ['lib/payments/repository-planted.ts', "import { notFound } from 'next/navigation';", 'nothing of Next.js'],
    ['lib/payments/repository-planted.ts', "import { payments } from './service';", 'A repository holds queries'],
    ['lib/payments/service-planted.ts', "import { toFormState } from '@/lib/dashboard/form-state';", 'an edge'],
    ['lib/payments/service-planted.ts', "import { authenticate } from '../http/auth';", 'an edge'],
    ['lib/core/planted.ts', "import { errorBody } from '@/lib/http/error-body';", 'lib/core may not import an edge'],
    [
      'lib/core/planted.ts',
      "import { findPayment } from '@/lib/payments/service';",
      'lib/core may not import a resource',
    ],
    ['lib/core/planted.ts', "import { db } from '@/lib/db';", 'lib/core may not import lib/db'],
    ['lib/core/planted.ts', "import { env } from '@/lib/env';", 'lib/core may not import the process settings'],
    [
      'lib/db/planted.ts',
      "import { createRefund } from '@/lib/refunds/repository';",
      'lib/db may not import a resource',
    ],
    ['lib/http/planted.ts', "import { toFormState } from '@/lib/dashboard/form-state';", 'HTTP layer may not'],
    [
      'lib/dashboard/planted.ts',
      "import { readJsonBody } from '@/lib/http/body';",
      'dashboard may not import the HTTP',
    ],
    ['lib/refunds/dashboard.ts', "import { apiRoute } from '@/lib/http/route';", 'dashboard may not import the HTTP'],
    ['lib/payments/service-planted.ts', "import { searchPayments } from './dashboard';", 'may not import an edge'],
  ])('reports %s importing what it may not: %s', async (file, code, expected) => {
    const found = await reports(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(expected);
  });

  it.each([
    [
      'app/planted/page.tsx',
      "import { ApiError } from '@/lib/core/errors';\nimport { listPayments } from '@/lib/payments/service';",
    ],
    [
      'lib/payments/service-planted.ts',
      "import { db } from '@/lib/db';\nimport { findPayment } from './repository';\nimport { formatMoney } from '@/lib/core/money';",
    ],
    [
      'app/planted/page.tsx',
      "import { searchPayments } from '@/lib/payments/dashboard';\nimport { formatMoney } from '@/lib/dashboard/format';",
    ],
    [
      'lib/payments/dashboard-planted.ts',
      "import { toFormState } from '@/lib/dashboard/form-state';\nimport { findPayment } from './repository';",
    ],
    [
      'lib/http/planted.ts',
      "import { createRefundRequest } from '@/lib/refunds/service';\nimport { env } from '@/lib/env';",
    ],
    ['lib/payments/operations-planted.ts', "import type { ApiOperation } from '@/lib/openapi/operation';"],
  ])('lets %s import what is beside and below it', async (file, code) => {
    expect(await reports(file, code)).toEqual([]);
  });

  it('reports two files that import each other', async () => {
    // on disk, for the cycle rule reads the file imported; the folder is one the config ignores, linted with ignores
    // off. tsconfig.json and .prettierignore leave it out too: npm test's type check and format check read the tree
    // while this runs, and a file listed then gone fails them.
    const folder = fs.mkdtempSync(path.join(ROOT, 'lib/payments/layers-test-'));
    try {
      const name = path.basename(folder);
      fs.writeFileSync(
        path.join(folder, 'a.ts'),
        `import { b } from '@/lib/payments/${name}/b';\nexport const a = () => b;\n`,
      );
      fs.writeFileSync(path.join(folder, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
      const results = await new ESLint({ cwd: ROOT, ruleFilter: layerRules(LAYER_RULES), ignore: false }).lintFiles([
        folder,
      ]);
      expect(results.flatMap((result) => result.messages.map((message) => message.ruleId))).toEqual([
        'import/no-cycle',
        'import/no-cycle',
      ]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

// A service's or repository's time is its context's (lib/core/context.ts), as eslint.config.mjs holds it.
describe('the time of a service', () => {
  const timeRule = new ESLint({ cwd: ROOT, ruleFilter: layerRules(['no-restricted-syntax']) });
  const timeReports = async (file: string, code: string) => {
    const [result] = await timeRule.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages.map((message) => message.message);
  };

  it.each([
    ['lib/payments/service.ts', 'export const at = () => new Date();', 'never new Date()'],
    ['lib/refunds/repository.ts', 'export const at = () => Date.now();', 'never Date.now()'],
    ['lib/webhooks/service.ts', 'export const cutoff = () => new Date(Date.now() - 1000);', 'never Date.now()'],
  ])('reports %s reading the clock: %s', async (file, code, expected) => {
    const found = await timeReports(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(expected);
  });

  it.each([
    ['lib/payments/service.ts', 'export const later = (at: Date) => new Date(at.getTime() + 1000);'],
    ['lib/payments/serialize.ts', 'export const at = () => new Date();'],
  ])('lets %s make a date from a time it was given, and other files be', async (file, code) => {
    expect(await timeReports(file, code)).toEqual([]);
  });
});
