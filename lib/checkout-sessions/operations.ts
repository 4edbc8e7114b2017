import { emptyBody, operation } from '@/lib/openapi/operation';
import { checkoutSessionList, checkoutSessionObject } from './objects';
import { createCheckoutSessionInput, listCheckoutSessionsQuery } from './schemas';

// The /v1/checkout-sessions endpoints, as app/v1/checkout-sessions/** serve them and /docs describes them.

export const createCheckoutSessionOperation = operation({
  operationId: 'createCheckoutSession',
  method: 'POST',
  path: '/v1/checkout-sessions',
  tag: 'Checkout sessions',
  summary: 'Create a checkout session',
  description:
    'Starts a hosted checkout for an order: send the customer to the `url` of the answer. The order is found or made by `order_reference`; an unpaid order may have several sessions, and only one of them can ever be paid.',
  scope: 'checkout_sessions:write',
  idempotency: 'required',
  body: {
    schema: createCheckoutSessionInput,
    required: true,
    example: {
      order_reference: 'order-1001',
      currency: 'USD',
      items: [{ name: 'T-shirt', quantity: 2, unit_amount: 1500 }],
      shipping_amount: 500,
      tax_amount: 250,
      amount: 3750,
      return_url: 'https://shop.example.com/thanks',
      cancel_url: 'https://shop.example.com/cart',
      metadata: { cart_id: 'cart_5521' },
      customer_email: 'jenny.rosen@example.com',
    },
  },
  success: { status: 201, schema: checkoutSessionObject },
  errors: [
    'amount_mismatch',
    'url_not_approved',
    'payment_method_not_approved',
    'payment_method_unavailable',
    'order_already_paid',
  ],
});

export const listCheckoutSessionsOperation = operation({
  operationId: 'listCheckoutSessions',
  method: 'GET',
  path: '/v1/checkout-sessions',
  tag: 'Checkout sessions',
  summary: 'List checkout sessions',
  description:
    'Newest first, optionally of one order, one status, or one metadata pair: `metadata[key]=value` matches the value exactly.',
  scope: 'payments:read',
  idempotency: 'none',
  query: listCheckoutSessionsQuery,
  success: { status: 200, schema: checkoutSessionList },
  errors: [],
});

export const getCheckoutSessionOperation = operation({
  operationId: 'getCheckoutSession',
  method: 'GET',
  path: '/v1/checkout-sessions/{id}',
  tag: 'Checkout sessions',
  summary: 'Retrieve a checkout session',
  description:
    'Its status is current: a session read after `expires_at` is `expired`, whether or not the background sweep has run.',
  scope: 'payments:read',
  idempotency: 'none',
  pathId: 'checkoutSession',
  success: { status: 200, schema: checkoutSessionObject },
  errors: [],
});

export const expireCheckoutSessionOperation = operation({
  operationId: 'expireCheckoutSession',
  method: 'POST',
  path: '/v1/checkout-sessions/{id}/expire',
  tag: 'Checkout sessions',
  summary: 'Expire a checkout session',
  description: 'Closes an open session so it can no longer be paid, and sends `checkout_session.expired`.',
  scope: 'checkout_sessions:write',
  idempotency: 'optional',
  pathId: 'checkoutSession',
  body: emptyBody,
  success: { status: 200, schema: checkoutSessionObject },
  errors: ['checkout_session_not_open'],
});
