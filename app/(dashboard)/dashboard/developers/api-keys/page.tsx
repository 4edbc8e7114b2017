import type { Metadata } from 'next';
import { ApiKeyCreator } from '@/components/dashboard/api-key-creator';
import { ApiKeysTable } from '@/components/dashboard/api-keys-table';
import { EmptyState } from '@/components/dashboard/empty-state';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { KeyIcon } from '@/components/ui/icons';
import { requireMerchant } from '@/lib/auth/session';
import { listKeys, SCOPE_DESCRIPTIONS, SCOPES } from '@/lib/api-keys/dashboard';
import { createKeyAction, revokeKeyAction } from './actions';

export const metadata: Metadata = { title: 'API keys' };

const SCOPE_CHOICES = SCOPES.map((scope) => ({ value: scope, description: SCOPE_DESCRIPTIONS[scope] }));

export default async function ApiKeysPage() {
  const { context } = await requireMerchant();
  const keys = await listKeys(context);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Your server authenticates to /v1 with these. Sandbox keys only; each is shown in full once, when it is created."
        action={<ApiKeyCreator action={createKeyAction} scopes={SCOPE_CHOICES} />}
      />
      <Panel flush>
        {keys.length === 0 ? (
          <EmptyState icon={<KeyIcon />} title="No API keys yet">
            Create a key to call the API from your server: for example, to create checkout sessions and read payments.
          </EmptyState>
        ) : (
          <ApiKeysTable keys={keys} revoke={revokeKeyAction} />
        )}
      </Panel>
    </>
  );
}
