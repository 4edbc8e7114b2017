import { errorCodeRow, type ErrorCode } from './error-codes';
import type { ApiOperation } from './operations';
import { hasRequiredFields, requestSchemaOf } from './json-schema';

// Which errors an endpoint can answer: those of the wrapper steps it goes through (/docs#errors, in the
// order they are checked), then its own rules from the operations.

export function errorCodesOf(operation: ApiOperation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (operation.scope) codes.push('authentication_required', 'invalid_api_key', 'rate_limited', 'insufficient_scope');
  if (operation.method === 'POST') codes.push('payload_too_large', 'unsupported_media_type', 'invalid_json');
  if (operation.idempotency === 'required') codes.push('idempotency_key_missing');
  if (operation.idempotency !== 'none')
    codes.push('idempotency_key_invalid', 'idempotency_key_in_use', 'idempotency_key_reused');
  if (operation.body) {
    if (hasRequiredFields(requestSchemaOf(operation.body.schema))) codes.push('parameter_missing');
    codes.push('parameter_invalid', 'parameter_unknown');
  }
  if (operation.query) codes.push('parameter_invalid', 'parameter_unknown');
  // a list's starting_after names an object, which may not exist (the event stream takes no cursor)
  if (operation.query && 'starting_after' in operation.query.shape) codes.push('resource_missing');
  // an unknown query parameter is refused everywhere, also where no parameter is known
  else codes.push('parameter_unknown');
  if (operation.pathId) codes.push('resource_missing');
  codes.push(...operation.errors, 'internal_error');
  return [...new Set(codes)];
}

/** The codes above by HTTP status, statuses in ascending order. */
export function errorCodesByStatus(operation: ApiOperation): [status: number, codes: ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    const { status } = errorCodeRow(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()].sort(([a], [b]) => a - b);
}
