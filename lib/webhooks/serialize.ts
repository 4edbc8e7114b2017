import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@/lib/generated/prisma/client';

/** The endpoint as the API shows it; the secret only when it was just made (creation, rotation). */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    status: endpoint.status,
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
    created_at: endpoint.createdAt.toISOString(),
  };
}

export function serializeWebhookDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    endpoint_id: delivery.endpointId,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
  };
}

export function serializeWebhookAttempt(attempt: WebhookAttempt) {
  return {
    object: 'webhook_attempt' as const,
    delivery_id: attempt.deliveryId,
    attempt: attempt.attempt,
    response_status: attempt.responseStatus,
    error: attempt.error,
    duration_ms: attempt.durationMs,
    response_excerpt: attempt.responseExcerpt,
    created_at: attempt.createdAt.toISOString(),
  };
}
