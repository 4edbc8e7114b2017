import { listObject } from '@/lib/api/pagination';
import { apiRoute, routes } from '@/lib/api/route';
import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from '@/lib/webhooks/operations';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { createWebhookEndpoint, listWebhookEndpoints } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: apiRoute(createWebhookEndpointOperation, async ({ db, merchantId, body }) =>
    serializeWebhookEndpoint(await createWebhookEndpoint(db, merchantId, body), { withSecret: true }),
  ),
  GET: apiRoute(listWebhookEndpointsOperation, async ({ db, merchantId, query }) =>
    listObject(await listWebhookEndpoints(db, merchantId, query), (endpoint) => serializeWebhookEndpoint(endpoint)),
  ),
});
