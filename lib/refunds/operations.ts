import { emptyBody, operation } from '@/lib/openapi/operation';
import { refundRequestList, refundRequestObject } from './objects';
import { createRefundRequestInput, failRefundInput, listRefundRequestsQuery } from './schemas';

// The /v1/refund-requests endpoints, as app/v1/refund-requests/** serve them and /docs describes them.

export const createRefundRequestOperation = operation({
  operationId: 'createRefundRequest',
  method: 'POST',
  path: '/v1/refund-requests',
  tag: 'Refund requests',
  summary: 'Create a refund request',
  description:
    'Asks to refund part or all of a succeeded payment. Active refunds never exceed the payment, however many requests run at once. USDC payments need `crypto_refund_destination_note`; other methods refuse it.',
  scope: 'refund_requests:write',
  idempotency: 'required',
  body: {
    schema: createRefundRequestInput,
    required: true,
    example: { payment_id: 'pay_8bKpZr2xQmV4tN6sW1yHc0Ld', amount: 1500, reason: 'One T-shirt returned' },
  },
  success: { status: 201, schema: refundRequestObject },
  errors: ['resource_missing', 'payment_not_refundable', 'refund_exceeds_available'],
});

export const listRefundRequestsOperation = operation({
  operationId: 'listRefundRequests',
  method: 'GET',
  path: '/v1/refund-requests',
  tag: 'Refund requests',
  summary: 'List refund requests',
  description:
    'Newest first, optionally of one payment, one status, or one metadata pair: `metadata[key]=value` matches the value exactly.',
  scope: 'refund_requests:read',
  idempotency: 'none',
  query: listRefundRequestsQuery,
  success: { status: 200, schema: refundRequestList },
  errors: [],
});

export const getRefundRequestOperation = operation({
  operationId: 'getRefundRequest',
  method: 'GET',
  path: '/v1/refund-requests/{id}',
  tag: 'Refund requests',
  summary: 'Retrieve a refund request',
  description: 'Where the refund is in its life cycle.',
  scope: 'refund_requests:read',
  idempotency: 'none',
  pathId: 'refundRequest',
  success: { status: 200, schema: refundRequestObject },
  errors: [],
});

export const cancelRefundRequestOperation = operation({
  operationId: 'cancelRefundRequest',
  method: 'POST',
  path: '/v1/refund-requests/{id}/cancel',
  tag: 'Refund requests',
  summary: 'Cancel a refund request',
  description: 'Withdraws a refund that is still `requested`; its amount is available again.',
  scope: 'refund_requests:write',
  idempotency: 'optional',
  pathId: 'refundRequest',
  body: emptyBody,
  success: { status: 200, schema: refundRequestObject },
  errors: ['refund_not_cancelable'],
});

export const completeRefundRequestOperation = operation({
  operationId: 'completeRefundRequest',
  method: 'POST',
  path: '/v1/test-helpers/refund-requests/{id}/complete',
  tag: 'Test helpers',
  summary: 'Complete a refund now',
  description:
    'Finishes a refund at once, as the sandbox provider would after its delay: the payment’s `amount_refunded` grows and `refund.completed` is sent. Works on a `processing` refund, or a `requested` one under the automatic policy (authorized on the spot).',
  scope: 'refund_requests:write',
  idempotency: 'optional',
  pathId: 'refundRequest',
  body: emptyBody,
  success: { status: 200, schema: refundRequestObject },
  errors: ['refund_not_pending'],
});

export const failRefundRequestOperation = operation({
  operationId: 'failRefundRequest',
  method: 'POST',
  path: '/v1/test-helpers/refund-requests/{id}/fail',
  tag: 'Test helpers',
  summary: 'Fail a refund now',
  description:
    'Makes the sandbox provider refuse a refund at once: its amount is available again and `refund.failed` is sent with `failure_reason`. Works on a `processing` refund, or a `requested` one under the automatic policy.',
  scope: 'refund_requests:write',
  idempotency: 'optional',
  pathId: 'refundRequest',
  body: { schema: failRefundInput, required: false, example: { failure_reason: 'Card account closed' } },
  success: { status: 200, schema: refundRequestObject },
  errors: ['refund_not_pending'],
});
