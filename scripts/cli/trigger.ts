import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, type EventType } from '@/lib/events/types';
import { ApiCallError, callApi, type ApiTarget } from './api';

// `trigger <event-type>` (README, "Administration"): the API calls that make the sandbox emit one event of
// that type, as a merchant's integration would make them. It answers the ids of what it made.

export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  refundFails: '4000000000005126',
} as const;

/** An approved website of the demo merchant (lib/merchants/seed.ts); --return-url names another. */
export const DEFAULT_RETURN_URL = 'https://shop.example.com/thanks';

export type Made = { checkout_session?: string; payment?: string; refund_request?: string };

type Steps = { target: ApiTarget; returnUrl: string; made: Made };

async function openSession({ target, returnUrl, made }: Steps): Promise<string> {
  const session = await callApi<{ id: string }>(target, 'POST', '/v1/checkout-sessions', {
    order_reference: `trigger-${randomUUID().slice(0, 8)}`,
    currency: 'USD',
    items: [{ name: 'Triggered item', quantity: 1, unit_amount: 2000 }],
    amount: 2000,
    return_url: returnUrl,
  });
  made.checkout_session = session.id;
  return session.id;
}

async function pay(steps: Steps, card: string): Promise<{ id: string; status: string }> {
  const sessionId = await openSession(steps);
  const payment = await callApi<{ id: string; status: string }>(
    steps.target,
    'POST',
    `/v1/test-helpers/checkout-sessions/${sessionId}/pay`,
    { payment_method: 'card', card_number: card },
  );
  steps.made.payment = payment.id;
  return payment;
}

async function refund(steps: Steps, card: string): Promise<string> {
  const payment = await pay(steps, card);
  const refundRequest = await callApi<{ id: string }>(steps.target, 'POST', '/v1/refund-requests', {
    payment_id: payment.id,
    amount: 2000,
    reason: 'sandbox-payments trigger',
  });
  steps.made.refund_request = refundRequest.id;
  return refundRequest.id;
}

/**
 * Finishes the refund at once with the test helper. The sandbox provider may have finished it first (its
 * delay is REFUND_PROCESSING_DELAY_MS): then the helper answers 409 refund_not_pending, and the refund
 * already is where the helper would have put it, with its event.
 */
async function finish(steps: Steps, refundId: string, outcome: 'complete' | 'fail'): Promise<void> {
  try {
    await callApi(steps.target, 'POST', `/v1/test-helpers/refund-requests/${refundId}/${outcome}`, {});
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.answer.code !== 'refund_not_pending') throw error;
    const current = await callApi<{ status: string }>(steps.target, 'GET', `/v1/refund-requests/${refundId}`);
    if (current.status !== (outcome === 'complete' ? 'completed' : 'failed')) throw error;
  }
}

/**
 * A refund canceled at once. The automatic policy's worker may approve it first (it is then no longer
 * cancelable): a fresh refund is tried, a few times.
 */
async function cancelRefund(steps: Steps): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const refundId = await refund(steps, TEST_CARDS.succeeds);
    try {
      await callApi(steps.target, 'POST', `/v1/refund-requests/${refundId}/cancel`);
      return;
    } catch (error) {
      if (!(error instanceof ApiCallError) || error.answer.code !== 'refund_not_cancelable' || attempt === 3)
        throw error;
    }
  }
}

/** Why no API call can cause this event. */
export const NOT_TRIGGERABLE: Partial<Record<EventType, string>> = {
  'refund_request.declined':
    'a refund is declined only by a person, in the dashboard (Settings: the manual refund policy), never through the API',
};

const TRIGGERS: Record<EventType, (steps: Steps) => Promise<unknown>> = {
  'checkout_session.completed': (steps) => pay(steps, TEST_CARDS.succeeds),
  'payment.succeeded': (steps) => pay(steps, TEST_CARDS.succeeds),
  'payment.failed': (steps) => pay(steps, TEST_CARDS.declined),
  'checkout_session.expired': async (steps) =>
    callApi(steps.target, 'POST', `/v1/checkout-sessions/${await openSession(steps)}/expire`),
  'refund_request.created': (steps) => refund(steps, TEST_CARDS.succeeds),
  // approved by the worker under the automatic policy, or on the spot by the test helper that completes it
  'refund_request.approved': async (steps) => finish(steps, await refund(steps, TEST_CARDS.succeeds), 'complete'),
  'refund_request.declined': async () => {
    throw new Error(`refund_request.declined cannot be triggered: ${NOT_TRIGGERABLE['refund_request.declined']}`);
  },
  'refund_request.canceled': cancelRefund,
  'refund.completed': async (steps) => finish(steps, await refund(steps, TEST_CARDS.succeeds), 'complete'),
  'refund.failed': async (steps) => finish(steps, await refund(steps, TEST_CARDS.refundFails), 'fail'),
};

export function isTriggerable(type: string): type is EventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/** Makes the calls that emit one event of `type`; the ids made, also when a later call failed (in the error). */
export async function trigger(type: EventType, target: ApiTarget, returnUrl = DEFAULT_RETURN_URL): Promise<Made> {
  const steps: Steps = { target, returnUrl, made: {} };
  try {
    await TRIGGERS[type](steps);
  } catch (error) {
    const made = Object.entries(steps.made).map(([kind, id]) => `${kind} ${id}`);
    if (error instanceof Error && made.length) error.message += ` (made so far: ${made.join(', ')})`;
    if (error instanceof ApiCallError && error.answer.code === 'url_not_approved')
      error.message += `; pass --return-url with an approved website of the account`;
    throw error;
  }
  return steps.made;
}
