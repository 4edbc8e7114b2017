'use client';

import { useState, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import type { FormState } from '@/lib/dashboard/form-state';
import { FormStatus } from './form-status';
import { submitKeepingValues, useFormAction } from './use-form-action';

type Action = (state: FormState<'timeZone'>, formData: FormData) => Promise<FormState<'timeZone'>>;

const BROWSER = '';

/**
 * Settings → Time zone: one IANA zone for every date, day filter and the chart, or the browser's own
 * (the default: each person who signs in sees their clock). After saving, the select keeps showing what
 * was saved.
 */
export function TimeZoneForm({ action, saved, zones }: { action: Action; saved: string | null; zones: string[] }) {
  const [state, formAction, pending] = useFormAction(action);
  const [choice, setChoice] = useState(saved ?? BROWSER);
  const browserZone = useBrowserTimeZone();
  const error = state.status === 'error' ? state.fieldErrors?.timeZone : undefined;
  return (
    <form
      action={formAction}
      // a form action resets the form afterwards, which would show the page's first value again beside "saved"
      onSubmit={submitKeepingValues(formAction)}
      className="space-y-3"
    >
      <SelectField
        id="time-zone-choice"
        name="timeZone"
        label="Time zone"
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
        error={error}
        hint="Dates across the dashboard, the payments list’s day filters and Home’s chart all use it."
        className="max-w-md"
      >
        <option value={BROWSER}>
          Your browser’s time zone{browserZone ? ` (${browserZone.replaceAll('_', ' ')})` : ''}
        </option>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </SelectField>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…" disabled={choice === (saved ?? BROWSER)}>
          Save time zone
        </Button>
        <FormStatus state={state} />
      </div>
    </form>
  );
}

const never = () => () => {};

/** The browser's zone, once in the browser; null while rendering on the server (it has no browser). */
function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(
    never,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? null,
    () => null,
  );
}
