import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { answerOf } from '@/lib/idempotency/service';
import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpoint, serializeWebhookEndpointWithSecret } from '@/lib/webhooks/serialize';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createWebhookEndpointOperation, async ({ context, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeWebhookEndpointWithSecret);
    return answerOf(await createWebhookEndpoint(context, body, { claimKey }), serializeWebhookEndpointWithSecret);
  }),
  GET: apiRoute(listWebhookEndpointsOperation, async ({ context, query }) =>
    listObject(await listWebhookEndpoints(context, query), (endpoint) => serializeWebhookEndpoint(endpoint)),
  ),
});
