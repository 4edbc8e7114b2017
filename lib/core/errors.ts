// The one error type of the API. Everything a handler or service refuses is an ApiError; lib/http/route.ts
// turns it into the error body of /docs#errors (lib/http/error-body.ts). `message` is for a developer and is
// what the API sends; `userMessage`, when the service can word it, is the same refusal as a sentence for a
// person (the dashboard's forms and the hosted pages show it, see formRefusal in lib/dashboard/form-state.ts).

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
    readonly param?: string,
    readonly headers: Record<string, string> = {},
    /** the refusal for a person, e.g. "Only US$12.50 is left to refund on this payment."; never sent by the API */
    readonly userMessage?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const invalid = (status: number, code: string) => (message: string, param?: string, userMessage?: string) =>
  new ApiError(status, 'invalid_request_error', code, message, param, {}, userMessage);

export const errors = {
  invalidJson: invalid(400, 'invalid_json'),
  parameterMissing: invalid(400, 'parameter_missing'),
  parameterInvalid: invalid(400, 'parameter_invalid'),
  parameterUnknown: invalid(400, 'parameter_unknown'),
  amountMismatch: invalid(400, 'amount_mismatch'),
  urlNotApproved: invalid(400, 'url_not_approved'),
  paymentMethodNotApproved: invalid(400, 'payment_method_not_approved'),
  paymentMethodUnavailable: invalid(400, 'payment_method_unavailable'),
  paymentMethodNotOffered: invalid(400, 'payment_method_not_offered'),
  resourceMissing: invalid(404, 'resource_missing'),
  routeNotFound: invalid(404, 'route_not_found'),
  orderAlreadyPaid: invalid(409, 'order_already_paid'),
  paymentNotRefundable: invalid(409, 'payment_not_refundable'),
  refundExceedsAvailable: invalid(409, 'refund_exceeds_available'),
  checkoutSessionNotOpen: invalid(409, 'checkout_session_not_open'),
  refundNotCancelable: invalid(409, 'refund_not_cancelable'),
  refundNotPending: invalid(409, 'refund_not_pending'),
  paymentNotCapturable: invalid(409, 'payment_not_capturable'),
  paymentNotCancelable: invalid(409, 'payment_not_cancelable'),
  payloadTooLarge: invalid(413, 'payload_too_large'),
  unsupportedMediaType: invalid(415, 'unsupported_media_type'),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(
      405,
      'invalid_request_error',
      'method_not_allowed',
      `${method} is not allowed here; use ${allowed.join(', ')}`,
      undefined,
      {
        Allow: allowed.join(', '),
      },
    ),
  idempotencyKeyMissing: (message: string) =>
    new ApiError(400, 'idempotency_error', 'idempotency_key_missing', message),
  idempotencyKeyInvalid: (message: string) =>
    new ApiError(400, 'idempotency_error', 'idempotency_key_invalid', message),
  idempotencyKeyInUse: (message: string) => new ApiError(409, 'idempotency_error', 'idempotency_key_in_use', message),
  idempotencyKeyReused: (message: string) => new ApiError(422, 'idempotency_error', 'idempotency_key_reused', message),
  // RFC 6750 §3: a 401 names the scheme to use, and `invalid_token` when a key was sent but is no good
  authenticationRequired: (message: string) =>
    new ApiError(401, 'authentication_error', 'authentication_required', message, undefined, {
      'WWW-Authenticate': 'Bearer realm="sandbox"',
    }),
  invalidApiKey: (message: string) =>
    new ApiError(401, 'authentication_error', 'invalid_api_key', message, undefined, {
      'WWW-Authenticate': 'Bearer realm="sandbox", error="invalid_token"',
    }),
  insufficientScope: (message: string) => new ApiError(403, 'permission_error', 'insufficient_scope', message),
  rateLimited: (retryAfterSeconds: number, message = 'Too many requests; slow down and retry later') =>
    new ApiError(429, 'rate_limit_error', 'rate_limited', message, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  internal: () =>
    new ApiError(500, 'api_error', 'internal_error', 'Something went wrong on our side; it has been logged'),
};
