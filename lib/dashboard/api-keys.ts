import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/api-keys/service';
import { apiKeyNameInput } from '@/lib/api-keys/schemas';
import { isScope, SCOPES, type Scope } from '@/lib/api-keys/scopes';
import type { Db } from '@/lib/db';
import { failed, refused, type FormState } from './form-state';

// API keys from the dashboard. The full key exists only in the answer to its creation; after that the
// dashboard knows its prefix, scopes and use, like everyone else.

/** What each scope lets a key do, in the words of /docs#authentication. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'checkout_sessions:write': 'Create and expire checkout sessions; test-helper payments',
  'payments:read': 'Read checkout sessions, payments and orders',
  'payments:write': 'Capture and cancel authorized payments',
  'refund_requests:write': 'Request and cancel refunds',
  'refund_requests:read': 'Read refund requests',
  'payment_links:write': 'Create and change payment links',
  'payment_links:read': 'Read payment links',
  'webhook_endpoints:write': 'Manage webhook endpoints',
  'events:read': 'Read events',
};

export { SCOPES };

export async function listKeys(database: Db, merchantId: string) {
  return listApiKeys(database, merchantId);
}

export type ApiKeyField = 'name' | 'scopes';

export async function createKeyFromDashboard(
  database: Db,
  merchantId: string,
  form: { name: string; scopes: string[] },
): Promise<FormState<ApiKeyField>> {
  const scopes = [...new Set(form.scopes)].filter(isScope);
  const name = apiKeyNameInput.safeParse(form.name);
  // every problem at once, each beside its field
  const fieldErrors: Partial<Record<ApiKeyField, string>> = {
    ...(name.success ? {} : { name: name.error.issues[0].message }),
    ...(scopes.length === 0 || scopes.length !== new Set(form.scopes).size
      ? { scopes: 'Choose at least one scope.' }
      : {}),
  };
  if (!name.success || fieldErrors.scopes) return refused(fieldErrors, { name: form.name });
  const created = await createApiKey(
    database,
    merchantId,
    SCOPES.filter((scope) => scopes.includes(scope)),
    { name: name.data },
  );
  return { status: 'ok', message: `Key ${created.name ?? created.prefix} created.`, secret: created.key };
}

export async function revokeKeyFromDashboard(database: Db, merchantId: string, keyId: string): Promise<FormState> {
  const revoked = await revokeApiKey(database, keyId, merchantId);
  if (!revoked) return failed('This key was not found, or it is already revoked.');
  return { status: 'ok', message: 'Key revoked. Requests with it now get 401 invalid_api_key.' };
}
