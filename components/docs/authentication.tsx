import { BreakableName } from './breakable-name';
import { SCOPES } from '@/lib/api-keys/scopes';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { SCOPE_GRANTS } from '@/lib/openapi/scopes';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';
import { MethodBadge } from './method-badge';

export function Authentication() {
  return (
    <DocSection
      id="authentication"
      title="Authentication and scopes"
      lead="Every request carries an API key as a Bearer token; each key holds the scopes it was made with."
    >
      <CodeBlock title="Header" code={'Authorization: Bearer sk_sandbox_…'} />
      <p>
        No or a non-Bearer header answers <Code>401 authentication_required</Code>; an unknown or revoked key{' '}
        <Code>401 invalid_api_key</Code>; a key without the endpoint’s scope <Code>403 insufficient_scope</Code>, naming
        the scope. Another account’s objects answer <Code>404 resource_missing</Code>, exactly as if they did not exist.
      </p>
      <DocTable label="Scopes and the endpoints that need them" head={['Scope', 'Endpoints']}>
        {SCOPES.map((scope) => (
          <tr key={scope}>
            <td className="w-2/5 px-3 py-2 align-top">
              <code className="break-words font-mono text-[13px] font-medium text-gray-900">
                <BreakableName name={scope} />
              </code>
              <div className="text-xs text-gray-600">{SCOPE_GRANTS[scope]}</div>
            </td>
            <td className="px-3 py-2 align-top">
              <ul className="space-y-1">
                {API_OPERATIONS.filter((operation) => operation.scope === scope).map((operation) => (
                  <li key={operation.operationId} className="flex items-center gap-2">
                    <MethodBadge method={operation.method} />
                    <a
                      href={`#${operation.operationId}`}
                      className="inline-block py-1 break-words font-mono text-xs text-accent-700 underline-offset-2 hover:underline"
                    >
                      <BreakableName name={operation.path} />
                    </a>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}
