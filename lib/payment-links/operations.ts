import { operation } from '@/lib/openapi/operation';
import { paymentLinkList, paymentLinkObject } from './objects';
import { createPaymentLinkInput, listPaymentLinksQuery, updatePaymentLinkInput } from './schemas';

// The /v1/payment-links endpoints, as app/v1/payment-links/** serve them and /docs describes them.

export const createPaymentLinkOperation = operation({
  operationId: 'createPaymentLink',
  method: 'POST',
  path: '/v1/payment-links',
  tag: 'Payment links',
  summary: 'Create a payment link',
  description:
    'A shareable page that sells a fixed amount. Each payment makes its own order (`{id}-{n}`) and checkout session. With no `payment_methods`, the link offers every approved method that takes the currency at the time of payment.',
  scope: 'payment_links:write',
  idempotency: 'required',
  body: {
    schema: createPaymentLinkInput,
    required: true,
    example: {
      name: 'Gift card',
      amount: 2500,
      currency: 'CAD',
      description: 'A $25 gift card',
      after_payment_url: 'https://shop.example.com/thanks',
      metadata: { campaign: 'winter' },
      adjustable_quantity: { enabled: true, minimum: 1, maximum: 10 },
    },
  },
  success: { status: 201, schema: paymentLinkObject },
  errors: ['url_not_approved', 'payment_method_not_approved', 'payment_method_unavailable'],
});

export const listPaymentLinksOperation = operation({
  operationId: 'listPaymentLinks',
  method: 'GET',
  path: '/v1/payment-links',
  tag: 'Payment links',
  summary: 'List payment links',
  description: 'Newest first, optionally only the active or inactive ones.',
  scope: 'payment_links:read',
  idempotency: 'none',
  query: listPaymentLinksQuery,
  success: { status: 200, schema: paymentLinkList },
  errors: [],
});

export const getPaymentLinkOperation = operation({
  operationId: 'getPaymentLink',
  method: 'GET',
  path: '/v1/payment-links/{id}',
  tag: 'Payment links',
  summary: 'Retrieve a payment link',
  description: 'A link and its public `url`.',
  scope: 'payment_links:read',
  idempotency: 'none',
  pathId: 'paymentLink',
  success: { status: 200, schema: paymentLinkObject },
  errors: [],
});

export const updatePaymentLinkOperation = operation({
  operationId: 'updatePaymentLink',
  method: 'POST',
  path: '/v1/payment-links/{id}',
  tag: 'Payment links',
  summary: 'Update a payment link',
  description:
    'Turns a link on or off, renames or redescribes it, changes the quantities a customer may choose, or changes its metadata: given keys are set, a key given as `""` is removed, the others stay (at most 50 keys after the change). An `adjustable_quantity` replaces the link’s, with the defaults and limits of create (`{ "enabled": false }` goes back to one per payment); the price times the new `maximum` must stay within one payment’s amount. The price and currency do not change here, as a Stripe payment link keeps its line item’s price: the price can be changed in the dashboard, where it is confirmed first. Checkout sessions already made keep the price and quantity they were made with.',
  scope: 'payment_links:write',
  idempotency: 'optional',
  pathId: 'paymentLink',
  body: {
    schema: updatePaymentLinkInput,
    required: true,
    example: { active: false, adjustable_quantity: { enabled: true, minimum: 1, maximum: 20 } },
  },
  success: { status: 200, schema: paymentLinkObject },
  errors: [],
});
