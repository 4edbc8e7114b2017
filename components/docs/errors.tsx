import { BreakableName } from './breakable-name';
import { ERROR_CODES } from '@/lib/openapi/error-codes';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';
import { InlineMarkdown } from './inline-markdown';

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
    <DocSection
      id="errors"
      title="Errors"
      lead="Every error has the same body; branch on the status and code, show the message to developers."
    >
      <CodeBlock title="An error body" code={JSON.stringify(EXAMPLE, null, 2)} />
      <p>
        <Code>param</Code> names the field at fault as a dotted path (<Code>items.2.quantity</Code>). Quote{' '}
        <Code>request_id</Code> (also the <Code>Request-Id</Code> header of every answer) when asking for help. When
        several errors apply, the first in this order answers: route, authentication, rate limit, scope, body transport,
        Idempotency-Key, body parameters, referenced objects, rules, state.
      </p>
      <DocTable label="Error codes" head={['Code', 'When']}>
        {ERROR_CODES.map((row) => (
          <tr key={row.code}>
            <td className="w-2/5 px-3 py-2 align-top">
              <code className="break-words font-mono text-[13px] font-medium text-gray-900">
                <BreakableName name={row.code} />
              </code>
              <div className="font-mono text-xs text-gray-600">
                <span className="tabular-nums">{row.status}</span> · {row.type}
              </div>
            </td>
            <td className="px-3 py-2 align-top">
              <InlineMarkdown text={row.when} />
            </td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}
