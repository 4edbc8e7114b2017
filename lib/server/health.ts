import { runningDatabaseUrl } from '@/lib/db';
import { pendingMigrations } from '@/lib/db/migrate';
import { withClient } from '@/lib/db/short-client';

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
  try {
    const config = { connectionString: await runningDatabaseUrl(), connectionTimeoutMillis: 2000 };
    const pending = await withClient(config, async (client) => {
      await client.query('SELECT 1');
      return pendingMigrations(client);
    });
    if (pending.length) checks.migrations = `pending: ${pending.join(', ')}`;
  } catch {
    checks.database = 'unreachable';
    checks.migrations = 'unknown';
  }
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}
