import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES } from '@/lib/api-keys/scopes';
import type { ApiRouteHandler } from '@/lib/http/route';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { approveRefundRequest } from '@/lib/refunds/service';
import { ServerSentEventsReader } from '@/lib/events/server-sent-events';
import { EXAMPLE_IDS, EXAMPLES_SERVER_URL, type RecordedExamples } from './examples';
import { API_OPERATIONS } from './operations';
import { contextOf } from '@/test/context';

// The example answers of the document and /docs are the server's own: this test tells the story of the
// request examples (order-1001 is paid by card, a refund is asked for, a link is sold, a webhook endpoint
// is set up) through the real route handlers, and compares each answer with lib/openapi/examples.json,
// ids, times and secrets aside. To write the file anew after a change to what the API answers:
//   UPDATE_EXAMPLES=1 npx vitest run --project services lib/openapi/examples-from-server.test.ts

const EXAMPLES_FILE = 'lib/openapi/examples.json';
let key: string;
const answers: Record<string, unknown> = {};

/** Calls an operation's route handler as Next.js would, with the operation's example body unless told. */
async function call(
  operationId: string,
  options: { id?: string; query?: string; body?: unknown; record?: false } = {},
) {
  const operation = API_OPERATIONS.find((candidate) => candidate.operationId === operationId)!;
  const file = path.resolve(`app${operation.path.replace('{id}', '[id]')}/route.ts`);
  const handlers = (await import(/* @vite-ignore */ file)) as Record<string, ApiRouteHandler>;
  const body = options.body ?? operation.body?.example;
  const request = new Request(
    `${env().APP_URL}${operation.path.replace('{id}', options.id ?? '')}${options.query ?? ''}`,
    {
      method: operation.method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(operation.idempotency === 'required' ? { 'Idempotency-Key': randomUUID() } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    },
  );
  const response = await handlers[operation.method](request, { params: Promise.resolve({ id: options.id ?? '' }) });
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(operation.success.status);
  if (options.record !== false) answers[operationId] = answer;
  return answer as { id: string; data: { id: string }[] };
}

const exampleOf = (operationId: string) =>
  API_OPERATIONS.find((operation) => operation.operationId === operationId)!.body!.example;

beforeAll(async () => {
  const client = await db();
  const merchant = await createMerchant(client, { name: 'Example Shop', hosts: ['shop.example.com'] });
  await setRefundPolicy(contextOf(client, merchant.id), 'manual');
  ({ key } = await createApiKey(contextOf(client, merchant.id), [...SCOPES]));

  const session = await call('createCheckoutSession');
  const payment = await call('payCheckoutSession', { id: session.id });
  await call('getCheckoutSession', { id: session.id });
  await call('listCheckoutSessions', { query: '?limit=1' });
  const another = await call('createCheckoutSession', {
    body: { ...exampleOf('createCheckoutSession'), order_reference: 'order-1002' },
    record: false,
  });
  // a stream open while the session expires: its first message is that event
  const stream = await openStream();
  await call('expireCheckoutSession', { id: another.id });
  const streamed = await stream.firstMessage();
  await call('getPayment', { id: payment.id });
  await call('listPayments', { query: '?limit=1' });
  // authorize now, capture later: one authorization captured in part, another canceled
  const authorize = async (order_reference: string) => {
    const body = { ...exampleOf('createCheckoutSession'), order_reference, capture_method: 'manual' };
    const manual = await call('createCheckoutSession', { body, record: false });
    return call('payCheckoutSession', { id: manual.id, record: false });
  };
  await call('capturePayment', { id: (await authorize('order-2001')).id });
  await call('cancelPayment', { id: (await authorize('order-2002')).id });
  const refund = await call('createRefundRequest', {
    body: { ...exampleOf('createRefundRequest'), payment_id: payment.id },
  });
  await call('getRefundRequest', { id: refund.id });
  await call('listRefundRequests', { query: '?limit=1' });
  await call('cancelRefundRequest', { id: refund.id });
  // this merchant approves refunds by hand; approved, they are processing, which the test helpers finish
  const [toComplete, toFail] = [
    await call('createRefundRequest', { body: { payment_id: payment.id, amount: 500 }, record: false }),
    await call('createRefundRequest', { body: { payment_id: payment.id, amount: 250 }, record: false }),
  ];
  for (const { id } of [toComplete, toFail]) await approveRefundRequest(contextOf(client, merchant.id), id);
  await call('completeRefundRequest', { id: toComplete.id });
  await call('failRefundRequest', { id: toFail.id });
  const link = await call('createPaymentLink');
  await call('getPaymentLink', { id: link.id });
  await call('listPaymentLinks', { query: '?limit=1' });
  await call('updatePaymentLink', { id: link.id });
  const endpoint = await call('createWebhookEndpoint');
  await call('updateWebhookEndpoint', { id: endpoint.id });
  await call('getWebhookEndpoint', { id: endpoint.id });
  await call('listWebhookEndpoints', { query: '?limit=1' });
  await call('rotateWebhookSecret', { id: endpoint.id });
  await call('deleteWebhookEndpoint', { id: endpoint.id });
  const events = await call('listEvents', { query: '?limit=1&type=checkout_session.completed' });
  await call('getEvent', { id: events.data[0].id });
  // recorded after the others, so that the ids of their examples keep their names
  answers.streamEvents = streamed;
  // last: the advance moves everything this merchant does afterwards 31 minutes on
  await call('getTestClock');
  await call('advanceTestClock');
  const document = (await call('getOpenApiDocument')) as unknown as Record<string, unknown>;
  answers.getOpenApiDocument = cutDocument(document);
}, 60_000);

/** GET /v1/events/stream through its route handler, until its first message, whose data it answers. */
async function openStream() {
  const abort = new AbortController();
  const handlers = (await import(/* @vite-ignore */ path.resolve('app/v1/events/stream/route.ts'))) as Record<
    string,
    ApiRouteHandler
  >;
  const request = new Request(`${env().APP_URL}/v1/events/stream`, {
    headers: { Authorization: `Bearer ${key}` },
    signal: abort.signal,
  });
  const response = await handlers.GET(request, { params: Promise.resolve({}) });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const body = response.body!.getReader();
  const reader = new ServerSentEventsReader();
  return {
    firstMessage: async () => {
      for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) {
        const message = reader.push(new TextDecoder().decode(chunk.value)).find((item) => item.kind === 'message');
        if (message) {
          abort.abort();
          await body.cancel();
          return JSON.parse(message.message.data) as unknown;
        }
      }
      throw new Error('the stream ended without a message');
    },
  };
}

/** The document's own example: its head and first operation, not the whole document again. */
function cutDocument(document: Record<string, unknown>) {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const [firstPath, methods] = Object.entries(paths)[0];
  const [method, first] = Object.entries(methods)[0];
  return {
    openapi: document.openapi,
    info: document.info,
    servers: document.servers,
    paths: { [firstPath]: { [method]: { operationId: first.operationId, summary: first.summary } } },
  };
}

const ID = /\b([a-z]+)_[0-9A-Za-z]{24}\b/g;
const TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/g;
const SECRET = /\bwhsec_[A-Za-z0-9+/=]+/g;

/** What may differ between two runs of the same story: ids, times, secrets. */
function masked(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(SECRET, 'whsec_…').replace(ID, '$1_…').replace(TIME, '…');
}

/** The answers with readable, stable ids (the first of each kind as the request examples name it), times from one fixed moment, made-up secrets. */
function stable(recorded: Record<string, unknown>): RecordedExamples {
  let text = JSON.stringify(recorded).split(env().APP_URL).join(EXAMPLES_SERVER_URL);
  const ids = new Map<string, string>();
  const counts = new Map<string, number>();
  text = text.replace(ID, (id, prefix: string) => {
    if (!ids.has(id)) {
      const n = (counts.get(prefix) ?? 0) + 1;
      counts.set(prefix, n);
      const made = createHash('sha256')
        .update(`${prefix}${n}`)
        .digest('base64')
        .replace(/[^0-9A-Za-z]/g, '');
      ids.set(id, EXAMPLE_IDS[prefix] && n === 1 ? EXAMPLE_IDS[prefix] : `${prefix}_${made.slice(0, 24)}`);
    }
    return ids.get(id)!;
  });
  const times = [...text.matchAll(TIME)].map((match) => Date.parse(match[0]));
  const shift = Date.parse('2026-11-20T15:04:05.123Z') - Math.min(...times);
  text = text.replace(TIME, (time) => new Date(Date.parse(time) + shift).toISOString());
  let secrets = 0;
  text = text.replace(SECRET, () => `whsec_${Buffer.from(`sandbox example secret ${++secrets}`).toString('base64')}`);
  return JSON.parse(text) as RecordedExamples;
}

describe('the example answers', () => {
  it('are what the server answers, ids, times and secrets aside', async () => {
    const fresh = stable(answers);
    if (process.env.UPDATE_EXAMPLES) {
      const options = { ...(await prettier.resolveConfig(EXAMPLES_FILE)), filepath: EXAMPLES_FILE };
      fs.writeFileSync(EXAMPLES_FILE, await prettier.format(JSON.stringify(fresh), options));
    }
    const recorded = JSON.parse(fs.readFileSync(EXAMPLES_FILE, 'utf8')) as RecordedExamples;
    expect(masked(recorded), 'lib/openapi/examples.json is out of date: see the command atop this test').toBe(
      masked(fresh),
    );
  });

  it('cover every operation', () => {
    expect(Object.keys(answers).sort()).toEqual(API_OPERATIONS.map((operation) => operation.operationId).sort());
  });
});
