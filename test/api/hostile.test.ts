import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import { db } from '@/lib/db';
import { requestSchemaOf, type JsonSchema } from '@/lib/openapi/json-schema';
import { API_OPERATIONS, type ApiOperation } from '@/lib/openapi/operations';
import { createUser } from '@/lib/users/service';
import { sessionBody } from '../helpers';
import {
  changedTables,
  createFixtureMerchant,
  Entries,
  entriesOf,
  errorShapeProblems,
  fixtureIdOf,
  merchantState,
  RawJson,
  send,
  toJsonText,
  type FixtureMerchant,
  type RawResponse,
} from './properties-support';
import { contextOf } from '@/test/context';

// Hostile input, case by case, for what test/api/transport.test.ts does not already pin down: the body
// limit while the body streams, nesting, repeated keys and __proto__ in every body, NUL and unpaired
// surrogates in every string field and query parameter, numbers past 2^53 and past the limits, ids of the
// wrong prefix or length, very long headers, and the edges of Idempotency-Key. Every refusal is the JSON
// error body of /docs#errors and writes nothing.

let shop: FixtureMerchant;
let base: string;
let host: string;
let port: number;

beforeAll(async () => {
  shop = await createFixtureMerchant({ name: 'Hostile Shop', keys: 2 });
  base = inject('serverUrl');
  host = new URL(base).hostname;
  port = Number(new URL(base).port);
});

const op = (operationId: string) => API_OPERATIONS.find((one) => one.operationId === operationId)!;

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return send({
    method: 'POST',
    path,
    headers: {
      Authorization: `Bearer ${shop.keys[0]}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
      ...headers,
    },
    body: typeof body === 'string' ? body : toJsonText(body),
  });
}

/** A POST whose body is sent chunked, with no Content-Length to refuse it by: only what it holds can. */
async function postChunked(path: string, body: string): Promise<RawResponse> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${shop.keys[0]}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: new Blob([body]).stream(),
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) };
}

const pathOf = (operation: ApiOperation) =>
  operation.path.replace('{id}', operation.pathId ? fixtureIdOf(shop.ids, operation.pathId) : '');

function expectRefusal(res: RawResponse, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(errorShapeProblems(res)).toEqual([]);
  expect(res.json.error.code).toBe(code);
  if (param !== undefined) expect(res.json.error.param).toBe(param);
}

type RawAnswer = { status: number; head: string; bytesSent: number; ms: number };

/**
 * Speaks HTTP/1.1 over a plain socket: headers exactly as given, then the body from `writeBody`, until
 * the server answers. fetch cannot send a body that never ends, or a Content-Length that lies.
 */
function rawHttp(
  head: string,
  writeBody: (socket: net.Socket, answered: () => boolean) => Promise<number> | number = () => 0,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, host);
    let received = '';
    let answered = false;
    let bytesSent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 10 s (sent ${bytesSent} body bytes)`));
    }, 10_000);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (!answered && received.includes('\r\n\r\n')) {
        answered = true;
        clearTimeout(timer);
        const ms = Date.now() - started;
        // wait for the body-writer to notice, so bytesSent is final
        setTimeout(() => {
          socket.destroy();
          resolve({
            status: Number(received.slice(9, 12)),
            head: received.slice(0, received.indexOf('\r\n\r\n')),
            bytesSent,
            ms,
          });
        }, 50);
      }
    });
    socket.on('error', () => {
      // a server that stops reading may reset the connection under our writes; the answer decides
    });
    socket.on('connect', async () => {
      socket.write(head);
      bytesSent = await writeBody(socket, () => answered);
    });
  });
}

const headOf = (path: string, headers: Record<string, string>) =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n${Object.entries({ Connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('the 64 KiB body limit holds while the body is still arriving', () => {
  it('answers 413 to a chunked body that never ends, having read little more than 64 KiB', async () => {
    const chunk = Buffer.from(`4000\r\n${'x'.repeat(0x4000)}\r\n`);
    const answer = await rawHttp(
      headOf('/v1/checkout-sessions', {
        Authorization: `Bearer ${shop.keys[0]}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
        'Idempotency-Key': randomUUID(),
      }),
      async (socket, answered) => {
        let sent = 0;
        // an endless body, written as fast as the socket drains, until an answer comes
        while (!answered() && !socket.destroyed && sent < 64 * 1024 * 1024) {
          sent += 0x4000;
          if (!socket.write(chunk))
            await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        }
        return sent;
      },
    );
    expect(answer.status).toBe(413);
    // a server that buffered the whole body before measuring it would never have answered at all; what
    // was sent meanwhile is the 64 KiB read plus what the sockets' buffers took (a few MiB on loopback)
    expect(answer.bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('answers 413 at once to a Content-Length over the limit, without waiting for a body that is not coming', async () => {
    const answer = await rawHttp(
      // a client that means to reuse the connection
      headOf('/v1/checkout-sessions', {
        Connection: 'keep-alive',
        Authorization: `Bearer ${shop.keys[0]}`,
        'Content-Type': 'application/json',
        'Content-Length': String(10 * 1024 * 1024),
        'Idempotency-Key': randomUUID(),
      }),
      (socket) => {
        socket.write('{"a":');
        return 5;
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.ms).toBeLessThan(5_000);
    // the unread rest of the body makes the connection useless: a keep-alive client must not reuse it
    expect(answer.head).toMatch(/^connection: close$/im);
  });

  it('reads a body of exactly 64 KiB, and refuses one byte more', async () => {
    const body = (size: number) => {
      const start = '{"padding":"';
      return `${start}${'p'.repeat(size - start.length - 2)}"}`;
    };
    expect(body(65_536)).toHaveLength(65_536);
    // read and parsed: its fields are what is wrong with it
    const atLimit = await post('/v1/checkout-sessions', body(65_536));
    expect(atLimit.status).toBe(400);
    expect(atLimit.json.error.code).toMatch(/^parameter_/);
    expectRefusal(await post('/v1/checkout-sessions', body(65_537)), 413, 'payload_too_large');
  });

  it('answers a body sent to a wrongly percent-encoded path with the JSON 404 of the API', async () => {
    expectRefusal(await post('/v1/checkout-sessions/%ZZ/expire', '{}'), 404, 'route_not_found');
    expectRefusal(await post('/v1/payment-links/pl_%E0%A4%A', sessionBody()), 404, 'route_not_found');
    // a well-encoded id with a '%' is just an id nobody has
    expectRefusal(await post('/v1/payment-links/pl_%41', { active: false }), 404, 'resource_missing', 'id');
  });
});

describe('JSON shape', () => {
  it('allows 32 levels of nesting and refuses 33, and a body nested 30,000 deep is a 400, not a crash', async () => {
    const nested = (levels: number) => `{"items":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const deepestAllowed = await post('/v1/checkout-sessions', nested(32));
    expect(deepestAllowed.status).toBe(400);
    expect(deepestAllowed.json.error.code).toMatch(/^parameter_/);
    expectRefusal(await post('/v1/checkout-sessions', nested(33)), 400, 'invalid_json');
    expectRefusal(
      await post('/v1/checkout-sessions', `{"a":${'['.repeat(30_000)}${']'.repeat(30_000)}}`),
      400,
      'invalid_json',
    );
    expectRefusal(
      await post('/v1/checkout-sessions', `{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`),
      400,
      'invalid_json',
    );
  });

  it.each([
    ['200,000 levels of arrays', `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`],
    ['200,000 levels of objects', `{"a":${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}}`],
    ['200,000 brackets never closed', '['.repeat(200_000)],
    ['a deep array as the whole body', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ])('refuses %s as the body streams in: the 400 of 33 levels, not a 413 or a 500', async (_name, body) => {
    const before = await merchantState([shop.merchantId]);
    const res = await postChunked('/v1/checkout-sessions', body);
    expectRefusal(res, 400, 'invalid_json');
    expect(res.json.error.message).toBe('The body is nested more than 32 levels deep');
    // with its length declared, a body past 64 KiB is refused before a byte of it is read
    if (body.length > 64 * 1024) expectRefusal(await post('/v1/checkout-sessions', body), 413, 'payload_too_large');
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
  });

  const bodies = API_OPERATIONS.filter((one) => one.body?.example).map((one) => ({
    name: `${one.method} ${one.path}`,
    op: one,
    example: one.body!.example!,
  }));

  it.each(bodies)(
    '$name: a repeated key is invalid_json, however it is spelled',
    async ({ op: operation, example }) => {
      const before = await merchantState([shop.merchantId]);
      const [first, value] = Object.entries(example)[0];
      expectRefusal(
        await post(pathOf(operation), new Entries([...entriesOf(example).entries, [first, value]])),
        400,
        'invalid_json',
      );
      // the same key written with an escape: JSON.parse keeps the last one, so a check on the text alone would miss it
      const escaped = `\\u${first.charCodeAt(0).toString(16).padStart(4, '0')}${first.slice(1)}`;
      expectRefusal(
        await post(pathOf(operation), `${toJsonText(example).slice(0, -1)},"${escaped}":${JSON.stringify(value)}}`),
        400,
        'invalid_json',
      );
      expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
    },
  );

  it.each(bodies)(
    '$name: __proto__, constructor and prototype are unknown parameters, at the top and inside',
    async ({ op: operation, example }) => {
      const before = await merchantState([shop.merchantId]);
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        expectRefusal(
          await post(
            pathOf(operation),
            new Entries([[key, { status: 'complete', amount: 1 }], ...entriesOf(example).entries]),
          ),
          400,
          'parameter_unknown',
          key,
        );
      }
      expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
      // nothing leaked into the server's objects: a normal request still answers a normal object
      const created = await post('/v1/checkout-sessions', sessionBody());
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ status: 'open' });
      expect(created.json).not.toHaveProperty('amount', 1);
    },
  );
});

// --- strings PostgreSQL cannot store --------------------------------------------------------------------

/** Every string field of a body schema, with the path to put it at in the example body. */
function stringFields(operation: ApiOperation): { param: string; body: (value: string) => unknown }[] {
  const schema = requestSchemaOf(operation.body!.schema);
  const example = operation.body!.example ?? {};
  const branches = (schema.oneOf ?? [schema]) as JsonSchema[];
  const branch =
    branches.find(
      (one) =>
        (one.properties as Record<string, JsonSchema>)?.payment_method?.const ===
        (example as { payment_method?: string }).payment_method,
    ) ?? branches[0];
  const fields: { param: string; body: (value: string) => unknown }[] = [];
  for (const [name, property] of Object.entries((branch.properties ?? {}) as Record<string, JsonSchema>)) {
    const options = (property.anyOf ?? [property]) as JsonSchema[];
    if (options.some((option) => option.type === 'string' && !option.enum && !('const' in option))) {
      fields.push({ param: name, body: (value) => ({ ...example, [name]: value }) });
    }
    if (property.type === 'array' && (property.items as JsonSchema).type === 'object' && Array.isArray(example[name])) {
      for (const [inner, innerProperty] of Object.entries(
        ((property.items as JsonSchema).properties ?? {}) as Record<string, JsonSchema>,
      )) {
        if (innerProperty.type === 'string') {
          fields.push({
            param: `${name}.0.${inner}`,
            body: (value) => ({ ...example, [name]: [{ ...(example[name] as object[])[0], [inner]: value }] }),
          });
        }
      }
    }
  }
  return fields;
}

const stringCases = API_OPERATIONS.filter((one) => one.body?.example).flatMap((one) =>
  stringFields(one).flatMap((field) =>
    [
      ['NUL', 'a\u0000b'],
      ['a lone high surrogate', 'a\ud800b'],
      ['a lone low surrogate', '\udc00'],
      ['surrogates in the wrong order', '\udfff\ud800'],
    ].map(([what, value]) => ({
      name: `${one.method} ${one.path} ${field.param} with ${what}`,
      op: one,
      field,
      value,
    })),
  ),
);

describe('NUL and unpaired surrogates', () => {
  it.each(stringCases)('$name: 400 parameter_invalid naming the field', async ({ op: operation, field, value }) => {
    const before = await merchantState([shop.merchantId]);
    expectRefusal(await post(pathOf(operation), field.body(value)), 400, 'parameter_invalid', field.param);
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
  });

  it('covers the string fields of every body', () => {
    const params = new Set(stringCases.map((one) => `${one.op.operationId}.${one.field.param}`));
    for (const expected of [
      'createCheckoutSession.order_reference',
      'createCheckoutSession.items.0.name',
      'createCheckoutSession.return_url',
      'createRefundRequest.reason',
      'createPaymentLink.description',
      'createWebhookEndpoint.url',
      'payCheckoutSession.card_number',
    ]) {
      expect(params).toContain(expected);
    }
  });

  it('refuses an encoded surrogate (bytes ED A0 80) as invalid UTF-8, and NUL in a key', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"reason":"'),
      0xed,
      0xa0,
      0x80,
      ...new TextEncoder().encode('"}'),
    ]);
    expectRefusal(
      await send({
        method: 'POST',
        path: '/v1/refund-requests',
        headers: {
          Authorization: `Bearer ${shop.keys[0]}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': randomUUID(),
        },
        body: bytes,
      }),
      400,
      'invalid_json',
    );
    expectRefusal(
      await post('/v1/refund-requests', '{"payment_id":"x","amount":1,"re\\u0000ason":"x"}'),
      400,
      'parameter_invalid',
    );
  });

  const queries = API_OPERATIONS.filter((one) => one.query).flatMap((one) =>
    Object.keys((requestSchemaOf(one.query!).properties ?? {}) as object).map((param) => ({
      name: `${one.method} ${one.path}?${param}=%00`,
      path: one.path,
      param,
    })),
  );

  it.each(queries)('$name: 400 parameter_invalid, not a database error', async ({ path, param }) => {
    const res = await send({
      method: 'GET',
      path: `${path}?${param}=x%00y`,
      headers: { Authorization: `Bearer ${shop.keys[1]}` },
    });
    expectRefusal(res, 400, 'parameter_invalid', param);
  });
});

// --- numbers -----------------------------------------------------------------------------------------------

const NUMBERS: [string, unknown][] = [
  ['2^53 + 1, exactly as written', new RawJson('9007199254740993')],
  ['1e21', 1e21],
  ['1e400 (Infinity to JSON.parse)', new RawJson('1e400')],
  ['-1e400', new RawJson('-1e400')],
  ['a fraction', 0.5],
  ['a negative number', -1],
  ['a numeric string', '100'],
  ['2^31', 2 ** 31],
];

const numberFields: { name: string; operation: string; param: string; body: (value: unknown) => unknown }[] = [
  {
    name: 'checkout amount',
    operation: 'createCheckoutSession',
    param: 'amount',
    body: (value) => ({ ...sessionBody(), amount: value }),
  },
  {
    name: 'item unit_amount',
    operation: 'createCheckoutSession',
    param: 'items.0.unit_amount',
    body: (value) => sessionBody({ items: [{ name: 'T', quantity: 1, unit_amount: value }] }),
  },
  {
    name: 'item quantity',
    operation: 'createCheckoutSession',
    param: 'items.0.quantity',
    body: (value) => sessionBody({ items: [{ name: 'T', quantity: value, unit_amount: 1 }] }),
  },
  {
    name: 'shipping_amount',
    operation: 'createCheckoutSession',
    param: 'shipping_amount',
    body: (value) => sessionBody({ shipping_amount: value }),
  },
  {
    name: 'tax_amount',
    operation: 'createCheckoutSession',
    param: 'tax_amount',
    body: (value) => sessionBody({ tax_amount: value }),
  },
  {
    name: 'refund amount',
    operation: 'createRefundRequest',
    param: 'amount',
    body: (value) => ({ payment_id: shop.ids.payment, amount: value }),
  },
  {
    name: 'payment link amount',
    operation: 'createPaymentLink',
    param: 'amount',
    body: (value) => ({ name: 'N', amount: value, currency: 'USD' }),
  },
  {
    name: 'card exp_month',
    operation: 'payCheckoutSession',
    param: 'exp_month',
    body: (value) => ({ payment_method: 'card', card_number: '4242424242424242', exp_month: value, exp_year: 2099 }),
  },
  {
    name: 'card exp_year',
    operation: 'payCheckoutSession',
    param: 'exp_year',
    body: (value) => ({ payment_method: 'card', card_number: '4242424242424242', exp_month: 1, exp_year: value }),
  },
];

describe('numbers past 2^53, past the limits, or not integers', () => {
  const cases = numberFields.flatMap((field) =>
    NUMBERS.map(([what, value]) => ({ name: `${field.name} = ${what}`, field, value })),
  );

  it.each(cases)('$name: 400 parameter_invalid', async ({ field, value }) => {
    const before = await merchantState([shop.merchantId]);
    expectRefusal(await post(pathOf(op(field.operation)), field.body(value)), 400, 'parameter_invalid', field.param);
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
  });

  it.each([
    [
      'unit_amount past its limit',
      { items: [{ name: 'T', quantity: 1, unit_amount: 100_000_000 }] },
      'items.0.unit_amount',
    ],
    ['shipping past the amount limit', { shipping_amount: 100_000_000 }, 'shipping_amount'],
    ['tax past the amount limit', { tax_amount: 100_000_000 }, 'tax_amount'],
    ['a refund past the amount limit', null, 'amount'],
  ])('%s', async (_name, overrides, param) => {
    const res = overrides
      ? await post('/v1/checkout-sessions', sessionBody(overrides))
      : await post('/v1/refund-requests', { payment_id: shop.ids.payment, amount: 100_000_000 });
    expectRefusal(res, 400, 'parameter_invalid', param);
  });
});

// --- ids -------------------------------------------------------------------------------------------------------

/** Everything that is not an id of the right kind: each must be a plain 404, like an id nobody has. */
function notIds(own: string): [string, string][] {
  const prefix = own.slice(0, own.indexOf('_') + 1);
  const body = own.slice(prefix.length);
  return [
    ['another kind of id', `${prefix === 'pay_' ? 'cs_' : 'pay_'}${body}`],
    ['one character short', own.slice(0, -1)],
    ['one character long', `${own}x`],
    ['the prefix in capitals', prefix.toUpperCase() + body],
    ['no prefix', body],
    ['the prefix alone', prefix],
    ['a non-ASCII character', encodeURIComponent(`${own.slice(0, -1)}é`)],
    ['an emoji', encodeURIComponent(`${own.slice(0, -2)}😀`)],
    ['a NUL', `${own}%00`],
    ['5,000 characters', `${prefix}${'A'.repeat(5000)}`],
    ['a SQL fragment', encodeURIComponent(`${own}' OR '1'='1`)],
    ['an encoded slash', `${own}%2F..`],
  ];
}

const idCases = API_OPERATIONS.filter((one) => one.pathId).flatMap((one) =>
  notIds('id_PLACEHOLDER').map(([what]) => ({ name: `${one.method} ${one.path} with ${what}`, op: one, what })),
);

describe('ids with the wrong prefix, length or characters', () => {
  it.each(idCases)('$name: 404 resource_missing', async ({ op: operation, what }) => {
    const own = fixtureIdOf(shop.ids, operation.pathId!);
    const id = notIds(own).find(([name]) => name === what)![1];
    const res = await send({
      method: operation.method,
      path: operation.path.replace('{id}', id),
      headers: {
        Authorization: `Bearer ${shop.keys[1]}`,
        ...(operation.method === 'POST' ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}),
      },
      body: operation.method === 'POST' ? toJsonText(operation.body?.example ?? {}) : undefined,
    });
    expectRefusal(res, 404, 'resource_missing', 'id');
  });

  it.each([
    ['another kind of id', (id: string) => `cs_${id.slice(4)}`, 404],
    ['one character short', (id: string) => id.slice(0, -1), 404],
    ['one character long', (id: string) => `${id}x`, 404],
    ['the prefix in capitals', (id: string) => `PAY_${id.slice(4)}`, 404],
    ['no prefix', (id: string) => id.slice(4), 404],
    ['a non-ASCII character', (id: string) => `${id.slice(0, -1)}é`, 404],
    ['a SQL fragment', (id: string) => `${id}' OR '1'='1`, 404],
    ['a NUL', (id: string) => `${id}\u0000`, 400],
    ['65 characters', (id: string) => id.padEnd(65, 'A'), 400],
  ] as const)('a refund of a payment id with %s is refused like a missing payment', async (_what, make, status) => {
    const res = await post('/v1/refund-requests', { payment_id: make(shop.ids.payment), amount: 1 });
    // NUL and length are the body's shape (400); a string of the right shape that is no payment of ours is 404
    if (status === 400) expectRefusal(res, 400, 'parameter_invalid', 'payment_id');
    else expectRefusal(res, 404, 'resource_missing', 'payment_id');
  });
});

// --- headers --------------------------------------------------------------------------------------------------

describe('very long and odd headers', () => {
  it('answers an 8 KiB Authorization header with a JSON 401', async () => {
    for (const value of [`Bearer ${'x'.repeat(8192)}`, `Bearer sk_sandbox_${'A'.repeat(8192)}`, 'x'.repeat(8192)]) {
      const res = await send({ method: 'GET', path: '/v1/payments', headers: { Authorization: value } });
      expect(res.status).toBe(401);
      expect(errorShapeProblems(res)).toEqual([]);
    }
  });

  it('answers an 8 KiB Idempotency-Key with idempotency_key_invalid', async () => {
    expectRefusal(
      await post('/v1/checkout-sessions', sessionBody(), { 'Idempotency-Key': 'k'.repeat(8192) }),
      400,
      'idempotency_key_invalid',
    );
  });

  it('leaves headers past 16 KiB to Node, which answers 431 before any of our code runs, and keeps serving', async () => {
    const res = await send({
      method: 'GET',
      path: '/v1/payments',
      headers: { Authorization: `Bearer ${shop.keys[1]}`, 'X-Padding': 'p'.repeat(20_000) },
    });
    expect(res.status).toBe(431);
    expect(
      (await send({ method: 'GET', path: '/v1/payments', headers: { Authorization: `Bearer ${shop.keys[1]}` } }))
        .status,
    ).toBe(200);
  });

  it('ignores a Request-Id the client sends: the id is always the server’s own', async () => {
    const res = await send({
      method: 'GET',
      path: '/v1/payments/pay_000000000000000000000000',
      headers: { Authorization: `Bearer ${shop.keys[1]}`, 'Request-Id': 'req_forged' },
    });
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(res.json.error.request_id).toBe(res.headers.get('request-id'));
  });

  it('answers a control character in a header value with Node’s 400, and keeps serving', async () => {
    const answer = await rawHttp(
      headOf('/v1/checkout-sessions', {
        Authorization: `Bearer ${shop.keys[0]}`,
        'Idempotency-Key': 'a\u0001b',
        'Content-Length': '2',
      }),
      (socket) => {
        socket.write('{}');
        return 2;
      },
    );
    expect(answer.status).toBe(400);
    expect(
      (await send({ method: 'GET', path: '/v1/payments', headers: { Authorization: `Bearer ${shop.keys[1]}` } }))
        .status,
    ).toBe(200);
  });
});

describe('Idempotency-Key edges', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['Latin-1', 'cl\u00e9'],
    ['UTF-8 bytes read as Latin-1', Buffer.from('clé', 'utf8').toString('latin1')],
    ['a tab inside', 'a\tb'],
  ])('refuses one that is %s', async (_name, key) => {
    const before = await merchantState([shop.merchantId]);
    expectRefusal(
      await post('/v1/checkout-sessions', sessionBody(), { 'Idempotency-Key': key }),
      400,
      'idempotency_key_invalid',
    );
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
  });

  it('takes one printable character, and tells keys apart by case', async () => {
    const body = sessionBody();
    const lower = await post('/v1/checkout-sessions', body, { 'Idempotency-Key': `k-${body.order_reference}` });
    const upper = await post('/v1/checkout-sessions', body, { 'Idempotency-Key': `K-${body.order_reference}` });
    expect([lower.status, upper.status]).toEqual([201, 201]);
    expect(upper.json.id).not.toBe(lower.json.id);
    expect((await post('/v1/checkout-sessions', sessionBody(), { 'Idempotency-Key': '~' })).status).toBe(201);
  });

  it('is the same key with the spaces HTTP strips around it', async () => {
    const key = `spaced-${randomUUID()}`;
    const body = JSON.stringify(sessionBody());
    const first = await rawHttp(
      headOf('/v1/checkout-sessions', {
        Authorization: `Bearer ${shop.keys[0]}`,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'Idempotency-Key': `   ${key}   `,
      }),
      (socket) => {
        socket.write(body);
        return body.length;
      },
    );
    expect(first.status).toBe(201);
    const replay = await post('/v1/checkout-sessions', body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('stores nothing for a request refused before the handler (authentication, scope, body)', async () => {
    const client = await db();
    const readOnly = (await createApiKey(contextOf(client, shop.merchantId), ['payments:read'])).key;
    const before = await merchantState([shop.merchantId]);
    const key = `refused-${randomUUID()}`;
    await post('/v1/checkout-sessions', sessionBody(), { 'Idempotency-Key': key, Authorization: `Bearer ${readOnly}` });
    await post('/v1/checkout-sessions', '{', { 'Idempotency-Key': key });
    await post('/v1/checkout-sessions', { ...sessionBody(), amount: 1 }, { 'Idempotency-Key': key });
    expect(await client.idempotencyKey.count({ where: { merchantId: shop.merchantId, key } })).toBe(0);
    expect(changedTables(before, await merchantState([shop.merchantId]))).toEqual([]);
  });

  it('is ignored on a GET, and scoped to the object in the path', async () => {
    const key = `per-object-${randomUUID()}`;
    const read = await send({
      method: 'GET',
      path: '/v1/payments',
      headers: { Authorization: `Bearer ${shop.keys[1]}`, 'Idempotency-Key': key },
    });
    expect(read.status).toBe(200);
    const client = await db();
    expect(await client.idempotencyKey.count({ where: { merchantId: shop.merchantId, key } })).toBe(0);
    const one = (await post('/v1/checkout-sessions', sessionBody())).json;
    const two = (await post('/v1/checkout-sessions', sessionBody())).json;
    const first = await post(`/v1/checkout-sessions/${one.id}/expire`, {}, { 'Idempotency-Key': key });
    const second = await post(`/v1/checkout-sessions/${two.id}/expire`, {}, { 'Idempotency-Key': key });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.json.id).toBe(two.id);
  });
});

// --- the dashboard's own query strings ----------------------------------------------------------------------

describe('dashboard lists', () => {
  it('show the list, not the error page, for a NUL in the search box or any filter', async () => {
    const client = await db();
    const email = `hostile-${randomUUID()}@example.com`;
    await createUser(client, { merchantId: shop.merchantId, email, password: 'correct horse battery staple' });
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: csrf.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; '),
      },
      body: new URLSearchParams({ csrfToken, email, password: 'correct horse battery staple', json: 'true' }),
      redirect: 'manual',
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toContain('session-token');
    for (const path of [
      '/dashboard/payments?q=%00',
      '/dashboard/checkout-sessions?q=a%00b',
      '/dashboard/refunds?q=%00&status=%00',
      '/dashboard/developers/events?type=%00&q=%00',
      '/dashboard/payment-links?page=%00',
      '/dashboard/payments?from=%00&to=%00',
    ]) {
      const response = await fetch(`${base}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
      const html = await response.text();
      expect(response.status, path).toBe(200);
      // a server component that threw leaves its digest in the stream, and the page shows "could not be loaded"
      expect(html, path).not.toMatch(/E\{\\"digest\\"/);
    }
  });
});
