import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestMerchant, sessionBody, type ApiResponse } from '../helpers';

// The lookups a platform's CI needs: payments by checkout_session_id, and every list of sessions, payments and
// refund requests by one metadata pair (metadata[key]=value, exact), never showing another merchant's objects
// however alike their metadata.

let shop: ReturnType<typeof apiClient>;
let other: ReturnType<typeof apiClient>;
/** this run's own value, so that the lists hold only what these tests made */
const ORDER = `order_${randomUUID()}`;

function expectOk(res: ApiResponse, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A session of `client` with `metadata`, paid after a declined attempt: two payments, one failed. */
async function paidAfterDecline(client: typeof shop, metadata: Record<string, string>) {
  const session = expectOk(await client.post('/v1/checkout-sessions', sessionBody({ metadata })), 201);
  const pay = (card_number: string) =>
    client.post(`/v1/test-helpers/checkout-sessions/${session.id}/pay`, { payment_method: 'card', card_number });
  const declined = expectOk(await pay('4000000000000002'));
  const paid = expectOk(await pay('4242424242424242'));
  return { session, declined, paid };
}

const ids = (list: { data: { id: string }[] }) => list.data.map((item) => item.id);
const query = (pairs: Record<string, string>) => new URLSearchParams(pairs).toString();

let mine: Awaited<ReturnType<typeof paidAfterDecline>>;
let theirs: Awaited<ReturnType<typeof paidAfterDecline>>;
let myRefund: { id: string };
let theirRefund: { id: string };

beforeAll(async () => {
  shop = apiClient((await createTestMerchant()).key);
  other = apiClient((await createTestMerchant({ name: 'Other Shop' })).key);
  mine = await paidAfterDecline(shop, { order_id: ORDER, channel: 'web' });
  theirs = await paidAfterDecline(other, { order_id: ORDER, channel: 'web' });
  // a session of the shop's own with another order's metadata, and one without any
  await paidAfterDecline(shop, { order_id: `${ORDER}-2`, channel: 'web' });
  expectOk(await shop.post('/v1/checkout-sessions', sessionBody()), 201);
  const refund = (client: typeof shop, paymentId: string) =>
    client.post('/v1/refund-requests', { payment_id: paymentId, amount: 100, metadata: { ticket: ORDER } });
  myRefund = expectOk(await refund(shop, mine.paid.id), 201);
  theirRefund = expectOk(await refund(other, theirs.paid.id), 201);
  expectOk(await shop.post('/v1/refund-requests', { payment_id: mine.paid.id, amount: 100 }), 201);
});

describe('GET /v1/payments?checkout_session_id=', () => {
  it("lists the session's payments, the declined attempt too, newest first", async () => {
    const list = expectOk(await shop.get(`/v1/payments?checkout_session_id=${mine.session.id}`));
    expect(ids(list)).toEqual([mine.paid.id, mine.declined.id]);
    expect(list.data.map((payment: { status: string }) => payment.status)).toEqual(['succeeded', 'failed']);
    const paged = expectOk(await shop.get(`/v1/payments?checkout_session_id=${mine.session.id}&limit=1`));
    expect(paged).toMatchObject({ has_more: true, data: [{ id: mine.paid.id }] });
    const next = `/v1/payments?checkout_session_id=${mine.session.id}&limit=1&starting_after=${mine.paid.id}`;
    expect(expectOk(await shop.get(next))).toMatchObject({ has_more: false, data: [{ id: mine.declined.id }] });
  });

  it("finds nothing of another merchant's session", async () => {
    const list = expectOk(await shop.get(`/v1/payments?checkout_session_id=${theirs.session.id}`));
    expect(list).toEqual({ object: 'list', data: [], has_more: false });
  });

  it.each(['pay_123', 'cs_short', `cs_${'a'.repeat(25)}`, 'cs_!!!!!!!!!!!!!!!!!!!!!!!!'])(
    'refuses %s, which is not a checkout session id',
    async (bad) => {
      const res = await shop.get(`/v1/payments?${query({ checkout_session_id: bad })}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'checkout_session_id' });
    },
  );
});

describe('metadata[key]=value on the lists', () => {
  it('finds the sessions, payments and refund requests holding the pair, and only the merchant’s own', async () => {
    const sessions = expectOk(await shop.get(`/v1/checkout-sessions?${query({ 'metadata[order_id]': ORDER })}`));
    expect(ids(sessions)).toEqual([mine.session.id]);
    const payments = expectOk(await shop.get(`/v1/payments?${query({ 'metadata[order_id]': ORDER })}`));
    expect(ids(payments)).toEqual([mine.paid.id, mine.declined.id]);
    const refunds = expectOk(await shop.get(`/v1/refund-requests?${query({ 'metadata[ticket]': ORDER })}`));
    expect(ids(refunds)).toEqual([myRefund.id]);
    const theirRefunds = expectOk(await other.get(`/v1/refund-requests?${query({ 'metadata[ticket]': ORDER })}`));
    expect(ids(theirRefunds)).toEqual([theirRefund.id]);
  });

  it('matches exactly: the whole value, its case, and the key', async () => {
    const misses: Record<string, string>[] = [
      { 'metadata[order_id]': ORDER.slice(0, -1) },
      { 'metadata[order_id]': ORDER.toUpperCase() },
      { 'metadata[Order_id]': ORDER },
      { 'metadata[ticket]': ORDER },
    ];
    for (const pairs of misses) {
      expect(ids(expectOk(await shop.get(`/v1/checkout-sessions?${query(pairs)}`))), JSON.stringify(pairs)).toEqual([]);
    }
  });

  it('goes with the other filters and pages', async () => {
    const web = { 'metadata[channel]': 'web' };
    const failed = expectOk(await shop.get(`/v1/payments?${query({ ...web, status: 'failed' })}`));
    expect(failed.data).toHaveLength(2);
    expect(failed.data.every((payment: { status: string }) => payment.status === 'failed')).toBe(true);
    const ofSession = { ...web, checkout_session_id: mine.session.id, limit: '1' };
    const first = expectOk(await shop.get(`/v1/payments?${query(ofSession)}`));
    expect(first).toMatchObject({ has_more: true, data: [{ id: mine.paid.id }] });
    const second = expectOk(await shop.get(`/v1/payments?${query({ ...ofSession, starting_after: mine.paid.id })}`));
    expect(second).toMatchObject({ has_more: false, data: [{ id: mine.declined.id }] });
    const complete = expectOk(await shop.get(`/v1/checkout-sessions?${query({ ...web, status: 'complete' })}`));
    expect(complete.data).toHaveLength(2);
    const open = expectOk(await shop.get(`/v1/checkout-sessions?${query({ ...web, status: 'open' })}`));
    expect(open.data).toEqual([]);
  });

  it.each([
    ['two pairs', 'metadata[order_id]=a&metadata[channel]=web', 'metadata'],
    ['one key twice', 'metadata[order_id]=a&metadata[order_id]=b', 'metadata'],
    ['an empty key', 'metadata[]=a', 'metadata'],
    ['a key of 41 characters', `metadata[${'k'.repeat(41)}]=a`, 'metadata'],
    ['no key at all', 'metadata=a', 'metadata'],
    ['an empty value', 'metadata[order_id]=', 'metadata.order_id'],
    ['a value of 501 characters', `metadata[order_id]=${'v'.repeat(501)}`, 'metadata.order_id'],
  ])('refuses %s as parameter_invalid', async (_label, given, param) => {
    for (const path of ['/v1/checkout-sessions', '/v1/payments', '/v1/refund-requests']) {
      const res = await shop.get(`${path}?${given}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatchObject({ code: 'parameter_invalid', param });
    }
  });

  it('refuses another name in brackets as an unknown parameter', async () => {
    const res = await shop.get('/v1/payments?expand[data]=customer');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_unknown', param: 'expand' });
  });
});
