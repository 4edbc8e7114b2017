import { describe, expect, it } from 'vitest';
import { eventPayloadInApiOrder } from './dashboard-payload';

// jsonb gives an event's data back with its keys sorted by length: the page puts them back in the API's order.

describe('eventPayloadInApiOrder', () => {
  it('puts a stored payment back in the order the API writes it, nested objects too', () => {
    const stored = {
      object: {
        id: 'pay_1',
        amount: 4550,
        object: 'payment',
        status: 'succeeded',
        currency: 'CAD',
        metadata: { b: '2', a: '1' },
        payment_method: 'card',
        payment_method_details: { card: { last4: '4242', brand: 'visa', exp_year: 2030, exp_month: 12 } },
      },
    };
    const payload = eventPayloadInApiOrder({
      id: 'evt_1',
      type: 'payment.succeeded',
      data: stored,
      createdAt: new Date('2026-11-27T10:00:00Z'),
    }) as { data: { object: Record<string, unknown> } };
    expect(Object.keys(payload)).toEqual(['id', 'object', 'type', 'created_at', 'data']);
    const payment = payload.data.object;
    expect(Object.keys(payment)).toEqual([
      'id',
      'object',
      'status',
      'amount',
      'currency',
      'payment_method',
      'payment_method_details',
      'metadata',
    ]);
    const card = (payment.payment_method_details as { card: object }).card;
    expect(Object.keys(card)).toEqual(['brand', 'last4', 'exp_month', 'exp_year']);
    // the merchant's own keys stay as they were given
    expect(Object.keys(payment.metadata as object)).toEqual(['b', 'a']);
  });
});
