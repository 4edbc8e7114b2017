import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Authentication } from '@/components/docs/authentication';
import { DocSection } from '@/components/docs/doc-section';
import { Errors } from '@/components/docs/errors';
import { Idempotency } from '@/components/docs/idempotency';
import { documentedObjectNames } from '@/components/docs/object-names';
import { Objects } from '@/components/docs/objects';
import { Operation } from '@/components/docs/operation';
import { Pagination } from '@/components/docs/pagination';
import { QuickStart } from '@/components/docs/quick-start';
import { RateLimitsSection } from '@/components/docs/rate-limits';
import { Sidebar } from '@/components/docs/sidebar';
import { Testing } from '@/components/docs/testing';
import { Webhooks } from '@/components/docs/webhooks';
import { merchantLimits } from '@/lib/http/rate-limit';
import { env } from '@/lib/env';
import { docsEdition } from '@/lib/openapi/docs-edition';
import { currentOpenApiDocument } from '@/lib/openapi/current';
import { API_OPERATIONS, API_TAGS } from '@/lib/openapi/operations';

export const metadata: Metadata = { title: 'API reference' };

// The URLs in the examples are this deployment's APP_URL, and the limits its own: the page is rendered on
// the first request for this deployment's edition, not at build, and cached (lib/openapi/docs-edition.ts).
export function generateStaticParams(): Array<{ edition: string }> {
  return [];
}

/** /docs: guides and the endpoint reference, rendered from the OpenAPI document that /v1/openapi.json serves. */
export default async function DocsPage({ params }: { params: Promise<{ edition: string }> }) {
  // only the edition of these settings: any other name would be a page cached for nothing
  if ((await params).edition !== docsEdition()) notFound();
  const document = currentOpenApiDocument();
  const baseUrl = env().APP_URL.replace(/\/$/, '');
  const limits = {
    key: { perSecond: env().RATE_LIMIT_PER_SECOND, burst: env().RATE_LIMIT_BURST },
    merchant: merchantLimits(),
    authFailuresPerMinute: env().API_AUTH_FAILURES_PER_MINUTE,
  };
  const objectNames = documentedObjectNames();
  const objectNameSet = new Set(objectNames);

  return (
    <div className="mx-auto flex max-w-7xl">
      <aside className="sticky top-0 hidden h-screen w-72 shrink-0 overflow-y-auto border-r border-gray-200 bg-white px-4 py-8 lg:block">
        <a href="#top" className="mb-6 block px-2 text-base font-semibold text-gray-900">
          Sandbox Payments API
        </a>
        <Sidebar label="Documentation" objectNames={objectNames} />
      </aside>
      <main id="top" className="min-w-0 flex-1 px-5 py-8 sm:px-8 lg:px-12 lg:py-12">
        <header className="max-w-3xl">
          <p className="text-sm font-medium text-accent-700">Developers</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight text-gray-900">API reference</h1>
          <p className="mt-3 text-gray-600">{document.info.description.split('. ')[0]}.</p>
          <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <span>
              Base URL <code className="font-mono text-gray-900">{baseUrl}/v1</code>
            </span>
            <a href="/v1/openapi.json" className="font-medium text-accent-700 underline underline-offset-2">
              OpenAPI 3.1 document
            </a>
          </p>
        </header>
        <details className="mt-6 rounded-lg border border-gray-200 bg-white lg:hidden">
          <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-gray-900">Contents</summary>
          <div className="border-t border-gray-200 px-2 py-4">
            <Sidebar label="Contents" objectNames={objectNames} />
          </div>
        </details>

        <div className="mt-10">
          <QuickStart baseUrl={baseUrl} />
          <Authentication />
          <RateLimitsSection limits={limits} />
          <Idempotency />
          <Pagination document={document} baseUrl={baseUrl} />
          <Errors />
          <Webhooks document={document} baseUrl={baseUrl} objectNames={objectNameSet} />
          <Testing document={document} baseUrl={baseUrl} />
          {API_TAGS.map((tag) => (
            <DocSection
              key={tag.name}
              id={`tag-${tag.name.toLowerCase().replace(/\s+/g, '-')}`}
              title={tag.name}
              lead={tag.description}
            >
              {API_OPERATIONS.filter((operation) => operation.tag === tag.name).map((operation) => (
                <Operation
                  key={operation.operationId}
                  operation={operation}
                  document={document}
                  objectNames={objectNameSet}
                  baseUrl={baseUrl}
                />
              ))}
            </DocSection>
          ))}
          <Objects document={document} objectNames={objectNames} />
        </div>
      </main>
    </div>
  );
}
