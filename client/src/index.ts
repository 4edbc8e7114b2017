export { Sandbox } from './client.js';
export { DEFAULT_MAX_NETWORK_RETRIES, DEFAULT_TIMEOUT_MS, type SandboxConfig } from './http.js';
export {
  SandboxApiError,
  SandboxAuthenticationError,
  SandboxConnectionError,
  SandboxError,
  SandboxIdempotencyError,
  SandboxInvalidRequestError,
  SandboxPermissionError,
  SandboxRateLimitError,
  SandboxSignatureVerificationError,
  type ErrorCode,
  type ErrorType,
  type SandboxErrorFields,
} from './errors.js';
export { ListPromise, type ListPage } from './list.js';
export type { Declared, StreamOptions } from './methods.js';
export { EventStream } from './stream.js';
export { verifyWebhook, type WebhookHeaders } from './webhooks.js';
export type * from './types.js';
