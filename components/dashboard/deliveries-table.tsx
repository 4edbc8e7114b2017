import Link from 'next/link';
import type { WebhookAttempt, WebhookDelivery } from '@/lib/generated/prisma/client';
import { ActionButton, type ObjectAction } from './action-forms';
import { RelativeTime } from './relative-time';
import { HttpStatusBadge, StatusBadge } from './status-badge';
import { Table, Td, Th } from './table';

type Delivery = WebhookDelivery & { attempts: WebhookAttempt[]; endpoint?: { url: string } };

/**
 * Deliveries with their status, attempts and the last answer; each opens to every attempt's status,
 * duration, error and response excerpt, and can be sent again. A table from md up, cards on a phone.
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

function DeliveryRows({ deliveries, resend, showEndpoint = false }: { deliveries: Delivery[]; resend: ObjectAction; showEndpoint?: boolean }) {
  return (
    <Table label="Deliveries">
      <thead>
        <tr>
          <Th>{showEndpoint ? 'Endpoint' : 'Event'}</Th>
          <Th>Status</Th>
          <Th align="right">Attempts</Th>
          <Th>Last answer</Th>
          <Th>Last attempt</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => {
          const last = delivery.attempts.at(-1);
          return (
            <tr key={delivery.id} className="align-top">
              <Td className="max-w-xs">
                {showEndpoint && delivery.endpoint ? (
                  <span className="block truncate font-mono text-xs">{delivery.endpoint.url}</span>
                ) : (
                  <>
                    <span className="block font-mono text-xs text-gray-900">{delivery.eventType}</span>
                    <Link href={`/dashboard/developers/events/${delivery.eventId}`} className="font-mono text-[11px] text-accent-700 hover:underline">
                      {delivery.eventId}
                    </Link>
                  </>
                )}
                <AttemptsLog attempts={delivery.attempts} />
              </Td>
              <Td>
                <StatusBadge status={delivery.status} />
                {delivery.status === 'pending' && delivery.nextAttemptAt && (
                  <span className="mt-1 block text-xs text-gray-600">
                    Next <RelativeTime value={delivery.nextAttemptAt} />
                  </span>
                )}
              </Td>
              <Td align="right">{delivery.attemptCount}</Td>
              <Td>{last ? <HttpStatusBadge status={last.responseStatus} /> : <span className="text-xs text-gray-500">Not sent yet</span>}</Td>
              <Td className="text-gray-700">{delivery.lastAttemptAt ? <RelativeTime value={delivery.lastAttemptAt} /> : '—'}</Td>
              <Td className="text-right">
                <ActionButton action={resend} fields={{ deliveryId: delivery.id }} pendingLabel="Sending…" showSuccess>
                  Resend
                </ActionButton>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

function DeliveryCards({ deliveries, resend, showEndpoint = false }: { deliveries: Delivery[]; resend: ObjectAction; showEndpoint?: boolean }) {
  return (
    <ul aria-label="Deliveries" className="divide-y divide-gray-100 md:hidden">
      {deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id} className="space-y-2 px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-3">
              <span className="min-w-0">
                {showEndpoint && delivery.endpoint ? (
                  <span className="block truncate font-mono text-xs">{delivery.endpoint.url}</span>
                ) : (
                  <>
                    <span className="block font-mono text-xs text-gray-900">{delivery.eventType}</span>
                    <Link href={`/dashboard/developers/events/${delivery.eventId}`} className="font-mono text-[11px] break-all text-accent-700 hover:underline">
                      {delivery.eventId}
                    </Link>
                  </>
                )}
              </span>
              <StatusBadge status={delivery.status} />
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
            <AttemptsLog attempts={delivery.attempts} />
            <ActionButton action={resend} fields={{ deliveryId: delivery.id }} pendingLabel="Sending…" showSuccess>
              Resend
            </ActionButton>
          </li>
        );
      })}
    </ul>
  );
}

/** Every attempt of a delivery, folded: answer, duration, error and the start of the response body. */
function AttemptsLog({ attempts }: { attempts: WebhookAttempt[] }) {
  if (attempts.length === 0) return null;
  return (
    <details className="mt-2 text-xs">
      <summary className="cursor-pointer font-medium text-gray-700 hover:text-gray-900">Attempts</summary>
      <ol className="mt-2 space-y-2">
        {attempts.map((attempt) => (
          <li key={attempt.attempt} className="rounded-md bg-gray-50 px-2.5 py-2">
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-gray-900">#{attempt.attempt}</span>
              <HttpStatusBadge status={attempt.responseStatus} />
              <span className="text-gray-600">{attempt.durationMs} ms</span>
              <span className="text-gray-600">
                <RelativeTime value={attempt.createdAt} />
              </span>
            </span>
            {attempt.error && <span className="mt-1 block break-words text-red-700">{attempt.error}</span>}
            {attempt.responseExcerpt && (
              <pre className="mt-1 max-h-32 overflow-auto rounded bg-white p-2 font-mono text-[11px] break-all whitespace-pre-wrap text-gray-800 ring-1 ring-gray-200">
                {attempt.responseExcerpt}
              </pre>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
