import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { serializeFaults } from './faults';

/** The endpoint as the API shows it; the secret only when it was just made (creation, rotation). */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    status: endpoint.status,
    faults: serializeFaults(endpoint),
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
    created_at: endpoint.createdAt.toISOString(),
  };
}

/** The answer to a delete: which endpoint is gone. */
export function serializeDeletedWebhookEndpoint(id: string) {
  return { id, object: 'webhook_endpoint' as const, deleted: true as const };
}

/** The endpoint with its secret: the answer to a creation or a rotation, the two times it is shown. */
export function serializeWebhookEndpointWithSecret(endpoint: WebhookEndpoint) {
  return serializeWebhookEndpoint(endpoint, { withSecret: true });
}
