import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { createCheckoutSession, getCheckoutSession } from '@/lib/checkout-sessions/service';
import { db } from '@/lib/db';
import { createMerchant, removeWebsite, setPaymentMethods } from '@/lib/merchants/service';
import { payCheckoutSession } from '@/lib/payments/pay';
import { throttles } from '@/lib/throttles/rules';
import { getPaymentLinkReceipt, getPublicPaymentLink, startPaymentLinkCheckout } from './checkout';
import { pageOfPaymentLinkPayments, salesOfPaymentLinks } from './dashboard';
import { createPaymentLinkInput } from './schemas';
import { paymentLinkReceiptUrl, paymentLinkUrl } from './serialize';
import { createPaymentLink, updatePaymentLink } from './service';
import { contextOf } from '@/test/context';
import { merchantContexts } from '@/lib/core/context';

let merchantId: string;

const makeLink = async (overrides: Record<string, unknown> = {}) =>
  createPaymentLink(
    contextOf(await db(), merchantId),
    createPaymentLinkInput.parse({ name: 'Yoga class', amount: 2500, currency: 'CAD', ...overrides }),
  );

const started = async (linkId: string) => startPaymentLinkCheckout(merchantContexts(await db()), linkId, null);

/** What a refused "Pay" threw: its code, and the sentence the customer is shown. */
async function refusalOf(checkout: Promise<unknown>) {
  const error = await checkout.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, userMessage: error.userMessage };
}

const UNAVAILABLE = {
  code: 'payment_link_unavailable',
  userMessage: 'This payment link cannot take payments right now. Nothing was charged.',
};

const card = { payment_method: 'card', card_number: '4242424242424242' } as const;

beforeEach(async () => {
  merchantId = (await createMerchant(await db(), { name: 'Studio', hosts: ['studio.example.com'] })).id;
});

describe('"Pay" on a link', () => {
  it('makes order {id}-1 and a session for the link’s price that returns to the receipt', async () => {
    const link = await makeLink({ description: 'Sixty minutes' });
    const session = await started(link.id);
    expect(session).toMatchObject({
      merchantId,
      paymentLinkId: link.id,
      orderReference: `${link.id}-1`,
      currency: 'CAD',
      amount: 2500,
      shippingAmount: 0,
      taxAmount: 0,
      paymentMethods: ['card', 'interac'],
      returnUrl: paymentLinkReceiptUrl(link.id),
      cancelUrl: paymentLinkUrl(link.id),
      status: 'open',
    });
    expect(session.items).toMatchObject([{ name: 'Yoga class', quantity: 1, unitAmount: 2500 }]);
    const next = await started(link.id);
    expect(next.orderReference).toBe(`${link.id}-2`);
    expect(next.orderId).not.toBe(session.orderId);
  });

  it('sends the customer to the after-payment URL when the link has one', async () => {
    const link = await makeLink({ after_payment_url: 'https://studio.example.com/thanks' });
    expect((await started(link.id)).returnUrl).toBe('https://studio.example.com/thanks');
  });

  it('gives 10 concurrent customers 10 distinct order references', async () => {
    const client = await db();
    const link = await makeLink();
    const sessions = await Promise.all(Array.from({ length: 10 }, () => started(link.id)));
    const references = sessions
      .map((session) => session.orderReference)
      .sort((a, b) => Number(a.split('-').pop()) - Number(b.split('-').pop()));
    expect(references).toEqual(Array.from({ length: 10 }, (_, i) => `${link.id}-${i + 1}`));
    expect(new Set(sessions.map((session) => session.orderId)).size).toBe(10);
    expect((await client.paymentLink.findUniqueOrThrow({ where: { id: link.id } })).orderCount).toBe(10);
  });

  it('starts at most LINK_CHECKOUTS_PER_MINUTE checkouts per client address, however fast the presses come', async () => {
    const client = await db();
    const link = await makeLink();
    const address = '198.51.100.7';
    const limit = throttles.linkCheckoutPerAddress().limit;
    const outcomes = await Promise.allSettled(
      Array.from({ length: limit + 10 }, () => startPaymentLinkCheckout(merchantContexts(client), link.id, address)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(limit);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(10);
    for (const outcome of refused)
      expect(outcome.reason).toMatchObject({
        code: 'rate_limited',
        headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
        userMessage: expect.stringMatching(
          /^Too many checkouts were started from your network\. Nothing was charged; try again in \d+ minutes?\.$/,
        ),
      });
    // a refused press writes nothing: one session and one order number per accepted press
    expect(await client.checkoutSession.count({ where: { paymentLinkId: link.id } })).toBe(limit);
    expect((await client.paymentLink.findUniqueOrThrow({ where: { id: link.id } })).orderCount).toBe(limit);
    // another customer is not held up by this one
    expect(await startPaymentLinkCheckout(merchantContexts(client), link.id, '198.51.100.251')).toMatchObject({
      paymentLinkId: link.id,
    });
  });

  it('keeps the price a checkout was started with after the link’s price changes; the next one pays the new', async () => {
    const client = await db();
    const link = await makeLink({ adjustable_quantity: { enabled: true, maximum: 5 } });
    const before = {
      session: await startPaymentLinkCheckout(merchantContexts(client), link.id, null, {
        quantity: 2,
        shownPrice: 2500,
      }),
    };
    await updatePaymentLink(contextOf(client, merchantId), link.id, {
      amount: 3000,
      adjustable_quantity: { enabled: false },
    });

    const after = await started(link.id);
    expect(after).toMatchObject({ amount: 3000, items: [{ quantity: 1, unitAmount: 3000 }] });
    const { payment } = await payCheckoutSession(merchantContexts(client), before.session.id, card);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 5000 });
    expect((await getCheckoutSession(contextOf(client, merchantId), before.session.id))?.items).toMatchObject([
      { quantity: 2, unitAmount: 2500 },
    ]);
  });

  it('refuses a price the customer’s page no longer shows, without using up a number', async () => {
    const client = await db();
    const link = await makeLink();
    await updatePaymentLink(contextOf(client, merchantId), link.id, { amount: 3000 });
    expect(
      await refusalOf(startPaymentLinkCheckout(merchantContexts(client), link.id, null, { shownPrice: 2500 })),
    ).toEqual({
      code: 'price_changed',
      userMessage:
        'The price changed while this page was open, and the page now shows the new one. Nothing was charged: check it, then pay again.',
    });
    expect((await client.paymentLink.findUniqueOrThrow({ where: { id: link.id } })).orderCount).toBe(0);
    const session = await startPaymentLinkCheckout(merchantContexts(client), link.id, null, { shownPrice: 3000 });
    expect(session).toMatchObject({ orderReference: `${link.id}-1`, amount: 3000 });
  });

  it('refuses an inactive or unknown link and makes nothing', async () => {
    const client = await db();
    const link = await makeLink({ active: false });
    expect(await refusalOf(startPaymentLinkCheckout(merchantContexts(client), link.id, null))).toEqual({
      code: 'payment_link_inactive',
      userMessage: 'This payment link is no longer available, so nothing can be paid with it.',
    });
    const missing = { code: 'resource_missing', userMessage: 'This payment link does not exist.' };
    expect(
      await refusalOf(startPaymentLinkCheckout(merchantContexts(client), 'pl_000000000000000000000000', null)),
    ).toEqual(missing);
    expect(await refusalOf(startPaymentLinkCheckout(merchantContexts(client), 'not-an-id', null))).toEqual(missing);
    expect(await client.checkoutSession.count({ where: { merchantId } })).toBe(0);
    expect((await client.paymentLink.findUniqueOrThrow({ where: { id: link.id } })).orderCount).toBe(0);
  });

  it('drops a method the merchant withdrew, and pauses when none is left, without using up a number', async () => {
    const client = await db();
    const link = await makeLink({ payment_methods: ['card', 'interac'] });
    await setPaymentMethods(contextOf(client, merchantId), ['card', 'usdc']);
    expect((await started(link.id)).paymentMethods).toEqual(['card']);
    expect((await getPublicPaymentLink(client, link.id))!.methods).toEqual(['card']);
    await setPaymentMethods(contextOf(client, merchantId), ['usdc']);
    expect(await refusalOf(startPaymentLinkCheckout(merchantContexts(client), link.id, null))).toEqual(UNAVAILABLE);
    expect((await getPublicPaymentLink(client, link.id))!.methods).toEqual([]);
    expect((await client.paymentLink.findUniqueOrThrow({ where: { id: link.id } })).orderCount).toBe(1);
  });

  it('checks the after-payment URL again when paying: a removed website pauses the link', async () => {
    const client = await db();
    const link = await makeLink({ after_payment_url: 'https://studio.example.com/thanks' });
    await removeWebsite(contextOf(client, merchantId), 'studio.example.com');
    expect(await refusalOf(startPaymentLinkCheckout(merchantContexts(client), link.id, null))).toEqual(UNAVAILABLE);
  });

  it('lets only the service use its own receipt URL: a merchant’s session with it is refused', async () => {
    const link = await makeLink();
    const error = await createCheckoutSession(contextOf(await db(), merchantId), {
      order_reference: 'sneaky-1',
      currency: 'CAD',
      items: [{ name: 'x', quantity: 1, unit_amount: 100 }],
      shipping_amount: 0,
      tax_amount: 0,
      amount: 100,
      return_url: paymentLinkReceiptUrl(link.id),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'url_not_approved', param: 'return_url' });
  });
});

describe('after payment', () => {
  it('shows a receipt only for a complete session of this very link', async () => {
    const client = await db();
    const link = await makeLink();
    const otherLink = await makeLink({ name: 'Other class' });
    const paid = await started(link.id);
    const open = await started(link.id);
    const { payment } = await payCheckoutSession(merchantContexts(client), paid.id, card);

    const receipt = await getPaymentLinkReceipt(client, link.id, paid.id);
    expect(receipt).toMatchObject({
      merchantName: 'Studio',
      link: { id: link.id },
      payment: { id: payment.id, amount: 2500, status: 'succeeded' },
    });
    expect(await getPaymentLinkReceipt(client, link.id, open.id)).toBeNull();
    expect(await getPaymentLinkReceipt(client, otherLink.id, paid.id)).toBeNull();
    expect(await getPaymentLinkReceipt(client, link.id, 'cs_000000000000000000000000')).toBeNull();
  });

  it('lists the link’s payments, failed ones too, and sums what it sold', async () => {
    const client = await db();
    const link = await makeLink();
    const otherLink = await makeLink({ name: 'Other class' });
    const first = await started(link.id);
    await payCheckoutSession(merchantContexts(client), first.id, {
      payment_method: 'card',
      card_number: '4000000000000002',
    });
    await payCheckoutSession(merchantContexts(client), first.id, card);
    await payCheckoutSession(merchantContexts(client), (await started(link.id)).id, card);
    await payCheckoutSession(merchantContexts(client), (await started(otherLink.id)).id, card);

    const page = await pageOfPaymentLinkPayments(contextOf(client, merchantId), link.id, { skip: 0, take: 25 });
    expect(page.total).toBe(3);
    expect(page.rows.map((payment) => payment.status).sort()).toEqual(['failed', 'succeeded', 'succeeded']);
    const sales = await salesOfPaymentLinks(contextOf(client, merchantId), [link.id, otherLink.id]);
    expect(sales.get(link.id)).toEqual({ payments: 2, volume: 5000 });
    expect(sales.get(otherLink.id)).toEqual({ payments: 1, volume: 2500 });
    // another merchant asking about these links sees nothing
    const stranger = (await createMerchant(client, { name: 'Stranger' })).id;
    expect((await pageOfPaymentLinkPayments(contextOf(client, stranger), link.id, { skip: 0, take: 25 })).total).toBe(
      0,
    );
    expect((await salesOfPaymentLinks(contextOf(client, stranger), [link.id])).size).toBe(0);
  });

  it('keeps checkouts already open payable after the link is deactivated', async () => {
    const client = await db();
    const link = await makeLink();
    const session = await started(link.id);
    await updatePaymentLink(contextOf(client, merchantId), link.id, { active: false });
    const { payment } = await payCheckoutSession(merchantContexts(client), session.id, card);
    expect(payment.status).toBe('succeeded');
  });
});
