import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '@/lib/api-keys/service';
import type { DashboardSession } from '@/lib/auth/session';
import { createCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant, setRefundPolicy } from '@/lib/merchants/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import { pageOfPaymentLinks } from '@/lib/payment-links/dashboard';
import { createPaymentLink, getPaymentLink } from '@/lib/payment-links/service';
import { createRefundRequest } from '@/lib/refunds/service';
import { startTestReceiver, type TestReceiver } from '@/test/support/webhook-receiver';
import { createWebhookEndpoint } from '@/lib/webhooks/service';
import { deliverDueWebhooks } from '@/lib/webhooks/deliver';
import { listApiRequestLogs } from '@/lib/api-logs/service';
import { createUser } from '@/lib/users/service';
import { listKeys } from '@/lib/api-keys/dashboard';
import { getCheckoutSessionDetail, searchCheckoutSessions } from '@/lib/checkout-sessions/dashboard';
import { getEventDetail, searchEvents } from '@/lib/events/dashboard';
import { getOverview, getSetupProgress, listRecentActivity } from './overview';
import { getPaymentDetail, searchPayments } from '@/lib/payments/dashboard';
import { searchRefunds } from '@/lib/refunds/dashboard';
import { getSettings } from '@/lib/merchants/dashboard';
import { getEndpointDetail, listEndpointsWithHealth } from '@/lib/webhooks/dashboard';
import { contextOf } from '@/test/context';

// A user of merchant B can never read or change anything of merchant A: every dashboard read is called
// with B's merchant and A's ids, and every server action runs with B's session against A's objects.
// Each action is also run once as A, so a test that passes only because the action is broken would fail.

// the receiver listens on 127.0.0.1, as the embedded setup allows
vi.hoisted(() => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = 'true';
});

let signedIn: DashboardSession;
vi.mock('@/lib/auth/session', () => ({
  // with the context requireMerchant builds for the signed-in merchant (lib/auth/session.ts)
  requireMerchant: async () => {
    const { contextOf } = await import('@/test/context');
    const { db } = await import('@/lib/db');
    return { ...signedIn, context: contextOf(await db(), signedIn.merchantId) };
  },
  getDashboardSession: async () => signedIn,
}));
// the actions refresh the dashboard's routes; outside a request there are none to refresh
vi.mock('next/cache', () => ({ revalidatePath: () => {}, refresh: () => {} }));

const { refundPaymentAction } = await import('@/app/(dashboard)/dashboard/payments/[id]/actions');
const { approveRefundAction, declineRefundAction, cancelRefundAction } =
  await import('@/app/(dashboard)/dashboard/refunds/actions');
const { createKeyAction, revokeKeyAction } = await import('@/app/(dashboard)/dashboard/developers/api-keys/actions');
const webhookActions = await import('@/app/(dashboard)/dashboard/developers/webhooks/actions');
const { expireSessionAction } = await import('@/app/(dashboard)/dashboard/checkout-sessions/actions');
const settingsActions = await import('@/app/(dashboard)/dashboard/settings/actions');
const paymentLinkActions = await import('@/app/(dashboard)/dashboard/payment-links/actions');

type MerchantA = {
  session: DashboardSession;
  keyId: string;
  paymentId: string;
  paidSessionId: string;
  openSessionId: string;
  refundIds: string[];
  endpointId: string;
  deliveryId: string;
  eventId: string;
  linkId: string;
};

let a: MerchantA;
let b: DashboardSession;
let receiver: TestReceiver;
const IDLE = { status: 'idle' as const };

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  return data;
}

async function sessionFor(merchantId: string, orderReference: string) {
  return createCheckoutSession(contextOf(await db(), merchantId), {
    order_reference: orderReference,
    currency: 'USD',
    items: [{ name: 'Lamp', quantity: 1, unit_amount: 5000 }],
    shipping_amount: 0,
    tax_amount: 0,
    amount: 5000,
    return_url: 'https://shop-a.example.com/thanks',
  });
}

beforeAll(async () => {
  const client = await db();
  receiver = await startTestReceiver();
  const merchantA = await createMerchant(client, { name: 'Shop A', hosts: ['shop-a.example.com'] });
  await setRefundPolicy(contextOf(client, merchantA.id), 'manual');
  const key = await createApiKey(contextOf(client, merchantA.id), ['payments:read']);
  const endpoint = await createWebhookEndpoint(
    contextOf(client, merchantA.id),
    { url: receiver.url, events: ['*'] },
    { allowPrivateUrls: true },
  );
  const paid = await sessionFor(merchantA.id, 'a-paid');
  const { payment } = await payCheckoutSession(contextOf(client, merchantA.id), paid.id, {
    payment_method: 'card',
    card_number: '4242424242424242',
  });
  const open = await sessionFor(merchantA.id, 'a-open');
  const refunds = [];
  for (let index = 0; index < 4; index += 1)
    refunds.push(await createRefundRequest(contextOf(client, merchantA.id), { payment_id: payment.id, amount: 100 }));
  await deliverDueWebhooks(client, { allowPrivateUrls: true });
  const delivery = await client.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
  const link = await createPaymentLink(contextOf(client, merchantA.id), {
    name: 'Lamp link',
    amount: 5000,
    currency: 'USD',
    description: 'A lamp',
    active: true,
  });
  await client.apiRequestLog.create({
    data: {
      merchantId: merchantA.id,
      method: 'GET',
      path: `/v1/payments/${payment.id}`,
      status: 200,
      durationMs: 3,
      requestId: 'req_aaaaaaaaaaaaaaaaaaaaaaaa',
    },
  });
  a = {
    session: {
      userId: 'usr_a',
      email: 'a@example.com',
      merchantId: merchantA.id,
      merchantName: 'Shop A',
      merchantTimeZone: null,
      clockOffsetSeconds: 0,
    },
    keyId: key.id,
    paymentId: payment.id,
    paidSessionId: paid.id,
    openSessionId: open.id,
    refundIds: refunds.map((refund) => refund.id),
    endpointId: endpoint.id,
    deliveryId: delivery.id,
    eventId: delivery.eventId!,
    linkId: link.id,
  };

  const merchantB = await createMerchant(client, { name: 'Shop B', hosts: ['shop-b.example.com'] });
  await setRefundPolicy(contextOf(client, merchantB.id), 'manual');
  b = {
    userId: 'usr_b',
    email: 'b@example.com',
    merchantId: merchantB.id,
    merchantName: 'Shop B',
    merchantTimeZone: null,
    clockOffsetSeconds: 0,
  };
  // real users, for the actions that ask for the password again (Reveal)
  await createUser(client, { merchantId: merchantA.id, email: a.session.email, password: PASSWORD });
  await createUser(client, { merchantId: merchantB.id, email: b.email, password: PASSWORD });
  return () => receiver.close();
});

const PASSWORD = 'correct horse battery staple';

beforeEach(() => {
  signedIn = b;
});

describe("merchant B's reads find nothing of merchant A", () => {
  it('payments: the detail is not found and searching for its ids finds nothing', async () => {
    const client = await db();
    expect(await getPaymentDetail(contextOf(client, b.merchantId), a.paymentId)).toBeNull();
    for (const q of [a.paymentId, a.paidSessionId, 'a-paid'])
      expect((await searchPayments(contextOf(client, b.merchantId), { q, page: 1 })).total).toBe(0);
    // the same reads as A find it: the test can fail
    expect((await getPaymentDetail(contextOf(client, a.session.merchantId), a.paymentId))?.payment.id).toBe(
      a.paymentId,
    );
    expect((await searchPayments(contextOf(client, a.session.merchantId), { q: a.paymentId, page: 1 })).total).toBe(1);
  });

  it('checkout sessions, events, endpoints and refunds', async () => {
    const client = await db();
    expect(await getCheckoutSessionDetail(contextOf(client, b.merchantId), a.paidSessionId)).toBeNull();
    expect((await searchCheckoutSessions(contextOf(client, b.merchantId), { q: a.openSessionId, page: 1 })).total).toBe(
      0,
    );
    expect(await getEventDetail(contextOf(client, b.merchantId), a.eventId)).toBeNull();
    expect((await searchEvents(contextOf(client, b.merchantId), { page: 1 })).total).toBe(0);
    expect(await getEndpointDetail(contextOf(client, b.merchantId), a.endpointId, 1)).toBeNull();
    expect(await listEndpointsWithHealth(contextOf(client, b.merchantId))).toEqual([]);
    expect((await searchRefunds(contextOf(client, b.merchantId), { page: 1 })).total).toBe(0);

    expect(await getCheckoutSessionDetail(contextOf(client, a.session.merchantId), a.paidSessionId)).not.toBeNull();
    expect(await getEventDetail(contextOf(client, a.session.merchantId), a.eventId)).not.toBeNull();
    expect(await getEndpointDetail(contextOf(client, a.session.merchantId), a.endpointId, 1)).not.toBeNull();
    expect((await searchRefunds(contextOf(client, a.session.merchantId), { page: 1 })).total).toBe(4);
  });

  it('keys, settings, Home and logs show only B’s own', async () => {
    const client = await db();
    expect((await listKeys(contextOf(client, b.merchantId))).map((key) => key.id)).not.toContain(a.keyId);
    expect((await getSettings(contextOf(client, b.merchantId))).websites.map((website) => website.host)).toEqual([
      'shop-b.example.com',
    ]);
    const overview = await getOverview(contextOf(client, b.merchantId));
    expect(overview.totals).toMatchObject({ grossVolume: 0, succeededCount: 0, refundCount: 0 });
    expect(await listRecentActivity(contextOf(client, b.merchantId))).toEqual([]);
    expect(await getSetupProgress(contextOf(client, b.merchantId))).toEqual({
      hasWebsite: true,
      hasKey: false,
      hasSession: false,
      hasEndpoint: false,
    });
    expect((await listApiRequestLogs(contextOf(client, b.merchantId), { limit: 50 })).data).toEqual([]);

    expect((await getOverview(contextOf(client, a.session.merchantId))).totals.grossVolume).toBe(5000);
    expect((await listApiRequestLogs(contextOf(client, a.session.merchantId), { limit: 50 })).data).toHaveLength(1);
  });
});

describe("merchant B's actions cannot change merchant A's objects", () => {
  it('refund form: A’s payment is not found and nothing is reserved', async () => {
    const client = await db();
    const state = await refundPaymentAction(
      IDLE,
      form({ paymentId: a.paymentId, amount: '10.00', reason: '', note: '' }),
    );
    expect(state).toMatchObject({ status: 'error', message: 'This payment was not found.' });
    expect(await client.refundRequest.count({ where: { paymentId: a.paymentId } })).toBe(4);

    signedIn = a.session;
    expect(
      await refundPaymentAction(IDLE, form({ paymentId: a.paymentId, amount: '1.00', reason: '', note: '' })),
    ).toMatchObject({ status: 'ok' });
    expect(await client.refundRequest.count({ where: { paymentId: a.paymentId } })).toBe(5);
  });

  it('approve, decline and cancel: A’s refund is not found and stays requested', async () => {
    const client = await db();
    const [approveMe, declineMe, cancelMe] = a.refundIds;
    expect(await approveRefundAction(IDLE, form({ refundId: approveMe }))).toEqual({
      status: 'error',
      message: 'This refund request was not found.',
    });
    expect(await declineRefundAction(IDLE, form({ refundId: declineMe }))).toEqual({
      status: 'error',
      message: 'This refund request was not found.',
    });
    expect(await cancelRefundAction(IDLE, form({ refundId: cancelMe }))).toEqual({
      status: 'error',
      message: 'This refund request was not found.',
    });
    const statuses = await client.refundRequest.findMany({
      where: { id: { in: [approveMe, declineMe, cancelMe] } },
      select: { status: true },
    });
    expect(statuses.map((refund) => refund.status)).toEqual(['requested', 'requested', 'requested']);

    signedIn = a.session;
    expect(await approveRefundAction(IDLE, form({ refundId: approveMe }))).toMatchObject({
      status: 'ok',
      message: 'Refund of US$1.00 approved.',
    });
    expect(await declineRefundAction(IDLE, form({ refundId: declineMe }))).toMatchObject({ status: 'ok' });
    expect(await cancelRefundAction(IDLE, form({ refundId: cancelMe }))).toMatchObject({ status: 'ok' });
  });

  it('API keys: A’s key cannot be revoked; a key B creates is B’s', async () => {
    const client = await db();
    expect(await revokeKeyAction(IDLE, form({ keyId: a.keyId }))).toMatchObject({ status: 'error' });
    expect((await client.apiKey.findUniqueOrThrow({ where: { id: a.keyId } })).revokedAt).toBeNull();

    const created = await createKeyAction(IDLE, form({ scopes: ['payments:read'] }));
    expect(created).toMatchObject({ status: 'ok', secret: expect.stringMatching(/^sk_sandbox_/) });
    expect(await client.apiKey.count({ where: { merchantId: b.merchantId } })).toBe(1);

    signedIn = a.session;
    expect(await revokeKeyAction(IDLE, form({ keyId: a.keyId }))).toMatchObject({ status: 'ok' });
  });

  it('webhooks: A’s endpoint cannot be tested, rotated or deleted, nor its deliveries resent', async () => {
    const client = await db();
    const before = await client.webhookEndpoint.findUniqueOrThrow({ where: { id: a.endpointId } });
    const received = receiver.received.length;
    const attempts = await client.webhookAttempt.count({ where: { deliveryId: a.deliveryId } });

    expect(await webhookActions.sendTestEventAction(IDLE, form({ endpointId: a.endpointId }))).toEqual({
      status: 'error',
      message: 'This endpoint was not found.',
    });
    expect(await webhookActions.rotateSecretAction(IDLE, form({ endpointId: a.endpointId }))).toEqual({
      status: 'error',
      message: 'This endpoint was not found.',
    });
    expect(await webhookActions.deleteEndpointAction(IDLE, form({ endpointId: a.endpointId }))).toEqual({
      status: 'error',
      message: 'This endpoint was not found.',
    });
    expect(await webhookActions.resendDeliveryAction(IDLE, form({ deliveryId: a.deliveryId }))).toMatchObject({
      status: 'error',
    });

    const after = await client.webhookEndpoint.findUniqueOrThrow({ where: { id: a.endpointId } });
    expect(after).toEqual(before);
    expect(receiver.received.length).toBe(received);
    expect(await client.webhookAttempt.count({ where: { deliveryId: a.deliveryId } })).toBe(attempts);

    signedIn = a.session;
    expect(await webhookActions.sendTestEventAction(IDLE, form({ endpointId: a.endpointId }))).toMatchObject({
      status: 'ok',
    });
    expect(await webhookActions.resendDeliveryAction(IDLE, form({ deliveryId: a.deliveryId }))).toMatchObject({
      status: 'ok',
    });
    expect(await webhookActions.rotateSecretAction(IDLE, form({ endpointId: a.endpointId }))).toMatchObject({
      status: 'ok',
      secret: expect.stringMatching(/^whsec_/),
    });
  });

  it('webhooks: A’s endpoint cannot be edited, disabled or enabled, nor its secret revealed', async () => {
    const client = await db();
    const before = await client.webhookEndpoint.findUniqueOrThrow({ where: { id: a.endpointId } });

    const edited = await webhookActions.updateEndpointAction(
      IDLE,
      form({ endpointId: a.endpointId, url: 'https://b.example.com/hooks', description: 'mine now', scope: 'all' }),
    );
    expect(edited).toMatchObject({ status: 'error' });
    for (const status of ['disabled', 'enabled']) {
      expect(await webhookActions.setEndpointStatusAction(IDLE, form({ endpointId: a.endpointId, status }))).toEqual({
        status: 'error',
        message: 'This endpoint was not found.',
      });
    }
    // B's own password opens nothing of A's
    expect(
      await webhookActions.revealSecretAction(IDLE, form({ endpointId: a.endpointId, password: PASSWORD })),
    ).toEqual({ status: 'error', message: 'This endpoint was not found.' });
    expect(await client.webhookEndpoint.findUniqueOrThrow({ where: { id: a.endpointId } })).toEqual(before);

    signedIn = a.session;
    expect(
      await webhookActions.revealSecretAction(IDLE, form({ endpointId: a.endpointId, password: 'not the password' })),
    ).toEqual({ status: 'error', fieldErrors: { password: 'That is not your password.' } });
    expect(
      await webhookActions.revealSecretAction(IDLE, form({ endpointId: a.endpointId, password: PASSWORD })),
    ).toMatchObject({ status: 'ok', secret: before.secret });
    expect(
      await webhookActions.setEndpointStatusAction(IDLE, form({ endpointId: a.endpointId, status: 'disabled' })),
    ).toMatchObject({ status: 'ok' });
    expect(
      await webhookActions.setEndpointStatusAction(IDLE, form({ endpointId: a.endpointId, status: 'enabled' })),
    ).toMatchObject({ status: 'ok' });
    expect(
      await webhookActions.updateEndpointAction(
        IDLE,
        form({ endpointId: a.endpointId, url: receiver.url, description: 'Orders', scope: 'all' }),
      ),
    ).toMatchObject({ status: 'ok' });
    expect(await client.webhookEndpoint.findUniqueOrThrow({ where: { id: a.endpointId } })).toMatchObject({
      description: 'Orders',
      status: 'enabled',
    });
  });

  it('checkout sessions: A’s open session cannot be expired', async () => {
    const client = await db();
    expect(await expireSessionAction(IDLE, form({ sessionId: a.openSessionId }))).toEqual({
      status: 'error',
      message: 'This checkout session was not found.',
    });
    expect((await client.checkoutSession.findUniqueOrThrow({ where: { id: a.openSessionId } })).status).toBe('open');
  });

  it('payment links: A’s link is neither listed nor found for B, and cannot be renamed, turned off or on', async () => {
    const client = await db();
    expect(await getPaymentLink(contextOf(client, b.merchantId), a.linkId)).toBeNull();
    expect(
      (await pageOfPaymentLinks(contextOf(client, b.merchantId), { skip: 0, take: 50 })).rows.map((link) => link.id),
    ).not.toContain(a.linkId);
    const before = await client.paymentLink.findUniqueOrThrow({ where: { id: a.linkId } });

    const notFound = { status: 'error', message: 'This payment link was not found.' };
    expect(
      await paymentLinkActions.updatePaymentLinkAction(
        IDLE,
        form({ linkId: a.linkId, name: 'Hijacked', description: 'pay me instead' }),
      ),
    ).toEqual(notFound);
    expect(await paymentLinkActions.deactivatePaymentLinkAction(IDLE, form({ linkId: a.linkId }))).toEqual(notFound);
    await client.paymentLink.update({ where: { id: a.linkId }, data: { active: false } });
    expect(await paymentLinkActions.activatePaymentLinkAction(IDLE, form({ linkId: a.linkId }))).toEqual(notFound);
    await client.paymentLink.update({ where: { id: a.linkId }, data: { active: true } });
    expect(await client.paymentLink.findUniqueOrThrow({ where: { id: a.linkId } })).toEqual(before);

    signedIn = a.session;
    expect(await getPaymentLink(contextOf(client, a.session.merchantId), a.linkId)).not.toBeNull();
    expect(
      await paymentLinkActions.updatePaymentLinkAction(
        IDLE,
        // the edit form sends the price it shows (5000 minor units) with the name
        form({ linkId: a.linkId, name: 'Lamp link', description: 'A lamp', amount: '50.00' }),
      ),
    ).toMatchObject({ status: 'ok' });
    expect(await paymentLinkActions.deactivatePaymentLinkAction(IDLE, form({ linkId: a.linkId }))).toMatchObject({
      status: 'ok',
    });
    expect(await paymentLinkActions.activatePaymentLinkAction(IDLE, form({ linkId: a.linkId }))).toMatchObject({
      status: 'ok',
    });
  });

  it('payment links and webhook endpoints B creates are B’s, even with A’s ids in the form', async () => {
    const client = await db();
    // the actions redirect to the new link's page; outside a request that is a thrown NEXT_REDIRECT
    await paymentLinkActions
      .createPaymentLinkAction(
        IDLE as never,
        form({
          name: 'B link',
          description: '',
          amount: '10.00',
          currency: 'USD',
          methodChoice: 'all',
          afterPaymentUrl: '',
          merchantId: a.session.merchantId,
        }),
      )
      .catch((error: Error) =>
        expect(String((error as { digest?: string }).digest ?? error.message)).toContain('NEXT_REDIRECT'),
      );
    expect(await client.paymentLink.count({ where: { merchantId: b.merchantId, name: 'B link' } })).toBe(1);
    expect(await client.paymentLink.count({ where: { merchantId: a.session.merchantId, name: 'B link' } })).toBe(0);

    const endpoints = await client.webhookEndpoint.count({ where: { merchantId: a.session.merchantId } });
    expect(
      await webhookActions.createEndpointAction(
        IDLE as never,
        form({
          url: 'https://hooks.example.com/b',
          events: ['*'],
          description: '',
          merchantId: a.session.merchantId,
          endpointId: a.endpointId,
        }),
      ),
    ).toMatchObject({ status: 'ok' });
    expect(await client.webhookEndpoint.count({ where: { merchantId: a.session.merchantId } })).toBe(endpoints);
    expect(
      await client.webhookEndpoint.count({ where: { merchantId: b.merchantId, url: 'https://hooks.example.com/b' } }),
    ).toBe(1);
  });

  it('settings change only the signed-in merchant', async () => {
    const client = await db();
    expect(await settingsActions.removeWebsiteAction(IDLE, form({ host: 'shop-a.example.com' }))).toMatchObject({
      status: 'error',
    });
    expect(await settingsActions.saveBusinessNameAction(IDLE, form({ name: 'Renamed B' }))).toMatchObject({
      status: 'ok',
    });
    expect(await settingsActions.saveRefundPolicyAction(IDLE, form({ policy: 'automatic' }))).toMatchObject({
      status: 'ok',
    });
    expect(await settingsActions.savePaymentMethodsAction(IDLE, form({ methods: ['card'] }))).toMatchObject({
      status: 'ok',
    });
    expect(await settingsActions.addWebsiteAction(IDLE, form({ host: 'shop-a.example.com' }))).toMatchObject({
      status: 'ok',
    });
    expect(await settingsActions.saveTimeZoneAction(IDLE, form({ timeZone: 'Mars/Olympus_Mons' }))).toMatchObject({
      status: 'error',
      fieldErrors: { timeZone: 'Choose a time zone from the list.' },
    });
    expect(
      await settingsActions.saveTimeZoneAction(
        IDLE,
        form({ timeZone: 'America/Los_Angeles', merchantId: a.session.merchantId }),
      ),
    ).toMatchObject({ status: 'ok' });

    const merchantA = await client.merchant.findUniqueOrThrow({
      where: { id: a.session.merchantId },
      include: { websites: true },
    });
    expect(merchantA).toMatchObject({
      name: 'Shop A',
      refundPolicy: 'manual',
      paymentMethods: ['card', 'usdc', 'interac'],
      timeZone: null,
    });
    expect(merchantA.websites.map((website) => website.host)).toEqual(['shop-a.example.com']);
    const merchantB = await client.merchant.findUniqueOrThrow({
      where: { id: b.merchantId },
      include: { websites: true },
    });
    expect(merchantB).toMatchObject({
      name: 'Renamed B',
      refundPolicy: 'automatic',
      paymentMethods: ['card'],
      timeZone: 'America/Los_Angeles',
    });
    expect(merchantB.websites.map((website) => website.host).sort()).toEqual([
      'shop-a.example.com',
      'shop-b.example.com',
    ]);
  });
});
