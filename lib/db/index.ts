// The data layer. Every query lives in a repository, lib/<resource>/repository.ts, which owns its
// resource's tables for the API, the dashboard, the worker and the CLI alike; services call repositories, and
// nothing else touches the database (lib/db/data-layer.test.ts holds the rule). Prisma for plain reads and
// writes; SQL (tagged $queryRaw, or sql() below for a prepared hot-path statement) only for what is atomic,
// locking or on a hot path, each returning a row type checked where it is cast.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { dataDir, env } from '@/lib/env';
import { Prisma, PrismaClient } from '@/lib/generated/prisma/client';
import { stopChangeNotices } from './change-notices';
import { ensureEmbeddedServer, findEmbeddedServer } from './embedded';
import { migrate } from './migrate';
import { withClient } from './short-client';

export { Prisma };
export type Db = PrismaClient | Prisma.TransactionClient;

const EMBEDDED_DATABASE = 'sandbox';

type DbState = { client: Promise<PrismaClient>; pool?: pg.Pool };
const globalForDb = globalThis as unknown as { sandboxDb?: DbState };

/**
 * The Prisma client, connected and migrated. The first call in a process starts (or finds) the embedded
 * server when DATABASE_URL is unset, and applies pending migrations under an advisory lock.
 */
export function db(): Promise<PrismaClient> {
  globalForDb.sandboxDb ??= { client: connect() };
  return globalForDb.sandboxDb.client;
}

export async function databaseUrl(): Promise<string> {
  const configured = env().DATABASE_URL;
  if (configured) return configured;
  const server = await ensureEmbeddedServer(dataDir());
  await createDatabaseIfMissing(server.adminUrl('postgres'), EMBEDDED_DATABASE);
  return server.adminUrl(EMBEDDED_DATABASE);
}

/**
 * The database's URL while it runs, for what checks on it or reconnects to it in the background (/readyz, the
 * change-notice listener). Once this process has connected, it never starts the embedded server again, as
 * databaseUrl() does: one stopped under a running process (`npm run sandbox -- db-stop`, the end of a killed
 * `npm test`) stays stopped, and /readyz says so (the process's pool knows only the port it had).
 */
export async function runningDatabaseUrl(): Promise<string> {
  const configured = env().DATABASE_URL;
  if (configured) return configured;
  // a process whose start-up could not reach its database: asking is what starts it
  if (!globalForDb.sandboxDb?.pool) return databaseUrl();
  const server = await findEmbeddedServer(dataDir());
  if (!server) throw new Error(`the embedded PostgreSQL of ${dataDir()} is not running`);
  return server.adminUrl(EMBEDDED_DATABASE);
}

/**
 * The pool's connections. Those past `min` close after idleTimeoutMillis without use; `min` stay open, so that
 * a request after a quiet spell (a merchant's server sends one now and then) finds a connection whose
 * backend has its statements prepared and its catalog read: opening one on the request's path took it
 * 100–350 ms in the paced bench (docs/performance.md).
 */
export const POOL_OPTIONS = { max: 20, min: 4, idleTimeoutMillis: 30_000 } as const;

async function connect(): Promise<PrismaClient> {
  try {
    const url = await databaseUrl();
    await migrate(url);
    const pool = new pg.Pool({ connectionString: url, ...POOL_OPTIONS });
    globalForDb.sandboxDb!.pool = pool;
    return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  } catch (error) {
    // let the next caller try again rather than caching a failure forever
    globalForDb.sandboxDb = undefined;
    throw error;
  }
}

export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  await withClient({ connectionString: adminUrl }, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
      // another process created it between our check and our CREATE
      if (error.code !== '42P04' && error.code !== '23505') throw error;
    });
  });
}

/**
 * One SQL statement on `database`. On the client it goes straight to the pool Prisma uses, as a statement
 * prepared once per connection under `name`; in a transaction it goes through that transaction (a second
 * connection there could wait on the pool forever). Only for the statements on every API request's path,
 * where Prisma's own cost per query showed in the benchmark (docs/performance.md). Columns come back as
 * pg parses them: cast bigint columns to text.
 */
export async function sql<Row extends object>(
  database: Db,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  // a transaction client also has $transaction (Prisma nests on the same connection), so compare identities
  if (database !== (await db())) return database.$queryRawUnsafe<Row[]>(text, ...values);
  const { rows } = await globalForDb.sandboxDb!.pool!.query<Row>({ name, text, values });
  return rows;
}

/**
 * Runs fn in a transaction, or inside the caller's when db already is one. A transaction client has
 * $transaction too (Prisma would nest a SAVEPOINT and RELEASE, two more round trips); only the client
 * itself has $disconnect.
 */
export async function inTransaction<T>(database: Db, fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  if ('$disconnect' in database) return database.$transaction(fn, { maxWait: 10_000, timeout: 20_000 });
  return fn(database);
}

export async function disconnect(): Promise<void> {
  const state = globalForDb.sandboxDb;
  globalForDb.sandboxDb = undefined;
  await stopChangeNotices();
  if (state) await (await state.client).$disconnect();
}
