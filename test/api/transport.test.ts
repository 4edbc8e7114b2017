import http from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db';
import { revokeApiKey } from '@/lib/api-keys/service';
import { ID_PREFIXES } from '@/lib/core/ids';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';
import { contextOf } from '@/test/context';

// The /v1 wrapper: routing, authentication, scopes, body transport, in the order /docs#errors gives.

let merchant: Awaited<ReturnType<typeof createTestMerchant>>;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  merchant = await createTestMerchant();
  api = apiClient(merchant.key);
});

function expectError(res: { status: number; body: any; headers: Headers }, status: number, type: string, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.error).toMatchObject({ type, code });
  expect(res.body.error.request_id).toMatch(/^req_/);
}

describe('routing', () => {
  it('answers unknown /v1 paths with a JSON 404, before authentication', async () => {
    for (const path of ['/v1', '/v1/', '/v1/nope', '/v1/checkout-sessions/cs_x/nope', '/v1/payments/%ZZ']) {
      const res = await apiClient().get(path);
      expect(res.status, path).toBe(404);
      expectError(res, 404, 'invalid_request_error', 'route_not_found');
    }
  });

  it('serves a path with a trailing slash like the path without one', async () => {
    const res = await api.get('/v1/checkout-sessions/');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
  });

  it('answers unsupported methods with 405 and Allow', async () => {
    const res = await api.request('DELETE', '/v1/checkout-sessions');
    expectError(res, 405, 'invalid_request_error', 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
    const put = await apiClient().request('PUT', '/v1/payments/pay_000000000000000000000000');
    expectError(put, 405, 'invalid_request_error', 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET');
  });
});

/**
 * A request with any method Node's HTTP parser knows (fetch refuses to send TRACE; one the parser does not
 * know, like TRACK, gets the parser's own 400), its status, headers and body.
 */
function rawRequest(method: string, path: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const request = http.request(`${inject('serverUrl')}${path}`, { method });
    request.on('error', reject).on('response', (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.end();
  });
}

describe('methods no route serves', () => {
  // each operation's path with an id of its kind, and the methods of the operations at that path
  const paths = [...new Set(API_OPERATIONS.map((operation) => operation.path))].map((template) => {
    const pathId = API_OPERATIONS.find((operation) => operation.path === template)!.pathId;
    return {
      path: template.replace('{id}', `${pathId ? ID_PREFIXES[pathId] : 'x_'}${'0'.repeat(24)}`),
      allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
        .filter((method) =>
          API_OPERATIONS.some((operation) => operation.path === template && operation.method === method),
        )
        .join(', '),
    };
  });

  it.each(paths)(
    '$path answers TRACE, PROPFIND and SEARCH with the JSON 405, OPTIONS with $allow',
    async ({ path, allow }) => {
      for (const method of ['TRACE', 'PROPFIND', 'SEARCH']) {
        const response = await rawRequest(method, path);
        expect([method, response.status, response.headers.allow]).toEqual([method, 405, allow]);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(response.text).error).toMatchObject({
          type: 'invalid_request_error',
          code: 'method_not_allowed',
          request_id: response.headers['request-id'],
        });
      }
      const options = await rawRequest('OPTIONS', path);
      expect([options.status, options.headers.allow]).toEqual([204, allow]);
      if (!allow.includes('GET')) expect((await rawRequest('HEAD', path)).status).toBe(405);
    },
  );

  it('answers TRACE and OPTIONS on an unknown /v1 path with the JSON 404', async () => {
    for (const method of ['TRACE', 'OPTIONS']) {
      const response = await rawRequest(method, '/v1/nope');
      expect(response.status).toBe(404);
      expect(JSON.parse(response.text).error.code).toBe('route_not_found');
    }
  });

  it.each(['/', '/login', '/signup', '/docs', '/dashboard', '/checkout/cs_000000000000000000000000', '/pay/pl_x'])(
    'the page %s answers 405 with Allow to TRACE, PROPFIND, PUT and DELETE, and lists its methods to OPTIONS',
    async (path) => {
      for (const method of ['TRACE', 'PROPFIND', 'PUT', 'PATCH', 'DELETE']) {
        const response = await rawRequest(method, path);
        expect([method, response.status, response.headers.allow]).toEqual([method, 405, 'GET, HEAD, POST, OPTIONS']);
      }
      const options = await rawRequest('OPTIONS', path);
      expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, POST, OPTIONS']);
    },
  );

  it.each([
    ['/healthz', 'GET, HEAD, OPTIONS'],
    ['/api/auth/session', 'GET, HEAD, POST, OPTIONS'],
    ['/_next/static/nothing.js', 'GET, HEAD, OPTIONS'],
  ])('the route %s answers TRACE with 405 and Allow', async (path, allow) => {
    const response = await rawRequest('TRACE', path);
    expect([response.status, response.headers.allow]).toEqual([405, allow]);
  });
});

describe('authentication and scopes', () => {
  it.each([
    ['no header', {}, 'authentication_required'],
    ['Basic auth', { Authorization: 'Basic dXNlcjpwYXNz' }, 'authentication_required'],
    ['Bearer with nothing', { Authorization: 'Bearer ' }, 'authentication_required'],
    ['a token of the wrong form', { Authorization: 'Bearer sk_live_123' }, 'invalid_api_key'],
    ['an unknown key', { Authorization: `Bearer sk_sandbox_${'A'.repeat(32)}` }, 'invalid_api_key'],
  ])('401 for %s', async (_name, headers, code) => {
    expectError(await apiClient().get('/v1/payments', { headers }), 401, 'authentication_error', code);
  });

  it('stops a revoked key at once', async () => {
    const fresh = await createTestMerchant();
    expect((await apiClient(fresh.key).get('/v1/payments')).status).toBe(200);
    const client = await db();
    const key = await client.apiKey.findFirstOrThrow({ where: { merchantId: fresh.merchantId } });
    await revokeApiKey(contextOf(client, fresh.merchantId), key.id);
    expectError(await apiClient(fresh.key).get('/v1/payments'), 401, 'authentication_error', 'invalid_api_key');
  });

  it('403s a key without the scope and names the scope needed', async () => {
    const readOnly = await createTestMerchant({ scopes: ['payments:read'] });
    const res = await apiClient(readOnly.key).post('/v1/checkout-sessions', sessionBody());
    expectError(res, 403, 'permission_error', 'insufficient_scope');
    expect(res.body.error.message).toContain('checkout_sessions:write');
    const writeOnly = await createTestMerchant({ scopes: ['checkout_sessions:write'] });
    expectError(await apiClient(writeOnly.key).get('/v1/payments'), 403, 'permission_error', 'insufficient_scope');
    expectError(
      await apiClient(writeOnly.key).get('/v1/refund-requests'),
      403,
      'permission_error',
      'insufficient_scope',
    );
  });

  it('checks authentication before scope, and scope before the body', async () => {
    expectError(
      await apiClient().request('POST', '/v1/checkout-sessions', {
        rawBody: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      401,
      'authentication_error',
      'authentication_required',
    );
    const readOnly = await createTestMerchant({ scopes: ['payments:read'] });
    expectError(
      await apiClient(readOnly.key).request('POST', '/v1/checkout-sessions', {
        rawBody: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      403,
      'permission_error',
      'insufficient_scope',
    );
  });
});

describe('body transport', () => {
  const post = (
    rawBody: string | Uint8Array,
    headers: Record<string, string> = { 'Content-Type': 'application/json' },
  ) => api.request('POST', '/v1/checkout-sessions', { rawBody, headers });

  it('413s a body over 64 KiB, before the Idempotency-Key check', async () => {
    const big = JSON.stringify({ ...sessionBody(), padding: 'x'.repeat(70 * 1024) });
    expectError(
      await api.request('POST', '/v1/checkout-sessions', {
        rawBody: big,
        headers: { 'Content-Type': 'application/json' },
        idempotencyKey: null,
      }),
      413,
      'invalid_request_error',
      'payload_too_large',
    );
  });

  it('413s an oversized chunked body with no Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 8) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const { inject } = await import('vitest');
    const response = await fetch(`${inject('serverUrl')}/v1/checkout-sessions`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${merchant.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'chunked',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('payload_too_large');
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['form encoding', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['no Content-Type', {}],
  ])('415s %s', async (_name, headers) => {
    expectError(
      await post(JSON.stringify(sessionBody()), headers),
      415,
      'invalid_request_error',
      'unsupported_media_type',
    );
  });

  it('refuses repeated keys, deep nesting, NUL and unpaired surrogates instead of storing them', async () => {
    const body = JSON.stringify(sessionBody());
    expectError(await post(body.replace('{', '{"amount":1,')), 400, 'invalid_request_error', 'invalid_json');
    expectError(
      await post(`{"items":${'['.repeat(40)}${']'.repeat(40)}}`),
      400,
      'invalid_request_error',
      'invalid_json',
    );
    const nul = await post(body.replace('"T-shirt"', '"T-\\u0000shirt"'));
    expectError(nul, 400, 'invalid_request_error', 'parameter_invalid');
    expect(nul.body.error.param).toBe('items.0.name');
    const surrogate = await post(body.replace('"T-shirt"', '"T-\\ud800shirt"'));
    expect(surrogate.body.error).toMatchObject({ code: 'parameter_invalid', param: 'items.0.name' });
  });

  it('accepts a charset parameter', async () => {
    const res = await post(JSON.stringify(sessionBody()), { 'Content-Type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(201);
  });

  it.each([
    ['truncated JSON', '{"currency": "USD"'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"hello"'],
    ['empty', ''],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
  ])('400 invalid_json for %s', async (_name, rawBody) => {
    expectError(await post(rawBody), 400, 'invalid_request_error', 'invalid_json');
  });
});

describe('Idempotency-Key header', () => {
  it('is required on creates, after the body transport checks', async () => {
    const res = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: null });
    expectError(res, 400, 'idempotency_error', 'idempotency_key_missing');
    const badJson = await api.request('POST', '/v1/checkout-sessions', {
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
      idempotencyKey: null,
    });
    expectError(badJson, 400, 'invalid_request_error', 'invalid_json');
  });

  it('must be 1–255 printable ASCII characters', async () => {
    for (const key of ['k'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: key });
      expectError(res, 400, 'idempotency_error', 'idempotency_key_invalid');
    }
    const ok = await api.post('/v1/checkout-sessions', sessionBody(), { idempotencyKey: 'k'.repeat(255) });
    expect(ok.status).toBe(201);
  });

  it('is checked before the body parameters', async () => {
    const res = await api.post('/v1/checkout-sessions', { nonsense: true }, { idempotencyKey: null });
    expectError(res, 400, 'idempotency_error', 'idempotency_key_missing');
  });
});
