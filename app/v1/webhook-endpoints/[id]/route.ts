import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import {
  deleteWebhookEndpointOperation,
  getWebhookEndpointOperation,
  updateWebhookEndpointOperation,
} from '@/lib/webhooks/operations';
import { serializeDeletedWebhookEndpoint, serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { deleteWebhookEndpoint, getWebhookEndpointOrThrow, updateWebhookEndpoint } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: apiRoute(getWebhookEndpointOperation, async ({ context, params }) =>
    serializeWebhookEndpoint(await getWebhookEndpointOrThrow(context, params.id)),
  ),
  POST: apiRoute(updateWebhookEndpointOperation, async ({ context, params, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering((endpoint: WebhookEndpoint) => serializeWebhookEndpoint(endpoint));
    return answerOf(await updateWebhookEndpoint(context, params.id, body, { claimKey }), serializeWebhookEndpoint);
  }),
  DELETE: apiRoute(deleteWebhookEndpointOperation, async ({ context, params }) => {
    await deleteWebhookEndpoint(context, params.id);
    return serializeDeletedWebhookEndpoint(params.id);
  }),
});
