// The one error type of the API. Everything a handler or service refuses is an ApiError; lib/http/route.ts
// turns it into the error body of /docs#errors (lib/http/error-body.ts). `message` is for a developer and is
// what the API sends; `userMessage` is the same refusal as a sentence for a person, which the dashboard's forms
// and the hosted pages show as it is (toFormState in lib/dashboard/form-state.ts): every refusal has one, so no
// form words a refusal itself. A refusal of a request's content or of a rule takes it from its caller, who knows
// what it is about; one of a request's form (its route, body, key, rate) is made only by the /v1 layer and says
// its own.

export type ErrorType =
  | 'invalid_request_error'
  | 'idempotency_error'
  | 'authentication_error'
  | 'permission_error'
  | 'rate_limit_error'
  | 'api_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    /** the refusal for a person, e.g. "Only US$12.50 is left to refund on this payment."; never sent by the API */
    readonly userMessage: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A refusal of a request's content or of a rule: its caller words it for a person too. */
const invalid = (status: number, code: string) => (message: string, param: string | undefined, userMessage: string) =>
  new ApiError(status, 'invalid_request_error', code, message, userMessage, param);

/** A refusal of a request's form, which only code calling /v1 can make: its sentence for a person is its own. */
const malformed = (status: number, code: string, userMessage: string) => (message: string) =>
  new ApiError(status, 'invalid_request_error', code, message, userMessage);

const RELOAD = 'This could not be sent as it was. Reload the page and try again.';

export const errors = {
  invalidJson: malformed(400, 'invalid_json', RELOAD),
  parameterMissing: invalid(400, 'parameter_missing'),
  parameterInvalid: invalid(400, 'parameter_invalid'),
  parameterUnknown: invalid(400, 'parameter_unknown'),
  amountMismatch: invalid(400, 'amount_mismatch'),
  urlNotApproved: invalid(400, 'url_not_approved'),
  paymentMethodNotApproved: invalid(400, 'payment_method_not_approved'),
  paymentMethodUnavailable: invalid(400, 'payment_method_unavailable'),
  paymentMethodNotOffered: invalid(400, 'payment_method_not_offered'),
  resourceMissing: invalid(404, 'resource_missing'),
  routeNotFound: malformed(404, 'route_not_found', 'There is nothing at this address.'),
  orderAlreadyPaid: invalid(409, 'order_already_paid'),
  paymentNotRefundable: invalid(409, 'payment_not_refundable'),
  refundExceedsAvailable: invalid(409, 'refund_exceeds_available'),
  checkoutSessionNotOpen: invalid(409, 'checkout_session_not_open'),
  refundNotCancelable: invalid(409, 'refund_not_cancelable'),
  refundNotPending: invalid(409, 'refund_not_pending'),
  paymentNotCapturable: invalid(409, 'payment_not_capturable'),
  paymentNotCancelable: invalid(409, 'payment_not_cancelable'),
  payloadTooLarge: malformed(413, 'payload_too_large', 'This is too much to send at once. Shorten it and try again.'),
  unsupportedMediaType: malformed(415, 'unsupported_media_type', RELOAD),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(
      405,
      'invalid_request_error',
      'method_not_allowed',
      `${method} is not allowed here; use ${allowed.join(', ')}`,
      RELOAD,
      undefined,
      { Allow: allowed.join(', ') },
    ),
  idempotencyKeyMissing: (message: string) =>
    new ApiError(400, 'idempotency_error', 'idempotency_key_missing', message, RELOAD),
  idempotencyKeyInvalid: (message: string) =>
    new ApiError(400, 'idempotency_error', 'idempotency_key_invalid', message, RELOAD),
  idempotencyKeyInUse: (message: string, userMessage: string) =>
    new ApiError(409, 'idempotency_error', 'idempotency_key_in_use', message, userMessage),
  idempotencyKeyReused: (message: string, userMessage: string) =>
    new ApiError(422, 'idempotency_error', 'idempotency_key_reused', message, userMessage),
  // RFC 6750 §3: a 401 names the scheme to use, and `invalid_token` when a key was sent but is no good
  authenticationRequired: (message: string) =>
    new ApiError(401, 'authentication_error', 'authentication_required', message, 'Sign in and try again.', undefined, {
      'WWW-Authenticate': 'Bearer realm="sandbox"',
    }),
  invalidApiKey: (message: string) =>
    new ApiError(401, 'authentication_error', 'invalid_api_key', message, 'Sign in and try again.', undefined, {
      'WWW-Authenticate': 'Bearer realm="sandbox", error="invalid_token"',
    }),
  insufficientScope: (message: string) =>
    new ApiError(403, 'permission_error', 'insufficient_scope', message, 'You are not allowed to do this.'),
  rateLimited: (
    retryAfterSeconds: number,
    message = 'Too many requests; slow down and retry later',
    userMessage = `Too many tries at once. Wait ${waitFor(retryAfterSeconds)} and try again.`,
  ) =>
    new ApiError(429, 'rate_limit_error', 'rate_limited', message, userMessage, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  internal: () =>
    new ApiError(
      500,
      'api_error',
      'internal_error',
      'Something went wrong on our side; it has been logged',
      'Something went wrong on our side. Nothing was changed; please try again.',
    ),
};

/**
 * Refusals that no /v1 operation can answer: only the dashboard's forms and the hosted pages reach what
 * refuses them, so they are not in the API's error table (lib/openapi/error-codes.ts), and each code is none
 * of `errors`' (lib/openapi/document.test.ts).
 */
export const pageRefusals = {
  /** Approve and Decline are a person's decisions, which only the manual refund policy leaves to one */
  refundPolicyNotManual: invalid(409, 'refund_policy_not_manual'),
  /** a payment link its merchant turned off */
  paymentLinkInactive: invalid(409, 'payment_link_inactive'),
  /** a payment link that its merchant's settings no longer let anyone pay (no approved method takes its currency…) */
  paymentLinkUnavailable: invalid(409, 'payment_link_unavailable'),
  /** the link's price changed since the customer's page showed it */
  priceChanged: invalid(409, 'price_changed'),
};

function waitFor(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
