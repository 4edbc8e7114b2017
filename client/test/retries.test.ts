import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createTestMerchant } from '@/test/helpers';
import {
  Sandbox,
  SandboxApiError,
  SandboxConnectionError,
  SandboxIdempotencyError,
  SandboxInvalidRequestError,
  SandboxRateLimitError,
} from '../src/index';
import { backoffMs } from '../src/http';
import { sessionBody } from './support/client';
import { startProxy, type Step, type TestProxy } from './support/proxy';

// Retries over real HTTP: a proxy in front of the test server answers 500, 429 or 409 idempotency_key_in_use
// first, or forwards a create and drops the connection before the answer, as a network failure would.

let key: string;
const proxies: TestProxy[] = [];

beforeAll(async () => {
  ({ key } = await createTestMerchant());
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function throughProxy(
  plan: (nth: number) => Step,
  config: { maxNetworkRetries?: number; timeout?: number } = {},
) {
  const proxy = await startProxy(inject('serverUrl'), plan);
  proxies.push(proxy);
  return { proxy, sandbox: new Sandbox({ apiKey: key, baseUrl: proxy.url, ...config }) };
}

const errorBody = (type: string, code: string) => ({ error: { type, code, message: code, request_id: 'req_proxy' } });

async function sessionsOf(orderReference: string) {
  const listed = await apiClient(key).get(`/v1/checkout-sessions?order_reference=${orderReference}`);
  return listed.body.data as { id: string }[];
}

describe('retries', () => {
  it('retries a create whose answer was lost with the same Idempotency-Key, and the API creates it once', async () => {
    const { proxy, sandbox } = await throughProxy((nth) => (nth === 1 ? 'forward-then-drop' : 'forward'));
    const body = sessionBody();
    const session = await sandbox.checkoutSessions.create(body);

    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen.map((seen) => seen.upstreamStatus)).toEqual([201, 200]);
    expect(proxy.seen[1].replayed).toBe(true);
    expect(proxy.seen[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxy.seen[1].idempotencyKey).toBe(proxy.seen[0].idempotencyKey);
    expect((await sessionsOf(body.order_reference)).map((item) => item.id)).toEqual([session.id]);
  });

  it('sends the caller’s Idempotency-Key, the same on every retry, and a new one per call otherwise', async () => {
    const { proxy, sandbox } = await throughProxy((nth) =>
      nth === 1 ? { status: 500, body: errorBody('api_error', 'internal_error') } : 'forward',
    );
    const link = await sandbox.paymentLinks.create(
      { name: 'Ticket', amount: 4500, currency: 'USD' },
      { idempotencyKey: 'link-key-1' },
    );
    expect(proxy.seen.map((seen) => seen.idempotencyKey)).toEqual(['link-key-1', 'link-key-1']);
    const again = await sandbox.paymentLinks.create({ name: 'Ticket', amount: 4500, currency: 'USD' });
    expect(again.id).not.toBe(link.id);
    expect(proxy.seen[2].idempotencyKey).not.toBe('link-key-1');
    // reads carry no key
    await sandbox.paymentLinks.retrieve(link.id);
    expect(proxy.seen[3]).toMatchObject({ method: 'GET', idempotencyKey: undefined });
  });

  it('waits the Retry-After of a 429 before retrying', async () => {
    const { proxy, sandbox } = await throughProxy((nth) =>
      nth === 1
        ? { status: 429, headers: { 'Retry-After': '1' }, body: errorBody('rate_limit_error', 'rate_limited') }
        : 'forward',
    );
    const started = Date.now();
    const page = await sandbox.payments.list();
    expect(page.object).toBe('list');
    expect(proxy.seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('reads a Retry-After given as an HTTP date, and throws at once when it asks for more than a minute', async () => {
    const dated = await throughProxy((nth) =>
      nth === 1
        ? {
            status: 429,
            // whole seconds, as HTTP dates are: 2 s ahead waits between 1 and 2 s
            headers: { 'Retry-After': new Date(Date.now() + 2_000).toUTCString() },
            body: errorBody('rate_limit_error', 'rate_limited'),
          }
        : 'forward',
    );
    const started = Date.now();
    await dated.sandbox.payments.list();
    expect(dated.proxy.seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const tooLong = await throughProxy(() => ({
      status: 429,
      headers: { 'Retry-After': '120' },
      body: errorBody('rate_limit_error', 'rate_limited'),
    }));
    const refusedAt = Date.now();
    const error = await tooLong.sandbox.payments.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxRateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 120 });
    expect(tooLong.proxy.seen).toHaveLength(1);
    expect(Date.now() - refusedAt).toBeLessThan(5_000);
  });

  it('backs off 0.5 s, 1 s, 2 s… up to 8 s, each scaled by a random factor between 0.5 and 1', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = Math.min(500 * 2 ** attempt, 8_000);
      const delays = Array.from({ length: 200 }, () => backoffMs(attempt));
      for (const delay of delays) {
        expect(delay).toBeGreaterThanOrEqual(base / 2);
        expect(delay).toBeLessThanOrEqual(base);
      }
      // jittered: two hundred draws are not all alike, and spread over most of the range
      expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(base / 4);
    }
  });

  it('retries 409 idempotency_key_in_use with the same key', async () => {
    const { proxy, sandbox } = await throughProxy((nth) =>
      nth === 1 ? { status: 409, body: errorBody('idempotency_error', 'idempotency_key_in_use') } : 'forward',
    );
    const endpoint = await sandbox.webhookEndpoints.create({ url: 'http://127.0.0.1:4000/in-use', events: ['*'] });
    expect(endpoint.object).toBe('webhook_endpoint');
    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen[1].idempotencyKey).toBe(proxy.seen[0].idempotencyKey);
  });

  it('gives up after maxNetworkRetries and throws the last error', async () => {
    const { proxy, sandbox } = await throughProxy(
      () => ({ status: 503, headers: { 'Request-Id': 'req_busy' }, body: errorBody('api_error', 'internal_error') }),
      { maxNetworkRetries: 1 },
    );
    const error = await sandbox.payments.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxApiError);
    expect(error).toMatchObject({ status: 503, requestId: 'req_busy', code: 'internal_error' });
    expect(proxy.seen).toHaveLength(2);

    const limited = await throughProxy(
      () => ({ status: 429, headers: { 'Retry-After': '0' }, body: errorBody('rate_limit_error', 'rate_limited') }),
      { maxNetworkRetries: 0 },
    );
    const rateLimited = await limited.sandbox.payments.list().catch((thrown: unknown) => thrown);
    expect(rateLimited).toBeInstanceOf(SandboxRateLimitError);
    expect(rateLimited).toMatchObject({ status: 429, retryAfter: 0 });
    expect(limited.proxy.seen).toHaveLength(1);
  });

  it('does not retry any other 4xx', async () => {
    const { proxy, sandbox } = await throughProxy(() => 'forward');
    const missing = await sandbox.payments.retrieve(`pay_${'0'.repeat(24)}`).catch((thrown: unknown) => thrown);
    expect(missing).toBeInstanceOf(SandboxInvalidRequestError);
    const reused = await sandbox.paymentLinks
      .create({ name: 'A', amount: 100, currency: 'USD' }, { idempotencyKey: 'reused-key' })
      .then(() =>
        sandbox.paymentLinks.create({ name: 'B', amount: 100, currency: 'USD' }, { idempotencyKey: 'reused-key' }),
      )
      .catch((thrown: unknown) => thrown);
    expect(reused).toBeInstanceOf(SandboxIdempotencyError);
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(proxy.seen.map((seen) => seen.upstreamStatus)).toEqual([404, 201, 422]);
  });

  it('retries network errors and timeouts, then throws a SandboxConnectionError', async () => {
    const { proxy, sandbox } = await throughProxy(() => 'hang', { maxNetworkRetries: 1, timeout: 300 });
    const error = await sandbox.events.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxConnectionError);
    expect(error).toMatchObject({ type: 'connection_error', status: undefined });
    expect(proxy.seen).toHaveLength(2);

    await proxy.close();
    const closed = await sandbox.events.list().catch((thrown: unknown) => thrown);
    expect(closed).toBeInstanceOf(SandboxConnectionError);
  });
});
