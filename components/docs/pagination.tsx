import { BreakableName } from './breakable-name';
import type { OpenApiDocument, ParameterObject } from '@/lib/openapi/document';
import { API_OPERATIONS } from '@/lib/openapi/operations';
import { Code, CodeBlock } from './code-block';
import { DocSection, DocTable } from './doc-section';
import { typeLabel } from './schema-fields';

const PAGE_PARAMETERS = new Set(['limit', 'starting_after']);

export function Pagination({ document, baseUrl }: { document: OpenApiDocument; baseUrl: string }) {
  const lists = API_OPERATIONS.filter((operation) => operation.query).map((operation) => ({
    operation,
    filters: document.paths[operation.path].get.parameters.filter(
      (parameter): parameter is ParameterObject =>
        !('$ref' in parameter) && parameter.in === 'query' && !PAGE_PARAMETERS.has(parameter.name),
    ),
  }));
  return (
    <DocSection id="pagination" title="Pagination" lead="Lists are newest first, a page at a time.">
      <p>
        Every list takes <Code>limit</Code> (1–100, default 10) and <Code>starting_after</Code>, the id of the last
        object of the page before. It answers a list object; when <Code>has_more</Code> is true, ask for the next page.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <CodeBlock
          title="Next page"
          code={`curl "${baseUrl.replace(/\/$/, '')}/v1/payments?limit=100&starting_after=pay_…" \\\n  -H "Authorization: Bearer $SANDBOX_API_KEY"`}
        />
        <CodeBlock title="A list" code={JSON.stringify({ object: 'list', data: ['…'], has_more: true }, null, 2)} />
      </div>
      <DocTable label="List endpoints and their filters" head={['List', 'Filters']}>
        {lists.map(({ operation, filters }) => (
          <tr key={operation.operationId}>
            <td className="w-2/5 px-3 py-2 align-top">
              <a
                href={`#${operation.operationId}`}
                className="inline-block py-1 break-words font-mono text-xs text-accent-700 underline-offset-2 hover:underline"
              >
                GET <BreakableName name={operation.path} />
              </a>
            </td>
            <td className="px-3 py-2 align-top">
              {filters.length === 0
                ? '—'
                : filters.map((filter) => (
                    <div key={filter.name}>
                      <Code>{filter.name}</Code>{' '}
                      <span className="font-mono text-xs text-gray-600">{typeLabel(filter.schema)}</span>
                    </div>
                  ))}
            </td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}
