import { CopyButton } from '@/components/ui/copy-button';

/** A titled, copyable block of code; it scrolls sideways on narrow screens instead of wrapping. */
export function CodeBlock({ code, title }: { code: string; title: string }) {
  return (
    <figure className="my-4 overflow-hidden rounded-lg border border-gray-200 bg-gray-950 shadow-sm">
      <figcaption className="flex items-center justify-between gap-2 border-b border-gray-200 bg-gray-50 px-3 py-1.5">
        <span className="truncate font-mono text-xs text-gray-700">{title}</span>
        <CopyButton text={code} label={`Copy ${title}`} compact />
      </figcaption>
      <pre
        tabIndex={0}
        aria-label={title}
        className="overflow-x-auto p-4 text-[13px] leading-relaxed text-gray-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent-600"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** Inline code in prose. */
export function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.85em] text-gray-900">{children}</code>;
}
