import { classNames } from '@/components/ui/class-names';
import type { ApiKey } from '@/lib/generated/prisma/client';
import { ConfirmAction, type ObjectAction } from './action-forms';
import { RelativeTime } from './relative-time';
import { StatusBadge } from './status-badge';
import { Table, Td, Th } from './table';

/**
 * Keys by their visible prefix, scopes, creation and last use, with Revoke behind a confirmation. A table
 * from md up; on a phone one card per key, so Revoke is not off to the side.
 */
export function ApiKeysTable({ keys, revoke }: { keys: ApiKey[]; revoke: ObjectAction }) {
  return (
    <>
      <ul aria-label="API keys" className="divide-y divide-gray-100 md:hidden">
        {keys.map((key) => (
          <li key={key.id} className="space-y-2 px-4 py-3 text-sm">
            <div className="flex items-center justify-between gap-3">
              <KeyName apiKey={key} className="min-w-0" />
              <StatusBadge status={key.revokedAt ? 'revoked' : 'active'} />
            </div>
            <Scopes apiKey={key} />
            <p className="text-xs text-gray-600">
              Created <RelativeTime value={key.createdAt} /> ·{' '}
              {key.lastUsedAt ? (
                <>
                  last used <RelativeTime value={key.lastUsedAt} />
                </>
              ) : (
                'never used'
              )}
            </p>
            <RevokeOrRevoked apiKey={key} revoke={revoke} />
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
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
                  <KeyName apiKey={key} />
                  <span className="mt-1 block">
                    <StatusBadge status={key.revokedAt ? 'revoked' : 'active'} />
                  </span>
                </Td>
                <Td>
                  <Scopes apiKey={key} />
                </Td>
                <Td className="text-gray-700">
                  <RelativeTime value={key.createdAt} />
                </Td>
                <Td className="text-gray-700">
                  {key.lastUsedAt ? (
                    <RelativeTime value={key.lastUsedAt} />
                  ) : (
                    <span className="text-gray-500">Never</span>
                  )}
                </Td>
                <Td className="text-right">
                  <RevokeOrRevoked apiKey={key} revoke={revoke} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}

/** The name the merchant gave the key, if any, above the prefix that identifies it. */
function KeyName({ apiKey, className }: { apiKey: ApiKey; className?: string }) {
  return (
    <span className={classNames('block', className)}>
      {apiKey.name && <span className="block truncate text-sm font-medium text-gray-900">{apiKey.name}</span>}
      <code
        className={classNames(
          'block truncate font-mono text-xs whitespace-nowrap',
          apiKey.name ? 'text-gray-600' : 'text-gray-900',
        )}
      >
        {apiKey.prefix}
      </code>
    </span>
  );
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <ul aria-label={`Scopes of ${apiKey.prefix}`} className="flex max-w-md flex-wrap gap-1">
      {apiKey.scopes.map((scope) => (
        <li key={scope} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] text-gray-700">
          {scope}
        </li>
      ))}
    </ul>
  );
}

function RevokeOrRevoked({ apiKey, revoke }: { apiKey: ApiKey; revoke: ObjectAction }) {
  if (apiKey.revokedAt) {
    return (
      <span className="text-xs whitespace-nowrap text-gray-600">
        Revoked <RelativeTime value={apiKey.revokedAt} />
      </span>
    );
  }
  return (
    <ConfirmAction
      action={revoke}
      fields={{ keyId: apiKey.id }}
      trigger={
        <>
          Revoke<span className="sr-only"> {apiKey.prefix}</span>
        </>
      }
      title={`Revoke ${apiKey.prefix}?`}
      description="Requests with this key stop working at once with 401 invalid_api_key. Code that still uses it will fail. This cannot be undone."
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
    />
  );
}
