import { randomUUID } from 'node:crypto';

// The CLI's `listen` and `trigger` speak to a sandbox over HTTP only, as a merchant's code would: any sandbox
// the key belongs to (a shared or hosted one), with no database of their own.

export class CliFailure extends Error {}

export type ApiTarget = { baseUrl: string; apiKey: string };

/**
 * --api-key or SANDBOX_API_KEY; --base-url, else SANDBOX_URL (the address a merchant's tests call, README),
 * else APP_URL, else the default address of `npm run dev`.
 */
export function apiTarget(options: { apiKey?: string; baseUrl?: string }, env = process.env): ApiTarget | string {
  const apiKey = options.apiKey || env.SANDBOX_API_KEY;
  if (!apiKey) return '--api-key (or SANDBOX_API_KEY) is required';
  const baseUrl = (options.baseUrl || env.SANDBOX_URL || env.APP_URL || 'http://localhost:3000').replace(/\/+$/, '');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    return `--base-url must be an http(s) address, not ${baseUrl}`;
  return { apiKey, baseUrl };
}

export type ApiError = { status: number; code?: string; message: string };

/** One /v1 call; a POST carries a fresh Idempotency-Key. Answers the JSON body, or throws ApiCallError. */
export async function callApi<T = Record<string, unknown>>(
  target: ApiTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${target.apiKey}`,
      ...(method === 'POST' ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}),
    },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  }).catch((error: unknown) => {
    throw new CliFailure(`cannot reach ${target.baseUrl}: ${causeOf(error)}`);
  });
  const answer = (await response.json().catch(() => undefined)) as
    (T & { error?: { code?: string; message?: string } }) | undefined;
  if (!response.ok) {
    const error = answer?.error;
    throw new ApiCallError({
      status: response.status,
      code: error?.code,
      message: `${method} ${path} answered ${response.status}${error?.code ? ` ${error.code}` : ''}: ${error?.message ?? 'no JSON body'}`,
    });
  }
  return answer as T;
}

export class ApiCallError extends CliFailure {
  constructor(readonly answer: ApiError) {
    super(answer.message);
  }
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED…) in its cause. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
