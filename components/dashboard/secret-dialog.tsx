'use client';

import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';

/** A secret shown once, right after it was made, with a copy button and the warning that it will not be shown again. */
export function SecretDialog({
  secret,
  onClose,
  title,
  explanation,
  warning,
}: {
  /** open while there is a secret to show; null once it was dismissed */
  secret: string | null;
  onClose: () => void;
  title: string;
  explanation: string;
  /** why it cannot be shown again */
  warning: string;
}) {
  return (
    <Dialog open={secret !== null} onClose={onClose} title={title} description={explanation}>
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
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
