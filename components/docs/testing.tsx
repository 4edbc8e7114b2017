import type { JsonSchema } from '@/lib/openapi/json-schema';
import type { OpenApiDocument } from '@/lib/openapi/document';
import { TEST_CARDS } from '@/lib/payments/cards';
import { curlFor, DECLINE_CARD_BODY, operationById } from '@/lib/openapi/snippets';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';

const groupedCardNumber = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

export function Testing({ document, baseUrl }: { document: OpenApiDocument; baseUrl: string }) {
  const payBodies = (document.components.schemas.PayCheckoutSessionRequest.oneOf as JsonSchema[]).map((variant) => {
    const properties = variant.properties as Record<string, JsonSchema>;
    return {
      method: String(properties.payment_method.const),
      fields: Object.keys(properties).filter((name) => name !== 'payment_method'),
      outcome: properties.outcome?.enum as string[] | undefined,
    };
  });
  return (
    <DocSection
      id="testing"
      title="Test cards and helpers"
      lead="The sandbox decides outcomes by the card number, so tests can take every path."
    >
      <DocTable label="Test cards" head={['Card number', 'Outcome']}>
        {TEST_CARDS.map((card) => (
          <tr key={card.number}>
            <td className="whitespace-nowrap px-3 py-2 font-mono text-sm tabular-nums">
              {groupedCardNumber(card.number)}
            </td>
            <td className="px-3 py-2">{card.description}</td>
          </tr>
        ))}
        <tr>
          <td className="px-3 py-2 text-gray-600">Any other Luhn-valid number</td>
          <td className="px-3 py-2">Succeeds</td>
        </tr>
      </DocTable>
      <p>
        On the hosted page use any future expiry, any CVC and any name.{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#payCheckoutSession">
          Pay a checkout session
        </a>{' '}
        does the same without a browser, through the same code, and takes one of these bodies:
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {payBodies.map((body) => (
          <li key={body.method}>
            <Code>{`"payment_method": "${body.method}"`}</Code>
            {body.outcome ? (
              <>
                {' '}
                with <Code>outcome</Code> {body.outcome.map((outcome) => `"${outcome}"`).join(' or ')}
              </>
            ) : null}
            {body.fields.length > 0 ? (
              <span className="text-gray-600"> — fields: {body.fields.join(', ')}</span>
            ) : (
              <span className="text-gray-600"> — always succeeds</span>
            )}
          </li>
        ))}
      </ul>
      <CodeBlock
        title="Decline a card"
        code={curlFor(operationById('payCheckoutSession'), baseUrl, {
          id: 'cs_…',
          body: DECLINE_CARD_BODY,
        })}
      />
      <p>
        Refunds of a succeeded payment are completed by the sandbox provider a moment later (
        <Code>REFUND_PROCESSING_DELAY_MS</Code>, 2 s by default), or failed for payments made with{' '}
        <Code>{groupedCardNumber(TEST_CARDS[3].number)}</Code>.{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#completeRefundRequest">
          Complete
        </a>{' '}
        and{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#failRefundRequest">
          fail
        </a>{' '}
        finish one at once instead, exactly as the provider would.
      </p>
      <p>
        Tests need not sleep:{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#advanceTestClock">
          advance the test clock
        </a>{' '}
        and the connection&apos;s time moves on, with everything that depends on it: open sessions expire after 30
        minutes of it, processing refunds finish, webhook retries and delayed deliveries come due (the worker acts
        within about 2 seconds). The clock is one per account and only moves forward. In the dashboard, Developers →
        Test clock shows it and advances it by +1 hour, +1 day or an amount you type, after saying what the advance will
        do (&ldquo;3 open sessions will expire, 2 refunds will finish&rdquo;); while the clock is ahead, every dashboard
        page shows the sandbox time in a banner, and its dates are measured against that time.
      </p>
      <p>
        A webhook endpoint&apos;s <Code>faults</Code> make deliveries misbehave on purpose, reproducibly with a{' '}
        <Code>seed</Code>: <Code>duplicate_rate</Code> sends a delivered event once more with the same{' '}
        <Code>webhook-id</Code>, <Code>delay_seconds</Code> holds first attempts, and <Code>shuffle</Code> sends what is
        due in random order (
        <a className="text-accent-700 underline underline-offset-2" href="#updateWebhookEndpoint">
          update a webhook endpoint
        </a>
        ). And{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#streamEvents">
          the event stream
        </a>{' '}
        brings every event to a machine the sandbox cannot reach: the CLI&apos;s <Code>listen --forward-to</Code>{' '}
        forwards each to a local URL, signed, and <Code>trigger &lt;event-type&gt;</Code> makes the calls behind one
        event.
      </p>
    </DocSection>
  );
}
