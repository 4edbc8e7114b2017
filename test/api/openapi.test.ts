import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db';
import type { OpenApiDocument } from '@/lib/openapi/document';
import { approveRefundRequest } from '@/lib/refunds/service';
import { API_OPERATIONS, type ApiOperation } from '@/lib/openapi/operations';
import { apiClient, createTestMerchant, uniqueRef, type ApiResponse } from '../helpers';
import { contextOf } from '@/test/context';

// The published document against the running server: /v1/openapi.json is served without a key and is
// valid OpenAPI 3.1; then every operation is called for real, on its success path and on error paths,
// and every answer must be documented for its status and match the documented schema (ajv, 2020-12).

const DOCUMENT_URI = 'https://sandbox.invalid/openapi.json';

let document: OpenApiDocument;
let ajv: Ajv2020;
let key: string;
let merchantId: string;
const validators = new Map<string, ValidateFunction>();
/** operationId → the statuses whose answers were checked */
const checked = new Map<string, Set<number>>();

beforeAll(async () => {
  ({ key, merchantId } = await createTestMerchant({ policy: 'manual', hosts: ['shop.example.com', 'localhost:4000'] }));
  const response = await apiClient().get<OpenApiDocument>('/v1/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // the whole document under one URI, so a response schema's `#/components/...` refs resolve in it
  ajv.addSchema({ ...document, $id: DOCUMENT_URI });
});

const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function operationById(operationId: string): ApiOperation {
  const operation = API_OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  return operation;
}

/** Fails unless the answer's status is documented for the operation and its body matches that schema. */
function expectDocumented(operation: ApiOperation, response: ApiResponse) {
  const method = operation.method.toLowerCase();
  const documented = document.paths[operation.path]?.[method]?.responses[String(response.status)];
  expect(
    documented,
    `${operation.operationId} answered ${response.status}, which is not documented: ${JSON.stringify(response.body)}`,
  ).toBeDefined();
  expect(response.headers.get('request-id')).toMatch(/^req_/);
  // JSON, or the text of an event stream (which the test helper answers with '': it does not wait for messages)
  const mediaType = response.headers.get('content-type')?.split(';')[0] ?? 'application/json';
  const ref = `${DOCUMENT_URI}#/${pointer('paths', operation.path, method, 'responses', String(response.status), 'content', mediaType, 'schema')}`;
  let check = validators.get(ref);
  if (!check) {
    check = ajv.compile({ $ref: ref });
    validators.set(ref, check);
  }
  const valid = check(response.body);
  expect(
    valid ? [] : check.errors,
    `${operation.operationId} ${response.status}: ${JSON.stringify(response.body)}`,
  ).toEqual([]);
  if (!checked.has(operation.operationId)) checked.set(operation.operationId, new Set());
  checked.get(operation.operationId)!.add(response.status);
}

type CallOptions = {
  id?: string;
  query?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string | null;
  key?: string | null;
};

/** Calls an operation as its operation declaration describes it, and checks the answer against the document. */
async function call(operationId: string, options: CallOptions = {}) {
  const operation = operationById(operationId);
  const path =
    operation.path.replace('{id}', options.id ?? '') + (options.query ? `?${new URLSearchParams(options.query)}` : '');
  const client = apiClient(options.key === null ? undefined : (options.key ?? key));
  const response = await client.request(operation.method, path, {
    body: options.body,
    idempotencyKey: options.idempotencyKey,
  });
  expectDocumented(operation, response);
  return response;
}

const example = (operationId: string, overrides: Record<string, unknown> = {}) => ({
  ...operationById(operationId).body?.example,
  ...overrides,
});
const expectError = (response: ApiResponse, status: number, code: string) =>
  expect([response.status, response.body.error?.code]).toEqual([status, code]);

describe('GET /v1/openapi.json', () => {
  it('is served without a key, cacheable, and valid OpenAPI 3.1 by @readme/openapi-parser', async () => {
    const response = await call('getOpenApiDocument', { key: null });
    expect(response.headers.get('cache-control')).toMatch(/public/);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('points at this server and documents every operation of the operations', () => {
    expect(document.servers[0].url).toBe(inject('serverUrl'));
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).sort(),
    );
  });

  it('answers other methods with the JSON 405 of the API', async () => {
    const response = await apiClient().post('/v1/openapi.json', {});
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('every operation answers as documented', () => {
  let sessionId: string;
  let paymentId: string;
  let refundId: string;
  let linkId: string;
  let endpointId: string;

  it('checkout sessions', async () => {
    const idempotencyKey = randomUUID();
    const body = example('createCheckoutSession', { order_reference: uniqueRef() });
    const created = await call('createCheckoutSession', { body, idempotencyKey });
    expect(created.status).toBe(201);
    sessionId = created.body.id;
    const replayed = await call('createCheckoutSession', { body, idempotencyKey });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expectError(await call('createCheckoutSession', { body: { ...body, amount: 1 } }), 400, 'amount_mismatch');
    expectError(
      await call('createCheckoutSession', { body: { ...body, return_url: 'https://evil.example/x' } }),
      400,
      'url_not_approved',
    );
    expectError(await call('createCheckoutSession', { body, idempotencyKey: null }), 400, 'idempotency_key_missing');
    expectError(
      await call('createCheckoutSession', { body: { ...body, amount: 2 }, idempotencyKey }),
      422,
      'idempotency_key_reused',
    );

    expect((await call('listCheckoutSessions', { query: { limit: '2' } })).status).toBe(200);
    expectError(await call('listCheckoutSessions', { query: { limit: '500' } }), 400, 'parameter_invalid');
    expectError(
      await call('listCheckoutSessions', { query: { starting_after: `cs_${'0'.repeat(24)}` } }),
      404,
      'resource_missing',
    );

    expect((await call('getCheckoutSession', { id: sessionId })).status).toBe(200);
    expectError(await call('getCheckoutSession', { id: `cs_${'0'.repeat(24)}` }), 404, 'resource_missing');

    const another = await call('createCheckoutSession', {
      body: example('createCheckoutSession', { order_reference: uniqueRef() }),
    });
    expect((await call('expireCheckoutSession', { id: another.body.id })).status).toBe(200);
    expectError(await call('expireCheckoutSession', { id: another.body.id }), 409, 'checkout_session_not_open');
    expectError(
      await call('expireCheckoutSession', { id: another.body.id, body: { at: 'now' } }),
      400,
      'parameter_unknown',
    );
  });

  it('the test helper and payments', async () => {
    expectError(
      await call('payCheckoutSession', { id: sessionId, body: { payment_method: 'interac', outcome: 'approve' } }),
      400,
      'payment_method_not_offered',
    );
    expectError(
      await call('payCheckoutSession', {
        id: sessionId,
        body: { payment_method: 'card', card_number: '4242424242424241' },
      }),
      400,
      'parameter_invalid',
    );
    const declined = await call('payCheckoutSession', {
      id: sessionId,
      body: { payment_method: 'card', card_number: '4000000000000002' },
    });
    expect([declined.status, declined.body.failure_code]).toEqual([200, 'card_declined']);
    const paid = await call('payCheckoutSession', { id: sessionId, body: example('payCheckoutSession') });
    expect([paid.status, paid.body.status]).toEqual([200, 'succeeded']);
    paymentId = paid.body.id;
    expectError(
      await call('payCheckoutSession', { id: sessionId, body: example('payCheckoutSession') }),
      409,
      'checkout_session_not_open',
    );
    const usdcSession = await call('createCheckoutSession', {
      body: example('createCheckoutSession', { order_reference: uniqueRef() }),
    });
    expect(
      (await call('payCheckoutSession', { id: usdcSession.body.id, body: { payment_method: 'usdc' } })).body.status,
    ).toBe('succeeded');

    expect((await call('listPayments', { query: { limit: '100' } })).body.data.length).toBeGreaterThanOrEqual(3);
    expectError(await call('listPayments', { query: { status: 'pending' } }), 400, 'parameter_invalid');
    expect((await call('getPayment', { id: paymentId })).body.status).toBe('succeeded');
    expectError(await call('getPayment', { id: 'pay_nope' }), 404, 'resource_missing');

    // authorize now, capture later: one authorization captured in part, another canceled, neither twice
    const authorize = async () => {
      const manual = await call('createCheckoutSession', {
        body: example('createCheckoutSession', { order_reference: uniqueRef(), capture_method: 'manual' }),
      });
      const authorized = await call('payCheckoutSession', { id: manual.body.id, body: example('payCheckoutSession') });
      expect(authorized.body.status).toBe('requires_capture');
      return authorized.body.id as string;
    };
    const toCapture = await authorize();
    const captured = await call('capturePayment', { id: toCapture, body: example('capturePayment') });
    expect([captured.status, captured.body.status]).toEqual([200, 'succeeded']);
    expectError(await call('capturePayment', { id: toCapture, body: {} }), 409, 'payment_not_capturable');
    const toCancel = await authorize();
    expect((await call('cancelPayment', { id: toCancel })).body.status).toBe('canceled');
    expectError(await call('cancelPayment', { id: toCancel }), 409, 'payment_not_cancelable');
  });

  it('refund requests', async () => {
    const created = await call('createRefundRequest', {
      body: example('createRefundRequest', { payment_id: paymentId, amount: 1000 }),
    });
    expect(created.status).toBe(201);
    refundId = created.body.id;
    expectError(
      await call('createRefundRequest', {
        body: example('createRefundRequest', { payment_id: paymentId, amount: 999_999 }),
      }),
      409,
      'refund_exceeds_available',
    );
    expectError(
      await call('createRefundRequest', {
        body: example('createRefundRequest', { payment_id: `pay_${'0'.repeat(24)}` }),
      }),
      404,
      'resource_missing',
    );
    expectError(await call('createRefundRequest', { body: { payment_id: paymentId } }), 400, 'parameter_missing');

    expect((await call('listRefundRequests', { query: { payment_id: paymentId } })).body.data).toHaveLength(1);
    expectError(await call('listRefundRequests', { query: { sort: 'amount' } }), 400, 'parameter_unknown');
    expect((await call('getRefundRequest', { id: refundId })).body.status).toBe('requested');
    expectError(await call('getRefundRequest', { id: `rr_${'0'.repeat(24)}` }), 404, 'resource_missing');

    expect((await call('cancelRefundRequest', { id: refundId })).body.status).toBe('canceled');
    expectError(await call('cancelRefundRequest', { id: refundId }), 409, 'refund_not_cancelable');

    // the test helpers finish a processing refund (this merchant's are approved by hand)
    const refundToFinish = async () => {
      const refund = await call('createRefundRequest', {
        body: example('createRefundRequest', { payment_id: paymentId, amount: 100 }),
      });
      return refund.body.id as string;
    };
    const [toComplete, toFail] = [await refundToFinish(), await refundToFinish()];
    expectError(await call('completeRefundRequest', { id: toComplete }), 409, 'refund_not_pending');
    for (const id of [toComplete, toFail]) await approveRefundRequest(contextOf(await db(), merchantId), id);
    expect((await call('completeRefundRequest', { id: toComplete })).body.status).toBe('completed');
    expectError(
      await call('failRefundRequest', { id: toFail, body: { failure_reason: '' } }),
      400,
      'parameter_invalid',
    );
    expect((await call('failRefundRequest', { id: toFail, body: example('failRefundRequest') })).body.status).toBe(
      'failed',
    );
  });

  it('payment links', async () => {
    const created = await call('createPaymentLink', { body: example('createPaymentLink') });
    expect(created.status).toBe(201);
    linkId = created.body.id;
    expectError(
      await call('createPaymentLink', {
        body: example('createPaymentLink', { after_payment_url: 'https://evil.example/x' }),
      }),
      400,
      'url_not_approved',
    );
    expectError(
      await call('createPaymentLink', { body: example('createPaymentLink', { payment_methods: ['usdc'] }) }),
      400,
      'payment_method_unavailable',
    );

    expect((await call('listPaymentLinks', { query: { active: 'true' } })).status).toBe(200);
    expectError(await call('listPaymentLinks', { query: { active: 'maybe' } }), 400, 'parameter_invalid');
    expect((await call('getPaymentLink', { id: linkId })).status).toBe(200);
    expectError(await call('getPaymentLink', { id: `pl_${'0'.repeat(24)}` }), 404, 'resource_missing');

    expect((await call('updatePaymentLink', { id: linkId, body: example('updatePaymentLink') })).body.active).toBe(
      false,
    );
    expectError(await call('updatePaymentLink', { id: linkId, body: { amount: 1 } }), 400, 'parameter_unknown');
  });

  it('webhook endpoints', async () => {
    const created = await call('createWebhookEndpoint', {
      body: example('createWebhookEndpoint', { url: 'http://127.0.0.1:9/hooks' }),
    });
    expect(created.status).toBe(201);
    endpointId = created.body.id;
    expectError(
      await call('createWebhookEndpoint', {
        body: example('createWebhookEndpoint', { url: 'ftp://hooks.example.com/x' }),
      }),
      400,
      'parameter_invalid',
    );

    expect((await call('listWebhookEndpoints')).status).toBe(200);
    expectError(await call('listWebhookEndpoints', { query: { limit: '0' } }), 400, 'parameter_invalid');
    expect((await call('getWebhookEndpoint', { id: endpointId })).body).not.toHaveProperty('secret');
    const updated = await call('updateWebhookEndpoint', { id: endpointId, body: example('updateWebhookEndpoint') });
    expect(updated.body.faults).toEqual({ duplicate_rate: 0.5, delay_seconds: 30, shuffle: true, seed: 42 });
    expectError(
      await call('updateWebhookEndpoint', { id: endpointId, body: { faults: { duplicate_rate: 2 } } }),
      400,
      'parameter_invalid',
    );
    expect((await call('rotateWebhookSecret', { id: endpointId })).body.secret).toMatch(/^whsec_/);
    expectError(
      await call('rotateWebhookSecret', { id: endpointId, idempotencyKey: 'k'.repeat(256) }),
      400,
      'idempotency_key_invalid',
    );
    expect((await call('deleteWebhookEndpoint', { id: endpointId })).body.deleted).toBe(true);
    expectError(await call('deleteWebhookEndpoint', { id: endpointId }), 404, 'resource_missing');
    expectError(await call('getWebhookEndpoint', { id: endpointId }), 404, 'resource_missing');
  });

  it('events, each with the payload its type documents', async () => {
    const list = await call('listEvents', { query: { limit: '100' } });
    const types = new Set(list.body.data.map((event: { type: string }) => event.type));
    expect(types).toEqual(
      new Set([
        'checkout_session.expired',
        'payment.failed',
        'payment.succeeded',
        'payment.authorized',
        'payment.canceled',
        'checkout_session.completed',
        'refund_request.created',
        'refund_request.approved',
        'refund_request.canceled',
        'refund.completed',
        'refund.failed',
      ]),
    );
    expect((await call('getEvent', { id: list.body.data[0].id })).body).toEqual(list.body.data[0]);
    const stream = await call('streamEvents', { query: { types: 'payment.failed,refund.failed' } });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expectError(await call('streamEvents', { query: { types: 'payment.created' } }), 400, 'parameter_invalid');
    expectError(await call('listEvents', { query: { type: 'payment.created' } }), 400, 'parameter_invalid');
    expectError(await call('getEvent', { id: `evt_${'0'.repeat(24)}` }), 404, 'resource_missing');
  });

  it('the authentication and scope errors of every operation that needs a key', async () => {
    const { key: readOnly } = await createTestMerchant({ scopes: ['events:read'] });
    for (const operation of API_OPERATIONS.filter((candidate) => candidate.scope)) {
      const id = operation.pathId ? 'x' : undefined;
      expectError(
        await call(operation.operationId, { id, key: null, body: operation.body ? {} : undefined }),
        401,
        'authentication_required',
      );
      expectError(
        await call(operation.operationId, {
          id,
          key: 'sk_sandbox_' + 'A'.repeat(32),
          body: operation.body ? {} : undefined,
        }),
        401,
        'invalid_api_key',
      );
      if (operation.scope !== 'events:read') {
        expectError(
          await call(operation.operationId, { id, key: readOnly, body: operation.body ? {} : undefined }),
          403,
          'insufficient_scope',
        );
      }
    }
  });
});

describe('test clock', () => {
  it('reads and advances, refusing a bad number of seconds', async () => {
    // a merchant of its own: the advance moves everything its key does afterwards
    const { key: clockKey } = await createTestMerchant();
    expect((await call('getTestClock', { key: clockKey })).body.offset_seconds).toBe(0);
    expectError(await call('getTestClock', { key: null }), 401, 'authentication_required');
    const advanced = await call('advanceTestClock', { key: clockKey, body: example('advanceTestClock') });
    expect(advanced.body.offset_seconds).toBe(1860);
    expectError(await call('advanceTestClock', { key: clockKey, body: { seconds: 0 } }), 400, 'parameter_invalid');
  });
});

// last, after the calls above: every operation answered at least once on its success path and once with
// an error, except the document itself, which takes no key and no input and so has no error to cause
it('checked a success and an error of every operation', () => {
  const missing = API_OPERATIONS.flatMap((operation) => {
    const statuses = [...(checked.get(operation.operationId) ?? [])];
    const gaps = [];
    if (!statuses.some((status) => status < 300)) gaps.push(`${operation.operationId}: no success checked`);
    if (operation.operationId !== 'getOpenApiDocument' && !statuses.some((status) => status >= 400))
      gaps.push(`${operation.operationId}: no error checked`);
    return gaps;
  });
  expect(missing).toEqual([]);
});
