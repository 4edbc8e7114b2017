import { ERROR_CODES } from '@/lib/openapi/error-codes';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';

const EXAMPLE = {
  error: {
    type: 'invalid_request_error',
    code: 'amount_mismatch',
    message: 'amount 1000 does not equal the computed total 1250',
    param: 'amount',
    request_id: 'req_…',
  },
};

export function Errors() {
  return (
    <DocSection id="errors" title="Errors" lead="Every error has the same body; branch on the status and code, show the message to developers.">
      <CodeBlock title="An error body" code={JSON.stringify(EXAMPLE, null, 2)} />
      <p>
        <Code>param</Code> names the field at fault as a dotted path (<Code>items.2.quantity</Code>). Quote <Code>request_id</Code> (also the{' '}
        <Code>Request-Id</Code> header of every answer) when asking for help. When several errors apply, the first in this order answers: route,
        authentication, rate limit, scope, body transport, Idempotency-Key, body parameters, referenced objects, rules, state.
      </p>
      <DocTable label="Error codes" head={['Status', 'Type', 'Code', 'When']}>
        {ERROR_CODES.map((row) => (
          <tr key={row.code}>
            <td className="px-3 py-2 font-mono text-xs tabular-nums">{row.status}</td>
            <td className="whitespace-nowrap px-3 py-2 font-mono text-xs text-gray-600">{row.type}</td>
            <td className="whitespace-nowrap px-3 py-2">
              <Code>{row.code}</Code>
            </td>
            <td className="min-w-56 px-3 py-2">{row.when}</td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}
