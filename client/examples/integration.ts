// A merchant's integration, compiled with tsc --strict by client/test/examples.test.ts (against the sources) and
// client/test/package.test.ts (against the packed package): no casts, no `any`, no non-null assertions.
import {
  Sandbox,
  SandboxError,
  SandboxInvalidRequestError,
  type CheckoutSession,
  type Event,
  type Payment,
} from '@sandbox-payments/client';

const sandbox = new Sandbox({
  apiKey: process.env.SANDBOX_API_KEY ?? 'sk_sandbox_…',
  baseUrl: process.env.SANDBOX_URL ?? 'http://localhost:3000',
  maxNetworkRetries: 3,
});

export async function checkout(orderReference: string): Promise<string> {
  const session: CheckoutSession = await sandbox.checkoutSessions.create({
    order_reference: orderReference,
    currency: 'USD',
    items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
    shipping_amount: 500,
    tax_amount: 250,
    amount: 3750,
    return_url: 'https://shop.example.com/thanks',
    cancel_url: 'https://shop.example.com/cart',
  });
  return session.url;
}

export async function payInTests(sessionId: string): Promise<Payment['status']> {
  const payment = await sandbox.testHelpers.checkoutSessions.pay(
    sessionId,
    { payment_method: 'card', card_number: '4242424242424242' },
    { idempotencyKey: `pay-${sessionId}` },
  );
  return payment.status;
}

export async function refundHalf(paymentId: string): Promise<string | undefined> {
  const payment = await sandbox.payments.retrieve(paymentId);
  try {
    const refund = await sandbox.refundRequests.create({
      payment_id: payment.id,
      amount: Math.floor(payment.amount / 2),
      reason: 'requested_by_customer',
    });
    return refund.id;
  } catch (error) {
    if (error instanceof SandboxInvalidRequestError && error.code === 'refund_exceeds_available') return undefined;
    if (error instanceof SandboxError) console.error(error.type, error.code, error.param, error.requestId);
    throw error;
  }
}

export async function totalPaid(): Promise<number> {
  let total = 0;
  for await (const payment of sandbox.payments.list({ limit: 100 })) {
    if (payment.status === 'succeeded') total += payment.amount;
  }
  const firstPage = await sandbox.payments.list();
  console.log(`${firstPage.data.length} on the first page, more: ${firstPage.has_more}`);
  return total;
}

export async function deactivate(linkId: string): Promise<boolean> {
  const link = await sandbox.paymentLinks.update(linkId, { active: false });
  return link.active;
}

export async function subscribe(url: string): Promise<string> {
  const endpoint = await sandbox.webhookEndpoints.create({ url, events: ['checkout_session.completed'] });
  return endpoint.secret;
}

/** A Next.js route handler: the raw body, the request's headers and the endpoint's secret. */
export async function POST(request: Request): Promise<Response> {
  let event: Event;
  try {
    event = sandbox.webhooks.verify(await request.text(), request.headers, process.env.SANDBOX_WEBHOOK_SECRET ?? '');
  } catch {
    return new Response('invalid signature', { status: 400 });
  }
  if (event.type === 'checkout_session.completed') {
    const session: CheckoutSession = event.data.object;
    console.log(`fulfil ${session.order_reference} once per ${event.id}`);
  }
  return new Response(null, { status: 204 });
}
