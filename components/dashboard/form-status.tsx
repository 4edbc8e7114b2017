import type { FormState } from '@/lib/dashboard/form-state';

/** The line under a form after it was sent: what was done, or why not (when no single field is to blame). */
export function FormStatus({ state }: { state: FormState<string> }) {
  if (state.status === 'ok') {
    return (
      <p role="status" className="text-sm text-green-800">
        {state.message}
      </p>
    );
  }
  if (state.status === 'error' && state.message) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {state.message}
      </p>
    );
  }
  return null;
}
