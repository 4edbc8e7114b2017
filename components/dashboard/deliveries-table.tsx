'use client';

import Link from 'next/link';
import { Fragment, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { ChevronDownIcon } from '@/components/ui/icons';
import { classNames } from '@/components/ui/class-names';
import type { WebhookAttempt, WebhookDelivery } from '@/lib/generated/prisma/client';
import { ActionButton, type ObjectAction } from './action-forms';
import { RelativeTime } from './relative-time';
import { HttpStatusBadge, StatusBadge } from './status-badge';
import { Table, Td, Th } from './table';
import { DateHeading } from './time-zone';

type Delivery = WebhookDelivery & { attempts: WebhookAttempt[]; endpoint?: { url: string } };

const COLUMNS = 6;

/**
 * Deliveries with their status, attempts and the last answer; each opens to every attempt's status,
 * duration, error and response excerpt, and can be sent again. A table from md up, cards on a phone.
 * A test send from the dashboard is listed too, marked as such; it names no event and is not resent.
 */
export function DeliveriesTable(props: { deliveries: Delivery[]; resend: ObjectAction; showEndpoint?: boolean }) {
  return (
    <>
      <DeliveryCards {...props} />
      <div className="hidden md:block">
        <DeliveryRows {...props} />
      </div>
    </>
  );
}

function DeliveryRows({
  deliveries,
  resend,
  showEndpoint = false,
}: {
  deliveries: Delivery[];
  resend: ObjectAction;
  showEndpoint?: boolean;
}) {
  return (
    <Table label="Deliveries">
      <thead>
        <tr>
          <Th>{showEndpoint ? 'Endpoint' : 'Event'}</Th>
          <Th>Status</Th>
          <Th align="right">Attempts</Th>
          <Th>Last answer</Th>
          <Th>
            <DateHeading>Last attempt</DateHeading>
          </Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} resend={resend} showEndpoint={showEndpoint} />
        ))}
      </tbody>
    </Table>
  );
}

/** The delivery's row, and below it, when opened, a row as wide as the table with every attempt. */
function DeliveryRow({
  delivery,
  resend,
  showEndpoint,
}: {
  delivery: Delivery;
  resend: ObjectAction;
  showEndpoint: boolean;
}) {
  const [open, setOpen] = useState(false);
  const attemptsId = useId();
  const last = delivery.attempts.at(-1);
  const opened = open && delivery.attempts.length > 0;
  return (
    <Fragment>
      <tr className="align-top">
        <Td className={classNames('max-w-xs', opened && 'border-b-0')}>
          <DeliverySubject delivery={delivery} showEndpoint={showEndpoint} />
        </Td>
        <Td className={opened ? 'border-b-0' : undefined}>
          <StatusBadge status={delivery.status} />
          <InjectedMark delivery={delivery} />
          {delivery.status === 'pending' && delivery.nextAttemptAt && (
            <span className="mt-1 block text-xs text-gray-600">
              Next <RelativeTime value={delivery.nextAttemptAt} />
            </span>
          )}
        </Td>
        <Td align="right" className={opened ? 'border-b-0' : undefined}>
          {delivery.attempts.length > 0 ? (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={attemptsId}
              onClick={() => setOpen(!open)}
              className="inline-flex items-center gap-1 rounded px-1 font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              {delivery.attemptCount}
              <span className="sr-only"> attempts: {open ? 'hide' : 'show'}</span>
              <ChevronDownIcon className={classNames('size-4 transition-transform', open && 'rotate-180')} />
            </button>
          ) : (
            delivery.attemptCount
          )}
        </Td>
        <Td className={opened ? 'border-b-0' : undefined}>
          {last ? (
            <HttpStatusBadge status={last.responseStatus} />
          ) : (
            <span className="text-xs text-gray-500">Not sent yet</span>
          )}
        </Td>
        <Td className={classNames('text-gray-700', opened && 'border-b-0')}>
          {delivery.lastAttemptAt ? <RelativeTime value={delivery.lastAttemptAt} /> : '—'}
        </Td>
        <Td className={classNames('text-right', opened && 'border-b-0')}>
          {delivery.eventId !== null && (
            <ActionButton action={resend} fields={{ deliveryId: delivery.id }} pendingLabel="Sending…" showSuccess>
              Resend
            </ActionButton>
          )}
        </Td>
      </tr>
      <tr id={attemptsId} hidden={!opened}>
        <td colSpan={COLUMNS} className="border-b border-gray-100 px-4 pb-4">
          {opened && <AttemptsList attempts={delivery.attempts} label={`Attempts of ${delivery.eventType}`} />}
        </td>
      </tr>
    </Fragment>
  );
}

/** Says that fault injection sent this delivery more than once (its attempts show which). */
function InjectedMark({ delivery }: { delivery: Delivery }) {
  const duplicates = delivery.attempts.filter((attempt) => attempt.injected === 'duplicate').length;
  if (duplicates === 0) return null;
  return (
    <span className="mt-1 block text-xs text-amber-900">
      {duplicates === 1 ? '+1 injected duplicate' : `+${duplicates} injected duplicates`}
    </span>
  );
}

function DeliverySubject({ delivery, showEndpoint }: { delivery: Delivery; showEndpoint: boolean }) {
  if (showEndpoint && delivery.endpoint)
    return <span className="block truncate font-mono text-xs">{delivery.endpoint.url}</span>;
  return (
    <>
      <span className="block font-mono text-xs break-all text-gray-900">{delivery.eventType}</span>
      {delivery.eventId === null ? (
        <span className="text-xs text-gray-600">Test from the dashboard</span>
      ) : (
        <Link
          href={`/dashboard/developers/events/${delivery.eventId}`}
          className="font-mono text-[11px] break-all text-accent-700 hover:underline"
        >
          {delivery.eventId}
        </Link>
      )}
    </>
  );
}

function DeliveryCards({
  deliveries,
  resend,
  showEndpoint = false,
}: {
  deliveries: Delivery[];
  resend: ObjectAction;
  showEndpoint?: boolean;
}) {
  return (
    <ul aria-label="Deliveries" className="divide-y divide-gray-100 md:hidden">
      {deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id} className="space-y-2 px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-3">
              <span className="min-w-0">
                <DeliverySubject delivery={delivery} showEndpoint={showEndpoint} />
              </span>
              <span className="text-right">
                <StatusBadge status={delivery.status} />
                <InjectedMark delivery={delivery} />
              </span>
            </div>
            <p className="flex flex-wrap items-center gap-2 text-xs text-gray-600">
              {last ? <HttpStatusBadge status={last.responseStatus} /> : 'Not sent yet'}
              <span>
                {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
              </span>
              {delivery.lastAttemptAt && (
                <span>
                  · last <RelativeTime value={delivery.lastAttemptAt} />
                </span>
              )}
            </p>
            {delivery.attempts.length > 0 && (
              <details className="text-xs">
                <summary className="cursor-pointer font-medium text-gray-700 hover:text-gray-900">Attempts</summary>
                <AttemptsList attempts={delivery.attempts} label={`Attempts of ${delivery.eventType}`} />
              </details>
            )}
            {delivery.eventId !== null && (
              <ActionButton action={resend} fields={{ deliveryId: delivery.id }} pendingLabel="Sending…" showSuccess>
                Resend
              </ActionButton>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Every attempt of a delivery: answer, duration and time on one line, then the error and the start of the response body. */
function AttemptsList({ attempts, label }: { attempts: WebhookAttempt[]; label: string }) {
  return (
    <ol aria-label={label} className="mt-2 space-y-2 text-xs">
      {attempts.map((attempt) => (
        <li key={attempt.attempt} className="rounded-md bg-gray-50 px-3 py-2">
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium text-gray-900">#{attempt.attempt}</span>
            <HttpStatusBadge status={attempt.responseStatus} />
            {attempt.injected === 'duplicate' && <Badge tone="warning">Duplicate (injected)</Badge>}
            <span className="text-gray-600">{attempt.durationMs} ms</span>
            <span className="text-gray-600">
              <RelativeTime value={attempt.createdAt} exact />
            </span>
          </span>
          {attempt.error && <span className="mt-1 block break-words text-red-700">{attempt.error}</span>}
          {attempt.responseExcerpt && (
            <pre
              tabIndex={0}
              aria-label={`Response to attempt ${attempt.attempt}`}
              className="mt-1 max-h-32 overflow-auto rounded bg-white p-2 font-mono text-[11px] break-all whitespace-pre-wrap text-gray-800 ring-1 ring-gray-200 focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              {attempt.responseExcerpt}
            </pre>
          )}
        </li>
      ))}
    </ol>
  );
}
