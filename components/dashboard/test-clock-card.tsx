'use client';

import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { FormState } from '@/lib/dashboard/form-state';
import { exactTime } from '@/lib/dashboard/format';
import type { TestClockField } from '@/lib/dashboard/test-clock';
import { FormStatus } from './form-status';
import { useTimeZone } from './time-zone';
import { useFieldErrors, useFormAction } from './use-form-action';

type AdvanceAction = (state: FormState<TestClockField>, formData: FormData) => Promise<FormState<TestClockField>>;

const PRESETS = [
  { label: '+1 hour', seconds: 3_600 },
  { label: '+1 day', seconds: 86_400 },
];

/**
 * The connection's test clock (lib/test-clocks/service.ts): its time and how far it has been advanced, and buttons that move
 * it forward. Moving it expires open sessions, finishes processing refunds and brings webhook retries due.
 */
export function TestClockCard({
  now,
  offsetLabel,
  advanced,
  action,
}: {
  /** the connection's time when the page was rendered (ISO) */
  now: string;
  /** how far ahead of the wall clock, in words */
  offsetLabel: string;
  advanced: boolean;
  action: AdvanceAction;
}) {
  const timeZone = useTimeZone();
  const [state, formAction, pending] = useFormAction(action);
  const { errorOf, markEdited } = useFieldErrors(state);
  return (
    <form action={formAction} className="space-y-4 p-4" aria-label="Test clock">
      <dl className="grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium text-gray-500 uppercase">Sandbox time</dt>
          <dd className="mt-1 text-sm font-medium text-gray-900" data-testid="test-clock-now">
            {exactTime(new Date(now), timeZone)}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-gray-500 uppercase">Ahead of real time</dt>
          <dd className="mt-1 text-sm font-medium text-gray-900" data-testid="test-clock-offset">
            {advanced ? offsetLabel : 'Not advanced'}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-end gap-3">
        {PRESETS.map((preset) => (
          <Button
            key={preset.seconds}
            type="submit"
            variant="secondary"
            name="preset"
            value={String(preset.seconds)}
            disabled={pending}
            className="h-11"
          >
            {preset.label}
          </Button>
        ))}
        <TextField
          id="test-clock-seconds"
          name="seconds"
          label="Seconds"
          inputMode="numeric"
          placeholder="1860"
          defaultValue={state.status === 'error' ? state.values?.seconds : undefined}
          error={errorOf('seconds')}
          onChange={() => markEdited('seconds')}
          className="w-36"
        />
        <Button type="submit" pending={pending} pendingLabel="Advancing…" className="h-11">
          Advance
        </Button>
      </div>
      <FormStatus state={state} />
    </form>
  );
}
