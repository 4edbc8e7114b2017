import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './url-policy';

// One webhook POST: 10 s for the whole exchange, no redirects followed (a 3xx is a failed attempt, so a
// redirect can never lead a delivery somewhere the URL check did not approve), no connection reuse.

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

export type SendOutcome = {
  /** null when no HTTP answer came */
  status: number | null;
  /** the worker stopped mid-send: not the endpoint's fault, so it is retried at once */
  interrupted?: boolean;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
};

export function isDelivered(outcome: SendOutcome): boolean {
  return outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
}

/**
 * POSTs `body` to `url`. When `addresses` is given the connection goes to those (already checked)
 * addresses only, whatever DNS says now; TLS still verifies the certificate against the URL's host.
 */
export function sendWebhook(request: {
  url: URL;
  addresses: ResolvedAddress[] | null;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  /**
   * when the attempt began (performance.now()), if before this send: the URL's check before it counts towards
   * the timeout and the duration, so the attempt is logged with its whole time and the timeout it was given
   */
  startedAt?: number;
  /** aborts the send when the worker shuts down; the outcome then says so and `interrupted` is set */
  signal?: AbortSignal;
}): Promise<SendOutcome> {
  const started = request.startedAt ?? performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = request.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const timeLeftMs = Math.max(1, timeoutMs - elapsed());
  const transport = request.url.protocol === 'https:' ? https : http;

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const outgoing = transport.request(
      request.url,
      {
        method: 'POST',
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
        },
        agent: false,
        signal: request.signal
          ? AbortSignal.any([AbortSignal.timeout(timeLeftMs), request.signal])
          : AbortSignal.timeout(timeLeftMs),
        ...(request.addresses ? { lookup: pinnedLookup(request.addresses) } : {}),
      },
      (response) => {
        const status = response.statusCode ?? null;
        const chunks: Buffer[] = [];
        let received = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
          finish({ status, error: statusError(status), responseExcerpt: toText(excerpt) });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          // the rest of a long answer is not logged, so it is not waited for
          if (received >= RESPONSE_EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    outgoing.on('error', (error) => {
      if (request.signal?.aborted) {
        finish({
          status: null,
          error: 'interrupted: the worker shut down mid-send',
          responseExcerpt: null,
          interrupted: true,
        });
        return;
      }
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      finish({
        status: null,
        error: timedOut ? `timed out after ${timeoutMs} ms` : describeNetworkError(error),
        responseExcerpt: null,
      });
    });
    outgoing.end(request.body);
  });
}

function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  }) as LookupFunction;
}

function statusError(status: number | null): string | null {
  if (status === null || (status >= 200 && status < 300)) return null;
  if (status >= 300 && status < 400) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** UTF-8 text as PostgreSQL can store it (no NUL characters). */
function toText(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  return new TextDecoder().decode(bytes).replace(/\u0000/g, '');
}
