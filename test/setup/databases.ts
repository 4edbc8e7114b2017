import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ensureEmbeddedServer } from '@/lib/db/embedded';
import { migrate } from '@/lib/db/migrate';
import { withClient } from '@/lib/db/short-client';

// Test databases: one per file, cloned from a migrated template. They live in the embedded server under
// data/test, or on the PostgreSQL server TEST_DATABASE_URL names.

export const TEST_DATA_DIR = path.resolve(process.env.TEST_DATA_DIR ?? 'data/test');
const TEMPLATE = 'sandbox_test_template';

export async function adminUrl(): Promise<string> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const server = await ensureEmbeddedServer(TEST_DATA_DIR, () => {});
  return server.adminUrl('postgres');
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Rebuilds the template from the migrations: once per test run. */
export async function prepareTemplate(admin: string): Promise<void> {
  await withClient({ connectionString: admin }, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE}`);
  });
  await migrate(withDatabase(admin, TEMPLATE));
}

export async function createTestDatabase(admin: string, label: string): Promise<string> {
  const name = `t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .slice(0, 30)
    .toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await withClient({ connectionString: admin }, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`),
  );
  return withDatabase(admin, name);
}

/** Test databases of earlier runs are dropped when a run starts. */
export async function dropOldTestDatabases(admin: string): Promise<void> {
  await withClient({ connectionString: admin }, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 't\\_%'`,
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
