import { beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueRef } from '@/test/helpers';
import {
  SandboxAuthenticationError,
  SandboxError,
  SandboxInvalidRequestError,
  SandboxPermissionError,
  Sandbox,
} from '../src/index';
import { sessionBody, testClient } from './support/client';

// Every /v1 operation through the client against the running server (test/setup/server.global.ts), with the
// answers typed from the document, the typed errors, and list auto-pagination.

let sandbox: Sandbox;

beforeAll(async () => {
  ({ sandbox } = await testClient({ policy: 'automatic' }));
});

async function paidSession(client = sandbox) {
  const session = await client.checkoutSessions.create(sessionBody());
  const payment = await client.testHelpers.checkoutSessions.pay(session.id, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  return { session, payment };
}

describe('checkout sessions, payments and the pay helper', () => {
  it('creates, retrieves, lists and expires a session', async () => {
    const created = await sandbox.checkoutSessions.create(sessionBody());
    expect(created).toMatchObject({ object: 'checkout_session', status: 'open', amount: 3750 });
    expect(await sandbox.checkoutSessions.retrieve(created.id)).toEqual(created);
    const page = await sandbox.checkoutSessions.list({ order_reference: created.order_reference });
    expect(page.data.map((session) => session.id)).toEqual([created.id]);
    const expired = await sandbox.checkoutSessions.expire(created.id);
    expect(expired.status).toBe('expired');
  });

  it('pays a session and reads its payment, one by one and in the list', async () => {
    const { session, payment } = await paidSession();
    expect(payment).toMatchObject({ object: 'payment', status: 'succeeded', checkout_session_id: session.id });
    expect(await sandbox.payments.retrieve(payment.id)).toEqual(payment);
    const { data } = await sandbox.payments.list({ limit: 100 });
    expect(data.map((item) => item.id)).toContain(payment.id);
  });

  it("finds a session's payments by its id, and by a metadata pair (sent as metadata[key]=value)", async () => {
    const order = uniqueRef('platform-order');
    const session = await sandbox.checkoutSessions.create(sessionBody({ metadata: { order_id: order } }));
    const payment = await sandbox.testHelpers.checkoutSessions.pay(session.id, {
      payment_method: 'card',
      card_number: '4242424242424242',
    });
    const bySession = await sandbox.payments.list({ checkout_session_id: session.id });
    expect(bySession.data.map((item) => item.id)).toEqual([payment.id]);
    const byMetadata = await sandbox.payments.list({ metadata: { order_id: order } });
    expect(byMetadata.data.map((item) => item.id)).toEqual([payment.id]);
    const sessions = await sandbox.checkoutSessions.list({ metadata: { order_id: order } });
    expect(sessions.data.map((item) => item.id)).toEqual([session.id]);
  });
});

describe('refund requests and their test helpers', () => {
  it('creates, retrieves, lists, completes and fails refunds', async () => {
    const { payment } = await paidSession();
    const refund = await sandbox.refundRequests.create({ payment_id: payment.id, amount: 1000 });
    expect(refund).toMatchObject({ object: 'refund_request', amount: 1000, payment_id: payment.id });
    expect((await sandbox.refundRequests.retrieve(refund.id)).id).toBe(refund.id);
    expect((await sandbox.refundRequests.list({ limit: 100 })).data.map((item) => item.id)).toContain(refund.id);
    expect((await sandbox.testHelpers.refundRequests.complete(refund.id)).status).toBe('completed');

    const second = await sandbox.refundRequests.create({ payment_id: payment.id, amount: 500 });
    const failed = await sandbox.testHelpers.refundRequests.fail(second.id, { failure_reason: 'Card account closed' });
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'Card account closed' });
  });

  it('cancels a requested refund under the manual policy', async () => {
    const { sandbox: manual } = await testClient({ policy: 'manual' });
    const { payment } = await paidSession(manual);
    const refund = await manual.refundRequests.create({ payment_id: payment.id, amount: 700 });
    expect((await manual.refundRequests.cancel(refund.id)).status).toBe('canceled');
  });
});

describe('payment links', () => {
  it('creates, retrieves, lists and updates a link', async () => {
    const link = await sandbox.paymentLinks.create({ name: 'Ticket', amount: 4500, currency: 'USD' });
    expect(link).toMatchObject({ object: 'payment_link', active: true, amount: 4500 });
    expect(await sandbox.paymentLinks.retrieve(link.id)).toEqual(link);
    expect((await sandbox.paymentLinks.list()).data.map((item) => item.id)).toContain(link.id);
    expect(await sandbox.paymentLinks.update(link.id, { active: false })).toMatchObject({ id: link.id, active: false });
  });
});

describe('webhook endpoints and events', () => {
  it('creates, retrieves, lists, rotates the secret of and deletes an endpoint', async () => {
    const endpoint = await sandbox.webhookEndpoints.create({ url: 'http://127.0.0.1:4000/hooks', events: ['*'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const { secret: _secret, ...shown } = endpoint;
    expect(await sandbox.webhookEndpoints.retrieve(endpoint.id)).toEqual(shown);
    expect((await sandbox.webhookEndpoints.list()).data).toContainEqual(shown);
    const updated = await sandbox.webhookEndpoints.update(endpoint.id, {
      description: 'Orders',
      faults: { duplicate_rate: 0.5, seed: 7 },
    });
    expect(updated).toMatchObject({
      description: 'Orders',
      faults: { duplicate_rate: 0.5, delay_seconds: 0, seed: 7 },
    });
    const rotated = await sandbox.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(await sandbox.webhookEndpoints.del(endpoint.id)).toMatchObject({ id: endpoint.id, deleted: true });
  });

  it('lists events and retrieves one, typed as the event union', async () => {
    const { payment } = await paidSession();
    const { data } = await sandbox.events.list({ type: 'payment.succeeded', limit: 100 });
    const event = data.find((item) => item.type === 'payment.succeeded' && item.data.object.id === payment.id);
    expect(event).toBeDefined();
    const read = await sandbox.events.retrieve(event!.id);
    expect(read).toEqual(event);
    if (read.type !== 'payment.succeeded') throw new Error(`unexpected ${read.type}`);
    expect(read.data.object.amount).toBe(payment.amount);
  });

  it('reads and advances the test clock', async () => {
    const { sandbox: fresh } = await testClient();
    const clock = await fresh.testHelpers.clock.retrieve();
    expect(clock).toMatchObject({ object: 'test_clock', offset_seconds: 0 });
    const advanced = await fresh.testHelpers.clock.advance({ seconds: 3600 });
    expect(advanced.offset_seconds).toBe(3600);
    expect(Date.parse(advanced.now) - Date.parse(clock.now)).toBeGreaterThanOrEqual(3600_000);
  });

  it('streams new events, and resumes after the last one it gave', async () => {
    const events = sandbox.events.stream({ types: 'payment.succeeded' });
    const iterator = events[Symbol.asyncIterator]();
    const first = iterator.next();
    // the stream starts from now, once the first next() has opened it (nothing says when): pay until one arrives
    const paid: string[] = [];
    let arrived = false;
    void first.then(() => (arrived = true));
    while (!arrived) {
      paid.push((await paidSession()).payment.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const received = (await first).value!;
    expect(received.type).toBe('payment.succeeded');
    expect(paid).toContain(received.data.object.id);
    expect(received).toEqual(await sandbox.events.retrieve(received.id));
    await iterator.return!();

    // another stream picks up after it: the event made in between, and nothing before
    const { payment: later } = await paidSession();
    const resumed = sandbox.events.stream({ types: 'payment.succeeded' }, { lastEventId: events.lastEventId });
    const after: string[] = [];
    for await (const event of resumed) {
      after.push(event.data.object.id);
      if (event.data.object.id === later.id) break;
    }
    expect(after).toEqual([...paid.slice(paid.indexOf(received.data.object.id) + 1), later.id]);
  });

  it('reads the OpenAPI document', async () => {
    const document = await sandbox.openapi.retrieve();
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'Sandbox Payments API' } });
  });
});

describe('list auto-pagination', () => {
  it('awaits the first page, and walks every page with for await', async () => {
    const { sandbox: fresh } = await testClient();
    const links = [];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five'])
      links.push(await fresh.paymentLinks.create({ name, amount: 1000, currency: 'USD' }));
    const first = await fresh.paymentLinks.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);

    const walked: string[] = [];
    for await (const link of fresh.paymentLinks.list({ limit: 2 })) walked.push(link.id);
    // newest first, each once, over three pages of at most two
    expect(walked).toEqual(links.map((link) => link.id).reverse());

    const afterSecond = await fresh.paymentLinks.list({ limit: 2, starting_after: walked[1] }).toArray();
    expect(afterSecond.map((link) => link.id)).toEqual(walked.slice(2));
    expect(await fresh.paymentLinks.list({ limit: 2 }).toArray({ limit: 3 })).toHaveLength(3);
  });
});

describe('typed errors', () => {
  it('throws resource_missing for an unknown id, with the Request-Id', async () => {
    const error = await sandbox.payments.retrieve(`pay_${'0'.repeat(24)}`).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxInvalidRequestError);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({
      status: 404,
      type: 'invalid_request_error',
      code: 'resource_missing',
      requestId: expect.stringMatching(/^req_/),
    });
  });

  it('throws parameter_invalid naming the parameter', async () => {
    const error = await sandbox.checkoutSessions
      .create(sessionBody({ return_url: 'not a url', order_reference: uniqueRef() }))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SandboxInvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'return_url' });
    expect((error as SandboxError).message).toMatch(/return_url/);
  });

  it('throws an authentication error for an unknown key, and a permission error for a missing scope', async () => {
    const unknown = new Sandbox({ apiKey: `sk_sandbox_${'x'.repeat(40)}`, baseUrl: inject('serverUrl') });
    const refused = await unknown.payments.list().catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(SandboxAuthenticationError);
    expect(refused).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key' });

    const { sandbox: readOnly } = await testClient({ scopes: ['payments:read'] });
    const denied = await readOnly.paymentLinks
      .create({ name: 'No', amount: 100, currency: 'USD' })
      .catch((thrown: unknown) => thrown);
    expect(denied).toBeInstanceOf(SandboxPermissionError);
    expect(denied).toMatchObject({ status: 403, type: 'permission_error', code: 'insufficient_scope' });
  });
});
