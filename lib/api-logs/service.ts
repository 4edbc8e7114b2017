import { db } from '@/lib/db';
import type { RequestContext } from '@/lib/core/context';
import { describeError, log } from '@/lib/log';
import { loggedBody, redactLoggedText } from './redact';
import { findApiRequestLog, findApiRequestLogs, insertApiRequestLogs, type ApiRequestLogFilters } from './repository';

export type { ApiRequestLogFilters } from './repository';

export type ApiRequestRecord = {
  merchantId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  idempotencyKey?: string;
  /** the API key that made the request */
  apiKeyId?: string;
  /** the JSON body as parsed (POST only), and the answer's: redacted and cut when written */
  requestBody?: unknown;
  responseBody?: unknown;
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
    await insertApiRequestLogs(
      await db(),
      // redacting here, a quarter second later, keeps its cost off the request it describes; the path and the
      // Idempotency-Key are the only parts of the request besides its body that the log keeps (no query, no
      // other header)
      batch.map((record) => ({
        merchantId: record.merchantId,
        method: record.method,
        path: redactLoggedText(record.path).slice(0, 500),
        status: record.status,
        durationMs: Math.max(0, Math.round(record.durationMs)),
        requestId: record.requestId,
        idempotencyKey:
          record.idempotencyKey === undefined ? null : redactLoggedText(record.idempotencyKey).slice(0, 255),
        requestBody: loggedBody(record.requestBody),
        responseBody: loggedBody(record.responseBody),
        apiKeyId: record.apiKeyId ?? null,
      })),
    );
  } catch (error) {
    log.warn('could not record API requests', { count: batch.length, ...describeError(error) });
  }
}

export async function listApiRequestLogs(
  context: RequestContext,
  options: { limit: number; startingAfter?: bigint; filters?: ApiRequestLogFilters },
) {
  const { db: database, merchantId } = context;
  const rows = await findApiRequestLogs(database, merchantId, { ...options, limit: options.limit + 1 });
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** One request with its (redacted) bodies, or null when it is not this merchant's or no longer kept. */
export async function getApiRequestLog(context: RequestContext, id: bigint) {
  return findApiRequestLog(context.db, context.merchantId, id);
}
