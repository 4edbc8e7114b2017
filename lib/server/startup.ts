import { ApiError } from '@/lib/core/errors';
import { startRateLimits } from '@/lib/http/rate-limit';
import { flushApiRequestLogs } from '@/lib/api-logs/service';
import { db } from '@/lib/db';
import { stopStartedServersOnExit } from '@/lib/db/embedded';
import { env, workerEnabled } from '@/lib/env';
import { startWorker, type Worker } from '@/lib/jobs/worker';
import { describeError, log } from '@/lib/log';
import { configuredWebsites, seedDemo } from '@/lib/merchants/seed';
import { stampClientAddresses } from './client-address';
import { refuseUnservedMethods } from './http-methods';
import { markShuttingDown } from './health';
import { dropOutputNoOneReads } from './lost-output';

// What a web process does when it starts: stamp requests with their client address (for the throttles), answer
// methods Next cannot serve (lib/server/http-methods.ts), connect (starting the embedded database if needed), migrate,
// seed an empty database, and run the worker in-process unless WORKER=off.

const globalForStartup = globalThis as unknown as { sandboxWorker?: Worker };

export async function startServerProcess(): Promise<void> {
  dropOutputNoOneReads();
  stampClientAddresses(env().TRUST_PROXY);
  refuseUnservedMethods();
  // `npm run dev`: Ctrl-C stops the embedded database this server started (`npm start` leaves it running
  // for the other processes that may share it; `npm run sandbox -- db-stop` stops it)
  if (process.env.NODE_ENV === 'development') stopStartedServersOnExit();
  let websites: string[];
  try {
    websites = configuredWebsites();
  } catch (error) {
    refuseToStart(error);
  }
  try {
    const client = await db();
    const seeded = await seedDemo(client, websites);
    if (seeded.created) printDemoLogin(seeded);
    startRateLimits();
  } catch (error) {
    // a website the account cannot take (past its limit) is a setting to fix, not a database to wait for
    if (error instanceof ApiError) refuseToStart(error);
    // keep serving: /v1 answers 500 internal_error until the database is reachable, and /readyz says why
    log.error('database start-up failed', describeError(error));
    return;
  }
  if (workerEnabled() && !globalForStartup.sandboxWorker) globalForStartup.sandboxWorker = startWorker();
  stopWorkOnShutdown();
}

/**
 * A setting the process cannot act on (SANDBOX_APPROVED_WEBSITES): it stops, saying why, rather than serve a CI
 * job without the website the job needs.
 */
function refuseToStart(error: unknown): never {
  // in words, whatever LOG_LEVEL says: the job's log must show why the server is gone
  process.stderr.write(`\nRefusing to start: ${error instanceof Error ? error.message : String(error)}\n\n`);
  process.exit(1);
}

/** How long a SIGTERM waits for in-flight requests, the worker's pass and the request log before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * On SIGTERM Next.js stops accepting connections and finishes in-flight requests; alongside, /readyz turns
 * 503 and the in-process worker stops claiming jobs, cuts in-flight webhook sends short and releases their
 * deliveries for another worker. Work cut short by the exit itself is safe: job transactions roll back,
 * and a webhook lease runs out and is retried. Whatever holds the exit up past SHUTDOWN_GRACE_MS (a request
 * that does not end, such as an event stream, or a database that does not answer) does not keep the
 * process alive.
 */
function stopWorkOnShutdown(): void {
  const onSignal = (signal: NodeJS.Signals) => {
    markShuttingDown();
    exitAfterGrace(signal);
    void globalForStartup.sandboxWorker?.stop();
    void flushApiRequestLogs();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** Exits as Next.js does on the signal (128 + its number), if the process is still here after the grace period. */
export function exitAfterGrace(signal: NodeJS.Signals, graceMs = SHUTDOWN_GRACE_MS): void {
  setTimeout(() => {
    log.warn('shutdown took too long; exiting now', { graceMs, signal });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }, graceMs).unref();
}

export function printDemoLogin(seeded: { email: string; password?: string; api_key?: string }): void {
  const lines = [
    '',
    '  Sandbox ready — first start, demo account created (shown once):',
    `    dashboard login  ${seeded.email} / ${seeded.password}`,
    `    API key          ${seeded.api_key}`,
    '',
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}
