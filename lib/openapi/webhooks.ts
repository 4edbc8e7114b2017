import { EVENT_PAYLOADS } from '@/lib/events/objects';
import { EVENT_TYPES } from '@/lib/events/types';
import type { WebhookSignatureHeaders } from '@/lib/webhooks/signature';
import { componentRef, eventComponentName } from './components';
import type { OperationObject, ParameterObject } from './document';

// The `webhooks` of the document: what the service POSTs to a merchant's endpoint for each event type,
// signed per Standard Webhooks with the headers of lib/webhooks/signature.ts.

const SIGNATURE_HEADERS: Record<keyof WebhookSignatureHeaders, { component: string; description: string }> = {
  'webhook-id': {
    component: 'WebhookId',
    description: 'The event id (`evt_…`): the same on every retry and injected duplicate, so deduplicate on it',
  },
  'webhook-timestamp': {
    component: 'WebhookTimestamp',
    description: 'When this attempt was signed, in Unix seconds; refuse ones more than 5 minutes away',
  },
  'webhook-signature': {
    component: 'WebhookSignature',
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}", keyed with the characters of the secret after whsec_, base64-decoded>`; several, space-separated, while a rotated secret still signs',
  },
};

/** components.parameters: the signature headers every delivery carries. */
export const WEBHOOK_PARAMETERS: Record<string, ParameterObject> = Object.fromEntries(
  Object.entries(SIGNATURE_HEADERS).map(([name, { component, description }]) => [
    component,
    { name, in: 'header', required: true, description, schema: { type: 'string' } },
  ]),
);

export function buildWebhooks(): Record<string, { post: OperationObject }> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: type,
          description: `${EVENT_PAYLOADS[type].when}. POSTed to every enabled endpoint subscribed to \`${type}\` (or \`*\`), at least once.`,
          tags: ['Events'],
          security: [],
          parameters: Object.values(SIGNATURE_HEADERS).map(({ component }) => ({
            $ref: `#/components/parameters/${component}`,
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: componentRef(eventComponentName(type)) } },
          },
          responses: {
            '2XX': { description: 'Delivered: never sent again' },
            default: {
              description:
                'Anything else, a redirect or no answer within 10 s: retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then failed',
            },
          },
        },
      },
    ]),
  );
}
