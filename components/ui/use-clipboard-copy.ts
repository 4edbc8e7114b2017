import { useState } from 'react';

/**
 * Copies `text` to the clipboard and gives the word a copy button shows: "Copied" for two seconds, or
 * "Select it" when the browser refuses (no permission, not a secure context), so it never fails silently.
 */
export function useClipboardCopy(text: string): { copy: () => Promise<void>; word: string } {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 2000);
  }
  return { copy, word: state === 'copied' ? 'Copied' : state === 'failed' ? 'Select it' : 'Copy' };
}
