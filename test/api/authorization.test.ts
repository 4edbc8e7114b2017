import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestSchemaOf, type JsonSchema } from '@/lib/openapi/json-schema';
import { API_OPERATIONS, type ApiOperation } from '@/lib/openapi/operations';
import {
  changedTables,
  createFixtureMerchant,
  entriesOf,
  Entries,
  fixtureIdOf,
  merchantState,
  send,
  SERVER_FIELDS,
  toJsonText,
  type FixtureMerchant,
  type RawResponse,
} from './properties-support';

// OWASP API Security Top 10 (2023) over HTTP, for every endpoint of the operations:
// - API1, object-level authorization: merchant B's key on merchant A's objects — in the path, in a body,
//   as a list cursor or filter — answers exactly as an id that does not exist, and changes nothing of A's;
// - API3, object property level authorization (mass assignment): a field the server sets (status,
//   amount_refunded, id, url, secret, …) in a body is refused as parameter_unknown and writes nothing.
// Function-level authorization (API5) is test/api/scopes.test.ts.

let a: FixtureMerchant;
let b: FixtureMerchant;

beforeAll(async () => {
  [a, b] = await Promise.all([createFixtureMerchant({ name: 'Shop A' }), createFixtureMerchant({ name: 'Shop B' })]);
});

/** A well-formed id of this kind that nobody has. */
const missingId = (like: string) => `${like.slice(0, like.indexOf('_') + 1)}${'0'.repeat(24)}`;

function call(op: ApiOperation, key: string, options: { id?: string; query?: string; body?: unknown } = {}) {
  return send({
    method: op.method,
    path: `${op.path.replace('{id}', options.id ?? '')}${options.query ?? ''}`,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(op.method === 'POST' ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}),
    },
    body: op.method === 'POST' ? toJsonText(options.body ?? op.body?.example ?? {}) : undefined,
  });
}

/** What a client can tell from a refusal, with the id it named blanked out of the message. */
function refusal(res: RawResponse, id: string) {
  const { request_id: _requestId, message, ...error } = res.json?.error ?? {};
  return { status: res.status, ...error, message: String(message).replaceAll(id, '<id>') };
}

// deletes last: A's own key deletes A's endpoint at the end of its case
const withPathId = API_OPERATIONS.filter((op) => op.pathId)
  .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'))
  .map((op) => ({ name: `${op.method} ${op.path}`, op }));

describe("API1: merchant B's key on merchant A's objects", () => {
  it.each(withPathId)(
    "$name: A's id answers exactly like an id that does not exist, and A's objects do not change",
    async ({ op }) => {
      const before = await merchantState([a.merchantId]);
      const theirs = fixtureIdOf(a.ids, op.pathId!);
      const nobodys = missingId(theirs);
      const foreign = await call(op, b.keys[0], { id: theirs });
      const missing = await call(op, b.keys[0], { id: nobodys });
      expect(foreign.status).toBe(404);
      expect(refusal(foreign, theirs)).toEqual(refusal(missing, nobodys));
      expect(foreign.json.error).toMatchObject({ code: 'resource_missing', param: 'id' });
      expect(changedTables(before, await merchantState([a.merchantId]))).toEqual([]);
      // and A's own key reaches it: the test would fail if the endpoint found nothing for anyone
      expect((await call(op, a.keys[0], { id: theirs })).status).not.toBe(404);
    },
  );

  it("POST /v1/refund-requests: A's payment in B's body is a missing payment", async () => {
    const op = API_OPERATIONS.find((candidate) => candidate.operationId === 'createRefundRequest')!;
    const before = await merchantState([a.merchantId, b.merchantId]);
    const foreign = await call(op, b.keys[0], { body: { payment_id: a.ids.payment, amount: 100 } });
    const nobodys = missingId(a.ids.payment);
    const missing = await call(op, b.keys[0], { body: { payment_id: nobodys, amount: 100 } });
    expect(refusal(foreign, a.ids.payment)).toEqual(refusal(missing, nobodys));
    expect(foreign.json.error).toMatchObject({ code: 'resource_missing', param: 'payment_id' });
    expect(changedTables(before, await merchantState([a.merchantId, b.merchantId]))).toEqual([]);
  });

  // each list and the kind of object it pages through (the event stream, which takes a query, is no list)
  const lists = API_OPERATIONS.filter((op) => op.query && !op.success.contentType).map((op) => ({
    name: `${op.method} ${op.path}`,
    op,
    kind: API_OPERATIONS.find((one) => one.method === 'GET' && one.path === `${op.path}/{id}`)!.pathId!,
  }));

  it.each(lists)(
    "$name: A's object as the cursor is a missing cursor, and no page of B's shows any of A's",
    async ({ op, kind }) => {
      const theirs = fixtureIdOf(a.ids, kind);
      const nobodys = missingId(theirs);
      const foreign = await call(op, b.keys[0], { query: `?starting_after=${theirs}` });
      const missing = await call(op, b.keys[0], { query: `?starting_after=${nobodys}` });
      expect(refusal(foreign, theirs)).toEqual(refusal(missing, nobodys));
      expect(foreign.json.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });

      const page = await call(op, b.keys[0], { query: '?limit=100' });
      expect(page.status).toBe(200);
      const seen = JSON.stringify(page.json);
      for (const id of Object.values(a.ids)) expect(seen).not.toContain(id);
      expect(page.json.data.length).toBeGreaterThan(0); // B's own are there
    },
  );

  it.each([
    ['/v1/payments', `order_reference=${'ORDER'}`],
    ['/v1/checkout-sessions', `order_reference=${'ORDER'}`],
    ['/v1/refund-requests', `payment_id=${'PAYMENT'}`],
  ])("GET %s?%s: filtering by A's order or payment finds nothing for B", async (path, query) => {
    const filled = query.replace('ORDER', a.ids.orderReference).replace('PAYMENT', a.ids.payment);
    const op = API_OPERATIONS.find((one) => one.method === 'GET' && one.path === path)!;
    const mine = await call(op, a.keys[0], { query: `?${filled}` });
    const theirs = await call(op, b.keys[0], { query: `?${filled}` });
    expect(mine.json.data.length).toBeGreaterThan(0);
    expect(theirs.status).toBe(200);
    expect(theirs.json.data).toEqual([]);
  });
});

// --- API3: mass assignment ----------------------------------------------------------------------------

/** The names a body schema accepts, across the branches of a union (the test helper's pay body). */
function inputFields(schema: JsonSchema): Set<string> {
  const branches = (schema.oneOf ?? schema.anyOf ?? [schema]) as JsonSchema[];
  return new Set(branches.flatMap((branch) => Object.keys((branch.properties ?? {}) as object)));
}

/** What the answer has that the request may not set: the object's own fields, and the usual suspects. */
function serverFields(op: ApiOperation): string[] {
  const accepted = inputFields(requestSchemaOf(op.body!.schema));
  const answered = Object.keys((requestSchemaOf(op.success.schema).properties ?? {}) as object);
  return [...new Set([...answered, ...SERVER_FIELDS])].filter((field) => !accepted.has(field));
}

// a value of the right kind where there is an obvious one: the field is refused for being there at all
const PLAUSIBLE = new Map<string, unknown>([
  ['status', 'succeeded'],
  ['amount_refunded', 0],
  ['amount_refundable', 99_999_999],
  ['amount_reserved', 0],
  ['payment_status', 'paid'],
  ['merchant_id', 'acct_000000000000000000000000'],
  ['__proto__', { status: 'complete', admin: true }],
  ['constructor', { prototype: { admin: true } }],
]);

const withBody = API_OPERATIONS.filter((op) => op.body).map((op) => ({
  name: `${op.method} ${op.path}`,
  op,
  fields: serverFields(op),
}));

describe('API3: fields the server sets are refused in a body', () => {
  it.each(withBody)(
    '$name refuses each of its server-set fields as parameter_unknown and writes nothing',
    async ({ op, fields }) => {
      // status is the server's on every object but a webhook endpoint, which its update may disable
      const statusIsInput = inputFields(requestSchemaOf(op.body!.schema)).has('status');
      expect(fields).toEqual(
        expect.arrayContaining(['id', 'object', '__proto__', ...(statusIsInput ? [] : ['status'])]),
      );
      const before = await merchantState([a.merchantId]);
      const id = op.pathId ? fixtureIdOf(a.ids, op.pathId) : undefined;
      for (const field of fields) {
        const body = new Entries([
          ...entriesOf(op.body!.example ?? {}).entries,
          [field, PLAUSIBLE.has(field) ? PLAUSIBLE.get(field) : `set-by-${field}`],
        ]);
        const res = await call(op, a.keys[0], { id, body });
        expect(res.status, `${field}: ${res.text}`).toBe(400);
        expect(res.json.error, field).toMatchObject({ code: 'parameter_unknown', param: field });
      }
      expect(changedTables(before, await merchantState([a.merchantId]))).toEqual([]);
    },
  );

  it('refuses them inside items too', async () => {
    const op = API_OPERATIONS.find((one) => one.operationId === 'createCheckoutSession')!;
    const example = op.body!.example!;
    const items = [
      new Entries([
        ...entriesOf((example.items as Record<string, unknown>[])[0]).entries,
        ['__proto__', { unit_amount: 0 }],
      ]),
    ];
    const res = await call(op, a.keys[0], { body: { ...example, items } });
    expect(res.json.error).toMatchObject({ code: 'parameter_unknown', param: 'items.0.__proto__' });
  });
});
