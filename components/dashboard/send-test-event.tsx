'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/dashboard/form-state';
import type { ObjectAction } from './action-forms';

const IDLE: FormState = { status: 'idle' };

/**
 * "Send test event" above the endpoint's deliveries, where its answer lands in the list: the result
 * line gets the panel's whole width instead of pushing the page header apart.
 */
export function SendTestEvent({ action, endpointId }: { action: ObjectAction; endpointId: string }) {
  const [state, formAction, pending] = useActionState(action, IDLE);
  return (
    <form action={formAction} className="space-y-3 border-b border-gray-100 px-4 py-3">
      <input type="hidden" name="endpointId" value={endpointId} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="min-w-0 flex-1 text-sm text-gray-600">
          Check your receiver with a signed <code className="font-mono text-xs">webhook_endpoint.test</code> event. It
          is sent once, now, and listed here.
        </p>
        <Button
          type="submit"
          variant="secondary"
          pending={pending}
          pendingLabel="Sending…"
          className="h-8 shrink-0 px-3"
        >
          Send test event
        </Button>
      </div>
      {state.status === 'ok' && (
        <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2.5 text-sm text-green-800">
          {state.message}
        </p>
      )}
      {state.status === 'error' && state.message && <Notice tone="danger">{state.message}</Notice>}
    </form>
  );
}
