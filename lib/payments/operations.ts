import { z } from 'zod';
import { operation } from '@/lib/openapi/operation';
import { paymentList, paymentObject } from './objects';
import { listPaymentsQuery, parsePayInput, payByCardInput, payByInteracInput, payByUsdcInput } from './schemas';

// The /v1/payments endpoints and the pay test helper, as app/v1/** serve them and /docs describes them.

export const listPaymentsOperation = operation({
  operationId: 'listPayments',
  method: 'GET',
  path: '/v1/payments',
  tag: 'Payments',
  summary: 'List payments',
  description:
    'Newest first, optionally of one order, one status, one customer, one checkout session (its every attempt) or one metadata pair: `customer_email` matches the whole address, whatever its case; `metadata[key]=value` the value exactly.',
  scope: 'payments:read',
  idempotency: 'none',
  query: listPaymentsQuery,
  success: { status: 200, schema: paymentList },
  errors: [],
});

export const getPaymentOperation = operation({
  operationId: 'getPayment',
  method: 'GET',
  path: '/v1/payments/{id}',
  tag: 'Payments',
  summary: 'Retrieve a payment',
  description: 'How a merchant confirms an order was paid: the customer’s return to `return_url` alone is not proof.',
  scope: 'payments:read',
  idempotency: 'none',
  pathId: 'payment',
  success: { status: 200, schema: paymentObject },
  errors: [],
});

export const payCheckoutSessionOperation = operation({
  operationId: 'payCheckoutSession',
  method: 'POST',
  path: '/v1/test-helpers/checkout-sessions/{id}/pay',
  tag: 'Test helpers',
  summary: 'Pay a checkout session',
  description:
    'Pays as a customer would on the hosted page, through the same code: a card (see the test cards), USDC, or Interac with an `outcome`. Answers with the payment, `succeeded` or `failed`; a decline leaves the session open.',
  scope: 'checkout_sessions:write',
  idempotency: 'required',
  pathId: 'checkoutSession',
  body: {
    schema: z.discriminatedUnion('payment_method', [payByCardInput, payByUsdcInput, payByInteracInput]),
    required: true,
    example: { payment_method: 'card', card_number: '4242424242424242' },
    parse: parsePayInput,
  },
  success: { status: 200, schema: paymentObject },
  errors: ['payment_method_not_offered', 'checkout_session_not_open', 'order_already_paid'],
});
