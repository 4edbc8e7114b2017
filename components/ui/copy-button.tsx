'use client';

import { Button } from './button';
import { classNames } from './class-names';
import { useClipboardCopy } from './use-clipboard-copy';

/** Copies `text` to the clipboard and says so (or asks the person to select it when the browser refuses). */
export function CopyButton({
  text,
  label,
  className,
  compact = false,
}: {
  text: string;
  label: string;
  className?: string;
  compact?: boolean;
}) {
  const { copy, word } = useClipboardCopy(text);
  if (compact) {
    return (
      <button
        type="button"
        onClick={copy}
        aria-label={label}
        title={label}
        className={classNames(
          'inline-flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900',
          'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-600',
          className,
        )}
      >
        <CopyGlyph />
        <span aria-live="polite">{word}</span>
      </button>
    );
  }
  return (
    <Button variant="secondary" onClick={copy} aria-label={label} className={classNames('shrink-0', className)}>
      <CopyGlyph />
      <span aria-live="polite">{word}</span>
    </Button>
  );
}

function CopyGlyph() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-4"
    >
      <rect x="8.5" y="8.5" width="12" height="12" rx="2" />
      <path d="M15.5 8.5V5.5a2 2 0 0 0-2-2h-8a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h3" />
    </svg>
  );
}
