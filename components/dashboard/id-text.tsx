import { CopyButton } from '@/components/ui/copy-button';

/** An object id in monospace with a copy button beside it. */
export function IdText({ id, label = 'Copy id' }: { id: string; label?: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      <code className="min-w-0 truncate font-mono text-xs text-gray-800">{id}</code>
      <CopyButton text={id} label={`${label} ${id}`} compact />
    </span>
  );
}
