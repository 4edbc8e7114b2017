import type { ApiRequestLogFilters } from './service';
import { isId } from '@/lib/core/ids';
import { first, type SearchParams } from '@/lib/dashboard/list-params';

// Developers → Logs reads its filters from the URL: ?status=4xx or ?status=404, ?method=POST,
// ?path=/v1/refund-requests (a prefix), ?key=<API key id>, and ?before=<log id> for older pages.

export const LOG_METHODS = ['GET', 'POST'] as const;
export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

export type LogListParams = {
  filters: ApiRequestLogFilters;
  /** the filters as they go back into links and the filter form */
  query: { status?: string; method?: string; path?: string; key?: string };
  before?: bigint;
};

export function readLogListParams(params: SearchParams): LogListParams {
  const query: LogListParams['query'] = {};
  const filters: ApiRequestLogFilters = {};

  const status = first(params, 'status');
  if (status && /^[1-5]xx$/.test(status)) {
    filters.status = { hundreds: Number(status[0]) };
    query.status = status;
  } else if (status && /^[1-5]\d\d$/.test(status)) {
    filters.status = { code: Number(status) };
    query.status = status;
  }

  const method = first(params, 'method')?.toUpperCase();
  if (method && (LOG_METHODS as readonly string[]).includes(method)) {
    filters.method = method;
    query.method = method;
  }

  const path = pathPrefix(first(params, 'path'));
  if (path) {
    filters.pathPrefix = path;
    query.path = path;
  }

  const key = first(params, 'key');
  if (key && isId('apiKey', key)) {
    filters.apiKeyId = key;
    query.key = key;
  }

  const before = first(params, 'before');
  return { filters, query, before: before && /^\d{1,18}$/.test(before) ? BigInt(before) : undefined };
}

/** What was typed in the path box as a prefix of logged paths: "refund-requests" means /v1/refund-requests. */
function pathPrefix(typed: string | undefined): string | undefined {
  if (!typed) return undefined;
  // a pasted URL gives its path; the log keeps paths without their query
  const path = typed
    .replace(/^https?:\/\/[^/]+/i, '')
    .split(/[?#]/)[0]
    .slice(0, 200);
  if (!path) return undefined;
  if (path.startsWith('/')) return path;
  return path.startsWith('v1/') ? `/${path}` : `/v1/${path}`;
}

/** A logged body, indented for reading when it is whole JSON; a cut body is shown as it was kept. */
export function readableBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** How Logs names a key: its name, or its prefix (sk_sandbox_AbCd…wxyz) when it has none. */
export function keyLabel(key: { name: string | null; prefix: string; revokedAt?: Date | null }): string {
  return `${key.name ?? key.prefix}${key.revokedAt ? ' (revoked)' : ''}`;
}
