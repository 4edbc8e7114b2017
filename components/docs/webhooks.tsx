import { BreakableName } from './breakable-name';
import type { JsonSchema } from '@/lib/openapi/json-schema';
import type { OpenApiDocument, ParameterObject } from '@/lib/openapi/document';
import {
  curlFor,
  operationById,
  VERIFY_WEBHOOK_FILE,
  VERIFY_WEBHOOK_SNIPPET,
  WEBHOOK_ROUTE_FILE,
  WEBHOOK_ROUTE_SNIPPET,
} from '@/lib/openapi/snippets';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';
import { InlineMarkdown } from './inline-markdown';
import { TypeLabel } from './field-table';
import { refName } from './schema-fields';

/** Event types, headers and retries, read from the document's `webhooks`. */
export function Webhooks({
  document,
  baseUrl,
  objectNames,
}: {
  document: OpenApiDocument;
  baseUrl: string;
  objectNames: ReadonlySet<string>;
}) {
  const deliveries = Object.entries(document.webhooks).map(([type, { post }]) => {
    const envelope = document.components.schemas[refName(post.requestBody!.content['application/json'].schema) ?? ''];
    const data = (envelope.properties as Record<string, JsonSchema>).data;
    return {
      type,
      description: post.description,
      object: refName((data.properties as Record<string, JsonSchema>).object) ?? '',
    };
  });
  const first = Object.values(document.webhooks)[0].post;
  const headers = first.parameters.map(
    (parameter) =>
      ('$ref' in parameter
        ? document.components.parameters[parameter.$ref.split('/').pop() ?? '']
        : parameter) as ParameterObject,
  );

  return (
    <DocSection
      id="webhooks"
      title="Webhooks"
      lead="Subscribe a URL to events; each delivery is a signed POST of the event, sent at least once."
    >
      <CodeBlock
        title="Subscribe (the answer shows the signing secret, once)"
        code={curlFor(operationById('createWebhookEndpoint'), baseUrl)}
      />
      <p>
        The API shows a signing secret only in the answer that made it (creating the endpoint or rotating its secret).
        Lost it? In the dashboard, Developers → Webhooks → the endpoint → Signing secret → <strong>Reveal</strong> shows
        it again once you re-enter your password, and, for 24 hours after a rotation, the old secret that still signs
        beside it.
      </p>
      <p>
        Deliveries are signed per{' '}
        <a className="text-accent-700 underline underline-offset-2" href="https://www.standardwebhooks.com/">
          Standard Webhooks
        </a>
        , so the official <Code>standardwebhooks</Code> package verifies them. Verify the raw body, answer 2xx within 10
        seconds, and handle each event id once. Every delivery carries:
      </p>
      <DocTable label="Signature headers" head={['Header', 'Meaning']}>
        {headers.map((header) => (
          <tr key={header.name}>
            <td className="w-2/5 px-3 py-2 align-top">
              <code className="break-words font-mono text-[13px] font-medium text-gray-900">
                <BreakableName name={header.name} />
              </code>
            </td>
            <td className="px-3 py-2 align-top">
              <InlineMarkdown text={header.description ?? ''} />
            </td>
          </tr>
        ))}
      </DocTable>
      <CodeBlock title={WEBHOOK_ROUTE_FILE} code={WEBHOOK_ROUTE_SNIPPET} />
      <p>
        Without the library, verify by hand. The HMAC key is the secret&rsquo;s characters after <Code>whsec_</Code>,
        base64-decoded (not those characters as text):
      </p>
      <CodeBlock title={VERIFY_WEBHOOK_FILE} code={VERIFY_WEBHOOK_SNIPPET} />
      <p className="text-sm text-gray-600">{String(first.responses.default?.description ?? '')}.</p>
      <h3 className="pt-2 text-base font-semibold text-gray-900">Event types</h3>
      <p>
        The body is the{' '}
        <a className="text-accent-700 underline underline-offset-2" href="#object-Event">
          Event
        </a>
        , exactly as <Code>GET /v1/events/{'{id}'}</Code> shows it; <Code>data.object</Code> is the resource right after
        the change.
      </p>
      <DocTable label="Event types" head={['Type', 'When']}>
        {deliveries.map((delivery) => (
          <tr key={delivery.type}>
            <td className="w-2/5 px-3 py-2 align-top">
              <code className="break-words font-mono text-[13px] font-medium text-gray-900">
                <BreakableName name={delivery.type} />
              </code>
              <div className="font-mono text-xs text-gray-600">
                data.object: <TypeLabel type={delivery.object} objectNames={objectNames} />
              </div>
            </td>
            <td className="px-3 py-2 align-top">{delivery.description.split('. ')[0]}</td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}
