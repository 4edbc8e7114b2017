import { sql, type Db } from '@/lib/db';
import type { Prisma } from '@/lib/generated/prisma/client';

// Every query on api_request_logs. The insert is on the path of every /v1 request (batched, see
// service.ts): one prepared statement whatever the batch's size.

export type ApiRequestLogRow = {
  merchantId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  idempotencyKey: string | null;
  requestBody: string | null;
  responseBody: string | null;
  /** the key that made the request */
  apiKeyId: string | null;
};

const INSERT_API_REQUEST_LOGS = `
  INSERT INTO "api_request_logs" ("merchant_id", "method", "path", "status", "duration_ms", "request_id", "idempotency_key", "request_body", "response_body", "api_key_id")
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`;

export async function insertApiRequestLogs(database: Db, rows: ApiRequestLogRow[]): Promise<void> {
  // Prisma's createMany plans every batch size anew; unnest keeps one plan
  await sql(database, 'record-api-requests', INSERT_API_REQUEST_LOGS, [
    rows.map((row) => row.merchantId),
    rows.map((row) => row.method),
    rows.map((row) => row.path),
    rows.map((row) => row.status),
    rows.map((row) => row.durationMs),
    rows.map((row) => row.requestId),
    rows.map((row) => row.idempotencyKey),
    rows.map((row) => row.requestBody),
    rows.map((row) => row.responseBody),
    rows.map((row) => row.apiKeyId),
  ]);
}

/** What a list of requests filters on. `status` is one code (404) or a class (4 for 4xx). */
export type ApiRequestLogFilters = {
  status?: { code: number } | { hundreds: number };
  method?: string;
  pathPrefix?: string;
  /** requests made with this key (api_keys.id) */
  apiKeyId?: string;
};

function filterWhere(
  merchantId: string,
  filters: ApiRequestLogFilters,
  startingAfter?: bigint,
): Prisma.ApiRequestLogWhereInput {
  const { status, method, pathPrefix, apiKeyId } = filters;
  return {
    merchantId,
    ...(startingAfter !== undefined ? { id: { lt: startingAfter } } : {}),
    ...(status && 'code' in status ? { status: status.code } : {}),
    ...(status && 'hundreds' in status
      ? { status: { gte: status.hundreds * 100, lt: status.hundreds * 100 + 100 } }
      : {}),
    ...(method ? { method } : {}),
    ...(apiKeyId ? { apiKeyId } : {}),
    // Prisma passes startsWith on to LIKE as it is: escaped, a typed % or _ is matched as typed
    ...(pathPrefix ? { path: { startsWith: pathPrefix.replace(/[\\%_]/g, '\\$&') } } : {}),
  };
}

/** Newest first, without the bodies (a page of 50 would carry up to 1.6 MB of them). */
export async function findApiRequestLogs(
  database: Db,
  merchantId: string,
  options: { limit: number; startingAfter?: bigint; filters?: ApiRequestLogFilters },
) {
  return database.apiRequestLog.findMany({
    where: filterWhere(merchantId, options.filters ?? {}, options.startingAfter),
    omit: { requestBody: true, responseBody: true },
    orderBy: { id: 'desc' },
    take: options.limit,
  });
}

export async function findApiRequestLog(database: Db, merchantId: string, id: bigint) {
  return database.apiRequestLog.findFirst({ where: { id, merchantId } });
}

/** Up to `limit` of the logs made before `cutoff`, oldest first: a batch of the worker's purge. */
export async function deleteApiRequestLogsBefore(database: Db, cutoff: Date, limit: number): Promise<number> {
  return database.$executeRaw`
    DELETE FROM "api_request_logs" WHERE "id" IN (
      SELECT "id" FROM "api_request_logs" WHERE "created_at" < ${cutoff} ORDER BY "created_at" LIMIT ${limit})`;
}
