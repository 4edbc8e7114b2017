import fc from 'fast-check';
import { inject } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { SCOPES } from '@/lib/api-keys/scopes';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { ID_PREFIXES, type IdKind } from '@/lib/core/ids';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { requestSchemaOf, type JsonSchema } from '@/lib/openapi/json-schema';
import { createPaymentLink } from '@/lib/payment-links/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import { createRefundRequest } from '@/lib/refunds/service';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import type { z } from 'zod';
import { uniqueRef } from '../helpers';
import { contextOf } from '@/test/context';

// What the hardening tests (properties, scopes, authorization, hostile input, secrets) share: merchants
// with one object of every kind, a fingerprint of everything a merchant owns, raw HTTP, and fast-check
// arbitraries built from the zod schemas the routes parse with.

// ---------------------------------------------------------------------------------------------------
// Merchants with one object of every kind

export type Fixtures = Record<
  | 'checkoutSession'
  | 'openSession'
  | 'payment'
  | 'refundRequest'
  | 'paymentLink'
  | 'webhookEndpoint'
  | 'event'
  | 'order',
  string
> & {
  orderReference: string;
};

export type FixtureMerchant = { merchantId: string; keys: string[]; ids: Fixtures };

/**
 * A merchant whose state changes only when a request changes it: refunds wait for a person (manual
 * policy), and its one webhook endpoint listens for an event that never happens here, so the worker has
 * nothing to do for it in the background.
 */
export async function createFixtureMerchant(
  options: { name: string; keys?: number } = { name: 'Fixture Shop' },
): Promise<FixtureMerchant> {
  const client = await db();
  const merchant = await createMerchant(client, { name: options.name, hosts: ['shop.example.com', 'localhost:4000'] });
  await setRefundPolicy(contextOf(client, merchant.id), 'manual');
  const keys: string[] = [];
  // several keys: the rate limit is per key, and the properties send a few hundred requests a second
  for (let i = 0; i < (options.keys ?? 1); i++)
    keys.push((await createApiKey(contextOf(client, merchant.id), [...SCOPES])).key);
  const session = (reference: string) =>
    createCheckoutSession(contextOf(client, merchant.id), {
      order_reference: reference,
      currency: 'USD',
      items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
      shipping_amount: 0,
      tax_amount: 0,
      amount: 5000,
      return_url: 'https://shop.example.com/thanks',
      cancel_url: null,
    });
  const paid = await session(uniqueRef('fixture-paid'));
  const { payment } = await payCheckoutSession(contextOf(client, merchant.id), paid.id, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  const open = await session(uniqueRef('fixture-open'));
  const refund = await createRefundRequest(contextOf(client, merchant.id), { payment_id: payment.id, amount: 100 });
  const link = await createPaymentLink(contextOf(client, merchant.id), {
    name: 'Gift card',
    amount: 2500,
    currency: 'USD',
    active: true,
  });
  const endpoint = await createWebhookEndpoint(
    contextOf(client, merchant.id),
    { url: 'https://hooks.example.com/never', events: ['refund.failed'] },
    { allowPrivateUrls: true },
  );
  const event = await client.event.findFirstOrThrow({
    where: { merchantId: merchant.id },
    orderBy: { createdAt: 'asc' },
  });
  return {
    merchantId: merchant.id,
    keys,
    ids: {
      checkoutSession: paid.id,
      openSession: open.id,
      order: paid.orderId,
      orderReference: paid.orderReference,
      payment: payment.id,
      refundRequest: refund.id,
      paymentLink: link.id,
      webhookEndpoint: endpoint.id,
      event: event.id,
    },
  };
}

/** The fixture id of the kind a path's `{id}` names. */
export function fixtureIdOf(fixtures: Fixtures, kind: IdKind): string {
  switch (kind) {
    case 'checkoutSession':
      return fixtures.openSession;
    case 'payment':
    case 'refundRequest':
    case 'paymentLink':
    case 'webhookEndpoint':
    case 'event':
    case 'order':
      return fixtures[kind];
    default:
      throw new Error(`no fixture of kind ${kind}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Everything a merchant owns, as one hash per table: an insert, an update or a delete changes it.
// Left out on purpose: api_request_logs (every authenticated request is logged, refused ones too: that
// is Developers → Logs) and api_keys.last_used_at (the time a key was last used, at minute precision).

const OWNED_ROWS: Record<string, string> = {
  merchants: `SELECT * FROM merchants WHERE id = ANY($1)`,
  approved_websites: `SELECT * FROM approved_websites WHERE merchant_id = ANY($1)`,
  users: `SELECT * FROM users WHERE merchant_id = ANY($1)`,
  api_keys: `SELECT id, merchant_id, hash, prefix, scopes, revoked_at, created_at FROM api_keys WHERE merchant_id = ANY($1)`,
  orders: `SELECT * FROM orders WHERE merchant_id = ANY($1)`,
  checkout_sessions: `SELECT * FROM checkout_sessions WHERE merchant_id = ANY($1)`,
  checkout_items: `SELECT i.* FROM checkout_items i JOIN checkout_sessions s ON s.id = i.checkout_session_id WHERE s.merchant_id = ANY($1)`,
  payments: `SELECT * FROM payments WHERE merchant_id = ANY($1)`,
  refund_requests: `SELECT * FROM refund_requests WHERE merchant_id = ANY($1)`,
  payment_links: `SELECT * FROM payment_links WHERE merchant_id = ANY($1)`,
  webhook_endpoints: `SELECT * FROM webhook_endpoints WHERE merchant_id = ANY($1)`,
  webhook_deliveries: `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.merchant_id = ANY($1)`,
  events: `SELECT * FROM events WHERE merchant_id = ANY($1)`,
  idempotency_keys: `SELECT * FROM idempotency_keys WHERE merchant_id = ANY($1)`,
};

const STATE_SQL = `SELECT ${Object.entries(OWNED_ROWS)
  .map(
    ([table, rows]) =>
      `(SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM (${rows}) r) AS "${table}"`,
  )
  .join(', ')}`;

export type MerchantState = Record<string, string>;

export async function merchantState(merchantIds: string[]): Promise<MerchantState> {
  const client = await db();
  const [row] = await client.$queryRawUnsafe<MerchantState[]>(STATE_SQL, merchantIds);
  return row;
}

/** The tables whose rows differ between two states, for a failure message that says what was written. */
export function changedTables(before: MerchantState, after: MerchantState): string[] {
  return Object.keys(before).filter((table) => before[table] !== after[table]);
}

// ---------------------------------------------------------------------------------------------------
// Raw HTTP: exactly the bytes and headers given (fetch adds a text/plain Content-Type to a string body,
// never to bytes)

export type RawRequest = { method: string; path: string; headers?: Record<string, string>; body?: Uint8Array | string };
export type RawResponse = { status: number; headers: Headers; text: string; json: any };

export async function send(request: RawRequest, base = inject('serverUrl')): Promise<RawResponse> {
  const body = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body;
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : (body as BodyInit | undefined),
    redirect: 'manual',
  });
  // an event stream stays open: its answer is its status and headers
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, text: '', json: undefined };
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const ERROR_TYPES = [
  'invalid_request_error',
  'idempotency_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'api_error',
];

/** What every refusal of /v1 looks like (/docs#errors): JSON, a type and code, and the request id twice. */
export function errorShapeProblems(response: RawResponse): string[] {
  const problems: string[] = [];
  if (!/^application\/json/.test(response.headers.get('content-type') ?? ''))
    problems.push(`content-type ${response.headers.get('content-type')}`);
  const error = response.json?.error;
  if (!error || typeof error !== 'object') return [...problems, `no error object in ${response.text.slice(0, 200)}`];
  if (!ERROR_TYPES.includes(error.type)) problems.push(`type ${error.type}`);
  if (typeof error.code !== 'string' || !/^[a-z_]+$/.test(error.code)) problems.push(`code ${error.code}`);
  if (typeof error.message !== 'string' || error.message.length === 0) problems.push('no message');
  if (!/^req_[0-9A-Za-z]{24}$/.test(error.request_id ?? '')) problems.push(`request_id ${error.request_id}`);
  if (response.headers.get('request-id') !== error.request_id) problems.push('Request-Id header differs from the body');
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// JSON with what JSON.stringify cannot write: repeated keys, own __proto__ keys, and number literals
// such as 1e400 or 9007199254740993 exactly as written

export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as a list of entries, so a key may repeat and `__proto__` is just a key. */
export class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Entries)
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') return toJsonText(new Entries(Object.entries(value)));
  // JSON.stringify escapes NUL and unpaired surrogates (\u0000, \ud800): the server sees them as sent
  return JSON.stringify(value) ?? 'null';
}

export const entriesOf = (value: Record<string, unknown>) => new Entries(Object.entries(value));

// ---------------------------------------------------------------------------------------------------
// Arbitraries

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const base62 = (length: number) =>
  fc.string({ unit: fc.constantFrom(...BASE62), minLength: length, maxLength: length });

/** Hosts the fixture merchants approved, and some they did not. */
const URLS = [
  'https://shop.example.com/thanks',
  'http://localhost:4000/done?x=1',
  'HTTPS://SHOP.EXAMPLE.COM/',
  'https://evil.example.com/',
  'https://shop.example.com.evil.example/',
  'https://shop.example.com@evil.example/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '//evil.example.com/',
  '/relative',
  'http://[::1]:4000/',
  'http://127.0.0.1:9/',
  'https://shop.example.com/\u0000',
];

/**
 * Values that satisfy a JSON Schema as zod writes it (io: input), short where the schema allows: the
 * structure of valid requests, which the mutations below then break.
 */
export function arbitraryOfSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map(arbitraryOfSchema));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as JsonSchema[]).map(arbitraryOfSchema));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uri') return fc.oneof(fc.constantFrom(...URLS), fc.webUrl());
      if (schema.format === 'email') return fc.emailAddress();
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = Number(schema.minLength ?? 0);
      const maxLength = Math.min(Number(schema.maxLength ?? 40), minLength + 40);
      return fc.string({ unit: 'grapheme', minLength, maxLength });
    }
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -(2 ** 31)), max: Number(schema.maximum ?? 2 ** 31) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Number(schema.minItems ?? 0);
      const maxLength = Math.min(Number(schema.maxItems ?? 3), minLength + 3);
      return fc.array(arbitraryOfSchema(schema.items as JsonSchema), { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const record = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, arbitraryOfSchema(property)]),
      );
      return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export const arbitraryOfZod = (schema: z.ZodType) => arbitraryOfSchema(requestSchemaOf(schema));

/** Numbers a payments API must refuse or handle: past 2^53, past the amount limits, not integers. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    1e21,
    1e308,
    -1,
    0,
    0.5,
    1.0000001,
    99_999_999,
    100_000_000,
    10_001,
    2 ** 31,
    2 ** 32,
    Number.MIN_VALUE,
  ),
  fc
    .constantFrom(
      '9007199254740993',
      '1e400',
      '-1e400',
      '-0',
      '1E2',
      '100.0',
      '0.1e1',
      '123456789012345678901234567890',
    )
    .map((text) => new RawJson(text)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Strings PostgreSQL or a browser would choke on, injections, and plain oddities. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\udfff\ud800',
    '😀',
    '\u202egnp.exe',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '{{7*7}}',
    '../../etc/passwd',
    '%00',
    '1',
    'null',
    'NaN',
    '１２３',
    '\t\r\n',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 201, max: 3000 }).map((length) => 'x'.repeat(length)),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileNumber,
  hostileString,
  fc.constantFrom(null, true, false, [], {}, [null], [[[]]], { a: 1 }, ['card', 'card']),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Fields the server sets, or that would give a request more than it may have (OWASP API3). */
export const SERVER_FIELDS = [
  'id',
  'object',
  'status',
  'amount_refunded',
  'amount_refundable',
  'amount_reserved',
  'merchant_id',
  'payment_id',
  'order_id',
  'url',
  'secret',
  'created_at',
  'expires_at',
  'livemode',
  'environment',
  'failure_code',
  'payment_status',
  '__proto__',
  'constructor',
  'prototype',
];

export type Mutation =
  | { kind: 'drop'; at: number }
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'repeat'; at: number; value: unknown }
  | { kind: 'nest'; at: number; depth: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: hostileValue }) },
  fc.record({
    kind: fc.constant('add' as const),
    key: fc.oneof(fc.constantFrom(...SERVER_FIELDS), fc.string({ maxLength: 10 })),
    value: hostileValue,
  }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('nest' as const), at: fc.nat(), depth: fc.constantFrom(2, 31, 33, 200) }),
);

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

/** Breaks a valid body: a field dropped, retyped, repeated, nested, or one added. */
export function applyMutations(body: Record<string, unknown>, mutations: Mutation[]): Entries {
  const entries: [string, unknown][] = Object.entries(body);
  for (const change of mutations) {
    const index = entries.length > 0 && 'at' in change ? change.at % entries.length : -1;
    if (change.kind === 'add') entries.push([change.key, change.value]);
    else if (index < 0) continue;
    else if (change.kind === 'drop') entries.splice(index, 1);
    else if (change.kind === 'set') entries[index] = [entries[index][0], change.value];
    else if (change.kind === 'repeat') entries.push([entries[index][0], change.value]);
    else entries[index] = [entries[index][0], nested(change.depth)];
  }
  return new Entries(entries);
}

/** Bodies that are not a JSON object, or not JSON, or not UTF-8. */
export const junkBody: fc.Arbitrary<Uint8Array | string> = fc.oneof(
  fc.constantFrom(
    '',
    '[]',
    '[{}]',
    'null',
    '"text"',
    '42',
    'true',
    '{',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    '\ufeff{}',
    '{"a":"\\ud800"}',
    '{"a\\u0000":1}',
    '{"a":1,"a":1}',
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
  ),
  fc.integer({ min: 30, max: 40 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constantFrom(10_000, 60_000).map((depth) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc
    .constantFrom(
      [0xff],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x28, 0xa1, 0x22, 0x7d],
    )
    .map((bytes) => new Uint8Array(bytes)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** A path segment where an id goes: the merchant's own, another merchant's, and everything that is not an id. */
export function idSegment(kind: IdKind, own: string, others: string): fc.Arbitrary<string> {
  const prefix = ID_PREFIXES[kind];
  const otherPrefixes = Object.values(ID_PREFIXES).filter((candidate) => candidate !== prefix);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(own) },
    { weight: 2, arbitrary: fc.constant(others) },
    { weight: 1, arbitrary: base62(24).map((body) => prefix + body) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...otherPrefixes), base62(24)).map(([other, body]) => other + body),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 0, max: 60 })
        .filter((n) => n !== 24)
        .chain((n) => base62(n))
        .map((body) => prefix + body),
    },
    { weight: 1, arbitrary: fc.constant(prefix.toUpperCase() + own.slice(prefix.length)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(percentEncode) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%00',
        '%ZZ',
        '%',
        '%2F',
        '%2e%2e',
        '..',
        '%E0%A4%A',
        '%C0%AF',
        '%ED%A0%80',
        '%FF',
        `${own}%00`,
        `${own}%20`,
        `%20${own}`,
        `${own};x=1`,
        'x'.repeat(4000),
        `${own}/../${own}`,
      ),
    },
  );
}

/** Percent-encoding that never throws: an unpaired surrogate goes as the bytes of U+FFFD, as a browser would send it. */
export function percentEncode(text: string): string {
  return [...new TextEncoder().encode(text)]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}
