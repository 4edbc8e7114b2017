import { randomUUID } from 'node:crypto';

// A small client of the sandbox's /v1 API: bearer key, JSON bodies, an Idempotency-Key on every POST, and
// retries (same key, so a retry never acts twice) when no answer came, the rate limit answered 429, or the
// server answered 5xx.

export type CheckoutSession = {
  id: string;
  status: 'open' | 'complete' | 'expired';
  url: string;
  order_reference: string;
  currency: string;
  amount: number;
  payment_id: string | null;
  capture_method?: 'automatic' | 'manual';
  metadata: Record<string, string>;
  expires_at: string;
};

export type Payment = {
  id: string;
  status: 'succeeded' | 'failed' | 'requires_capture' | 'canceled';
  amount: number;
  currency: string;
  payment_method: 'card' | 'usdc' | 'interac';
  failure_code: string | null;
  checkout_session_id: string;
  order_reference: string;
  amount_refunded: number;
  amount_refundable: number;
  capture_method?: 'automatic' | 'manual';
  amount_capturable?: number;
  amount_captured?: number;
  metadata: Record<string, string>;
};

export type RefundRequest = {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  status: 'requested' | 'processing' | 'completed' | 'failed' | 'declined' | 'canceled';
  failure_reason: string | null;
  metadata: Record<string, string>;
};

export type List<T> = { object: 'list'; data: T[]; has_more: boolean };

/** An error answer of the API (or no answer at all: status undefined). */
export class SandboxApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'SandboxApiError';
  }
}

const ATTEMPTS = 3;

export class SandboxApi {
  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
  ) {}

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  /** A POST; `idempotencyKey` defaults to a fresh one (then only this call's own retries reuse it). */
  post<T>(path: string, body: Record<string, unknown>, idempotencyKey: string = randomUUID()): Promise<T> {
    return this.request<T>('POST', path, body, idempotencyKey);
  }

  private async request<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}${path}`;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        if (attempt < ATTEMPTS) {
          await pause(attempt, undefined);
          continue;
        }
        const reason = error instanceof Error ? error.message : String(error);
        throw new SandboxApiError(`no answer from ${url}: ${reason}`, undefined, undefined, undefined, undefined);
      }
      if ((response.status === 429 || response.status >= 500) && attempt < ATTEMPTS) {
        await pause(attempt, response.headers.get('retry-after'));
        continue;
      }
      const text = await response.text();
      const json = parse(text);
      if (response.ok) return json as T;
      const error = (json as { error?: { code?: string; message?: string; param?: string; request_id?: string } })
        ?.error;
      throw new SandboxApiError(
        error?.message ?? `${method} ${path} answered ${response.status}`,
        response.status,
        error?.code,
        error?.param,
        error?.request_id ?? response.headers.get('request-id') ?? undefined,
      );
    }
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After when the server gave one (at most 10 s), else 0.5 s, 1 s, … */
function pause(attempt: number, retryAfter: string | null | undefined): Promise<void> {
  const seconds = Number(retryAfter);
  const ms = retryAfter && Number.isFinite(seconds) ? Math.min(seconds, 10) * 1000 : 500 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
