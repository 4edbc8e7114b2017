import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestMerchant, sessionBody, type ApiResponse } from '../helpers';

// Who paid, over HTTP: customer_email on a checkout session (checked, at most 254 characters), shown on the
// session and copied to its payments and their events, and GET /v1/payments?customer_email= finding a
// customer's payments whatever the case of the address, and only theirs.

let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  api = apiClient((await createTestMerchant()).key);
});

function expectStatus(res: ApiResponse, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

async function paid(customerEmail?: string, card = '4242424242424242') {
  const body = sessionBody(customerEmail === undefined ? {} : { customer_email: customerEmail });
  const session = expectStatus(await api.post('/v1/checkout-sessions', body), 201);
  const payment = expectStatus(
    await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
      payment_method: 'card',
      card_number: card,
    }),
    200,
  );
  return { session, payment };
}

describe('customer_email on a checkout session', () => {
  it('is shown on the session and copied to its payments, failed or succeeded, and null when none was given', async () => {
    const session = expectStatus(
      await api.post('/v1/checkout-sessions', sessionBody({ customer_email: 'Jenny.Rosen@Example.com' })),
      201,
    );
    expect(session.customer_email).toBe('Jenny.Rosen@Example.com');
    expect((await api.get(`/v1/checkout-sessions/${session.id}`)).body.customer_email).toBe('Jenny.Rosen@Example.com');

    const declined = expectStatus(
      await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4000000000000002',
      }),
      200,
    );
    expect(declined).toMatchObject({ status: 'failed', customer_email: 'Jenny.Rosen@Example.com' });
    const succeeded = expectStatus(
      await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'card',
        card_number: '4242424242424242',
      }),
      200,
    );
    expect((await api.get(`/v1/payments/${succeeded.id}`)).body.customer_email).toBe('Jenny.Rosen@Example.com');

    const { session: anonymous, payment } = await paid();
    expect(anonymous.customer_email).toBeNull();
    expect(payment.customer_email).toBeNull();
  });

  it('is the e-mail an Interac payer gave, when the session had none', async () => {
    const session = expectStatus(await api.post('/v1/checkout-sessions', sessionBody({ currency: 'CAD' })), 201);
    const payment = expectStatus(
      await api.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, {
        payment_method: 'interac',
        outcome: 'approve',
        email: 'marie@example.ca',
      }),
      200,
    );
    expect(payment.customer_email).toBe('marie@example.ca');
  });

  it('is refused when it is not an address or longer than 254 characters, and nothing is made', async () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(long.length).toBeGreaterThan(254);
    for (const customerEmail of ['jenny', 'jenny@', '@example.com', 'jenny rosen@example.com', long, 42, '']) {
      const body = sessionBody({ customer_email: customerEmail });
      const refused = expectStatus(await api.post('/v1/checkout-sessions', body), 400);
      expect(refused.error).toMatchObject({ code: 'parameter_invalid', param: 'customer_email' });
      const list = await api.get(`/v1/checkout-sessions?order_reference=${body.order_reference}`);
      expect(list.body.data).toEqual([]);
    }
  });

  it('is carried by the events of the session and its payment', async () => {
    const { session, payment } = await paid('events@example.com');
    const events = (await api.get('/v1/events?limit=20')).body.data as { type: string; data: { object: any } }[];
    const completed = events.find(
      (event) => event.type === 'checkout_session.completed' && event.data.object.id === session.id,
    );
    const succeeded = events.find((event) => event.type === 'payment.succeeded' && event.data.object.id === payment.id);
    expect(completed?.data.object.customer_email).toBe('events@example.com');
    expect(succeeded?.data.object.customer_email).toBe('events@example.com');
  });
});

describe('GET /v1/payments?customer_email=', () => {
  it("finds a customer's payments, newest first, whatever the case, and no one else's", async () => {
    const first = await paid('Sam.Lee@example.com');
    const second = await paid('sam.lee@EXAMPLE.com', '4000000000000002');
    await paid('sam.leex@example.com');
    await paid('other@example.com');

    const found = expectStatus(await api.get('/v1/payments?customer_email=SAM.LEE%40example.com'), 200);
    expect(found.data.map((payment: { id: string }) => payment.id)).toEqual([second.payment.id, first.payment.id]);

    const succeededOnly = await api.get('/v1/payments?customer_email=sam.lee%40example.com&status=succeeded');
    expect(succeededOnly.body.data.map((payment: { id: string }) => payment.id)).toEqual([first.payment.id]);

    const paged = await api.get(`/v1/payments?customer_email=sam.lee%40example.com&limit=1`);
    expect(paged.body).toMatchObject({ has_more: true, data: [{ id: second.payment.id }] });
    const next = await api.get(
      `/v1/payments?customer_email=sam.lee%40example.com&limit=1&starting_after=${second.payment.id}`,
    );
    expect(next.body).toMatchObject({ has_more: false, data: [{ id: first.payment.id }] });
  });

  it('matches the address exactly: an _ or % in it is a character, not a wildcard', async () => {
    const underscore = await paid('a_b@example.com');
    await paid('axb@example.com');
    const found = expectStatus(await api.get('/v1/payments?customer_email=a_b%40example.com'), 200);
    expect(found.data.map((payment: { id: string }) => payment.id)).toEqual([underscore.payment.id]);
    expect((await api.get('/v1/payments?customer_email=%25%40example.com')).body.data).toEqual([]);
    expect((await api.get('/v1/payments?customer_email=a%25')).body.data).toEqual([]);
    expect((await api.get('/v1/payments?customer_email=nobody%40example.com')).body.data).toEqual([]);
  });

  it("never finds another merchant's payments", async () => {
    const other = apiClient((await createTestMerchant()).key);
    await paid('shared@example.com');
    expect((await other.get('/v1/payments?customer_email=shared%40example.com')).body.data).toEqual([]);
  });
});
