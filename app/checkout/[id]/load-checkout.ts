import QRCode from 'qrcode';
import type { CheckoutState, HostedCheckout } from '@/components/checkout/checkout-view';
import type { UsdcDeposit } from '@/components/checkout/payment-types';
import { effectiveStatus } from '@/lib/checkout-sessions/serialize';
import { getHostedCheckoutSession } from '@/lib/checkout-sessions/service';
import { connectionContext } from '@/lib/core/context';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { computeTotal, formatMoney, formatUsdc } from '@/lib/core/money';
import { getMerchantOrThrow } from '@/lib/merchants/service';
import { getPaymentOrThrow } from '@/lib/payments/service';
import { sandboxDepositAddress, USDC_NETWORK } from '@/lib/payments/usdc-deposit';
import { getOrderStatus } from '@/lib/orders/service';
import { getPaymentLinkDescription } from '@/lib/payment-links/checkout';
import { returnUrlWithSessionId } from './return-url';

// Everything the hosted checkout page shows, read through the services at request time.

export async function loadHostedCheckout(id: string): Promise<HostedCheckout | null> {
  const database = await db();
  const session = await getHostedCheckoutSession(database, id);
  if (!session) return null;
  // the page acts for the session's merchant, at its time (its test clock, lib/test-clocks/service.ts), which
  // decides whether the session has expired
  const acting = getMerchantOrThrow(database, session.merchantId).then((merchant) => ({
    merchant,
    context: connectionContext(database, merchant.id, merchant.clockOffsetSeconds),
  }));
  const [{ merchant, context }, orderStatus, payment, linkDescription] = await Promise.all([
    acting,
    // whether another session of this order was paid
    getOrderStatus(database, session.orderId),
    session.paymentId ? acting.then(({ context }) => getPaymentOrThrow(context, session.paymentId!)) : null,
    session.paymentLinkId ? getPaymentLinkDescription(database, session.paymentLinkId) : null,
  ]);
  const at = context.now;
  const status = effectiveStatus(session, at);
  const state: CheckoutState = status === 'open' && orderStatus === 'paid' ? 'order_paid' : status;
  const money = (amount: number) => formatMoney(amount, session.currency);
  const items = [...session.items].sort((a, b) => a.position - b.position);
  const subtotal = computeTotal(items, 0, 0);

  return {
    id: session.id,
    state,
    merchantName: merchant.name,
    totalLabel: money(session.amount),
    lines: items.map((item) => ({
      name: item.name,
      // a link's session has one line, the link itself
      description: linkDescription,
      quantity: item.quantity,
      unitLabel: money(item.unitAmount),
      amountLabel: money(item.quantity * item.unitAmount),
    })),
    charges: session.paymentLinkId
      ? null
      : {
          subtotalLabel: money(subtotal),
          shippingLabel: session.shippingAmount > 0 ? money(session.shippingAmount) : null,
          taxLabel: session.taxAmount > 0 ? money(session.taxAmount) : null,
        },
    methods: session.paymentMethods,
    expiresAt: session.expiresAt.toISOString(),
    renderedAt: at.toISOString(),
    cancelUrl: session.cancelUrl,
    backUrl: session.cancelUrl ?? `${new URL(session.returnUrl).origin}/`,
    paidReturnUrl: returnUrlWithSessionId(session.returnUrl, session.id),
    paidWith: payment ? describePaymentMethod(payment.paymentMethod, payment.methodDetails) : null,
    customerEmail: payment ? payment.customerEmail : session.customerEmail,
    declinesExhausted: session.declinedPayments >= env().CHECKOUT_DECLINES_PER_SESSION,
    usdc:
      state === 'open' && session.paymentMethods.includes('usdc')
        ? await usdcDeposit(session.id, session.amount)
        : null,
  };
}

async function usdcDeposit(sessionId: string, amount: number): Promise<UsdcDeposit> {
  const address = sandboxDepositAddress(sessionId);
  // rendered here, from our own address: the page makes no network call for it
  const svg = await QRCode.toString(address, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
    color: { dark: '#111827', light: '#ffffff' },
  });
  return {
    address,
    network: USDC_NETWORK,
    amount: `${formatUsdc(amount)} USDC`,
    qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

function describePaymentMethod(method: string, details: unknown): string {
  const detail = (details ?? {}) as { card?: { brand?: string; last4?: string }; interac?: { bank?: string | null } };
  if (method === 'card' && detail.card)
    return `${BRAND_NAMES[detail.card.brand ?? ''] ?? 'Card'} •••• ${detail.card.last4}`;
  if (method === 'usdc') return 'USDC';
  if (method === 'interac')
    return detail.interac?.bank ? `Interac e-Transfer (${detail.interac.bank})` : 'Interac e-Transfer';
  return method;
}
