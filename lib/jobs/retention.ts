import type { Db } from '@/lib/db';
import { deleteApiRequestLogsBefore } from '@/lib/api-logs/repository';
import { deleteEventsBefore } from '@/lib/events/repository';
import { deleteTestDeliveriesBefore, deleteWebhookAttemptsBefore } from '@/lib/webhooks/repository';

// Growth that stops: what only grows with traffic (request logs, events with their webhook deliveries,
// webhook attempts) is kept RETENTION_DAYS (30 by default) and then deleted by the worker, as idempotency
// keys are after a day. A batch per statement, oldest first, so a purge never holds many rows' locks at
// once; a run stops after maxBatches of a kind and the next run goes on.

export type Retention = { days: number; batchSize: number; maxBatches: number };

export const PURGE_BATCH_SIZE = 5_000;

type BatchDelete = (database: Db, cutoff: Date, limit: number) => Promise<number>;

const PURGES: BatchDelete[] = [
  deleteApiRequestLogsBefore,
  deleteWebhookAttemptsBefore,
  deleteTestDeliveriesBefore,
  // last: each event's deliveries and attempts go with it
  deleteEventsBefore,
];

/** Deletes what is older than the retention, a batch at a time; returns how many rows it deleted. */
export async function purgeExpiredRecords(database: Db, retention: Retention, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retention.days * 86_400_000);
  let deleted = 0;
  for (const purge of PURGES) {
    for (let batch = 0; batch < retention.maxBatches; batch++) {
      const count = await purge(database, cutoff, retention.batchSize);
      deleted += count;
      if (count < retention.batchSize) break;
    }
  }
  return deleted;
}
