import { Button } from '@/components/ui/button';
import type { FormState } from '@/lib/dashboard/form-state';
import { FormStatus } from './form-status';

/** The foot of a form in a dialog: why it was refused, if it was, then Cancel and the submit button (stacked on a phone). */
export function DialogFormActions({
  state,
  pending,
  onCancel,
  submitLabel,
  pendingLabel,
}: {
  state: FormState<string>;
  pending: boolean;
  onCancel: () => void;
  submitLabel: string;
  pendingLabel: string;
}) {
  return (
    <>
      {state.status === 'error' && <FormStatus state={state} />}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
