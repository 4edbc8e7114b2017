import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, SandboxConnectionError, SandboxError } from './errors.js';
import type { paths } from './openapi.js';
import type { HttpMethod, RequestOptions } from './types.js';

// The one way the client sends a request: openapi-fetch builds it (path, query, JSON body) and this sends it,
// retrying like stripe-node's maxNetworkRetries. A POST carries an Idempotency-Key (the caller's, or a fresh
// UUID), set once on the request so every retry of it sends the same key and the API does the work once.

export type SandboxConfig = {
  /** sk_sandbox_… */
  apiKey: string;
  /** where the API is, e.g. http://localhost:3000 */
  baseUrl: string;
  /** retries after a network error, 409 idempotency_key_in_use, 429 or 5xx; 2 unless given */
  maxNetworkRetries?: number;
  /** milliseconds for each attempt before it counts as a network error; 80 000 unless given */
  timeout?: number;
};

export const DEFAULT_MAX_NETWORK_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 80_000;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** a Retry-After beyond this is not waited for: the error is thrown instead */
const MAX_RETRY_AFTER_MS = 60_000;

export type Call = {
  method: HttpMethod;
  path: string;
  id?: string;
  query?: object;
  body?: unknown;
};

export class Transport {
  private readonly http: Client<paths>;
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly maxNetworkRetries: number;
  private readonly timeout: number;

  constructor(config: SandboxConfig) {
    if (!config.apiKey) throw new TypeError('new Sandbox({ apiKey }) needs an API key (sk_sandbox_…)');
    if (!config.baseUrl) throw new TypeError('new Sandbox({ baseUrl }) needs the URL of the API');
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.authorization = `Bearer ${config.apiKey}`;
    this.http = createClient<paths>({ baseUrl: this.baseUrl, headers: { Authorization: this.authorization } });
    this.maxNetworkRetries = config.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES;
    this.timeout = config.timeout ?? DEFAULT_TIMEOUT_MS;
  }

  /** Sends one operation and answers its parsed success body; throws a SandboxError otherwise. */
  async call(call: Call, options: RequestOptions = {}): Promise<unknown> {
    const headers: Record<string, string> = {};
    // every POST of /v1 takes an Idempotency-Key (client/test/coverage.test.ts checks that it stays so)
    if (call.method === 'post') headers['Idempotency-Key'] = options.idempotencyKey ?? crypto.randomUUID();
    const retries = options.maxNetworkRetries ?? this.maxNetworkRetries;
    const timeout = options.timeout ?? this.timeout;
    const init = {
      params: { path: call.id === undefined ? undefined : { id: call.id }, query: call.query },
      body: call.body,
      headers,
      fetch: (request: Request) => send(request, retries, timeout, 'answer'),
    };
    let result: { data?: unknown; error?: unknown; response: Response };
    try {
      // the makers in methods.ts type each call from `paths`; here the path is any of them
      result = await this.http.request(call.method as never, call.path as never, init as never);
    } catch (error) {
      if (error instanceof SandboxError) throw error;
      throw connectionError(error);
    }
    if (!result.response.ok) throw errorFromAnswer(result.response, result.error);
    return result.data;
  }

  /**
   * Opens a `text/event-stream` GET, after the same retries as any call, and answers the open response;
   * `lastEventId` resumes after that event. An error before the stream starts is thrown as usual.
   */
  async open(
    path: string,
    query: object | undefined,
    lastEventId: string | undefined,
    options: RequestOptions = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
    const headers: Record<string, string> = { Authorization: this.authorization, Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const retries = options.maxNetworkRetries ?? this.maxNetworkRetries;
    const response = await send(
      new Request(url, { headers }),
      retries,
      options.timeout ?? this.timeout,
      'headers',
      signal,
    );
    if (response.ok) return response;
    const body: unknown = await response.json().catch(() => undefined);
    throw errorFromAnswer(response, body);
  }

  /** how many times a stream that ended at once is reopened before giving up, as for any request */
  retriesOf(options: RequestOptions = {}): number {
    return options.maxNetworkRetries ?? this.maxNetworkRetries;
  }
}

function errorFromAnswer(response: Response, body: unknown): SandboxError {
  const wait = retryAfterMs(response);
  return errorFromResponse(response, body, wait === undefined ? undefined : wait / 1000);
}

/**
 * Sends a request, retrying as the client's options say. The timeout covers the whole answer, or only until
 * its headers for a stream (which is meant to stay open).
 */
async function send(
  request: Request,
  retries: number,
  timeout: number,
  timeoutCovers: 'answer' | 'headers',
  /** aborts the request, and a stream after it started */
  signal?: AbortSignal,
): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response | undefined;
    let failure: unknown;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // a clone per attempt: a body can be read once, and the retry must send the same one
      const sent = fetch(request.clone(), {
        signal: AbortSignal.any([
          timeoutCovers === 'answer' ? AbortSignal.timeout(timeout) : controller.signal,
          ...(signal ? [signal] : []),
        ]),
      });
      if (timeoutCovers === 'headers')
        timer = setTimeout(
          () => controller.abort(new DOMException('The stream did not start in time', 'TimeoutError')),
          timeout,
        );
      response = await sent;
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
    }
    // closed by the caller (a stream's loop ended): nothing to retry
    if (signal?.aborted) throw connectionError(failure ?? signal.reason);
    const retryable = response ? await shouldRetry(response) : true;
    const wait = response ? retryAfterMs(response) : undefined;
    if (attempt >= retries || !retryable || (wait !== undefined && wait > MAX_RETRY_AFTER_MS)) {
      if (response) return response;
      throw connectionError(failure);
    }
    await response?.body?.cancel();
    await sleep(wait ?? backoffMs(attempt));
  }
}

/** Network errors, 409 idempotency_key_in_use (the first attempt still runs), 429 and 5xx; no other 4xx. */
async function shouldRetry(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  try {
    const body: { error?: { code?: unknown } } | null = await response.clone().json();
    return body?.error?.code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

/** 0.5 s, 1 s, 2 s… up to 8 s, each scaled by a random factor between 0.5 and 1 so clients spread out. */
export function backoffMs(attempt: number): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  return base * (0.5 + Math.random() / 2);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function connectionError(cause: unknown): SandboxConnectionError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new SandboxConnectionError(
    `No answer from the Sandbox API: ${reason}`,
    { type: 'connection_error' },
    { cause },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
