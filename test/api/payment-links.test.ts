import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createTestMerchant, sessionBody } from '../helpers';

// /v1/payment-links (/docs#objects) over HTTP: the object, its rules and errors, scopes, ownership, and the
// public page each link gets.

let api: ReturnType<typeof apiClient>;
let serverUrl: string;

beforeAll(async () => {
  api = apiClient((await createTestMerchant({ hosts: ['shop.example.com', 'localhost:4000'] })).key);
  serverUrl = inject('serverUrl');
});

const linkBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Yoga class – drop-in',
  amount: 2500,
  currency: 'CAD',
  ...overrides,
});

async function createLink(overrides: Record<string, unknown> = {}) {
  const res = await api.post('/v1/payment-links', linkBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function expectError(
  res: { status: number; body: any; headers: Headers },
  status: number,
  code: string,
  param?: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.param).toBe(param);
  expect(res.body.error.message).toEqual(expect.any(String));
  expect(res.body.error.request_id).toBe(res.headers.get('request-id'));
}

describe('POST /v1/payment-links', () => {
  it('creates an active link with its public url', async () => {
    const res = await api.post('/v1/payment-links', linkBody({ description: 'Sixty minutes, mats provided' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pl_[0-9A-Za-z]{24}$/),
      object: 'payment_link',
      name: 'Yoga class – drop-in',
      description: 'Sixty minutes, mats provided',
      amount: 2500,
      currency: 'CAD',
      payment_methods: null,
      after_payment_url: null,
      active: true,
      url: `${serverUrl}/pay/${res.body.id}`,
      metadata: {},
      adjustable_quantity: { enabled: false, minimum: null, maximum: null },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('keeps chosen methods, an approved after-payment URL and active: false', async () => {
    const link = await createLink({
      currency: 'USD',
      payment_methods: ['usdc', 'card'],
      after_payment_url: 'http://localhost:4000/thanks?from=link',
      active: false,
    });
    expect(link).toMatchObject({
      payment_methods: ['usdc', 'card'],
      after_payment_url: 'http://localhost:4000/thanks?from=link',
      active: false,
    });
  });

  it('takes an after-payment URL with its scheme in capitals, keeping the rest as written', async () => {
    const link = await createLink({ after_payment_url: 'HTTPS://Shop.Example.com/Thanks' });
    expect(link.after_payment_url).toBe('https://Shop.Example.com/Thanks');
  });

  const invalid: [string, Record<string, unknown>, number, string, string | undefined][] = [
    ['name missing', { name: undefined }, 400, 'parameter_missing', 'name'],
    ['name blank', { name: '   ' }, 400, 'parameter_invalid', 'name'],
    ['name of 201 characters', { name: 'n'.repeat(201) }, 400, 'parameter_invalid', 'name'],
    ['amount missing', { amount: undefined }, 400, 'parameter_missing', 'amount'],
    ['amount 0', { amount: 0 }, 400, 'parameter_invalid', 'amount'],
    ['a float amount', { amount: 25.5 }, 400, 'parameter_invalid', 'amount'],
    ['a numeric string amount', { amount: '2500' }, 400, 'parameter_invalid', 'amount'],
    ['amount above the limit', { amount: 100_000_000 }, 400, 'parameter_invalid', 'amount'],
    ['currency lowercase', { currency: 'cad' }, 400, 'parameter_invalid', 'currency'],
    ['currency missing', { currency: undefined }, 400, 'parameter_missing', 'currency'],
    ['description of 1001 characters', { description: 'd'.repeat(1001) }, 400, 'parameter_invalid', 'description'],
    ['an unknown method', { payment_methods: ['paypal'] }, 400, 'parameter_invalid', 'payment_methods.0'],
    ['no methods', { payment_methods: [] }, 400, 'parameter_invalid', 'payment_methods'],
    ['a repeated method', { payment_methods: ['card', 'card'] }, 400, 'parameter_invalid', 'payment_methods'],
    ['usdc for CAD', { payment_methods: ['card', 'usdc'] }, 400, 'payment_method_unavailable', 'payment_methods.1'],
    [
      'a javascript: after-payment URL',
      { after_payment_url: 'javascript:alert(1)' },
      400,
      'parameter_invalid',
      'after_payment_url',
    ],
    [
      'an ftp after-payment URL',
      { after_payment_url: 'ftp://shop.example.com/x' },
      400,
      'parameter_invalid',
      'after_payment_url',
    ],
    ['a relative after-payment URL', { after_payment_url: '/thanks' }, 400, 'parameter_invalid', 'after_payment_url'],
    [
      'an after-payment URL elsewhere',
      { after_payment_url: 'https://evil.example.com/' },
      400,
      'url_not_approved',
      'after_payment_url',
    ],
    [
      'an after-payment URL on a subdomain',
      { after_payment_url: 'https://www.shop.example.com/' },
      400,
      'url_not_approved',
      'after_payment_url',
    ],
    [
      'an after-payment URL on another port',
      { after_payment_url: 'http://localhost:4001/' },
      400,
      'url_not_approved',
      'after_payment_url',
    ],
    ['active as a string', { active: 'yes' }, 400, 'parameter_invalid', 'active'],
    ['an unknown field', { price: 2500 }, 400, 'parameter_unknown', 'price'],
    ['url, which the service sets', { url: 'https://shop.example.com/pay' }, 400, 'parameter_unknown', 'url'],
  ];

  it.each(invalid)('refuses %s', async (_name, overrides, status, code, param) => {
    expectError(await api.post('/v1/payment-links', linkBody(overrides)), status, code, param);
  });

  it('refuses a method the connection has not approved, and a currency none of its methods takes', async () => {
    const cardOnly = apiClient((await createTestMerchant({ methods: ['card'] })).key);
    expectError(
      await cardOnly.post('/v1/payment-links', linkBody({ payment_methods: ['interac'] })),
      400,
      'payment_method_not_approved',
      'payment_methods.0',
    );
    const interacOnly = apiClient((await createTestMerchant({ methods: ['interac'] })).key);
    expectError(
      await interacOnly.post('/v1/payment-links', linkBody({ currency: 'USD' })),
      400,
      'payment_method_unavailable',
      'payment_methods',
    );
  });

  it('is idempotent: a replay answers the same link, a changed body 422', async () => {
    const key = `link-${randomUUID()}`;
    const first = await api.post('/v1/payment-links', linkBody(), { idempotencyKey: key });
    const replay = await api.post('/v1/payment-links', linkBody(), { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const changed = await api.post('/v1/payment-links', linkBody({ amount: 2600 }), { idempotencyKey: key });
    expect(changed.status).toBe(422);
    expect(changed.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
  });

  it('needs an Idempotency-Key', async () => {
    const res = await api.post('/v1/payment-links', linkBody(), { idempotencyKey: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_missing' });
  });
});

describe('GET /v1/payment-links/{id} and the list', () => {
  it('reads a link as it was created', async () => {
    const link = await createLink();
    const res = await api.get(`/v1/payment-links/${link.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(link);
  });

  it('lists newest first in pages, and filters by active', async () => {
    const merchant = apiClient((await createTestMerchant()).key);
    const made = [];
    for (const active of [true, false, true]) {
      const res = await merchant.post('/v1/payment-links', linkBody({ active }));
      made.push(res.body);
    }
    const first = await merchant.get('/v1/payment-links?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((link: { id: string }) => link.id)).toEqual([made[2].id, made[1].id]);
    const rest = await merchant.get(`/v1/payment-links?limit=2&starting_after=${made[1].id}`);
    expect(rest.body).toMatchObject({ has_more: false, data: [{ id: made[0].id }] });
    const inactive = await merchant.get('/v1/payment-links?active=false');
    expect(inactive.body.data.map((link: { id: string }) => link.id)).toEqual([made[1].id]);
  });

  it.each([
    ['limit 0', '?limit=0', 'parameter_invalid', 'limit'],
    ['limit 101', '?limit=101', 'parameter_invalid', 'limit'],
    ['active=yes', '?active=yes', 'parameter_invalid', 'active'],
    ['an unknown filter', '?currency=CAD', 'parameter_unknown', 'currency'],
  ])('refuses a list query with %s', async (_name, query, code, param) => {
    expectError(await api.get(`/v1/payment-links${query}`), 400, code, param);
  });

  it('answers 404 for a link of another merchant, exactly as for one that does not exist', async () => {
    const theirs = await createLink();
    const stranger = apiClient((await createTestMerchant()).key);
    for (const id of [theirs.id, 'pl_000000000000000000000000', 'nonsense']) {
      expectError(await stranger.get(`/v1/payment-links/${id}`), 404, 'resource_missing', 'id');
      expectError(await stranger.post(`/v1/payment-links/${id}`, { active: false }), 404, 'resource_missing', 'id');
    }
    expectError(
      await stranger.get(`/v1/payment-links?starting_after=${theirs.id}`),
      404,
      'resource_missing',
      'starting_after',
    );
    expect((await stranger.get('/v1/payment-links')).body.data).toEqual([]);
    expect((await api.get(`/v1/payment-links/${theirs.id}`)).body.active).toBe(true);
  });
});

describe('POST /v1/payment-links/{id}', () => {
  it('changes active, name and description, and nothing else', async () => {
    const link = await createLink({ description: 'Sixty minutes' });
    const off = await api.post(`/v1/payment-links/${link.id}`, { active: false }, { idempotencyKey: null });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...link, active: false });
    const renamed = await api.post(`/v1/payment-links/${link.id}`, {
      name: 'Yoga – evening',
      description: null,
      active: true,
    });
    expect(renamed.body).toEqual({ ...link, name: 'Yoga – evening', description: null });
    expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(renamed.body);
  });

  it('honours an Idempotency-Key when one is sent', async () => {
    const link = await createLink();
    const key = `update-${randomUUID()}`;
    const first = await api.post(`/v1/payment-links/${link.id}`, { name: 'Renamed' }, { idempotencyKey: key });
    const replay = await api.post(`/v1/payment-links/${link.id}`, { name: 'Renamed' }, { idempotencyKey: key });
    expect(first.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('stores the answer the update gave, merged metadata included, in the statement that makes the change', async () => {
    const link = await createLink();
    await api.post(`/v1/payment-links/${link.id}`, { metadata: { a: '1', b: '2' } });
    const key = `update-${randomUUID()}`;
    const body = { description: 'Hand-thrown', metadata: { c: '3', a: '' } };
    const first = await api.post(`/v1/payment-links/${link.id}`, body, { idempotencyKey: key });
    expect(first.body).toMatchObject({ description: 'Hand-thrown', metadata: { b: '2', c: '3' } });
    expect(Object.keys(first.body.metadata)).toHaveLength(2);
    // the replay is the first answer byte for byte, after another update changed the link
    await api.post(`/v1/payment-links/${link.id}`, { metadata: { d: '4' } });
    const replay = await api.post(`/v1/payment-links/${link.id}`, body, { idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(first.body));
    expect((await api.get(`/v1/payment-links/${link.id}`)).body.metadata).toEqual({ b: '2', c: '3', d: '4' });
  });

  it('answers an empty update with the link as it is, and keeps its key for that body', async () => {
    const link = await createLink();
    const key = `update-${randomUUID()}`;
    const empty = await api.post(`/v1/payment-links/${link.id}`, {}, { idempotencyKey: key });
    expect([empty.status, empty.body]).toEqual([200, link]);
    const replay = await api.post(`/v1/payment-links/${link.id}`, {}, { idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(
      await api.post(`/v1/payment-links/${link.id}`, { name: 'Mug' }, { idempotencyKey: key }),
      422,
      'idempotency_key_reused',
    );
    expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(link);
  });

  it('applies an update once under ten concurrent calls with one key, and a refused one leaves the key free', async () => {
    const link = await createLink();
    const key = `update-${randomUUID()}`;
    const calls = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post(`/v1/payment-links/${link.id}`, { metadata: { once: 'yes' } }, { idempotencyKey: key }),
      ),
    );
    const answered = calls.filter((call) => call.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answered.map((call) => JSON.stringify(call.body))).size).toBe(1);
    for (const call of calls.filter((call) => call.status !== 200)) {
      expect([call.status, call.body.error?.code]).toEqual([409, 'idempotency_key_in_use']);
    }
    const updatedAt = (await api.get(`/v1/payment-links/${link.id}`)).body.updated_at;
    expect(updatedAt).toBe(answered[0].body.updated_at);

    const tooMany = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const refusalKey = `update-${randomUUID()}`;
    const refused = await api.post(
      `/v1/payment-links/${link.id}`,
      { metadata: tooMany },
      { idempotencyKey: refusalKey },
    );
    expectError(refused, 400, 'parameter_invalid', 'metadata');
    // nothing was stored with the key: the same key may carry another request
    const retried = await api.post(`/v1/payment-links/${link.id}`, { name: 'Mug' }, { idempotencyKey: refusalKey });
    expect([retried.status, retried.body.name]).toEqual([200, 'Mug']);
  });

  it('changes adjustable_quantity, replacing the range with create’s defaults, and turns it off', async () => {
    const link = await createLink();
    const ranged = await api.post(`/v1/payment-links/${link.id}`, {
      adjustable_quantity: { enabled: true, minimum: 2, maximum: 6 },
    });
    expect([ranged.status, ranged.body]).toEqual([
      200,
      { ...link, adjustable_quantity: { enabled: true, minimum: 2, maximum: 6 } },
    ]);
    const defaults = await api.post(`/v1/payment-links/${link.id}`, { adjustable_quantity: { enabled: true } });
    expect(defaults.body.adjustable_quantity).toEqual({ enabled: true, minimum: 1, maximum: 99 });
    // the public page offers the range at once
    expect(await (await fetch(`${serverUrl}/pay/${link.id}`)).text()).toContain('From 1 to 99.');
    const off = await api.post(`/v1/payment-links/${link.id}`, { adjustable_quantity: { enabled: false } });
    expect(off.body).toEqual(link);
    expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(link);
  });

  it('stores the new range in the answer an Idempotency-Key replays', async () => {
    const link = await createLink();
    const key = `update-${randomUUID()}`;
    const body = { adjustable_quantity: { enabled: true, maximum: 3 } };
    const first = await api.post(`/v1/payment-links/${link.id}`, body, { idempotencyKey: key });
    await api.post(`/v1/payment-links/${link.id}`, { adjustable_quantity: { enabled: false } });
    const replay = await api.post(`/v1/payment-links/${link.id}`, body, { idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.body.adjustable_quantity).toEqual({ enabled: true, minimum: 1, maximum: 3 });
  });

  it.each([
    ['enabled missing', { minimum: 1 }, 'parameter_missing', 'adjustable_quantity.enabled'],
    ['enabled as a string', { enabled: 'true' }, 'parameter_invalid', 'adjustable_quantity.enabled'],
    ['a minimum of 0', { enabled: true, minimum: 0 }, 'parameter_invalid', 'adjustable_quantity.minimum'],
    ['a maximum above 10,000', { enabled: true, maximum: 10_001 }, 'parameter_invalid', 'adjustable_quantity.maximum'],
    ['a fractional maximum', { enabled: true, maximum: 2.5 }, 'parameter_invalid', 'adjustable_quantity.maximum'],
    [
      'a minimum above the maximum',
      { enabled: true, minimum: 5, maximum: 2 },
      'parameter_invalid',
      'adjustable_quantity.minimum',
    ],
    [
      'a minimum above the default maximum',
      { enabled: true, minimum: 100 },
      'parameter_invalid',
      'adjustable_quantity.minimum',
    ],
    ['an unknown field', { enabled: true, step: 2 }, 'parameter_unknown', 'adjustable_quantity.step'],
  ])(
    'refuses adjustable_quantity with %s, as create does, and changes nothing',
    async (_name, quantity, code, param) => {
      const link = await createLink({ adjustable_quantity: { enabled: true, maximum: 4 } });
      const body = { name: 'Renamed', adjustable_quantity: quantity };
      expectError(await api.post(`/v1/payment-links/${link.id}`, body), 400, code, param);
      expectError(await api.post('/v1/payment-links', linkBody({ adjustable_quantity: quantity })), 400, code, param);
      expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(link);
    },
  );

  it('refuses a maximum whose total would be more than one payment, and keeps the key free', async () => {
    const link = await createLink({ amount: 1_000_000 });
    const key = `update-${randomUUID()}`;
    const tooMany = { adjustable_quantity: { enabled: true, maximum: 100 } };
    const refused = await api.post(`/v1/payment-links/${link.id}`, tooMany, { idempotencyKey: key });
    expectError(refused, 400, 'parameter_invalid', 'adjustable_quantity.maximum');
    expect(refused.body.error.message).toContain('99999999');
    expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(link);
    const fits = await api.post(
      `/v1/payment-links/${link.id}`,
      { adjustable_quantity: { enabled: true, maximum: 99 } },
      { idempotencyKey: key },
    );
    expect([fits.status, fits.body.adjustable_quantity.maximum]).toEqual([200, 99]);
  });

  it.each([
    ['the amount', { amount: 100 }, 'parameter_unknown', 'amount'],
    ['the currency', { currency: 'USD' }, 'parameter_unknown', 'currency'],
    ['the methods', { payment_methods: ['card'] }, 'parameter_unknown', 'payment_methods'],
    [
      'the after-payment URL',
      { after_payment_url: 'https://shop.example.com/' },
      'parameter_unknown',
      'after_payment_url',
    ],
    ['a blank name', { name: '' }, 'parameter_invalid', 'name'],
    ['active as a number', { active: 0 }, 'parameter_invalid', 'active'],
  ])('refuses to change %s', async (_name, body, code, param) => {
    const link = await createLink();
    expectError(await api.post(`/v1/payment-links/${link.id}`, body), 400, code, param);
    expect((await api.get(`/v1/payment-links/${link.id}`)).body).toEqual(link);
  });

  it('checks the body before looking the link up (/docs#errors order)', async () => {
    expectError(
      await api.post('/v1/payment-links/pl_000000000000000000000000', { amount: 1 }),
      400,
      'parameter_unknown',
      'amount',
    );
  });

  it('answers other methods with 405 and Allow', async () => {
    const link = await createLink();
    const res = await api.request('DELETE', `/v1/payment-links/${link.id}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});

describe('scopes', () => {
  it('needs payment_links:write to create or change, and payment_links:read to read', async () => {
    const link = await createLink();
    const readOnly = apiClient((await createTestMerchant({ scopes: ['payment_links:read'] })).key);
    const writeOnly = apiClient((await createTestMerchant({ scopes: ['payment_links:write'] })).key);
    const neither = apiClient((await createTestMerchant({ scopes: ['checkout_sessions:write', 'payments:read'] })).key);
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [readOnly.post('/v1/payment-links', linkBody()), 'payment_links:write'],
      [readOnly.post(`/v1/payment-links/${link.id}`, { active: false }), 'payment_links:write'],
      [writeOnly.get('/v1/payment-links'), 'payment_links:read'],
      [writeOnly.get(`/v1/payment-links/${link.id}`), 'payment_links:read'],
      [neither.post('/v1/payment-links', linkBody()), 'payment_links:write'],
      [neither.get('/v1/payment-links'), 'payment_links:read'],
    ];
    for (const [pending, scope] of cases) {
      const res = await pending;
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
      expect(res.body.error.message).toContain(scope);
    }
    expect((await readOnly.get('/v1/payment-links')).status).toBe(200);
    expect((await writeOnly.post('/v1/payment-links', linkBody())).status).toBe(201);
  });

  it('needs a key at all', async () => {
    const res = await apiClient().get('/v1/payment-links');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('authentication_required');
  });
});

describe('the public page', () => {
  async function page(path: string) {
    const response = await fetch(`${serverUrl}${path}`);
    return { status: response.status, html: await response.text() };
  }

  it('shows the merchant, name, description and price, and says so when the link is off', async () => {
    const link = await createLink({ name: 'Pottery <b>workshop</b>', description: 'Three hours' });
    const open = await page(`/pay/${link.id}`);
    expect(open.status).toBe(200);
    expect(open.html).toContain('Test Shop');
    expect(open.html).toContain('Pottery &lt;b&gt;workshop&lt;/b&gt;');
    expect(open.html).toContain('Three hours');
    expect(open.html).toContain('Pay CA$25.00');
    await api.post(`/v1/payment-links/${link.id}`, { active: false });
    const closed = await page(`/pay/${link.id}`);
    expect(closed.html).toContain('This link is no longer available');
    expect(closed.html).not.toContain('Pay CA$25.00');
  });

  it('is a 404 for an unknown link, and shows no receipt for a session that is not this link’s', async () => {
    expect((await page('/pay/pl_000000000000000000000000')).status).toBe(404);
    const link = await createLink();
    const session = (await api.post('/v1/checkout-sessions', sessionBody())).body;
    const receipt = await page(`/pay/${link.id}/receipt?session_id=${session.id}`);
    expect(receipt.html).toContain('No payment to show');
  });

  it('keeps its receipt URL out of merchants’ reach: a session cannot return there', async () => {
    const link = await createLink();
    expectError(
      await api.post('/v1/checkout-sessions', sessionBody({ return_url: `${link.url}/receipt` })),
      400,
      'url_not_approved',
      'return_url',
    );
  });
});
