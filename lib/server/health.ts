import pg from 'pg';
import { runningDatabaseUrl } from '@/lib/db';
import { pendingMigrations } from '@/lib/db/migrate';

const globalForHealth = globalThis as unknown as { sandboxShuttingDown?: boolean };

/** Set on SIGTERM: the process finishes what it has but should be sent nothing new. */
export function markShuttingDown(): void {
  globalForHealth.sandboxShuttingDown = true;
}

export function isShuttingDown(): boolean {
  return globalForHealth.sandboxShuttingDown === true;
}

export type Readiness = { ready: boolean; checks: { database: string; migrations: string; process: string } };

/** Ready = not shutting down, the database answers, and every migration on disk is applied. */
export async function checkReadiness(): Promise<Readiness> {
  const checks = { database: 'ok', migrations: 'ok', process: isShuttingDown() ? 'shutting_down' : 'ok' };
  let client: pg.Client | undefined;
  try {
    client = new pg.Client({ connectionString: await runningDatabaseUrl(), connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.query('SELECT 1');
    const pending = await pendingMigrations(client);
    if (pending.length) checks.migrations = `pending: ${pending.join(', ')}`;
  } catch {
    checks.database = 'unreachable';
    checks.migrations = 'unknown';
  } finally {
    await client?.end().catch(() => {});
  }
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}
