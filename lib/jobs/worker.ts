import { purgeExpiredIdempotencyKeys } from '@/lib/idempotency/service';
import { expireDueCheckoutSessions } from '@/lib/checkout-sessions/service';
import { wallClock } from '@/lib/core/clock';
import { merchantContexts } from '@/lib/core/context';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { describeError, log } from '@/lib/log';
import { cancelExpiredAuthorizations } from '@/lib/payments/capture';
import { authorizeAutomaticRefunds, finishProcessingRefunds } from '@/lib/refunds/service';
import { purgeEndedThrottles } from '@/lib/throttles/service';
import { claimDueWebhooks, newSendPool } from '@/lib/webhooks/deliver';
import type { SendPool } from '@/lib/webhooks/send-pool';
import { purgeExpiredRecords, PURGE_BATCH_SIZE } from './retention';

// The background worker: a loop of small jobs, each claiming its rows with SKIP LOCKED (or one atomic
// statement), so any number of workers can run against one database. No job waits for a merchant's server:
// the webhook job only claims and queues its sends in the worker's pool (lib/webhooks/deliver.ts), which sends
// them beside the loop, so refunds and session expiry run every tick whatever the endpoints do.

/**
 * What a job gets from its worker: the shutdown signal, and the pool its webhook sends go into; and what the
 * worker remembers of each job's last failure, so that one failing alike every tick is logged once.
 */
type JobContext = { signal?: AbortSignal; sends: SendPool; failures?: Map<string, string> };
type Job = {
  name: string;
  everyTicks: number;
  run: (context: JobContext) => Promise<number>;
  /** When it handled rows: the next tick comes within this many ms (what it started is due again by then). */
  dueAgainWithinMs?: () => number;
};

const jobs: Job[] = [
  {
    name: 'authorize-refunds',
    everyTicks: 1,
    // each refund at its merchant's time: its context, built per merchant (lib/core/context.ts)
    run: async () => authorizeAutomaticRefunds(merchantContexts(await db())),
    // a refund it submitted finishes when the provider's delay is up, not up to a tick later
    dueAgainWithinMs: () => env().REFUND_PROCESSING_DELAY_MS + 20,
  },
  {
    name: 'finish-refunds',
    everyTicks: 1,
    run: async () => finishProcessingRefunds(merchantContexts(await db()), env().REFUND_PROCESSING_DELAY_MS),
  },
  {
    name: 'deliver-webhooks',
    everyTicks: 1,
    run: async ({ signal, sends }) => claimDueWebhooks(await db(), sends, { signal }),
  },
  // every tick: an advanced test clock expires its sessions within the next tick (/docs, test clocks)
  { name: 'expire-sessions', everyTicks: 1, run: async () => expireDueCheckoutSessions(await db()) },
  // every tick too: an advanced test clock cancels its lapsed authorizations within the next tick
  {
    name: 'expire-authorizations',
    everyTicks: 1,
    run: async () => cancelExpiredAuthorizations(merchantContexts(await db())),
  },
  { name: 'purge-idempotency-keys', everyTicks: 600, run: async () => purgeExpiredIdempotencyKeys(wallClock()) },
  {
    name: 'purge-expired-records',
    everyTicks: 600,
    run: async () =>
      purgeExpiredRecords(await db(), { days: env().RETENTION_DAYS, batchSize: PURGE_BATCH_SIZE, maxBatches: 20 }),
  },
  { name: 'purge-throttles', everyTicks: 3600, run: async () => purgeEndedThrottles(await db()) },
];

export type Worker = { stop: () => Promise<void> };

const TICK_MS = 1000;
/** After passes in which every job failed (the database is gone), the next comes later, up to this. */
const MAX_FAILING_TICK_MS = 5_000;

export type Pass = { nextWithinMs: number; allFailed: boolean };

/**
 * One pass over every job, each on its own share of the ticks: within how many ms the next should come, and
 * whether every job it ran failed.
 */
export async function runJobsOnce(tick: number, context: JobContext): Promise<Pass> {
  let nextWithinMs = Infinity;
  let ran = 0;
  let failed = 0;
  for (const job of jobs) {
    if (tick % job.everyTicks !== 0 || context.signal?.aborted) continue;
    ran += 1;
    try {
      const handled = await job.run(context);
      if (context.failures?.delete(job.name)) log.info('job runs again', { job: job.name });
      if (handled > 0) log.debug('job ran', { job: job.name, handled });
      if (handled > 0 && job.dueAgainWithinMs) nextWithinMs = Math.min(nextWithinMs, job.dueAgainWithinMs());
    } catch (error) {
      failed += 1;
      const described = describeError(error);
      if (context.failures?.get(job.name) === described.error) continue;
      context.failures?.set(job.name, String(described.error));
      log.error('job failed', { job: job.name, ...described });
    }
  }
  return { nextWithinMs, allFailed: ran > 0 && failed === ran };
}

export function startWorker(): Worker {
  let stopped = false;
  let tick = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const shutdown = new AbortController();
  const sends = newSendPool();
  const failures = new Map<string, string>();
  let failedPasses = 0;

  const loop = () => {
    if (stopped) return;
    running = runJobsOnce(tick++, { signal: shutdown.signal, sends, failures }).then(({ nextWithinMs, allFailed }) => {
      failedPasses = allFailed ? failedPasses + 1 : 0;
      // a database that is gone is asked again after a wait that doubles, not every tick
      const tickMs = Math.min(TICK_MS * 2 ** failedPasses, MAX_FAILING_TICK_MS);
      // jitter keeps several workers from polling in lockstep
      if (!stopped) timer = setTimeout(loop, Math.min(nextWithinMs, tickMs * (0.75 + Math.random() / 2)));
    });
  };
  timer = setTimeout(loop, 100);
  log.info('worker started', { pid: process.pid });

  return {
    /** Claims nothing more, cuts in-flight webhook sends short and releases their deliveries, then resolves. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort();
      await running;
      await sends.idle();
    },
  };
}
