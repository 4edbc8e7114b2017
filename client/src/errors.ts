import type { components } from './openapi.js';

// The errors the client throws, one class per `error.type` of the API's error body (like stripe-node's),
// plus SandboxConnectionError when no answer came and SandboxSignatureVerificationError for webhooks.

export type ErrorBody = components['schemas']['Error']['error'];
export type ErrorType = ErrorBody['type'];
export type ErrorCode = ErrorBody['code'];

export type SandboxErrorFields = {
  /** the HTTP status; undefined when no answer came */
  status?: number;
  type: ErrorType | 'connection_error' | 'signature_verification_error';
  code?: ErrorCode | (string & {});
  param?: string;
  /** the Request-Id header of the answer: quote it when asking for help */
  requestId?: string;
  /** Retry-After of a 429 or 503, in seconds */
  retryAfter?: number;
  /** the error body as the API sent it */
  raw?: unknown;
};

export class SandboxError extends Error {
  readonly status?: number;
  readonly type: SandboxErrorFields['type'];
  readonly code?: SandboxErrorFields['code'];
  readonly param?: string;
  readonly requestId?: string;
  readonly retryAfter?: number;
  readonly raw?: unknown;

  constructor(message: string, fields: SandboxErrorFields, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.raw = fields.raw;
  }
}

/** 400, 404, 405, 409, 413, 415 of `invalid_request_error`: the request itself is wrong */
export class SandboxInvalidRequestError extends SandboxError {}
/** missing, invalid, in use or reused Idempotency-Key */
export class SandboxIdempotencyError extends SandboxError {}
/** 401: no key, or an unknown, revoked or malformed one */
export class SandboxAuthenticationError extends SandboxError {}
/** 403: the key lacks the operation's scope */
export class SandboxPermissionError extends SandboxError {}
/** 429, after the client's own retries */
export class SandboxRateLimitError extends SandboxError {}
/** 5xx, after the client's own retries */
export class SandboxApiError extends SandboxError {}
/** no answer: refused, reset or timed out, after the client's own retries */
export class SandboxConnectionError extends SandboxError {}
/** a webhook whose signature, timestamp or headers do not check out */
export class SandboxSignatureVerificationError extends SandboxError {}

const CLASSES: Record<ErrorType, typeof SandboxError> = {
  invalid_request_error: SandboxInvalidRequestError,
  idempotency_error: SandboxIdempotencyError,
  authentication_error: SandboxAuthenticationError,
  permission_error: SandboxPermissionError,
  rate_limit_error: SandboxRateLimitError,
  api_error: SandboxApiError,
};

function isErrorBody(body: unknown): body is { error: ErrorBody } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string';
}

/** The error of a non-2xx answer: the API's error body when it is one, else an api_error naming the status. */
export function errorFromResponse(response: Response, body: unknown, retryAfter?: number): SandboxError {
  const requestId = response.headers.get('Request-Id') ?? undefined;
  if (isErrorBody(body)) {
    const { type, code, message, param } = body.error;
    const Class = CLASSES[type] ?? SandboxError;
    return new Class(message, { status: response.status, type, code, param, requestId, retryAfter, raw: body });
  }
  return new SandboxApiError(`Unexpected ${response.status} answer without an error body`, {
    status: response.status,
    type: 'api_error',
    requestId,
    retryAfter,
    raw: body,
  });
}
