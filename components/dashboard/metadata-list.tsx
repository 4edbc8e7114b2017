import type { Prisma } from '@/lib/generated/prisma/client';
import { metadataOf } from '@/lib/core/metadata';
import { DetailList } from './page-header';

/**
 * An object's metadata (lib/core/metadata.ts) as its detail page shows it: key and value, keys in order, monospace
 * because they are the merchant's own identifiers; "No metadata" when there is none.
 */
export function MetadataList({ metadata }: { metadata: Prisma.JsonValue }) {
  const entries = Object.entries(metadataOf(metadata)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return <p className="text-sm text-gray-600">No metadata</p>;
  return (
    <DetailList
      items={entries.map(([key, value]) => ({
        label: key,
        value: <span className="font-mono text-xs break-all">{value}</span>,
      }))}
    />
  );
}

/** A refund's metadata in a row or card of the refunds list (a refund has no page of its own), when it has any. */
export function InlineMetadata({ metadata }: { metadata: Prisma.JsonValue }) {
  const entries = Object.entries(metadataOf(metadata));
  if (entries.length === 0) return null;
  return (
    <dl className="mt-1 space-y-0.5 text-xs text-gray-600">
      {entries.map(([key, value]) => (
        <div key={key} className="break-all">
          {/* nothing but dt and dd in the group: a text node between them is not a valid list (axe) */}
          <dt className="inline font-mono">{key}:</dt>
          <dd className="ml-1 inline font-mono text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
