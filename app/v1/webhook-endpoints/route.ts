import { listObject } from '@/lib/core/pagination';
import { apiRoute, routes } from '@/lib/http/route';
import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpoint, serializeWebhookEndpointWithSecret } from '@/lib/webhooks/serialize';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createWebhookEndpointOperation, async ({ db, merchantId, body, keyClaimingWrite }) => {
    const claimKey = keyClaimingWrite?.answering(serializeWebhookEndpointWithSecret);
    return serializeWebhookEndpointWithSecret(await createWebhookEndpoint(db, merchantId, body, { claimKey }));
  }),
  GET: apiRoute(listWebhookEndpointsOperation, async ({ db, merchantId, query }) =>
    listObject(await listWebhookEndpoints(db, merchantId, query), (endpoint) => serializeWebhookEndpoint(endpoint)),
  ),
});
