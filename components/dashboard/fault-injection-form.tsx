'use client';

import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/field';
import type { FaultsField } from '@/lib/webhooks/dashboard-actions';
import type { FormState } from '@/lib/dashboard/form-state';
import { FormStatus } from './form-status';
import { useFormAction } from './use-form-action';

type Action = (state: FormState<FaultsField>, formData: FormData) => Promise<FormState<FaultsField>>;

export type FaultsShown = { duplicate_rate: number; delay_seconds: number; shuffle: boolean; seed: number | null };

/**
 * The endpoint's fault injection (lib/webhooks/faults.ts), edited in place: duplicates after a 2xx, a delay before the
 * first attempt, shuffled order and the seed that makes them reproducible. Saving goes through the same
 * service as POST /v1/webhook-endpoints/{id}.
 */
export function FaultInjectionForm({
  action,
  endpointId,
  faults,
}: {
  action: Action;
  endpointId: string;
  faults: FaultsShown;
}) {
  const [state, formAction, pending] = useFormAction(action);
  const errors = state.status === 'error' ? state.fieldErrors : undefined;
  const typed = state.status === 'error' ? state.values : undefined;
  // keyed by what is saved, so a save (or another tab's) shows the stored values
  const saved = JSON.stringify(faults);
  return (
    <form key={saved} action={formAction} className="space-y-4">
      <input type="hidden" name="endpointId" value={endpointId} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id="fault-duplicate-percent"
          name="duplicate_percent"
          label="Duplicate rate (%)"
          inputMode="decimal"
          defaultValue={typed?.duplicate_percent ?? String(Math.round(faults.duplicate_rate * 10_000) / 100)}
          error={errors?.duplicate_percent}
          hint="A delivered event is sent once more, 1–10 s later, with the same webhook-id."
        />
        <TextField
          id="fault-delay-seconds"
          name="delay_seconds"
          label="Delay (seconds)"
          inputMode="numeric"
          defaultValue={typed?.delay_seconds ?? String(faults.delay_seconds)}
          error={errors?.delay_seconds}
          hint="The first attempt waits this long after the event, up to 3600."
        />
        <TextField
          id="fault-seed"
          name="seed"
          label="Seed"
          inputMode="numeric"
          placeholder="None: fresh randomness"
          defaultValue={typed?.seed ?? (faults.seed === null ? '' : String(faults.seed))}
          error={errors?.seed}
          hint="Same seed, same events: same duplicates and order. Saving starts the count again."
        />
      </div>
      <Choice
        name="shuffle"
        label="Shuffle"
        description="Deliveries that are due together go out in random order instead of event order."
        defaultChecked={faults.shuffle}
      />
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          Save fault injection
        </Button>
        <FormStatus state={state} />
      </div>
    </form>
  );
}
