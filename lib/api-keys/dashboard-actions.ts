import type { RequestContext } from '@/lib/core/context';
import { failed, refused, type FormState } from '@/lib/dashboard/form-state';
import { apiKeyNameInput } from './schemas';
import { isScope, SCOPES } from './scopes';
import { createApiKey, revokeApiKey } from './service';

// Creating and revoking API keys from the dashboard. The full key is in the answer to its creation only.

export type ApiKeyField = 'name' | 'scopes';

export async function createKeyFromDashboard(
  context: RequestContext,
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
    context,
    SCOPES.filter((scope) => scopes.includes(scope)),
    { name: name.data },
  );
  return { status: 'ok', message: `Key ${created.name ?? created.prefix} created.`, secret: created.key };
}

export async function revokeKeyFromDashboard(context: RequestContext, keyId: string): Promise<FormState> {
  const revoked = await revokeApiKey(context, keyId);
  if (!revoked) return failed('This key was not found, or it is already revoked.');
  return { status: 'ok', message: 'Key revoked. Requests with it now get 401 invalid_api_key.' };
}
