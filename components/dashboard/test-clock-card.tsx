'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { SelectField, TextField } from '@/components/ui/field';
import type { FormState } from '@/lib/dashboard/form-state';
import { exactTime } from '@/lib/dashboard/format';
import type { AdvancePreviewState, TestClockField } from '@/lib/test-clocks/dashboard-actions';
import { FormStatus } from './form-status';
import { useTimeZone } from './time-zone';
import { useFieldErrors, useFormAction } from './use-form-action';

type PreviewAction = (state: AdvancePreviewState, formData: FormData) => Promise<AdvancePreviewState>;
type AdvanceAction = (state: FormState<TestClockField>, formData: FormData) => Promise<FormState<TestClockField>>;

const PRESETS = [
  { label: '+1 hour', seconds: 3_600 },
  { label: '+1 day', seconds: 86_400 },
];

type Confirming = { seconds: number; label: string; effects: string };

// what the amount field's errors are read from while a preview (not a refusal) is the last answer: one object,
// since useFieldErrors starts afresh whenever it is handed a different one
const NO_REFUSAL: FormState<TestClockField> = { status: 'idle' };

/**
 * The connection's test clock (lib/test-clocks/service.ts): its time and how far it has been advanced, and a way to move it
 * forward by a preset or by an amount typed. Nothing moves on the first click: a dialog says what the advance
 * will do (sessions that expire, refunds that finish, webhook retries that come due), and the merchant confirms.
 */
export function TestClockCard({
  now,
  offsetLabel,
  advanced,
  preview,
  advance,
}: {
  /** the connection's time when the page was rendered (ISO) */
  now: string;
  /** how far ahead of the wall clock, in words */
  offsetLabel: string;
  advanced: boolean;
  preview: PreviewAction;
  advance: AdvanceAction;
}) {
  const timeZone = useTimeZone();
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [previewState, previewAction, previewing] = useFormAction(preview, (answer) => {
    if (answer.status === 'preview') setConfirming(answer as Confirming);
  });
  const [advanceState, advanceAction, advancing] = useFormAction(advance, () => setConfirming(null));
  const { errorOf, markEdited } = useFieldErrors(
    previewState.status === 'preview' ? NO_REFUSAL : (previewState as FormState<TestClockField>),
  );
  const typed = previewState.status === 'error' ? previewState.values?.amount : undefined;

  return (
    <div className="space-y-5 p-4">
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
      <form action={previewAction} noValidate aria-label="Advance the test clock" className="space-y-4">
        <div className="flex flex-wrap gap-3">
          {PRESETS.map((preset) => (
            <Button
              key={preset.seconds}
              type="submit"
              variant="secondary"
              name="preset"
              value={String(preset.seconds)}
              disabled={previewing}
              className="h-11"
            >
              {preset.label}
            </Button>
          ))}
        </div>
        <fieldset className="flex flex-wrap items-start gap-3">
          <legend className="mb-2 text-sm font-medium text-gray-700">Or by an amount of your choice</legend>
          <TextField
            id="test-clock-amount"
            name="amount"
            label="Amount"
            inputMode="numeric"
            placeholder="90"
            autoComplete="off"
            defaultValue={typed}
            error={errorOf('amount')}
            onChange={() => markEdited('amount')}
            className="w-32"
          />
          <SelectField id="test-clock-unit" name="unit" label="Unit" defaultValue="minutes" className="w-36">
            <option value="minutes">minutes</option>
            <option value="hours">hours</option>
            <option value="days">days</option>
          </SelectField>
          <Button type="submit" pending={previewing} pendingLabel="Checking…" className="mt-6 h-11">
            Advance…
          </Button>
        </fieldset>
      </form>
      <FormStatus state={advanceState} />
      <Dialog
        open={confirming !== null}
        onClose={() => !advancing && setConfirming(null)}
        title={`Advance the clock by ${confirming?.label ?? ''}?`}
        description="Time moves forward for this account only, and never back."
      >
        <form action={advanceAction} className="space-y-4">
          <input type="hidden" name="seconds" value={confirming?.seconds ?? ''} />
          <p className="text-sm text-gray-900" data-testid="advance-effects">
            {confirming?.effects}
          </p>
          <p className="text-sm text-gray-600">
            The worker does it within a few seconds of the advance, and sends the events it causes.
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setConfirming(null)} disabled={advancing}>
              Cancel
            </Button>
            <Button type="submit" pending={advancing} pendingLabel="Advancing…">
              Advance {confirming?.label}
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
