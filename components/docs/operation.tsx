import { BreakableName } from './breakable-name';
import type { JsonSchema } from '@/lib/openapi/json-schema';
import { mediaOf, type OpenApiDocument, type ParameterObject } from '@/lib/openapi/document';
import type { ApiOperation } from '@/lib/openapi/operations';
import { curlFor } from '@/lib/openapi/snippets';
import { Code, CodeBlock } from './code-block';
import { DocTable } from './doc-section';
import { FieldTable, NameCell, TypeLabel } from './field-table';
import { InlineMarkdown } from './inline-markdown';
import { MethodBadge } from './method-badge';
import { fieldRows, limitsOf, refName, typeLabel } from './schema-fields';

// One endpoint of the reference, read from the OpenAPI document's operation object.

type Props = { operation: ApiOperation; document: OpenApiDocument; objectNames: ReadonlySet<string>; baseUrl: string };

export function Operation({ operation, document, objectNames, baseUrl }: Props) {
  const described = document.paths[operation.path][operation.method.toLowerCase()];
  const parameters = described.parameters.map((parameter) => resolveParameter(parameter, document));
  const bodyRef = described.requestBody?.content['application/json'].schema;
  const body = bodyRef ? document.components.schemas[refName(bodyRef) ?? ''] : undefined;
  const responses = Object.entries(described.responses);
  const success = responses.filter(([status]) => status.startsWith('2'));
  const failures = responses.filter(([status]) => !status.startsWith('2'));
  // the answer of the call as written (a create's 201, not the 200 of its replay)
  const example = mediaOf(described.responses[String(operation.success.status)])?.example;

  return (
    <article
      id={operation.operationId}
      aria-labelledby={`${operation.operationId}-title`}
      className="scroll-mt-6 border-t border-gray-200 pt-8 first:border-t-0 first:pt-2"
    >
      <h3 id={`${operation.operationId}-title`} className="text-lg font-semibold text-gray-900">
        {operation.summary}
      </h3>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <MethodBadge method={operation.method} />
        <code className="break-words font-mono text-sm text-gray-900">
          <BreakableName name={operation.path} />
        </code>
      </p>
      <p className="mt-3 text-gray-700">
        <InlineMarkdown text={operation.description} />
      </p>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-gray-600">Scope</dt>
          <dd>{operation.scope ? <Code>{operation.scope}</Code> : 'none: no key needed'}</dd>
        </div>
        {operation.idempotency !== 'none' ? (
          <div className="flex gap-1.5">
            <dt className="text-gray-600">Idempotency-Key</dt>
            <dd className="font-medium text-gray-900">
              {operation.idempotency === 'required' ? 'required' : 'optional, honoured'}
            </dd>
          </div>
        ) : null}
      </dl>

      {parameters.length > 0 ? (
        <>
          <h4 className="mt-6 text-sm font-semibold text-gray-900">Parameters</h4>
          <DocTable label={`Parameters of ${operation.summary}`} head={['Parameter', 'Description']}>
            {parameters.map((parameter) => (
              <tr key={`${parameter.in}-${parameter.name}`}>
                <NameCell name={parameter.name} required={parameter.required}>
                  {parameter.in} · {typeLabel(parameter.schema)}
                </NameCell>
                <td className="px-3 py-2 align-top text-gray-700">
                  <InlineMarkdown text={parameter.description ?? ''} />
                  {limitsOf(parameter.schema).length > 0 ? (
                    <p className="break-words text-xs text-gray-600">{limitsOf(parameter.schema).join(' · ')}</p>
                  ) : null}
                </td>
              </tr>
            ))}
          </DocTable>
        </>
      ) : null}

      {body ? (
        <RequestBody
          operation={operation}
          schema={body}
          required={described.requestBody?.required ?? false}
          objectNames={objectNames}
        />
      ) : null}

      <h4 className="mt-6 text-sm font-semibold text-gray-900">Returns</h4>
      <ul className="mt-2 space-y-1 text-sm">
        {success.map(([status, response]) => (
          <li key={status}>
            <Code>{status}</Code>{' '}
            <span className="font-mono text-xs">
              <TypeLabel type={typeLabel(mediaOf(response)?.schema ?? {})} objectNames={objectNames} />
            </span>{' '}
            <span className="text-gray-600">
              — <InlineMarkdown text={response.description} />
            </span>
          </li>
        ))}
      </ul>

      {example !== undefined ? (
        <CodeBlock
          title={`Example response · ${operation.success.status}`}
          code={typeof example === 'string' ? example : JSON.stringify(example, null, 2)}
        />
      ) : null}

      <h4 className="mt-6 text-sm font-semibold text-gray-900">Errors</h4>
      <ul className="mt-2 space-y-1 text-sm">
        {failures.map(([status, response]) => (
          <li key={status} className="flex flex-wrap items-baseline gap-x-2">
            <Code>{status}</Code>
            <span className="font-mono text-xs text-gray-800">
              {errorCodesOf(mediaOf(response)?.schema).join(', ')}
            </span>
          </li>
        ))}
      </ul>

      <CodeBlock title={`${operation.method} ${operation.path}`} code={curlFor(operation, baseUrl)} />
    </article>
  );
}

function RequestBody({
  operation,
  schema,
  required,
  objectNames,
}: {
  operation: ApiOperation;
  schema: JsonSchema;
  required: boolean;
  objectNames: ReadonlySet<string>;
}) {
  const variants = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
  const empty = variants.every((variant) => Object.keys((variant.properties as object | undefined) ?? {}).length === 0);
  return (
    <>
      <h4 className="mt-6 text-sm font-semibold text-gray-900">Body</h4>
      {empty ? (
        <p className="mt-1 text-sm text-gray-600">
          {required ? 'An empty JSON object.' : 'None; an empty JSON object is accepted too.'}
        </p>
      ) : (
        variants.map((variant, index) => (
          <div key={index} className="mt-2">
            {variants.length > 1 ? <p className="mb-1 text-sm text-gray-600">{variantTitle(variant)}</p> : null}
            <FieldTable
              label={`Body of ${operation.summary}${variants.length > 1 ? `, ${variantTitle(variant)}` : ''}`}
              rows={fieldRows(variant)}
              objectNames={objectNames}
              showRequired
            />
          </div>
        ))
      )}
    </>
  );
}

/** "payment_method: card" for a variant told apart by a constant field. */
function variantTitle(variant: JsonSchema): string {
  const properties = (variant.properties ?? {}) as Record<string, JsonSchema>;
  const constant = Object.entries(properties).find(([, field]) => 'const' in field);
  return constant ? `With ${constant[0]}: ${String(constant[1].const)}` : 'Or';
}

function resolveParameter(parameter: ParameterObject | { $ref: string }, document: OpenApiDocument): ParameterObject {
  if (!('$ref' in parameter)) return parameter;
  return document.components.parameters[parameter.$ref.split('/').pop() ?? ''];
}

/** The codes an error response narrows the error body to (see responsesOf in lib/openapi/document.ts). */
function errorCodesOf(schema: JsonSchema | undefined): string[] {
  const narrowing = (schema?.allOf as JsonSchema[] | undefined)?.[1] as
    { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } | undefined;
  return narrowing?.properties?.error?.properties?.code?.enum ?? [];
}
