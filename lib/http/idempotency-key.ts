import { errors } from '@/lib/core/errors';

// The Idempotency-Key header of /docs#idempotency, read and checked before anything else of the request.

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export function readIdempotencyKey(request: Request, required: boolean): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) {
    if (required)
      throw errors.idempotencyKeyMissing(
        'This request needs an Idempotency-Key header (1–255 printable ASCII characters)',
      );
    return undefined;
  }
  if (!KEY_PATTERN.test(key))
    throw errors.idempotencyKeyInvalid('Idempotency-Key must be 1–255 printable ASCII characters');
  return key;
}
