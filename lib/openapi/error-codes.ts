import { z } from 'zod';
import { errors, type ApiError } from '@/lib/core/errors';
import { objectId } from './object-fields';

// The error table of /docs#errors, read off the factories of lib/core/errors.ts (status, type and code come
// from there, never from here); this file adds only when each happens. error-codes.test.ts fails when
// a factory has a code with no line here, or a line here names a code no factory makes.

export const ERROR_WHEN = {
  invalid_json: 'The body is not valid JSON, not UTF-8, or not a JSON object',
  parameter_missing: 'A required parameter is absent; param names it (a dotted path, e.g. items.2.quantity)',
  parameter_invalid: 'A parameter has the wrong type, format or range; param names it',
  parameter_unknown: 'The body or query has a field the endpoint does not take; param names it',
  amount_mismatch: 'amount is not items total + shipping_amount + tax_amount',
  url_not_approved: 'A URL’s host is not an approved website of the account; param names which',
  payment_method_not_approved: 'A requested payment method is not approved for the account',
  payment_method_unavailable: 'A method cannot serve the currency (interac is CAD only, usdc USD only)',
  payment_method_not_offered: 'The test helper paid with a method the session does not offer',
  idempotency_key_missing: 'A create without an Idempotency-Key header',
  idempotency_key_invalid: 'The Idempotency-Key is not 1–255 printable ASCII characters',
  authentication_required: 'No Authorization header, or not a Bearer one',
  invalid_api_key: 'The key is unknown, revoked, or not of the sk_sandbox_ form',
  insufficient_scope: 'The key lacks the scope; the message names the scope needed',
  resource_missing: 'No such object in this account (another account’s objects read the same)',
  route_not_found: 'No endpoint at this path',
  method_not_allowed: 'The path exists but not with this method; the Allow header lists the methods',
  order_already_paid: 'The order of this reference is already paid',
  payment_not_refundable: 'The payment did not succeed (or is an authorization not yet captured)',
  refund_exceeds_available: 'Active refunds plus this amount exceed the payment; the message says what is left',
  checkout_session_not_open: 'The session is complete or expired',
  refund_not_cancelable: 'The refund request has left requested',
  refund_not_pending: 'The refund is not processing, nor requested under the automatic policy',
  payment_not_capturable: 'The payment is not an authorization that still stands (requires_capture, within 7 days)',
  payment_not_cancelable: 'The payment is not an authorization waiting for capture (requires_capture)',
  idempotency_key_in_use: 'The first request with this key is still running',
  payload_too_large: 'The body is over 64 KiB',
  unsupported_media_type: 'A POST body that is not application/json',
  idempotency_key_reused: 'The key was used with a different body',
  rate_limited: 'Over the key’s rate limit; retry after Retry-After seconds',
  internal_error: 'A fault on our side, logged; the body never tells its cause',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_WHEN;

export type ErrorCodeRow = { status: number; type: ApiError['type']; code: ErrorCode; when: string };

/** Every error factory, called once with placeholder arguments: what it would answer. */
export const FACTORY_ERRORS: ApiError[] = Object.values(errors).map((make) =>
  (make as unknown as (message: string, allowed: string[]) => ApiError)('example', []),
);

/** The table, in the order /docs#errors lists its rows: by status. */
export const ERROR_CODES: ErrorCodeRow[] = FACTORY_ERRORS.filter(
  (error): error is ApiError & { code: ErrorCode } => error.code in ERROR_WHEN,
)
  .map((error) => ({ status: error.status, type: error.type, code: error.code, when: ERROR_WHEN[error.code] }))
  .sort((a, b) => a.status - b.status);

export function errorCodeRow(code: ErrorCode): ErrorCodeRow {
  const row = ERROR_CODES.find((candidate) => candidate.code === code);
  if (!row) throw new Error(`no error factory makes ${code}`);
  return row;
}

export const errorObject = z
  .strictObject({
    error: z.strictObject({
      type: z.enum([...new Set(ERROR_CODES.map((row) => row.type))] as [ApiError['type'], ...ApiError['type'][]]),
      code: z.enum(Object.keys(ERROR_WHEN) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().describe('For people: what went wrong and how to fix it'),
      param: z.string().optional().describe('The parameter at fault, as a dotted path'),
      request_id: objectId('request', 'The Request-Id header of the answer: quote it when asking for help'),
    }),
  })
  .describe('Every error of /v1 has this body; the status and code say what went wrong.');
