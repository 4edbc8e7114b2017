import { apiRoute, ok, routes } from '@/lib/api/route';
import { serializeWebhookEndpoint } from '@/lib/webhooks/serialize';
import { deleteWebhookEndpoint, getWebhookEndpointOrThrow } from '@/lib/webhooks/service';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/webhook-endpoints/{id} – read one endpoint, without its secret
  GET: apiRoute({ scope: 'webhook_endpoints:write' }, async ({ db, merchantId, params }) =>
    ok(serializeWebhookEndpoint(await getWebhookEndpointOrThrow(db, merchantId, params.id))),
  ),
  // DELETE /v1/webhook-endpoints/{id} – stop sending to an endpoint; its pending deliveries end as failed
  DELETE: apiRoute({ scope: 'webhook_endpoints:write' }, async ({ db, merchantId, params }) =>
    ok(await deleteWebhookEndpoint(db, merchantId, params.id)),
  ),
});
