import type { Metadata } from 'next';
import { ConfirmAction } from '@/components/dashboard/action-forms';
import { ApiKeyCreator } from '@/components/dashboard/api-key-creator';
import { EmptyState } from '@/components/dashboard/empty-state';
import { KeyIcon } from '@/components/dashboard/icons';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import { StatusBadge } from '@/components/dashboard/status-badge';
import { Table, Td, Th } from '@/components/dashboard/table';
import { requireMerchant } from '@/lib/auth/session';
import { db } from '@/lib/db';
import { listKeys, SCOPE_DESCRIPTIONS, SCOPES } from '@/lib/dashboard/api-keys';
import { createKeyAction, revokeKeyAction } from './actions';

export const metadata: Metadata = { title: 'API keys' };

const SCOPE_CHOICES = SCOPES.map((scope) => ({ value: scope, description: SCOPE_DESCRIPTIONS[scope] }));

export default async function ApiKeysPage() {
  const { merchantId } = await requireMerchant();
  const keys = await listKeys(await db(), merchantId);
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
          <Table label="API keys">
            <thead>
              <tr>
                <Th>Key</Th>
                <Th>Scopes</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} className="align-top">
                  <Td>
                    <code className="font-mono text-xs whitespace-nowrap text-gray-900">{key.prefix}</code>
                    <span className="mt-1 block">
                      <StatusBadge status={key.revokedAt ? 'revoked' : 'active'} />
                    </span>
                  </Td>
                  <Td>
                    <ul aria-label={`Scopes of ${key.prefix}`} className="flex max-w-md flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <li key={scope} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] text-gray-700">
                          {scope}
                        </li>
                      ))}
                    </ul>
                  </Td>
                  <Td className="text-gray-700">
                    <RelativeTime value={key.createdAt} />
                  </Td>
                  <Td className="text-gray-700">{key.lastUsedAt ? <RelativeTime value={key.lastUsedAt} /> : <span className="text-gray-500">Never</span>}</Td>
                  <Td className="text-right">
                    {key.revokedAt ? (
                      <span className="text-xs whitespace-nowrap text-gray-600">
                        Revoked <RelativeTime value={key.revokedAt} />
                      </span>
                    ) : (
                      <ConfirmAction
                        action={revokeKeyAction}
                        fields={{ keyId: key.id }}
                        trigger={
                          <>
                            Revoke<span className="sr-only"> {key.prefix}</span>
                          </>
                        }
                        title={`Revoke ${key.prefix}?`}
                        description="Requests with this key stop working at once with 401 invalid_api_key. Code that still uses it will fail. This cannot be undone."
                        confirmLabel="Revoke key"
                        pendingLabel="Revoking…"
                      />
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Panel>
    </>
  );
}
