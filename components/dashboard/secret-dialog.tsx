'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';

/**
 * A secret shown right after it was made, with a copy button and a warning. With `confirmCopied` (a secret
 * that can never be shown again) it closes only through "I have copied it": Escape or a click outside asks
 * first, so a stray key press cannot lose it.
 */
export function SecretDialog({
  secret,
  onClose,
  title,
  explanation,
  warning,
  confirmCopied = false,
}: {
  /** open while there is a secret to show; null once it was dismissed */
  secret: string | null;
  onClose: () => void;
  title: string;
  explanation: string;
  /** whether and where it can be seen again */
  warning: string;
  confirmCopied?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
    onClose();
  };
  return (
    <Dialog
      open={secret !== null}
      onClose={() => {
        if (secret === null) return;
        if (confirmCopied) setAsking(true);
        else close();
      }}
      title={title}
      description={explanation}
    >
      <div className="space-y-4">
        <div className="flex items-stretch gap-2">
          <code
            data-testid="secret-value"
            className="min-w-0 flex-1 rounded-lg border border-gray-200 bg-gray-50 px-3 py-2.5 font-mono text-sm break-all text-gray-900 select-all"
          >
            {secret}
          </code>
          <CopyButton text={secret ?? ''} label="Copy secret" className="h-auto" />
        </div>
        <Notice tone="warning">Copy it now and keep it somewhere safe. {warning}</Notice>
        {asking ? (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-medium">Close without copying it? It cannot be shown again.</p>
            <div className="mt-3 flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setAsking(false)} autoFocus>
                Keep it open
              </Button>
              <Button variant="danger" onClick={close}>
                Close anyway
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex justify-end">
            <Button onClick={close}>{confirmCopied ? 'I have copied it' : 'Done'}</Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}
