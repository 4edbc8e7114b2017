import { db, type Db } from '@/lib/db';
import { describeError, log } from '@/lib/log';

export type ApiRequestRecord = {
  merchantId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  idempotencyKey?: string;
};

/**
 * Records one authenticated /v1 request for Developers → Logs. Written after the answer is ready and not
 * awaited by the request: a log that cannot be written never fails or slows a payment.
 */
export function recordApiRequest(record: ApiRequestRecord): void {
  void db()
    .then((client) =>
      client.apiRequestLog.create({
        data: {
          merchantId: record.merchantId,
          method: record.method,
          path: record.path.slice(0, 500),
          status: record.status,
          durationMs: Math.max(0, Math.round(record.durationMs)),
          requestId: record.requestId,
          idempotencyKey: record.idempotencyKey?.slice(0, 255) ?? null,
        },
      }),
    )
    .catch((error) => log.warn('could not record an API request', describeError(error)));
}

export async function listApiRequestLogs(database: Db, merchantId: string, options: { limit: number; startingAfter?: bigint }) {
  const rows = await database.apiRequestLog.findMany({
    where: { merchantId, ...(options.startingAfter !== undefined ? { id: { lt: options.startingAfter } } : {}) },
    orderBy: { id: 'desc' },
    take: options.limit + 1,
  });
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** Logs are kept 30 days. */
export async function purgeOldApiRequestLogs(): Promise<number> {
  const client = await db();
  const { count } = await client.apiRequestLog.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 30 * 24 * 3600_000) } } });
  return count;
}
