'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { PlusIcon } from '@/components/ui/icons';
import { useAnnounce } from './action-announcer';
import type { FormState } from '@/lib/dashboard/form-state';
import { DialogFormActions } from './dialog-form-actions';
import { SecretDialog } from './secret-dialog';
import { submitKeepingValues, useFormAction } from './use-form-action';

type EndpointField = 'url' | 'description' | 'events';
type CreateEndpointAction = (state: FormState<EndpointField>, formData: FormData) => Promise<FormState<EndpointField>>;

/** An endpoint as the Edit dialog starts from. */
export type EditedEndpoint = { id: string; url: string; description: string | null; events: string[] };

/**
 * "Add endpoint": URL, description and event types in a dialog; then the signing secret. Given `endpoint`,
 * the same dialog edits that endpoint ("Edit"), starting from what it has, and says what it did on the page.
 */
export function EndpointCreator({
  action,
  eventTypes,
  label,
  endpoint,
}: {
  action: CreateEndpointAction;
  eventTypes: readonly string[];
  label?: string;
  endpoint?: EditedEndpoint;
}) {
  const editing = endpoint !== undefined;
  const announce = useAnnounce();
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [scope, setScope] = useState<'all' | 'selected'>(
    endpoint && !endpoint.events.includes('*') ? 'selected' : 'all',
  );
  const [events, setEvents] = useState<string[]>(endpoint?.events.filter((type) => type !== '*') ?? []);

  const [state, formAction, pending] = useFormAction(action, (answer) => {
    if (answer.status === 'ok' && editing) {
      setOpen(false);
      announce?.(answer);
    } else if (answer.status === 'ok' && answer.secret) {
      setOpen(false);
      setRevealed(answer.secret);
      setUrl('');
      setDescription('');
      setScope('all');
      setEvents([]);
    }
  });

  const errors = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  // an error speaks of what was sent; once the field is edited it no longer applies
  const sent = state.status === 'error' ? (state.values ?? {}) : {};
  return (
    <>
      {editing ? (
        <Button variant="secondary" onClick={() => setOpen(true)} className="h-8 px-3">
          {label ?? 'Edit'}
        </Button>
      ) : (
        <Button onClick={() => setOpen(true)}>
          <PlusIcon />
          {label ?? 'Add endpoint'}
        </Button>
      )}
      <Dialog
        open={open}
        onClose={() => !pending && setOpen(false)}
        title={editing ? 'Edit the endpoint' : 'Add a webhook endpoint'}
        description={
          editing
            ? 'Changes apply to the events that happen from now on.'
            : 'We POST signed events (Standard Webhooks) to this URL and retry with backoff until it answers 2xx.'
        }
        className="max-w-xl"
      >
        {/* noValidate: the server checks every field at once and answers beside each, never in the browser's bubbles */}
        <form action={formAction} onSubmit={submitKeepingValues(formAction)} noValidate className="space-y-4">
          {endpoint && <input type="hidden" name="endpointId" value={endpoint.id} />}
          <TextField
            id={editing ? 'edit-endpoint-url' : 'endpoint-url'}
            name="url"
            label="Endpoint URL"
            type="url"
            placeholder="https://example.com/webhooks"
            required
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={url === sent.url ? errors.url : undefined}
          />
          <TextField
            id={editing ? 'edit-endpoint-description' : 'endpoint-description'}
            name="description"
            label="Description (optional)"
            maxLength={500}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            error={description === sent.description ? errors.description : undefined}
          />
          <fieldset aria-describedby={errors.events ? 'events-error' : undefined}>
            <legend className="text-sm font-medium text-gray-700">Events to send</legend>
            <div className="mt-2 space-y-2">
              <Choice
                type="radio"
                name="scope"
                value="all"
                label="All events"
                description="Including types added later."
                checked={scope === 'all'}
                onChange={() => setScope('all')}
              />
              <Choice
                type="radio"
                name="scope"
                value="selected"
                label="Selected events"
                checked={scope === 'selected'}
                onChange={() => setScope('selected')}
              />
            </div>
            {scope === 'selected' && (
              <div className="mt-3 grid gap-2 rounded-lg bg-gray-50 p-3 sm:grid-cols-2">
                {eventTypes.map((type) => (
                  <Choice
                    key={type}
                    name="events"
                    value={type}
                    label={<span className="font-mono text-xs">{type}</span>}
                    aria-label={type}
                    checked={events.includes(type)}
                    onChange={(event) =>
                      setEvents((current) =>
                        event.target.checked ? [...current, type] : current.filter((value) => value !== type),
                      )
                    }
                  />
                ))}
              </div>
            )}
            {errors.events && (
              <p id="events-error" className="mt-2 text-sm text-red-700">
                {errors.events}
              </p>
            )}
          </fieldset>
          <DialogFormActions
            state={state}
            pending={pending}
            onCancel={() => setOpen(false)}
            submitLabel={editing ? 'Save changes' : 'Add endpoint'}
            pendingLabel={editing ? 'Saving…' : 'Adding…'}
          />
        </form>
      </Dialog>
      <SecretDialog
        secret={revealed}
        onClose={() => setRevealed(null)}
        title="Your endpoint’s signing secret"
        explanation="Verify every delivery with it (the standardwebhooks package does): check webhook-signature over the id, timestamp and raw body."
        warning="You can reveal it again on the endpoint’s page, after entering your password."
      />
    </>
  );
}
