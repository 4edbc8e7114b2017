import { describe, expect, it } from 'vitest';
import type { Statement } from './statement';

// Every statement the builder (lib/db/statement.ts) compiles, as PostgreSQL receives it, kept in a file beside
// its repository: a change to a write shows in review as the SQL it makes. A statement that differs from its
// file fails here; `npx vitest run lib/db/statement-snapshots.test.ts -u` writes the files again.

const REPOSITORIES: Record<string, () => Promise<{ STATEMENTS: readonly Statement<never>[] }>> = {
  'lib/payments/repository.sql': () => import('@/lib/payments/repository'),
  'lib/refunds/repository.sql': () => import('@/lib/refunds/repository'),
  'lib/checkout-sessions/repository.sql': () => import('@/lib/checkout-sessions/repository'),
  'lib/payment-links/repository.sql': () => import('@/lib/payment-links/repository'),
  'lib/webhooks/repository.sql': () => import('@/lib/webhooks/repository'),
  'lib/events/repository.sql': () => import('@/lib/events/repository'),
  'lib/test-clocks/repository.sql': () => import('@/lib/test-clocks/repository'),
};

/** The file's text: each statement under its name and the names of its values, in placeholder order. */
function snapshotOf(statements: readonly Statement<never>[]): string {
  return statements
    .map((one) => {
      const values = one.names.map((name, i) => `--   $${i + 1} ${name}`).join('\n');
      return `-- ${one.name}\n${values}\n${one.text};\n`;
    })
    .join('\n');
}

describe('the statements of the one-statement writes', () => {
  for (const [file, load] of Object.entries(REPOSITORIES)) {
    it(`are as ${file} shows them`, async () => {
      const { STATEMENTS } = await load();
      expect(STATEMENTS.length).toBeGreaterThan(0);
      await expect(snapshotOf(STATEMENTS)).toMatchFileSnapshot(`../../${file}`);
    });
  }
});
