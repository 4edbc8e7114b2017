import { BreakableName } from './breakable-name';
import { API_OPERATIONS, type Idempotency as Rule } from '@/lib/openapi/operations';
import { Code } from './code-block';
import { DocSection } from './doc-section';
import { MethodBadge } from './method-badge';

export function Idempotency() {
  return (
    <DocSection
      id="idempotency"
      title="Idempotency"
      lead="Retry any request safely: send an Idempotency-Key, and a retry with the same key never creates twice."
    >
      <ul className="list-disc space-y-2 pl-5">
        <li>
          A key is 1–255 printable ASCII characters, unique per attempt: a UUID. It belongs to your account and the
          endpoint, and is kept 24 hours.
        </li>
        <li>
          The same key with the same body, once the first request finished, answers the stored result with status{' '}
          <Code>200</Code> and <Code>Idempotent-Replayed: true</Code>. Nothing is created again, no event is sent again.
        </li>
        <li>
          The same key with another body answers <Code>422 idempotency_key_reused</Code>. Sent while the first request
          is still running, the same request waits for it and answers its result; a client should also be ready for{' '}
          <Code>409 idempotency_key_in_use</Code> there, and retry it. Only successes are stored: a refused request can
          be fixed and retried with its key.
        </li>
      </ul>
      <div className="grid gap-4 md:grid-cols-2">
        <EndpointList rule="required" title="Required on every create" />
        <EndpointList rule="optional" title="Honoured when sent" />
      </div>
    </DocSection>
  );
}

function EndpointList({ rule, title }: { rule: Rule; title: string }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-4">
      <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
      <ul className="mt-2 space-y-1.5">
        {API_OPERATIONS.filter((operation) => operation.idempotency === rule).map((operation) => (
          <li key={operation.operationId} className="flex items-center gap-2 text-sm">
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
    </div>
  );
}
