import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { API_OPERATIONS, type ApiOperation } from '@/lib/openapi/operations';
import {
  applyMutations,
  arbitraryOfSchema,
  changedTables,
  createFixtureMerchant,
  errorShapeProblems,
  fixtureIdOf,
  hostileString,
  idSegment,
  junkBody,
  merchantState,
  mutation,
  percentEncode,
  send,
  toJsonText,
  type FixtureMerchant,
  type RawRequest,
} from './properties-support';
import { requestSchemaOf, type JsonSchema } from '@/lib/openapi/json-schema';
import { startNextServer, type NextServer } from '../setup/next-server';
import { contextOf } from '@/test/context';

// Property tests of every /v1 endpoint over HTTP. For each operation of the operations, fast-check makes
// requests from the zod schemas the route parses with and from mutations of valid ones — ids, query
// strings, bodies, Content-Type, Idempotency-Key and Authorization — and holds the server to three rules:
//   1. never a 5xx;
//   2. every refusal is the JSON error body of /docs#errors, with a code and the request id;
//   3. a refused request writes nothing: every row the merchants own hashes the same before and after.
// And object-level authorization under fuzzing: merchant B's key never gets a 2xx on merchant A's object.
//
// Deterministic: a fixed seed (PROPERTY_SEED to try another, PROPERTY_RUNS for more runs). On failure
// fast-check prints the seed, the path and the shrunk request to replay it.

// "A refused request writes nothing" compares every row the merchants own before and after it, so no one
// else may write them meanwhile: not the worker either, whose expiry sweep would expire the sessions an
// earlier case's clock advance had passed. So this file has a database of its own, set before anything
// here opens one, and a server of its own on it that runs no worker.
const databaseUrl = await vi.hoisted(async () => {
  const { inject } = await import('vitest');
  const { createTestDatabase } = await import('../setup/databases');
  const url = await createTestDatabase(inject('adminUrl'), 'properties');
  process.env.DATABASE_URL = url;
  return url;
});
let server: NextServer;

const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_122);
// about 1,300 requests in all: most where there is a body to break, fewer for reads, few for the document
const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);
const runsOf = (op: ApiOperation) => (op.scope === null ? Math.ceil(RUNS / 4) : op.body?.required ? RUNS * 2.5 : RUNS);

let shop: FixtureMerchant;
let hooks: FixtureMerchant;
let stranger: FixtureMerchant;
let revokedKey: string;
let sent = 0;

beforeAll(async () => {
  server = await startNextServer({
    databaseUrl,
    name: 'api-properties',
    env: { WORKER: 'off', API_AUTH_FAILURES_PER_MINUTE: '1000000', EVENT_STREAM_PING_MS: '300' },
  });
  // webhook endpoints made by the properties get their own merchant: the shop's payments make events,
  // and events sent to generated URLs would have the worker writing delivery rows in the background
  [shop, hooks, stranger] = await Promise.all([
    createFixtureMerchant({ name: 'Property Shop', keys: 6 }),
    createFixtureMerchant({ name: 'Property Hooks', keys: 6 }),
    createFixtureMerchant({ name: 'Property Stranger', keys: 1 }),
  ]);
  const revoked = await createFixtureMerchant({ name: 'Revoked', keys: 1 });
  const client = await db();
  const key = await client.apiKey.findFirstOrThrow({ where: { merchantId: revoked.merchantId } });
  await revokeApiKey(contextOf(client, revoked.merchantId), key.id);
  revokedKey = revoked.keys[0];
}, 120_000);
afterAll(() => server?.stop());

// --- the parts of a request -------------------------------------------------------------------------

type Auth =
  { kind: 'own' } | { kind: 'stranger' } | { kind: 'revoked' } | { kind: 'header'; value: string } | { kind: 'none' };

const authorization: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 14, arbitrary: fc.constant({ kind: 'own' } as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'stranger' } as const) },
  fc.constant({ kind: 'revoked' } as const),
  fc.constant({ kind: 'none' } as const),
  fc
    .oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'bearer sk_sandbox_',
        `Bearer sk_sandbox_${'A'.repeat(33)}`,
        `Bearer sk_live_${'A'.repeat(32)}`,
        'Bearer  x  y',
        `Bearer ${'x'.repeat(8000)}`,
      ),
      fc.string({ unit: fc.constantFrom(...'abcXYZ019_ -.=+/'), maxLength: 60 }).map((token) => `Bearer ${token}`),
    )
    .map((value) => ({ kind: 'header', value }) as const),
);

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/json, text/plain',
    'application/problem+json',
    '',
    'NONE',
  ),
);

const idempotencyKey = fc.oneof(
  { weight: 12, arbitrary: fc.constant('FRESH') },
  fc.constantFrom(
    'NONE',
    '',
    'k',
    'k'.repeat(255),
    'k'.repeat(256),
    'x'.repeat(5000),
    'caf\u00e9',
    'a\tb',
    '\u00ff\u0080',
    'property-reused',
    'PROPERTY-REUSED',
  ),
  fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'), minLength: 1, maxLength: 40 }),
);

const otherMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

type Generated = {
  method: string;
  id?: string;
  query: string;
  body?: { kind: 'json'; value: unknown } | { kind: 'raw'; value: Uint8Array | string };
  contentType: string;
  idempotencyKey: string;
  auth: Auth;
};

/** A query string from the schema's fields, with hostile values, unknown and repeated names. */
function queryOf(schema: JsonSchema | undefined, ids: () => string[]): fc.Arbitrary<string> {
  const properties = Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>);
  const value = (property: JsonSchema) =>
    fc.oneof(
      { weight: 3, arbitrary: arbitraryOfSchema(property).map(String) },
      { weight: 2, arbitrary: hostileString },
      fc.constantFrom(...ids()),
      fc.constantFrom('-1', '0', '1e2', '0x10', ' 5', '5 ', '101', '1.5', '[]', 'true'),
    );
  const known =
    properties.length > 0
      ? fc.array(
          fc.constantFrom(...properties).chain(([name, property]) =>
            // an object (the metadata filter) goes as name[key]=value, its key hostile too
            property.type === 'object'
              ? fc
                  .tuple(fc.oneof(fc.constantFrom('order_id', ''), hostileString), value({ type: 'string' }))
                  .map(([key, v]) => [`${name}[${key}]`, v] as const)
              : value(property).map((v) => [name, v] as const),
          ),
          { maxLength: 4 },
        )
      : fc.constant([]);
  const unknown = fc.array(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'merchant_id', 'expand', 'limit[]', '', 'x'), hostileString),
    { maxLength: 1 },
  );
  return fc.tuple(known, unknown).map(([a, b]) => {
    const pairs = [...a, ...b];
    return pairs.length === 0
      ? ''
      : `?${pairs.map(([name, v]) => `${percentEncode(name)}=${percentEncode(v)}`).join('&')}`;
  });
}

function requestOf(op: ApiOperation, owner: () => FixtureMerchant): fc.Arbitrary<Generated> {
  const bodySchema = op.body ? requestSchemaOf(op.body.schema) : undefined;
  const example = op.body?.example ?? {};
  const body = bodySchema
    ? fc.oneof(
        { weight: 3, arbitrary: arbitraryOfSchema(bodySchema).map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 4,
          arbitrary: fc
            .array(mutation, { minLength: 1, maxLength: 3 })
            .map((changes) => ({ kind: 'json' as const, value: applyMutations(example, changes) })),
        },
        { weight: 2, arbitrary: junkBody.map((value) => ({ kind: 'raw' as const, value })) },
        fc
          .constantFrom(65_536 - 20, 70_000)
          .map((size) => ({ kind: 'json' as const, value: { ...example, padding: 'p'.repeat(size) } })),
      )
    : fc.option(
        junkBody.map((value) => ({ kind: 'raw' as const, value })),
        { freq: 5, nil: undefined },
      );
  const id = op.pathId
    ? idSegment(op.pathId, fixtureIdOf(owner().ids, op.pathId), fixtureIdOf(stranger.ids, op.pathId))
    : fc.constant(undefined);
  const allIds = () => [...Object.values(owner().ids), ...Object.values(stranger.ids)];
  const generated = fc.record({
    method: fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, otherMethod),
    id,
    query: op.query
      ? queryOf(requestSchemaOf(op.query), allIds)
      : fc.oneof({ weight: 5, arbitrary: fc.constant('') }, queryOf(undefined, allIds)),
    body,
    contentType,
    idempotencyKey,
    auth: authorization,
  });
  if (!op.pathId) return generated;
  // one request in ten is the cross-tenant one: the stranger's key on the owner's own object
  const ownId = fixtureIdOf(owner().ids, op.pathId);
  return fc.oneof(
    { weight: 9, arbitrary: generated },
    {
      weight: 1,
      arbitrary: generated.map((request) => ({ ...request, id: ownId, auth: { kind: 'stranger' } as const })),
    },
  );
}

// Header values fetch can send (no control characters but tab, no leading or trailing space); the
// others are sent over a raw socket in hostile.test.ts.
const sendable = (value: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(value) && value.trim() === value;

function toRawRequest(op: ApiOperation, generated: Generated, owner: FixtureMerchant): RawRequest {
  const headers: Record<string, string> = {};
  const auth = generated.auth;
  if (auth.kind === 'own') headers.Authorization = `Bearer ${owner.keys[sent % owner.keys.length]}`;
  else if (auth.kind === 'stranger') headers.Authorization = `Bearer ${stranger.keys[0]}`;
  else if (auth.kind === 'revoked') headers.Authorization = `Bearer ${revokedKey}`;
  else if (auth.kind === 'header') headers.Authorization = auth.value;
  if (generated.contentType !== 'NONE') headers['Content-Type'] = generated.contentType;
  if (generated.idempotencyKey === 'FRESH') headers['Idempotency-Key'] = randomUUID();
  else if (generated.idempotencyKey !== 'NONE') headers['Idempotency-Key'] = generated.idempotencyKey;
  for (const [name, value] of Object.entries(headers)) if (!sendable(value)) headers[name] = encodeURIComponent(value);
  const body = generated.body?.kind === 'json' ? toJsonText(generated.body.value) : generated.body?.value;
  const path = `${op.path.replace('{id}', generated.id ?? '')}${generated.query}`;
  return { method: generated.method, path, headers, body };
}

function describeRequest(request: RawRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? request.body
        : `bytes ${[...request.body.slice(0, 40)]}`;
  return `${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers)?.slice(0, 300)} ${body.slice(0, 300)}`;
}

// --- the properties ------------------------------------------------------------------------------------

const operations = API_OPERATIONS.map((op) => ({ ...op, name: `${op.method} ${op.path}` }));

describe('the server under test', () => {
  it('runs no worker: a session its clock has passed stays open in storage, as a refused request leaves it', async () => {
    const session = (
      await send(
        {
          method: 'POST',
          path: '/v1/checkout-sessions',
          headers: {
            Authorization: `Bearer ${stranger.keys[0]}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': randomUUID(),
          },
          body: toJsonText(API_OPERATIONS.find((op) => op.operationId === 'createCheckoutSession')!.body!.example),
        },
        server.url,
      )
    ).json;
    const advanced = await send(
      {
        method: 'POST',
        path: '/v1/test-helpers/clock/advance',
        headers: { Authorization: `Bearer ${stranger.keys[0]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ seconds: 3600 }),
      },
      server.url,
    );
    expect(advanced.status, advanced.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // a worker sweeps within a second or two
    const stored = await (await db()).checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(stored.status).toBe('open');
  });
});

describe(`every /v1 endpoint under generated requests (seed ${SEED})`, () => {
  it.each(operations)(
    '$name: no 5xx, a JSON error body for every refusal, nothing written by a refusal, no 2xx for a stranger',
    async (op) => {
      const owner = () => (op.tag === 'Webhook endpoints' ? hooks : shop);
      let state = await merchantState([owner().merchantId, stranger.merchantId]);
      await fc.assert(
        fc.asyncProperty(requestOf(op, owner), async (generated) => {
          const request = toRawRequest(op, generated, owner());
          sent += 1;
          const response = await send(request, server.url);
          const what = `${describeRequest(request)} → ${response.status} ${response.text.slice(0, 300)}`;

          expect(response.status, what).toBeLessThan(500);
          const after = await merchantState([owner().merchantId, stranger.merchantId]);
          if (response.status >= 400) {
            expect(errorShapeProblems(response), what).toEqual([]);
            expect(changedTables(state, after), `a refused request wrote rows: ${what}`).toEqual([]);
          }
          // B's key on A's object: found by nobody but A (/docs#authentication)
          if (op.pathId && generated.auth.kind === 'stranger' && generated.id === fixtureIdOf(owner().ids, op.pathId)) {
            expect(response.status, what).toBeGreaterThanOrEqual(400);
          }
          state = after;
        }),
        { seed: SEED, numRuns: runsOf(op), endOnFailure: true },
      );
    },
  );
});
