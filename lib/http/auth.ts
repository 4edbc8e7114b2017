import { API_KEY_PATTERN, findActiveApiKey, type AuthenticatedKey } from '@/lib/api-keys/service';
import type { Scope } from '@/lib/api-keys/scopes';
import { clientAddressOf } from '@/lib/server/client-address';
import { countAuthFailure, refuseBlockedAddress } from './auth-failures';
import { errors } from '@/lib/core/errors';

/**
 * /docs#authentication: no or non-Bearer header → authentication_required; a token we do not know → invalid_api_key.
 * An address that keeps sending unknown keys is refused with 429, and its malformed tokens before any lookup;
 * a valid key is served from there all the same (one client behind an office's NAT must not lock out the
 * rest), so a well-formed token is still looked up (one indexed read, nothing counted).
 */
export async function authenticate(request: Request): Promise<AuthenticatedKey> {
  const header = request.headers.get('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) {
    throw errors.authenticationRequired('Send your API key as "Authorization: Bearer sk_sandbox_…"');
  }
  const token = match[1];
  const wellFormed = API_KEY_PATTERN.test(token);
  const key = wellFormed ? await findActiveApiKey(token) : null;
  if (key) return key;
  // only a refused key is counted against its address: a known key's request never reads it
  const address = clientAddressOf(request.headers);
  refuseBlockedAddress(address);
  await countAuthFailure(address);
  if (!wellFormed) throw errors.invalidApiKey('That is not a valid API key');
  throw errors.invalidApiKey(`Invalid API key: ${token.slice(0, 15)}…${token.slice(-4)}`);
}

export function requireScope(key: AuthenticatedKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw errors.insufficientScope(`This API key lacks the ${scope} scope needed for this request`);
  }
}
