import { db, sql, type Db } from '@/lib/db';
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

const FLUSH_EVERY_MS = 250;
const MAX_BATCH = 200;
const pending: ApiRequestRecord[] = [];
let flushTimer: NodeJS.Timeout | undefined;

/**
 * Records one authenticated /v1 request for Developers → Logs. Queued and written in batches a quarter of a
 * second later, off the request's path: a log costs a payment neither time nor a failure. A process killed
 * in between loses at most that quarter second of log lines, never anything else.
 */
export function recordApiRequest(record: ApiRequestRecord): void {
  pending.push(record);
  if (pending.length >= MAX_BATCH) void flushApiRequestLogs();
  else flushTimer ??= setTimeout(() => void flushApiRequestLogs(), FLUSH_EVERY_MS);
}

export async function flushApiRequestLogs(): Promise<void> {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  const batch = pending.splice(0, pending.length);
  if (batch.length === 0) return;
  try {
    // one prepared statement whatever the batch's size (Prisma's createMany plans every size anew)
    await sql(await db(), 'record-api-requests', INSERT_API_REQUEST_LOGS, [
      batch.map((record) => record.merchantId),
      batch.map((record) => record.method),
      batch.map((record) => record.path.slice(0, 500)),
      batch.map((record) => record.status),
      batch.map((record) => Math.max(0, Math.round(record.durationMs))),
      batch.map((record) => record.requestId),
      batch.map((record) => record.idempotencyKey?.slice(0, 255) ?? null),
    ]);
  } catch (error) {
    log.warn('could not record API requests', { count: batch.length, ...describeError(error) });
  }
}

const INSERT_API_REQUEST_LOGS = `
  INSERT INTO "api_request_logs" ("merchant_id", "method", "path", "status", "duration_ms", "request_id", "idempotency_key")
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[])`;

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
