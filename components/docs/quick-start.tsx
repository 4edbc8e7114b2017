import { curlFor, operationById } from '@/lib/openapi/snippets';
import { Code, CodeBlock } from './code-block';
import { DocSection } from './doc-section';

export function QuickStart({ baseUrl }: { baseUrl: string }) {
  return (
    <DocSection
      id="quick-start"
      title="Quick start"
      lead="Take a payment in the sandbox in four requests. No money moves; every method is simulated."
    >
      <ol className="list-decimal space-y-6 pl-5 marker:font-semibold marker:text-gray-500">
        <li>
          <strong className="text-gray-900">Get an API key.</strong> On its first start the server prints a full-scope
          key for the demo merchant (or takes <Code>SANDBOX_API_KEY</Code>); make others in the dashboard under{' '}
          <a className="text-accent-700 underline underline-offset-2" href="/dashboard/developers/api-keys">
            Developers → API keys
          </a>
          . Keep it on your server: <Code>export SANDBOX_API_KEY=sk_sandbox_…</Code>
        </li>
        <li>
          <strong className="text-gray-900">Create a checkout session</strong> for the order, with a fresh{' '}
          <Code>Idempotency-Key</Code> you reuse if you retry. <Code>amount</Code> must equal the items plus shipping
          and tax, in cents.
          <CodeBlock
            title="Create a checkout session"
            code={curlFor(operationById('createCheckoutSession'), baseUrl)}
          />
        </li>
        <li>
          <strong className="text-gray-900">
            Send the customer to the session’s <Code>url</Code>.
          </strong>{' '}
          They pay by card, USDC or Interac and come back to <Code>return_url?session_id=cs_…</Code>. The page asks for
          their e-mail, filled in from the session’s <Code>customer_email</Code> when you give one: needed for USDC and
          Interac, optional for a card. The payment shows it as <Code>customer_email</Code>, and{' '}
          <Code>GET /v1/payments?customer_email=</Code> finds a customer’s payments (the sandbox sends no e-mail). In
          tests, pay without a browser:
          <CodeBlock
            title="Pay it as a customer would (test helper)"
            code={curlFor(operationById('payCheckoutSession'), baseUrl, { id: 'cs_…' })}
          />
        </li>
        <li>
          <strong className="text-gray-900">Confirm before you fulfil.</strong> The return alone is not proof of
          payment: read the session (or its payment), or act on a verified{' '}
          <a className="text-accent-700 underline underline-offset-2" href="#webhooks">
            webhook
          </a>
          .
          <CodeBlock
            title="Read the session"
            code={curlFor(operationById('getCheckoutSession'), baseUrl, { id: 'cs_…' })}
          />
        </li>
      </ol>
    </DocSection>
  );
}
