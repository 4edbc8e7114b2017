import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { openClient } from './short-client';

// Applies prisma/migrations/<name>/migration.sql in name order, one transaction per file, under an
// advisory lock so that two processes starting at once never migrate twice. Prisma's own migration
// engine is a binary downloaded at run time, which these machines cannot fetch.

const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), 'prisma', 'migrations');
const LOCK_KEY = 727_274_001; // any constant shared by every process of this app

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Returns the names it applied. */
export async function migrate(connectionString: string, migrations = readMigrations()): Promise<string[]> {
  const client = await openClient({ connectionString });
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_migrations" (
      "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_migrations"');
    const applied = new Map(rows.map((row) => [row.name, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum === migration.checksum) continue;
      if (checksum) throw new Error(`migration ${migration.name} was changed after it was applied`);
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO "_migrations" (name, checksum) VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** Whether every migration on disk has been applied (for /readyz). */
export async function pendingMigrations(client: pg.ClientBase, migrations = readMigrations()): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>('SELECT name FROM "_migrations"').catch(() => ({ rows: [] }));
  const applied = new Set(rows.map((row) => row.name));
  return migrations.map((m) => m.name).filter((name) => !applied.has(name));
}
