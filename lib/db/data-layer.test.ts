import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The data layer's one rule (docs/architecture.md): every query lives in a repository
// (lib/<resource>/repository.ts) or in lib/db itself. Services, dashboard modules, the worker and the CLI call
// repository functions; pages and routes call services (layers.test.ts holds the imports). This test reads the source tree and names any file that reaches the
// database on its own: a Prisma model call, raw SQL, or the `sql()` helper of lib/db.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['app', 'components', 'lib', 'scripts', 'bin', 'instrumentation.ts', 'proxy.ts'];
const OPERATIONS =
  'findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|aggregate|groupBy';
const MODELS = modelNames();

const QUERY_PATTERNS: Array<[string, RegExp]> = [
  ['a Prisma model call', new RegExp(`\\.(${MODELS.join('|')})\\s*\\.\\s*(${OPERATIONS})\\s*\\(`)],
  ['raw SQL', /\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe)\b/],
  ['the sql() helper', /(^|[^\w.])sql\s*(<[^>]*>)?\s*\(/m],
];

/** Files that may query: the repositories, lib/db, tests, and the benchmark's data seeding. */
function mayQuery(file: string): boolean {
  return (
    file.endsWith('/repository.ts') ||
    file.startsWith('lib/db/') ||
    file.startsWith('lib/generated/') ||
    /\.test\.tsx?$/.test(file) ||
    file.startsWith('scripts/bench')
  );
}

describe('the data layer', () => {
  it('knows the models it looks for', () => {
    expect(MODELS).toEqual(expect.arrayContaining(['payment', 'refundRequest', 'checkoutSession', 'merchant']));
  });

  it('has every query in a repository or lib/db', () => {
    const offenders = sourceFiles()
      .filter((file) => !mayQuery(file))
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
        return QUERY_PATTERNS.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${what}`);
      });
    expect(offenders).toEqual([]);
  });

  it('would notice a query outside a repository', () => {
    const [[, modelCall], [, raw], [, helper]] = QUERY_PATTERNS;
    expect(modelCall.test('await database.payment.findMany({ where })')).toBe(true);
    expect(modelCall.test('await (await db()).refundRequest\n    .update({})')).toBe(true);
    expect(raw.test('await tx.$queryRaw`SELECT 1`')).toBe(true);
    expect(helper.test("await sql<Row>(database, 'name', 'SELECT 1', [])")).toBe(true);
    expect(modelCall.test('payment.amount')).toBe(false);
  });
});

/** The Prisma client's accessor of each model: `model RefundRequest` is `database.refundRequest`. */
function modelNames(): string[] {
  const schema = fs.readFileSync(path.join(ROOT, 'prisma/schema.prisma'), 'utf8');
  return [...schema.matchAll(/^model (\w+) \{/gm)].map(([, name]) => name[0].toLowerCase() + name.slice(1));
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const full = path.join(ROOT, relative);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isFile()) {
      if (/\.(ts|tsx|mjs)$/.test(relative)) files.push(relative);
      return;
    }
    for (const entry of fs.readdirSync(full)) walk(path.posix.join(relative, entry));
  };
  SOURCE_DIRS.forEach(walk);
  return files;
}
